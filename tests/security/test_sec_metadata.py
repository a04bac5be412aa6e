"""What an edit keeps besides the bytes: owner, group, mode, extended attributes; and the
files it refuses to rewrite (read-only, several hard links).

The suite runs as root in CI, so ownership is checked with files given to another uid
and gid, and the read-only refusal is patchwright's own check (root's permission bypass
would let it write).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.workspace import FileChange, Workspace, sha256_hex

OTHER_UID, OTHER_GID = 4321, 4322


def _ws(tmp_path: Path) -> tuple[Workspace, Path]:
    root = tmp_path / "root"
    root.mkdir(exist_ok=True)
    return Workspace(root, state_dir=tmp_path / "state"), root


def _edit(ws: Workspace, rel: str, data: bytes) -> None:
    old = (ws.root / rel).read_bytes()
    ws.commit([FileChange(rel, data, expected_sha256=sha256_hex(old))])


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_owner_group_and_setgid_bit_survive_an_edit_and_its_undo(tmp_path: Path) -> None:
    ws, root = _ws(tmp_path)
    target = root / "owned.sh"
    target.write_bytes(b"echo one\n")
    os.chown(target, OTHER_UID, OTHER_GID)
    target.chmod(0o2755)  # chown would clear set-group-ID if it were not put back
    _edit(ws, "owned.sh", b"echo two\n")
    st = target.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (OTHER_UID, OTHER_GID, 0o2755)
    ws.undo()
    st = target.stat()
    assert target.read_bytes() == b"echo one\n"
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (OTHER_UID, OTHER_GID, 0o2755)


def test_extended_attributes_survive_an_edit(tmp_path: Path) -> None:
    ws, root = _ws(tmp_path)
    target = root / "tagged.txt"
    target.write_bytes(b"one\n")
    os.setxattr(target, "user.origin", b"downloaded")
    os.setxattr(target, "user.note", b"\x00binary\xff")
    _edit(ws, "tagged.txt", b"two\n")
    assert target.read_bytes() == b"two\n"
    assert sorted(os.listxattr(target)) == ["user.note", "user.origin"]
    assert os.getxattr(target, "user.origin") == b"downloaded"
    assert os.getxattr(target, "user.note") == b"\x00binary\xff"


@pytest.mark.parametrize("mode", [0o444, 0o400, 0o555])
def test_read_only_file_is_refused_even_for_root(tmp_path: Path, mode: int) -> None:
    ws, root = _ws(tmp_path)
    target = root / "locked.txt"
    target.write_bytes(b"keep\n")
    target.chmod(mode)
    for change in (
        FileChange("locked.txt", b"changed\n", expected_sha256=sha256_hex(b"keep\n")),
        FileChange("locked.txt", None),
        FileChange("moved.txt", None, move_from="locked.txt"),
    ):
        with pytest.raises(PatchwrightError) as info:
            ws.commit([change])
        err = info.value
        assert err.code is ErrorCode.PATH_DENIED and err.details["reason"] == "read_only"
        assert "read-only" in err.message and f"{mode:04o}" in err.message
        assert "chmod u+w" in err.hint
    assert target.read_bytes() == b"keep\n" and stat.S_IMODE(target.stat().st_mode) == mode
    assert not (root / "moved.txt").exists()
    assert ws.read("locked.txt").data == b"keep\n"  # reading it stays fine


def test_file_with_several_hard_links_is_refused_and_both_names_stay(tmp_path: Path) -> None:
    ws, root = _ws(tmp_path)
    (root / "a.txt").write_bytes(b"shared\n")
    os.link(root / "a.txt", root / "b.txt")
    with pytest.raises(PatchwrightError) as info:
        _edit(ws, "a.txt", b"changed\n")
    err = info.value
    assert err.code is ErrorCode.PATH_DENIED and err.details == {
        "reason": "hard_links",
        "nlink": 2,
    }
    assert "cp a.txt a.txt.new && mv a.txt.new a.txt" in err.hint
    assert (root / "a.txt").stat().st_ino == (root / "b.txt").stat().st_ino
    assert (root / "b.txt").read_bytes() == b"shared\n"
    # split on purpose, as the hint says: then the edit goes through and b.txt stays
    (root / "a.txt.new").write_bytes((root / "a.txt").read_bytes())
    os.replace(root / "a.txt.new", root / "a.txt")
    _edit(ws, "a.txt", b"changed\n")
    assert (root / "b.txt").read_bytes() == b"shared\n"


def test_dry_run_refuses_a_read_only_file_too(tmp_path: Path) -> None:
    ws, root = _ws(tmp_path)
    (root / "r.txt").write_bytes(b"x\n")
    (root / "r.txt").chmod(0o444)
    with pytest.raises(PatchwrightError) as info:
        ws.commit([FileChange("r.txt", b"y\n")], dry_run=True)
    assert info.value.code is ErrorCode.PATH_DENIED


def test_a_file_without_extended_attributes_is_told_by_its_folder_and_name(
    tmp_path: Path,
) -> None:
    """The check that lets a replacement skip opening both files: a file with an
    attribute is never taken for one without (its attributes would be lost)."""
    from patchwright.workspace.metadata import _no_xattrs

    (tmp_path / "plain.txt").write_bytes(b"p\n")
    (tmp_path / "tagged.txt").write_bytes(b"t\n")
    os.setxattr(tmp_path / "tagged.txt", "user.origin", b"downloaded")
    folder = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        assert _no_xattrs(folder, "plain.txt") is True
        assert _no_xattrs(folder, "tagged.txt") is False
        assert _no_xattrs(folder, "missing.txt") is False  # cannot tell: the caller looks
    finally:
        os.close(folder)
    assert _no_xattrs(None, str(tmp_path / "tagged.txt")) is False
    assert _no_xattrs(None, str(tmp_path / "plain.txt")) is True
