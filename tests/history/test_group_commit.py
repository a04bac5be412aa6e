"""Group commit (history/group.py): writes of threads arriving while a write transaction
runs share the next one, each keeping its own outcome.

Every test holds the first transaction open until the others have queued (counted, not
timed), so how many transactions ran is exact whatever the machine's load.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import FileChange, Workspace
from patchwright.workspace.history import History
from patchwright.workspace.history.backend import Tx
from patchwright.workspace.history.group import GroupCommit
from patchwright.workspace.records import CommitRecord, utc_now
from together import DEADLINE, in_threads, names_on_distinct_stripes, until


@pytest.fixture(autouse=True)
def _sqlite(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PATCHWRIGHT_HISTORY_URL", raising=False)


class HeldFirst:
    """The group's backend, with its first write transaction held open until ``queued``
    other writes wait for it; counts the write transactions begun."""

    def __init__(self, group: GroupCommit, queued: int) -> None:
        self.group, self.queued = group, queued
        self.backend = group.backend
        self.begun = 0

    def transaction(self, *, write: bool) -> AbstractContextManager[Tx]:
        return self._transaction(write)

    @contextmanager
    def _transaction(self, write: bool) -> Iterator[Tx]:
        with self.backend.transaction(write=write) as tx:
            self.begun += write
            if write and self.begun == 1:
                until(lambda: self.group.waiting >= self.queued)
            yield tx

    def __getattr__(self, name: str) -> Any:
        return getattr(self.backend, name)


def _hold_first(history: History, queued: int) -> HeldFirst:
    assert history.group is not None
    held = HeldFirst(history.group, queued)
    history.group.backend = held
    return held


def test_sixteen_commits_at_once_take_two_history_transactions(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    names = names_on_distinct_stripes(16)
    for name in names:
        (root / name).write_bytes(b"old\n")
    ws = Workspace(root, state_dir=tmp_path / "state")
    assert ws.history.group is not None
    held = _hold_first(ws.history, queued=15)
    before = ws.history.group.transactions

    errors = in_threads(
        [
            lambda name=name: ws.commit([FileChange(name, f"new {name}\n".encode())], tool="t")
            for name in names
        ]
    )

    assert errors == [None] * 16
    # the first alone (held open), the fifteen that queued meanwhile together
    assert ws.history.group.transactions - before == 2 == held.begun
    batches = ws.history.list_batches(limit=50)
    assert sorted(f["path"] for b in batches for f in b["files"]) == sorted(names)
    for name in names:
        assert (root / name).read_bytes() == f"new {name}\n".encode()


def _record(batch_id: str) -> CommitRecord:
    return CommitRecord(batch_id, (), utc_now(), "test")


def test_a_write_that_fails_fails_alone(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    ws = Workspace(root, state_dir=tmp_path / "state")
    history = ws.history
    history.insert(_record("b-00000001"), {})
    held = _hold_first(history, queued=3)

    def first() -> None:
        history.insert(_record("b-00000002"), {})

    def later(batch_id: str) -> Callable[[], None]:
        def insert() -> None:
            until(lambda: held.begun >= 1)  # the first one's transaction is open
            history.insert(_record(batch_id), {})

        return insert

    # b-00000001 exists already: that one insert is refused, the two beside it stand
    errors = in_threads([first, later("b-00000003"), later("b-00000001"), later("b-00000004")])

    assert errors[0] is None and errors[1] is None and errors[3] is None
    refused = errors[2]
    assert isinstance(refused, PatchwrightError) and refused.code is ErrorCode.HISTORY
    assert refused.details["unique"] == "batches.id"
    ids = sorted(b["id"] for b in history.list_batches(limit=10))
    assert ids == ["b-00000001", "b-00000002", "b-00000003", "b-00000004"]


def test_a_failure_that_ends_the_shared_transaction_fails_every_write_in_it(
    tmp_path: Path,
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    ws = Workspace(root, state_dir=tmp_path / "state")
    history = ws.history
    group = history.group
    assert group is not None
    held = _hold_first(history, queued=2)

    def first() -> None:
        history.insert(_record("b-00000001"), {})

    def insert_second() -> None:
        until(lambda: held.begun >= 1)  # the first one's transaction is open
        history.insert(_record("b-00000002"), {})

    def breaking(tx: Tx) -> None:
        # what SQLite does by itself on a full disk: the whole transaction is gone
        tx.run("ROLLBACK")
        raise sqlite3.OperationalError("database or disk is full")

    def break_third() -> None:
        # queued after the second, so the order in the group is known
        until(lambda: held.begun >= 1 and group.waiting >= 1)
        group.run(breaking)

    errors = in_threads([first, insert_second, break_third])

    assert errors[0] is None
    for error in errors[1:]:
        assert isinstance(error, PatchwrightError) and error.code is ErrorCode.HISTORY
        assert "database or disk is full" in error.message
    assert [b["id"] for b in history.list_batches(limit=10)] == ["b-00000001"]
    # the store goes on: the next write is recorded
    history.insert(_record("b-00000005"), {})
    assert len(history.list_batches(limit=10)) == 2


def test_one_write_alone_takes_no_savepoint(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_bytes(b"a\n")
    ws = Workspace(root, state_dir=tmp_path / "state")
    group = ws.history.group
    assert group is not None
    spent: list[str] = []
    savepoint = group.savepoint

    def counted(tx: Tx) -> AbstractContextManager[None]:
        spent.append("savepoint")
        return savepoint(tx)

    group.savepoint = counted
    before = (group.transactions, group.writes)
    ws.commit([FileChange("a.txt", b"b\n")], tool="t")
    assert (group.transactions - before[0], group.writes - before[1]) == (1, 1)
    assert spent == []


def test_reads_go_on_while_a_write_transaction_is_open(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    ws = Workspace(root, state_dir=tmp_path / "state")
    history = ws.history
    history.insert(_record("b-00000001"), {})
    written, read_done = threading.Event(), threading.Event()
    seen: list[list[str]] = []

    def writing(tx: Tx) -> None:
        tx.run(
            "INSERT INTO batches (id, created_at, tool, label, meta) VALUES (?, ?, 't', '', '{}')",
            ("b-00000002", utc_now()),
        )
        written.set()
        # the write stays open until a read in another thread has finished
        assert read_done.wait(DEADLINE), "the read waited for the write"

    def reading() -> None:
        assert written.wait(DEADLINE)
        seen.append([b["id"] for b in history.list_batches(limit=10)])
        read_done.set()

    assert history.group is not None
    errors = in_threads([lambda: history.group.run(writing), reading])  # type: ignore[union-attr]

    assert errors == [None, None]
    # the read saw the last committed state, not the write in progress
    assert seen == [["b-00000001"]]
    assert [b["id"] for b in history.list_batches(limit=10)] == ["b-00000002", "b-00000001"]


class HeldBeforeBegin:
    """The group's backend, whose first write transaction waits, before it begins,
    until ``release`` is set: the group is writing, the store's lock is free."""

    def __init__(self, group: GroupCommit) -> None:
        self.backend = group.backend
        self.waiting, self.release = threading.Event(), threading.Event()
        self.first = True

    def transaction(self, *, write: bool) -> AbstractContextManager[Tx]:
        if write and self.first:
            self.first = False
            self.waiting.set()
            assert self.release.wait(DEADLINE)
        return self.backend.transaction(write=write)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.backend, name)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX only")
def test_a_child_forked_while_the_parent_writes_records_its_own_batches(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    history = Workspace(root, state_dir=tmp_path / "state").history
    group = history.group
    assert group is not None
    held = HeldBeforeBegin(group)
    group.backend = held
    parent = threading.Thread(target=history.insert, args=(_record("b-00000001"), {}))
    parent.start()
    try:
        assert held.waiting.wait(DEADLINE)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # a threaded process forks
            pid = os.fork()
        if pid == 0:  # the child: its write must not wait for the parent's thread
            code = 1
            try:
                signal.alarm(int(DEADLINE))
                history.insert(_record("b-00000002"), {})
                code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
    finally:
        held.release.set()
        parent.join(DEADLINE)
    assert os.waitstatus_to_exitcode(status) == 0
    assert sorted(b["id"] for b in history.list_batches(limit=10)) == ["b-00000001", "b-00000002"]
