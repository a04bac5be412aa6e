"""Hostile paths: undo meeting a symlink, special files, names too long for the disk."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from patchwright.api import apply_patch_text
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.tools import Toolbox
from patchwright.workspace import FileChange, Workspace, sha256_hex

LONG = "n" * 300


def _ws(tmp_path: Path) -> tuple[Workspace, Path]:
    root = tmp_path / "root"
    root.mkdir(exist_ok=True)
    return Workspace(root, state_dir=tmp_path / "state"), root


@pytest.mark.parametrize("where", ["file", "folder"])
def test_undo_refuses_when_a_symlink_took_the_files_place(tmp_path: Path, where: str) -> None:
    ws, root = _ws(tmp_path)
    (root / "d").mkdir()
    (root / "d" / "a.txt").write_bytes(b"one\n")
    ws.commit([FileChange("d/a.txt", b"two\n", expected_sha256=sha256_hex(b"one\n"))])
    # the symlink leads to a file holding exactly what the batch wrote: a follower
    # would pass the hash check and overwrite the target
    if where == "file":
        (root / "decoy.txt").write_bytes(b"two\n")
        (root / "d" / "a.txt").unlink()
        (root / "d" / "a.txt").symlink_to(root / "decoy.txt")
        decoy = root / "decoy.txt"
    else:
        (root / "d").rename(root / "elsewhere")
        (root / "d").symlink_to(root / "elsewhere")
        decoy = root / "elsewhere" / "a.txt"
    with pytest.raises(PatchwrightError) as info:
        ws.undo()
    err = info.value
    assert err.code is ErrorCode.CONFLICT, err
    assert "symlink" in err.message and "Nothing was changed" in err.message
    assert decoy.read_bytes() == b"two\n"
    assert os.path.islink(root / "d" / "a.txt" if where == "file" else root / "d")


@pytest.mark.parametrize("kind", ["fifo", "device", "loop"])
def test_read_file_on_a_special_file_is_not_a_file(tmp_path: Path, kind: str) -> None:
    ws, root = _ws(tmp_path)
    target = root / "thing"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "device":
        if os.geteuid() != 0:
            pytest.skip("creating a device node needs root")
        os.mknod(target, 0o600 | 0o020000, os.makedev(1, 3))  # like /dev/null
    else:
        (root / "other").symlink_to(target)
        target.symlink_to(root / "other")
    result = Toolbox(ws).call("read_file", {"path": "thing"})
    assert not result.ok and result.error is not None
    assert result.error.code is ErrorCode.NOT_A_FILE, result.error.message


def test_long_name_is_a_clear_error_in_tools(tmp_path: Path) -> None:
    ws, _root = _ws(tmp_path)
    toolbox = Toolbox(ws, preset="spec")  # edit_lines is a spec tool
    for tool, arguments in (
        ("read_file", {"path": f"{LONG}.txt"}),
        ("edit_lines", {"path": f"d/{LONG}.txt", "start_line": 1, "new_content": "x"}),
        ("edit_file", {"path": f"{LONG}.txt", "old_string": "", "new_string": "x"}),
    ):
        result = toolbox.call(tool, arguments)
        assert result.error is not None, tool
        assert result.error.code is ErrorCode.INVALID_REQUEST, (tool, result.error.message)
        assert "255 bytes" in result.error.message


def test_long_name_is_a_clear_error_in_apply_patch_text(tmp_path: Path) -> None:
    _ws(tmp_path)
    diff = f"--- /dev/null\n+++ b/{LONG}.txt\n@@ -0,0 +1 @@\n+x\n"
    report = apply_patch_text(diff, tmp_path / "root", history=False)
    assert not report.ok and report.error is not None
    assert report.error.code is ErrorCode.INVALID_REQUEST and "255 bytes" in report.error.message


def test_long_name_in_patchwright_apply_exits_1_without_traceback(tmp_path: Path) -> None:
    _ws(tmp_path)
    diff = f"--- /dev/null\n+++ b/{LONG}.txt\n@@ -0,0 +1 @@\n+x\n"
    proc = subprocess.run(
        [sys.executable, "-m", "patchwright", "apply", "--root", str(tmp_path / "root"), "--json"],
        input=diff,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")},
    )
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert json.loads(proc.stdout)["error"]["code"] == "invalid_request"
    assert os.listdir(tmp_path / "root") == []
