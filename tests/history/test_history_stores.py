"""One behaviour, two stores: every check here runs on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import re
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patchwright._records import replace
from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import ChangeRecord, FileChange, Workspace, sha256_hex
from patchwright.workspace.history.contents import MAX_DEPTH, PARTIAL, _delta
from patchwright.workspace.history.regions import common_ends

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
    if kind == "postgres":  # one shared store: every batch is listed for people
        assert [x["id"] for x in one.history.list_batches(all_workspaces=True)] == [b, a]
        assert one.history.get(b, anywhere=True)["workspace"] == str(two.root)
        with pytest.raises(PatchwrightError, match="of this workspace has the ID"):
            one.history.get(b)  # by ID, a workspace reads its own records only
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
        named = [p.name for p in (ws.state_folder / "blobs").iterdir() if p.name != PARTIAL]
        assert named == [sha256_hex(BIG)]
        assert not list((ws.state_folder / "blobs" / PARTIAL).iterdir())
    else:
        assert in_table == sorted([sha256_hex(b"small"), sha256_hex(BIG)])


def test_an_edit_of_a_large_file_stores_only_what_changed(
    kind: str, make_root: Callable[[str], Path], open_ws: OpenWs
) -> None:
    ws = open_ws(make_root("r"))
    versions = [BIG]
    ws.commit([FileChange("big.txt", BIG)])
    for i in range(MAX_DEPTH + 3):
        line = b"\nline %d\n" % (5_000 + i)
        new = versions[-1].replace(line, line[:-1] + b" edited\n", 1)
        new = new if i % 2 else b"head %d\n" % i + versions[-1]  # shifts every byte
        ws.commit([FileChange("big.txt", new, expected_sha256=sha256_hex(versions[-1]))])
        versions.append(new)
    with ws.history.backend.transaction(write=False) as tx:
        deltas = tx.rows("SELECT sha256, depth, middle FROM deltas")
    assert all(len(d["middle"]) < 10_000 for d in deltas)
    # a chain never passes MAX_DEPTH: a content is then stored whole again
    assert max(d["depth"] for d in deltas) == MAX_DEPTH
    assert len(deltas) == MAX_DEPTH + 3 - 1
    for data in versions:
        assert ws.history.content(sha256_hex(data)) == data
    for _ in versions[1:]:
        ws.undo()
    assert (ws.root / "big.txt").read_bytes() == BIG


def test_a_damaged_delta_is_reported_not_returned(
    kind: str, make_root: Callable[[str], Path], open_ws: OpenWs
) -> None:
    ws = open_ws(make_root("r"))
    ws.commit([FileChange("big.txt", BIG)])
    edited = BIG.replace(b"line 5\n", b"line five\n")
    ws.commit([FileChange("big.txt", edited, expected_sha256=sha256_hex(BIG))])
    with ws.history.backend.transaction(write=True) as tx:
        tx.run("UPDATE deltas SET middle=?", (b"garbage",))
    with pytest.raises(PatchwrightError) as info:
        ws.history.content(sha256_hex(edited))
    assert info.value.code == ErrorCode.HISTORY and "damaged" in info.value.message


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.binary(max_size=300), st.binary(max_size=300))
def test_common_ends_are_exact_and_never_overlap(head: bytes, a: bytes, b: bytes) -> None:
    x, y = head + a + head, head + b
    prefix, suffix = common_ends(x, y)
    assert prefix + suffix <= min(len(x), len(y))
    assert x[:prefix] == y[:prefix] and x[len(x) - suffix :] == y[len(y) - suffix :]
    longer_prefix = prefix < min(len(x), len(y)) and x[prefix] == y[prefix]
    assert not longer_prefix or prefix + suffix == min(len(x), len(y))
    middle = y[prefix : len(y) - suffix]
    assert x[:prefix] + middle + x[len(x) - suffix :] == y  # what a delta rebuilds


def test_a_content_changed_throughout_is_refused_as_a_delta_without_a_copy() -> None:
    # a large patch edits the whole file: what changed is most of it, and copying it
    # only to find it too long would hold one more copy of the file
    base = bytes(4 << 20)
    data = b"\1\0\0" * (1 << 20) + base[3 << 20 :]  # three quarters changed
    data = data[:10] + b"x" + data[11:]
    tracemalloc.start()
    try:
        assert _delta("new", data, "old", base, 0) is None
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < len(data) // 8
    edit = base[:100] + b"z" + base[101:]
    assert _delta("new", edit, "old", base, 0) == (
        "new", "old", 1, 100, len(base) - 101, b"z", None,
    )  # fmt: skip


def test_a_commit_of_hundreds_of_files_in_both_stores(
    kind: str, make_root: Callable[[str], Path], open_ws: OpenWs
) -> None:
    ws = open_ws(make_root("r"))
    first = ws.commit([FileChange(f"f{i}.txt", b"%d\n" % i) for i in range(700)])
    second = ws.commit(
        [
            FileChange(f"f{i}.txt", b"%d\n" % (i + 1), expected_sha256=sha256_hex(b"%d\n" % i))
            for i in range(700)
        ]
    )
    with ws.history.backend.transaction(write=False) as tx:
        (count,) = tx.rows("SELECT count(*) AS n FROM blobs")
    assert count["n"] == 701  # 0..700, each content once
    assert len(ws.history.get(second.batch_id)["files"]) == 700
    ws.undo()
    assert (ws.root / "f699.txt").read_bytes() == b"699\n"
    assert ws.history.latest_undoable() == first.batch_id


def test_a_read_inside_a_write_transaction_sees_its_own_query(
    kind: str, make_root: Callable[[str], Path], open_ws: OpenWs
) -> None:
    """Each read answers its own query, however many writes are queued before it (a
    PostgreSQL write transaction is pipelined: a cursor shared by writes and reads once
    handed a read the result of an earlier INSERT, depending on timing)."""
    backend = open_ws(make_root("r")).history.backend
    with backend.transaction(write=True) as tx:
        tx.run("CREATE TABLE probe (n INTEGER)")
        for n in range(30):
            tx.run("INSERT INTO probe (n) VALUES (?)", (n,))
            tx.run_many("INSERT INTO probe (n) VALUES (?)", [(-1,)] * 700)
            (row,) = tx.rows("SELECT count(*) AS c, max(n) AS top FROM probe")
            assert (row["c"], row["top"]) == (701 * (n + 1), n)


def test_a_batch_of_160000_changes_is_stored_in_both_stores(
    kind: str, make_root: Callable[[str], Path], open_ws: OpenWs
) -> None:
    # the IDs drawn for it were checked in one compound SELECT of 534 terms, over
    # SQLite's 500 ("too many terms in compound SELECT"): 150,000+ hunks failed
    ws = open_ws(make_root("r"))
    changes = [ChangeRecord(op="edit", old_start=n, old_end=n) for n in range(1, 160_001)]
    record = ws.commit([FileChange("a.txt", b"x\n", changes=changes)], tool="apply")
    assert len(ws.history.get(record.batch_id)["files"][0]["changes"]) == 160_000
    assert (ws.root / "a.txt").read_bytes() == b"x\n"
