"""One-file commits without the journal (direct.py): the fsyncs they take, what a
failure at each step leaves, and the temp file a killed commit leaves behind.

Real files in a temporary folder, with a file system that wraps the real one to count
calls or to fail once before a given mutating call.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from ws_helpers import files

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import FileChange, OsFileSystem, Probe, Workspace, sha256_hex
from patchwright.workspace.direct import temp_for
from patchwright.workspace.history.contents import PARTIAL

MakeWs = Callable[..., Workspace]


class Counting(OsFileSystem):
    """The real file system, counting mutating calls and failing once at ``fail_at``."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.fail_at = 0

    def _step(self, name: str) -> None:
        self.calls.append(name)
        if len(self.calls) == self.fail_at:
            raise OSError(28, "No space left on device (injected)")

    def write_new(self, path: str, data: bytes, mode_bits: int | None) -> None:
        self._step("write_new")
        super().write_new(path, data, mode_bits)

    def link(self, src: str, dst: str, *, sync: bool = True) -> Probe:
        self._step("link")
        return super().link(src, dst, sync=sync)

    def replace(self, src: str, dst: str) -> None:
        self._step("replace")
        super().replace(src, dst)

    def unlink(self, path: str) -> None:
        self._step("unlink")
        super().unlink(path)

    def mkdir(self, path: str) -> None:
        self._step("mkdir")
        super().mkdir(path)

    def rmdir(self, path: str) -> None:
        self._step("rmdir")
        super().rmdir(path)

    def fsync_dir(self, path: str) -> None:
        self._step("fsync_dir")
        super().fsync_dir(path)

    @contextmanager
    def batched_fsync(self, *, first_at_once: bool = False) -> Iterator[None]:
        with super().batched_fsync(first_at_once=first_at_once):
            yield
            self._step("synced together")  # a failure here: nothing of the block synced


def test_one_file_takes_a_temp_write_a_rename_and_a_folder_fsync(
    root: Path, make_ws: MakeWs
) -> None:
    (root / "a.py").write_bytes(b"x = 1\n")
    fs = Counting()
    ws = make_ws(fs=fs, history=False)
    ws.commit([FileChange("a.py", b"x = 2\n", expected_sha256=sha256_hex(b"x = 1\n"))])
    # write_new fsyncs the temp file; nothing goes through the journal
    assert fs.calls == ["write_new", "replace", "fsync_dir"]
    assert files(root) == {"a.py": b"x = 2\n"}
    assert list((ws.state_folder / "journal").iterdir()) == []


def test_with_history_the_file_is_still_written_without_the_journal(
    root: Path, make_ws: MakeWs
) -> None:
    (root / "a.py").write_bytes(b"x = 1\n")
    fs = Counting()
    ws = make_ws(fs=fs)
    record = ws.commit([FileChange("a.py", b"x = 2\n", expected_sha256=sha256_hex(b"x = 1\n"))])
    assert fs.calls == ["write_new", "replace", "fsync_dir"]  # small contents: in SQLite
    assert ws.history.content(record.files[0].before_sha256) == b"x = 1\n"
    ws.undo()
    assert files(root) == {"a.py": b"x = 1\n"}


# over the size kept as a content file, under the one linked from the old file
_LARGE_OLD = b"".join(b"line %d\n" % i for i in range(20_000))
_LARGE_NEW = _LARGE_OLD.replace(b"line", b"LINE")  # changed throughout: no delta


def test_a_large_new_content_is_synced_with_the_temp_file(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(_LARGE_OLD)
    fs = Counting()
    ws = make_ws(fs=fs)
    ws.commit([FileChange("a.txt", _LARGE_OLD)])  # the history holds the old content
    fs.calls = []
    record = ws.commit([FileChange("a.txt", _LARGE_NEW, expected_sha256=sha256_hex(_LARGE_OLD))])
    # the file's temp and the history's content file, one wait on the disk for both;
    # both folders synced before the batch's rows name the content
    assert fs.calls == [
        "write_new", "mkdir", "mkdir", "write_new", "synced together", "replace", "replace",
        "fsync_dir", "fsync_dir",
    ]  # fmt: skip
    assert (ws.state_folder / "blobs" / sha256_hex(_LARGE_NEW)).read_bytes() == _LARGE_NEW
    assert ws.history.content(record.files[0].after_sha256) == _LARGE_NEW
    ws.undo()
    assert files(root) == {"a.txt": _LARGE_OLD}


def test_a_failure_with_a_large_new_content_changes_nothing(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(_LARGE_OLD)
    fs = Counting()
    ws = make_ws(fs=fs)
    change = FileChange("a.txt", _LARGE_NEW, expected_sha256=sha256_hex(_LARGE_OLD))

    def unchanged() -> None:
        assert files(root) == {"a.txt": _LARGE_OLD}
        assert ws.history.list_batches() == []
        # no temp file left beside the contents (a whole content file may stay)
        blobs = ws.state_folder / "blobs"
        assert [p.name for p in blobs.glob(".*")] in ([], [PARTIAL])
        assert not list((blobs / PARTIAL).glob("*"))

    failures = _fail_at_each_step(ws, fs, change, unchanged)
    assert failures >= 9  # every step up to the batch's rows, the history's own included
    assert files(root) == {"a.txt": _LARGE_NEW}
    ws.undo()
    assert files(root) == {"a.txt": _LARGE_OLD}


_LARGE_EDITED = _LARGE_OLD.replace(b"line 10000\n", b"LINE 10000\n")  # kept as a delta


def test_a_failed_commit_does_not_keep_the_delta_it_found(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(_LARGE_OLD)
    fs = Counting()
    ws = make_ws(fs=fs)
    ws.commit([FileChange("a.txt", _LARGE_OLD)])  # the history holds the old content
    assert ws.history is not None
    contents = ws.history.contents
    fs.calls, fs.fail_at = [], 2  # at the end of the temp file's fsync block
    change = FileChange("a.txt", _LARGE_EDITED, expected_sha256=sha256_hex(_LARGE_OLD))
    with pytest.raises(PatchwrightError):
        ws.commit([change])
    assert fs.calls[:2] == ["write_new", "synced together"]
    # the delta found for the new content (and the old content it holds) is let go
    assert vars(contents)["_planned"] is None
    fs.fail_at = 0
    record = ws.commit([change])
    assert ws.history.content(record.files[0].after_sha256) == _LARGE_EDITED


@pytest.mark.parametrize("history", [True, False])
@pytest.mark.parametrize(
    "change",
    [
        FileChange("a.py", b"x = 2\n", expected_sha256=sha256_hex(b"x = 1\n")),
        FileChange("a.py", None, expected_sha256=sha256_hex(b"x = 1\n")),
        FileChange("new.py", b"y = 1\n", must_not_exist=True),
    ],
    ids=["update", "delete", "create"],
)
def test_a_failure_at_any_step_changes_nothing(
    root: Path, make_ws: MakeWs, history: bool, change: FileChange
) -> None:
    (root / "a.py").write_bytes(b"x = 1\n")
    os.chmod(root / "a.py", 0o640)
    fs = Counting()
    ws = make_ws(fs=fs, history=history)

    def unchanged() -> None:
        assert files(root) == {"a.py": b"x = 1\n"}  # no temp file left either
        assert (root / "a.py").stat().st_mode & 0o777 == 0o640
        if history:
            assert ws.history.list_batches() == []

    failures = _fail_at_each_step(ws, fs, change, unchanged)
    assert failures >= 2  # the temp write (or unlink) and the folder fsync both failed once
    expected = {"a.py": b"x = 1\n", **{change.path: change.data}} if change.data else {}
    assert files(root) == expected
    if history:
        assert len(ws.history.list_batches()) == 1


def _fail_at_each_step(
    ws: Workspace, fs: Counting, change: FileChange, unchanged: Callable[[], None]
) -> int:
    """Commit ``change`` failing at its first, second, ... mutating call until it
    succeeds; after each failure the error says nothing changed and ``unchanged``
    checks it. Returns how many attempts failed."""
    for step in range(1, 40):
        fs.calls, fs.fail_at = [], step
        try:
            ws.commit([change])
        except PatchwrightError as exc:
            assert exc.code == ErrorCode.IO_ERROR and "nothing changed" in exc.message
            unchanged()
            continue
        return step - 1
    raise AssertionError("the commit never succeeded")


def test_a_history_refusal_puts_the_old_content_back(root: Path, make_ws: MakeWs) -> None:
    (root / "a.py").write_bytes(b"x = 1\n")
    ws = make_ws()
    first = ws.commit([FileChange("a.py", b"x = 2\n", expected_sha256=sha256_hex(b"x = 1\n"))])
    ws.undo(first.batch_id)
    # undo once more, as a second process would that lost the race: refused by the
    # history after the file was already written, so the file must be put back
    ws.commit([FileChange("a.py", b"x = 2\n", expected_sha256=sha256_hex(b"x = 1\n"))])
    with pytest.raises(PatchwrightError) as info:
        ws.undo(first.batch_id)
    assert info.value.code == ErrorCode.HISTORY
    assert files(root) == {"a.py": b"x = 2\n"}


def test_a_temp_file_left_by_a_killed_commit_is_replaced_by_the_next(
    root: Path, make_ws: MakeWs
) -> None:
    (root / "a.py").write_bytes(b"x = 1\n")
    (root / temp_for("a.py")).write_bytes(b"half-written by a commit killed before its rename")
    ws = make_ws()
    ws.commit([FileChange("a.py", b"x = 2\n", expected_sha256=sha256_hex(b"x = 1\n"))])
    assert files(root) == {"a.py": b"x = 2\n"}


def test_temp_names_stay_distinct_for_long_names() -> None:
    long_a, long_b = "d/" + "a" * 240 + "1.py", "d/" + "a" * 240 + "2.py"
    assert temp_for(long_a) != temp_for(long_b)
    assert all(len(Path(temp_for(p)).name) < 255 for p in (long_a, long_b))
    assert temp_for("d/x.py") == "d/.x.py.pw-tmp"
