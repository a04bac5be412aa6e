"""One behaviour, two stores: every check here runs on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import ChangeRecord, FileChange, Workspace, sha256_hex

OpenWs = Callable[..., Workspace]
BIG = b"".join(b"line %d\n" % i for i in range(20_000))  # over the SQLite file threshold


@pytest.fixture(params=["sqlite", "postgres"])
def kind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "postgres":
        request.getfixturevalue("pg_url")
    else:
        monkeypatch.delenv("PATCHWRIGHT_HISTORY_URL", raising=False)
    yield request.param


def test_ids_records_and_place(
    kind: str, make_root: Callable[[str], Path], open_ws: OpenWs
) -> None:
    root = make_root("r")
    (root / "a.txt").write_bytes(b"1\n")
    ws = open_ws(root)
    record = ws.commit(
        [
            FileChange(
                "a.txt", b"1\n2\n", expected_sha256=sha256_hex(b"1\n"), diff="@@ x\n",
                changes=(ChangeRecord("ck", "append", "insert", 2, 1, 2, 2, {"x": [1]}),),
            )
        ],
        tool="edit_file", label="L", key="k", meta={"client": "t"},
    )  # fmt: skip
    assert re.fullmatch(r"b-[0-9a-f]{8}", record.batch_id)
    assert re.fullmatch(r"f-[0-9a-f]{8}", record.files[0].file_id)
    assert re.fullmatch(r"c-[0-9a-f]{8}", record.files[0].change_ids[0])
    batch = ws.history.get(record.batch_id)
    assert (batch["tool"], batch["label"], batch["key"], batch["meta"]) == (
        "edit_file", "L", "k", {"client": "t"}
    )  # fmt: skip
    assert batch["workspace"] == str(ws.root) and batch["machine"]
    assert re.fullmatch(r"s-[0-9a-f]{8}", batch["session"])
    change = ws.history.get(record.files[0].change_ids[0])
    assert (change["path"], change["meta"], change["old_end"]) == ("a.txt", {"x": [1]}, 1)
    assert ws.history.content(sha256_hex(b"1\n2\n")) == b"1\n2\n"
    assert ws.history.list_batches()[0]["files"][0]["path"] == "a.txt"


def test_undo_once_and_reverts_unique(
    kind: str, make_root: Callable[[str], Path], open_ws: OpenWs
) -> None:
    root = make_root("r")
    ws = open_ws(root)
    first = ws.commit([FileChange("a.txt", b"one\n")]).batch_id
    second = ws.commit([FileChange("a.txt", BIG)]).batch_id
    undo = ws.undo()
    assert undo.reverts == second and (root / "a.txt").read_bytes() == b"one\n"
    assert ws.history.get(second)["reverted_by"] == undo.batch_id
    late = replace(undo, batch_id="b-0000000a", files=())
    with pytest.raises(PatchwrightError) as info:
        ws.history.insert(late, {})
    assert info.value.code == ErrorCode.HISTORY and "already undone" in info.value.hint
    assert ws.history.latest_undoable() == first
    assert ws.undo(undo.batch_id).reverts == undo.batch_id  # redo: the big content is back
    assert (root / "a.txt").read_bytes() == BIG
    assert ws.history.content(sha256_hex(BIG)) == BIG


def test_listing_is_per_workspace_unless_all(
    kind: str, make_root: Callable[[str], Path], open_ws: OpenWs
) -> None:
    one, two = open_ws(make_root("one")), open_ws(make_root("two"))
    a = one.commit([FileChange("x", b"1")]).batch_id
    b = two.commit([FileChange("y", b"2")]).batch_id
    assert [x["id"] for x in one.history.list_batches()] == [a]
    assert [x["id"] for x in two.history.list_batches()] == [b]
    if kind == "postgres":  # one shared store: every batch is visible from anywhere
        assert [x["id"] for x in one.history.list_batches(all_workspaces=True)] == [b, a]
        assert one.history.get(b)["workspace"] == str(two.root)
        with pytest.raises(PatchwrightError) as info:
            one.undo(b)
        assert info.value.code == ErrorCode.HISTORY and str(two.root) in info.value.message


def test_contents_are_stored_once(
    kind: str, make_root: Callable[[str], Path], open_ws: OpenWs
) -> None:
    ws = open_ws(make_root("r"))
    for data in (BIG, b"small", BIG, b"small"):
        ws.commit([FileChange("a.txt", data)])
    with ws.history.backend.transaction(write=False) as tx:
        rows = tx.rows("SELECT sha256 FROM blobs")
    in_table = sorted(r["sha256"] for r in rows)
    if kind == "sqlite":  # the big content is a file beside the database
        assert in_table == [sha256_hex(b"small")]
        assert [p.name for p in (ws.state_folder / "blobs").iterdir()] == [sha256_hex(BIG)]
    else:
        assert in_table == sorted([sha256_hex(b"small"), sha256_hex(BIG)])
