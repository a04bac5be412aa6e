"""Folders kept open for one commit of several files: each walked once, rechecked before
the tree is written, closed at the end.

The races the kept descriptors could open are played deterministically from a hook in
the file system (never by timing): the folder ``d`` is moved out of the root, and a
symlink to it (or a fresh folder) put in its place, at a chosen step of the commit.
Whatever the step, nothing outside the root gains or loses a byte, and the commit is
refused with ``path_outside_root``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from ws_helpers import files

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import FileChange, OsFileSystem, Workspace, sha256_hex

MakeWs = Callable[..., Workspace]
OLD = {"d/a.txt": b"a\n", "d/b.txt": b"b\n", "e/c.txt": b"c\n"}


class Mover(OsFileSystem):
    """The real file system; at the first call of ``step`` whose path lies in the root's
    ``d`` folder (for ``mkdir``: the journal's folder of the batch), ``d`` moves to
    ``outside/d`` and ``replacement`` (``symlink`` or ``folder``) takes its name."""

    def __init__(self, root: Path, outside: Path, step: str, replacement: str) -> None:
        self.root, self.outside, self.step, self.replacement = root, outside, step, replacement
        self.moved = False

    def _maybe_move(self, step: str, path: str) -> None:
        inside_d = path.startswith(str(self.root / "d") + "/")
        journal = step == "mkdir" and "/journal/" in path
        if self.moved or step != self.step or not (inside_d or journal):
            return
        self.moved = True
        os.rename(self.root / "d", self.outside / "d")
        if self.replacement == "symlink":
            (self.root / "d").symlink_to(self.outside / "d", target_is_directory=True)
        else:
            (self.root / "d").mkdir()

    def mkdir(self, path: str) -> None:
        self._maybe_move("mkdir", path)
        super().mkdir(path)

    def write_new(self, path: str, data: bytes, mode_bits: int | None) -> None:
        self._maybe_move("write_new", path)
        super().write_new(path, data, mode_bits)

    def replace(self, src: str, dst: str) -> None:
        self._maybe_move("replace", dst)
        super().replace(src, dst)


def _tree(root: Path, outside: Path) -> None:
    for rel, data in OLD.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    outside.mkdir()


def _changes() -> list[FileChange]:
    return [
        FileChange(rel, data.upper(), expected_sha256=sha256_hex(data)) for rel, data in OLD.items()
    ]


@pytest.mark.parametrize("replacement", ["symlink", "folder"])
@pytest.mark.parametrize(
    "step",
    [
        "mkdir",  # after every read and check, before anything is written (journal start)
        "write_new",  # after the first recheck, while the temp files are written
    ],
)
def test_a_kept_folder_moved_out_takes_no_write(
    root: Path, tmp_path: Path, make_ws: MakeWs, step: str, replacement: str
) -> None:
    outside = tmp_path / "outside"
    _tree(root, outside)
    fs = Mover(root, outside, step, replacement)
    ws = make_ws(fs=fs)
    with pytest.raises(PatchwrightError) as info:
        ws.commit(_changes())
    assert fs.moved
    assert info.value.code == ErrorCode.PATH_OUTSIDE_ROOT
    assert info.value.details["symlink"] == "d"
    assert "moved or replaced" in info.value.message
    # the moved folder holds exactly what it held: no new content, no temp file left
    assert files(outside / "d") == {"a.txt": b"a\n", "b.txt": b"b\n"}
    assert files(root / "e") == {"c.txt": b"c\n"}
    assert ws.history.list_batches() == []


def _package(root: Path) -> None:
    """``pkg/sub0`` and ``pkg/sub1`` holding 20 modules between them."""
    for index in range(20):
        (root / "pkg" / f"sub{index % 2}").mkdir(parents=True, exist_ok=True)
        (root / "pkg" / f"sub{index % 2}" / f"m{index}.py").write_bytes(b"x = 1\n")


@contextmanager
def _folder_opens() -> Iterator[list[str]]:
    """The names of the package's folders opened (as folders) inside the block."""
    opened: list[str] = []
    real_open = os.open

    def counting(path: str, flags: int, *args: object, **kwargs: object) -> int:
        if flags & os.O_DIRECTORY and path in ("pkg", "sub0", "sub1"):
            opened.append(path)
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    os.open = counting  # type: ignore[assignment]
    try:
        yield opened
    finally:
        os.open = real_open


def test_without_a_move_every_folder_is_opened_once(root: Path, tmp_path: Path) -> None:
    """The folder walk of a many-file commit: one open per folder, not one per call."""
    _package(root)
    ws = Workspace(root, state_dir=tmp_path / "state")
    changes = [
        FileChange(f"pkg/sub{i % 2}/m{i}.py", b"x = 2\n", expected_sha256=sha256_hex(b"x = 1\n"))
        for i in range(20)
    ]
    with _folder_opens() as opened:
        ws.commit(changes)
    # reached once each, then once more by each of the two rechecks (a fresh walk)
    assert sorted(opened) == sorted(["pkg"] * 3 + ["sub0"] * 3 + ["sub1"] * 3)
    assert files(root / "pkg" / "sub0")["m0.py"] == b"x = 2\n"


def test_kept_descriptors_are_closed_after_the_commit(root: Path, make_ws: MakeWs) -> None:
    for rel, data in OLD.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    ws = make_ws()
    ws.commit(_changes()[:1])  # first commit: the history and its connection are open
    before = sorted(os.listdir("/proc/self/fd"))
    ws.commit([FileChange(c.path, b"again\n") for c in _changes()])
    with pytest.raises(PatchwrightError):  # a refused commit closes them too
        ws.commit([FileChange("d/a.txt", b"x\n", must_not_exist=True), _changes()[2]])
    assert sorted(os.listdir("/proc/self/fd")) == before


def test_folders_created_then_rolled_back(root: Path, make_ws: MakeWs) -> None:
    """A commit creating ``new/deep`` fails at a rename; its rollback removes both
    folders (kept open meanwhile), and the next commit creates and writes them anew."""

    class FailOnce(OsFileSystem):
        failed = False

        def replace(self, src: str, dst: str) -> None:
            if dst.endswith("/new/deep/x.txt") and not self.failed:
                self.failed = True
                raise OSError(28, "No space left on device")
            super().replace(src, dst)

    (root / "top.txt").write_bytes(b"t\n")
    ws = make_ws(fs=FailOnce())
    changes = [FileChange("new/deep/x.txt", b"x\n"), FileChange("top.txt", b"T\n")]
    with pytest.raises(PatchwrightError):
        ws.commit(changes)
    assert not (root / "new").exists()
    ws.commit(changes)
    assert (root / "new" / "deep" / "x.txt").read_bytes() == b"x\n"


def test_reads_in_a_keeping_block_open_each_folder_once(root: Path, tmp_path: Path) -> None:
    _package(root)
    ws = Workspace(root, state_dir=tmp_path / "state")
    with _folder_opens() as opened, ws.keeping_folders():
        states = [ws.read_if_exists(f"pkg/sub{i % 2}/m{i}.py") for i in range(20)]
    assert sorted(opened) == ["pkg", "sub0", "sub1"]
    assert all(s is not None and s.data == b"x = 1\n" for s in states)


@pytest.mark.parametrize("replacement", ["symlink", "folder"])
def test_a_one_file_commit_in_a_keeping_block_rechecks(
    root: Path, tmp_path: Path, make_ws: MakeWs, replacement: str
) -> None:
    """Read through a kept folder; the folder moved out and a symlink, or a new folder
    holding the same file, put in its place; then a one-file commit in the same block:
    refused, the moved folder and the new one untouched."""
    outside = tmp_path / "outside"
    _tree(root, outside)
    ws = make_ws()
    with ws.keeping_folders():
        state = ws.read_if_exists("d/a.txt")
        assert state is not None
        os.rename(root / "d", outside / "d")
        if replacement == "symlink":
            (root / "d").symlink_to(outside / "d", target_is_directory=True)
        else:
            (root / "d").mkdir()
            (root / "d" / "a.txt").write_bytes(b"a\n")
        with pytest.raises(PatchwrightError) as info:
            ws.commit([FileChange("d/a.txt", b"A\n", expected_sha256=state.sha256)])
    assert info.value.code == ErrorCode.PATH_OUTSIDE_ROOT
    assert files(outside / "d") == {"a.txt": b"a\n", "b.txt": b"b\n"}
    if replacement == "folder":
        assert files(root / "d") == {"a.txt": b"a\n"}
