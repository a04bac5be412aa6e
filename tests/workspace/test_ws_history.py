"""History lookups by ID and undo."""

from __future__ import annotations

import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from ws_helpers import files, snapshot

from patchwright._records import replace
from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import ChangeRecord, FileChange, Workspace, default_state_dir, sha256_hex

MakeWs = Callable[..., Workspace]


def _edit(ws: Workspace, path: str, data: bytes) -> str:
    return ws.commit([FileChange(path, data)], tool="t").batch_id


def test_get_batch_file_and_change(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(b"1\n")
    ws = make_ws()
    record = ws.commit(
        [
            FileChange(
                "a.txt",
                b"1\n2\n",
                expected_sha256=sha256_hex(b"1\n"),
                diff="@@ -1 +1,2 @@\n 1\n+2\n",
                key="fk",
                label="add two",
                changes=(ChangeRecord("ck", "append 2", "insert", 2, 1, 2, 2, {"x": [1]}),),
            )
        ],
        tool="workspace_write_patch",
        label="Batch",
        key="bk",
        meta={"client": "test"},
    )
    batch = ws.history.get(record.batch_id)
    assert batch["kind"] == "batch" and batch["tool"] == "workspace_write_patch"
    assert (batch["label"], batch["key"], batch["meta"]) == ("Batch", "bk", {"client": "test"})
    assert batch["reverted_by"] is None and batch["created_at"] == record.created_at
    (f,) = batch["files"]
    assert f == ws.history.get(record.files[0].file_id)
    assert (f["kind"], f["path"], f["action"], f["key"], f["label"]) == (
        "file",
        "a.txt",
        "update",
        "fk",
        "add two",
    )
    assert (f["before_sha256"], f["after_sha256"]) == (sha256_hex(b"1\n"), sha256_hex(b"1\n2\n"))
    assert f["diff"] == "@@ -1 +1,2 @@\n 1\n+2\n"
    change = ws.history.get(record.files[0].change_ids[0])
    assert change["kind"] == "change" and change["path"] == "a.txt"
    assert (change["key"], change["description"], change["op"]) == ("ck", "append 2", "insert")
    assert (change["old_start"], change["old_end"], change["new_start"], change["new_end"]) == (
        2,
        1,
        2,
        2,
    )
    assert change["meta"] == {"x": [1]} and change["batch_id"] == record.batch_id
    assert ws.history.content(f["before_sha256"]) == b"1\n"
    assert ws.history.content(f["after_sha256"]) == b"1\n2\n"


def test_unknown_id_is_a_clear_error(make_ws: MakeWs) -> None:
    with pytest.raises(PatchwrightError) as info:
        make_ws().history.get("b-00000000")
    assert info.value.code == ErrorCode.HISTORY and "b-00000000" in info.value.message


def test_history_survives_reopening_and_lists_newest_first(make_ws: MakeWs) -> None:
    ids = [_edit(make_ws(), "a.txt", b"%d" % i) for i in range(3)]
    listed = make_ws().history.list_batches(limit=2)
    assert [b["id"] for b in listed] == ids[::-1][:2]
    assert listed[0]["files"] == [
        {"id": listed[0]["files"][0]["id"], "path": "a.txt", "action": "update", "move_from": None}
    ]


def test_undo_latest_then_the_one_before(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(b"v0\n")
    ws = make_ws()
    first = _edit(ws, "a.txt", b"v1\n")
    second = _edit(ws, "a.txt", b"v2\n")
    undo = ws.undo()
    assert undo.reverts == second and undo.tool == "undo"
    assert (root / "a.txt").read_bytes() == b"v1\n"
    assert "-v2" in undo.files[0].diff and "+v1" in undo.files[0].diff
    assert ws.history.get(second)["reverted_by"] == undo.batch_id
    assert ws.history.get(undo.batch_id)["reverts"] == second
    assert ws.undo().reverts == first
    assert (root / "a.txt").read_bytes() == b"v0\n"
    with pytest.raises(PatchwrightError) as info:
        ws.undo()
    assert info.value.code == ErrorCode.HISTORY and "Nothing to undo" in info.value.message


def test_undo_twice_is_refused(root: Path, make_ws: MakeWs) -> None:
    ws = make_ws()
    batch = _edit(ws, "a.txt", b"x")
    undo = ws.undo(batch)
    with pytest.raises(PatchwrightError) as info:
        ws.undo(batch)
    assert info.value.code == ErrorCode.HISTORY
    assert "already undone" in info.value.message and undo.batch_id in info.value.message
    assert ws.undo(undo.batch_id).reverts == undo.batch_id  # undoing the undo redoes it
    assert (root / "a.txt").read_bytes() == b"x"


def test_undo_restores_creations_deletions_moves_and_modes(root: Path, make_ws: MakeWs) -> None:
    (root / "del.sh").write_bytes(b"#!/bin/sh\n")
    (root / "del.sh").chmod(0o750)
    (root / "mv.txt").write_bytes(b"move me\n")
    (root / "mode.txt").write_bytes(b"m")
    (root / "mode.txt").chmod(0o644)
    ws = make_ws()
    before = snapshot(root)
    batch = ws.commit(
        [
            FileChange("new/made.txt", b"new\n"),
            FileChange("del.sh", None),
            FileChange("moved/here.txt", b"moved and edited\n", move_from="mv.txt"),
            FileChange("mode.txt", b"m", mode_bits=0o600),
        ]
    ).batch_id
    assert stat.S_IMODE((root / "mode.txt").stat().st_mode) == 0o600
    ws.undo(batch)
    # contents and permission bits are back; the folders the batch created stay (empty)
    after = snapshot(root)
    assert {k: after[k] for k in before} == before
    assert files(root) == {"del.sh": b"#!/bin/sh\n", "mv.txt": b"move me\n", "mode.txt": b"m"}


def test_undo_of_binary_content(root: Path, make_ws: MakeWs) -> None:
    (root / "img.bin").write_bytes(b"\x00\x01old")
    ws = make_ws()
    ws.commit([FileChange("img.bin", b"\x00\x02new")])
    undo = ws.undo()
    assert (root / "img.bin").read_bytes() == b"\x00\x01old"
    assert undo.files[0].diff == "Binary files a/img.bin and b/img.bin differ\n"


def test_a_batch_is_reverted_once_even_when_checks_race(make_ws: MakeWs) -> None:
    ws = make_ws()
    batch = _edit(ws, "a.txt", b"x")
    first = ws.undo(batch)
    # a second undo that passed its checks before the first was recorded
    late = replace(first, batch_id="b-0000000a", files=())
    with pytest.raises(PatchwrightError) as info:
        ws.history.insert(late, {})
    assert info.value.code == ErrorCode.HISTORY and "already undone" in info.value.hint


def test_undo_conflict_names_file_and_hashes(root: Path, make_ws: MakeWs) -> None:
    ws = make_ws()
    batch = _edit(ws, "a.txt", b"ours\n")
    (root / "a.txt").write_bytes(b"theirs\n")
    with pytest.raises(PatchwrightError) as info:
        ws.undo(batch)
    error = info.value
    assert error.code == ErrorCode.CONFLICT and error.path == "a.txt"
    assert sha256_hex(b"ours\n") in error.message and sha256_hex(b"theirs\n") in error.message
    assert (root / "a.txt").read_bytes() == b"theirs\n"
    assert ws.history.get(batch)["reverted_by"] is None


def test_undo_conflict_when_deleted_file_reappeared(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(b"a")
    ws = make_ws()
    batch = ws.commit([FileChange("a.txt", None)]).batch_id
    (root / "a.txt").write_bytes(b"someone else's")
    with pytest.raises(PatchwrightError) as info:
        ws.undo(batch)
    assert info.value.code == ErrorCode.CONFLICT
    assert (root / "a.txt").read_bytes() == b"someone else's"


def test_undo_needs_a_batch_id_and_history(root: Path, make_ws: MakeWs) -> None:
    ws = make_ws()
    record = ws.commit([FileChange("a.txt", b"a")])
    with pytest.raises(PatchwrightError) as info:
        ws.undo(record.files[0].file_id)
    assert info.value.code == ErrorCode.HISTORY
    bare = make_ws(history=False)
    bare.commit([FileChange("b.txt", b"b")])
    with pytest.raises(PatchwrightError) as info:
        bare.undo()
    assert info.value.code == ErrorCode.HISTORY


def test_default_state_folder_comes_from_the_environment(tmp_path: Path) -> None:
    assert default_state_dir({"PATCHWRIGHT_STATE_DIR": "/x/pw", "XDG_STATE_HOME": "/y"}) == Path(
        "/x/pw"
    )
    assert default_state_dir({"XDG_STATE_HOME": "/y"}) == Path("/y/patchwright")
    assert default_state_dir({}) == Path.home() / ".local/state/patchwright"


def test_state_folder_is_per_root_and_outside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATCHWRIGHT_STATE_DIR", str(tmp_path / "st"))
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    a, b = Workspace(tmp_path / "one"), Workspace(tmp_path / "two")
    assert a.state_folder != b.state_folder
    assert a.state_folder.parent.parent == tmp_path / "st"
    _edit(a, "x.txt", b"1")
    assert len(a.history.list_batches()) == 1 and b.history.list_batches() == []
