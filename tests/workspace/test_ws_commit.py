"""Commits: writes, creations, deletions, moves, permission bits, preconditions, dry runs."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from ws_helpers import files, snapshot

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import ChangeRecord, FileChange, Workspace, sha256_hex

MakeWs = Callable[..., Workspace]


def test_read_returns_bytes_hash_and_mode(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(b"one\r\ntwo")
    (root / "a.txt").chmod(0o640)
    state = make_ws().read("./a.txt")
    assert (state.path, state.data, state.mode_bits) == ("a.txt", b"one\r\ntwo", 0o640)
    assert state.sha256 == sha256_hex(b"one\r\ntwo")


def test_exists_and_list_files(root: Path, make_ws: MakeWs) -> None:
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "src" / "pkg" / "m.py").write_text("x")
    (root / "src" / "a.py").write_text("x")
    (root / "top.txt").write_text("x")
    ws = make_ws()
    assert ws.exists("src/a.py") and not ws.exists("src") and not ws.exists("nope.txt")
    assert ws.list_files() == ["src/a.py", "src/pkg/m.py", "top.txt"]
    assert ws.list_files("src/pkg") == ["src/pkg/m.py"]
    assert ws.list_files(limit=2) == ["src/a.py", "src/pkg/m.py"]


def test_missing_file_suggests_other_case(root: Path, make_ws: MakeWs) -> None:
    (root / "src").mkdir()
    (root / "src" / "Agent.cs").write_text("x")
    with pytest.raises(PatchwrightError) as info:
        make_ws().read("src/agent.cs")
    assert info.value.code == ErrorCode.FILE_NOT_FOUND
    assert "src/Agent.cs" in info.value.hint
    assert make_ws().find_case_insensitive("SRC/AGENT.CS") == ["src/Agent.cs"]


def test_multi_file_commit_creates_updates_deletes_and_moves(root: Path, make_ws: MakeWs) -> None:
    (root / "keep.txt").write_bytes(b"old\n")
    (root / "gone.txt").write_bytes(b"bye\n")
    (root / "from.txt").write_bytes(b"moving\n")
    ws = make_ws()
    record = ws.commit(
        [
            FileChange("keep.txt", b"new\n", expected_sha256=sha256_hex(b"old\n")),
            FileChange("deep/er/made.txt", b"made\n", must_not_exist=True),
            FileChange("gone.txt", None),
            FileChange("to/moved.txt", None, move_from="from.txt"),
        ],
        tool="test",
    )
    assert files(root) == {
        "keep.txt": b"new\n",
        "deep/er/made.txt": b"made\n",
        "to/moved.txt": b"moving\n",
    }
    assert [f.action for f in record.files] == ["update", "create", "delete", "move"]
    moved = record.files[3]
    assert (moved.move_from, moved.before_sha256) == ("from.txt", sha256_hex(b"moving\n"))
    assert moved.after_sha256 == sha256_hex(b"moving\n")
    assert record.files[2].after_sha256 is None and record.files[1].before_sha256 is None


def test_permission_bits_are_kept_and_new_files_follow_umask(root: Path, make_ws: MakeWs) -> None:
    (root / "run.sh").write_bytes(b"#!/bin/sh\n")
    (root / "run.sh").chmod(0o751)
    (root / "mv.sh").write_bytes(b"x")
    (root / "mv.sh").chmod(0o700)
    previous = os.umask(0o027)
    try:
        make_ws().commit(
            [
                FileChange("run.sh", b"#!/bin/sh\necho hi\n"),
                FileChange("fresh.txt", b"new"),
                FileChange("moved.sh", b"y", move_from="mv.sh"),
                FileChange("chosen.txt", b"z", mode_bits=0o600),
            ]
        )
    finally:
        os.umask(previous)

    def bits(name: str) -> int:
        return stat.S_IMODE((root / name).stat().st_mode)

    assert (bits("run.sh"), bits("fresh.txt"), bits("moved.sh"), bits("chosen.txt")) == (
        0o751,
        0o640,
        0o700,
        0o600,
    )


def test_stale_precondition_names_file_and_both_hashes(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(b"read by the model\n")
    (root / "b.txt").write_bytes(b"b\n")
    ws = make_ws()
    seen = ws.read("a.txt")
    (root / "a.txt").write_bytes(b"changed by someone else\n")
    before = snapshot(root)
    with pytest.raises(PatchwrightError) as info:
        ws.commit(
            [
                FileChange("b.txt", b"b2\n"),
                FileChange("a.txt", b"edit\n", expected_sha256=seen.sha256),
            ]
        )
    error = info.value
    assert error.code == ErrorCode.STALE and error.path == "a.txt"
    assert "changed since you read it" in error.message
    actual = sha256_hex(b"changed by someone else\n")
    assert error.details["expected_sha256"] == seen.sha256
    assert error.details["actual_sha256"] == actual
    assert seen.sha256 in error.message and actual in error.message
    assert snapshot(root) == before


def test_stale_when_file_was_deleted(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(b"x")
    ws = make_ws()
    seen = ws.read("a.txt")
    (root / "a.txt").unlink()
    with pytest.raises(PatchwrightError) as info:
        ws.commit([FileChange("a.txt", b"y", expected_sha256=seen.sha256.upper())])
    assert info.value.code == ErrorCode.STALE
    assert info.value.details["actual_sha256"] is None
    assert "deleted" in info.value.message
    assert not (root / "a.txt").exists()


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ([FileChange("there.txt", b"x", must_not_exist=True)], ErrorCode.FILE_EXISTS),
        ([FileChange("there.txt", b"x", move_from="other.txt")], ErrorCode.FILE_EXISTS),
        ([FileChange("missing.txt", None)], ErrorCode.FILE_NOT_FOUND),
        ([FileChange("new.txt", None, move_from="missing.txt")], ErrorCode.FILE_NOT_FOUND),
        ([FileChange("there.txt", b"x", expected_sha256="abc")], ErrorCode.INVALID_REQUEST),
        ([FileChange("there.txt", None, must_not_exist=True)], ErrorCode.INVALID_REQUEST),
        ([FileChange("there.txt", b"x", move_from="there.txt")], ErrorCode.INVALID_REQUEST),
        ([FileChange("there.txt", b"x", mode_bits=0o17777)], ErrorCode.INVALID_REQUEST),
        ([FileChange("a/../there.txt", b"1"), FileChange("there.txt", b"2")],
         ErrorCode.INVALID_REQUEST),
        ([FileChange("new.txt", b"1", move_from="there.txt"), FileChange("there.txt", None)],
         ErrorCode.INVALID_REQUEST),
        ([], ErrorCode.INVALID_REQUEST),
    ],
)  # fmt: skip
def test_refusals_change_nothing(
    root: Path, make_ws: MakeWs, changes: list[FileChange], code: ErrorCode
) -> None:
    (root / "there.txt").write_bytes(b"here\n")
    (root / "other.txt").write_bytes(b"other\n")
    ws = make_ws()
    before = snapshot(root)
    with pytest.raises(PatchwrightError) as info:
        ws.commit(changes)
    assert info.value.code == code
    assert snapshot(root) == before
    assert ws.history.list_batches() == []


def test_dry_run_checks_but_writes_nothing(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(b"a")
    ws = make_ws()
    record = ws.commit(
        [FileChange("a.txt", b"b", expected_sha256=sha256_hex(b"a")), FileChange("n/x", b"x")],
        dry_run=True,
    )
    assert record.dry_run and record.files[0].after_sha256 == sha256_hex(b"b")
    assert files(root) == {"a.txt": b"a"} and not (root / "n").exists()
    assert ws.history.list_batches() == []
    with pytest.raises(PatchwrightError) as info:
        ws.commit([FileChange("a.txt", b"b", expected_sha256=sha256_hex(b"zz"))], dry_run=True)
    assert info.value.code == ErrorCode.STALE


def test_ids_and_metadata_are_returned(root: Path, make_ws: MakeWs) -> None:
    record = make_ws().commit(
        [
            FileChange(
                "x.txt",
                b"1\n2\n",
                key="file-key",
                label="File label",
                diff="--- a\n+++ b\n",
                changes=(
                    ChangeRecord("one", "first", "insert", 1, 0, 1, 1),
                    ChangeRecord("two", "second", "insert", 1, 0, 2, 2, {"note": 1}),
                ),
            )
        ],
        tool="workspace_write_patch",
        label="Batch label",
        key="batch-key",
    )
    assert record.batch_id.startswith("b-") and len(record.batch_id) == 10
    f = record.files[0]
    assert f.file_id.startswith("f-") and (f.key, f.label) == ("file-key", "File label")
    assert [c.key for c in f.changes] == ["one", "two"]
    assert all(c.startswith("c-") for c in f.change_ids) and len(set(f.change_ids)) == 2
    assert f.changes[1].meta == {"note": 1}
    data = record.to_dict()
    assert data["key"] == "batch-key" and data["files"][0]["changes"][0]["description"] == "first"


def test_lock_files_stay_out_of_the_tree(root: Path, state: Path, make_ws: MakeWs) -> None:
    make_ws().commit([FileChange("a.txt", b"x"), FileChange("b/c.txt", b"y")])
    assert files(root) == {"a.txt": b"x", "b/c.txt": b"y"}
    assert any((state / "workspaces").rglob("*.lock"))


def test_oversized_write_refused(root: Path, make_ws: MakeWs) -> None:
    ws = make_ws(max_file_bytes=10)
    with pytest.raises(PatchwrightError) as info:
        ws.commit([FileChange("a.txt", b"x" * 11)])
    assert info.value.code == ErrorCode.TOO_LARGE and info.value.details["limit"] == 10
    assert files(root) == {}
