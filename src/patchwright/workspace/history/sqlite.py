"""The embedded history: one SQLite database per workspace, in its state folder.

One writing connection per store (so per workspace), opened on first use and kept:
opening a connection, setting it up and reading the schema cost more than the history
write itself. Threads take turns on it (a lock), and writes that arrive while one runs
share the next transaction (group.py). A read that finds it busy runs on a read
connection of its own, kept idle between uses (a few), so a read never waits for a
write. SQLite connections must never cross a ``fork`` (the child would share the
parent's file locks' bookkeeping and could corrupt the database), so every idle
connection is closed just before the process forks, waiting for a write in progress; a
read connection in use then is closed when its read ends, and a child never uses nor
closes its parent's; parent and child each open their own on next use. The database runs
in WAL mode, so readers (of this process or others) never wait for a writer, with
``synchronous=NORMAL``: a commit writes the WAL without an fsync of its own (checkpoints
fsync). A killed process loses nothing (the WAL is written before the commit returns); a
power cut may lose the newest batches, never the database's consistency. That is what
the history needs: the files are the truth and are durable before an edit answers
(direct.py, journal.py); a batch lost this way is a change ``undo`` does not offer, and
undo checks a file's SHA256 before acting, so a history behind the tree is never acted
on wrongly (docs/durability.md).

Migrations run on the first connection, inside ``BEGIN IMMEDIATE`` (SQLite's write
lock), so two processes opening a new store apply each one once.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress

from patchwright.model.errors import PatchwrightError
from patchwright.workspace.history.backend import (
    SCHEMA_VERSIONS,
    Row,
    Scope,
    Tx,
    history_error,
    unique_column,
)
from patchwright.workspace.history.group import GroupBroken
from patchwright.workspace.records import utc_now

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class _SQLiteTx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [dict(row) for row in self.db.execute(sql, params).fetchall()]

    def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        self.db.execute(sql, params)

    def run_many(self, sql: str, params: Sequence[Sequence[Any]]) -> None:
        self.db.executemany(sql, params)

    def count(self, sql: str, params: Sequence[Any] = ()) -> int:
        return int(self.db.execute(sql, params).rowcount)


class SQLiteBackend:
    """The history database of one workspace (see module docstring).

    Args:
        database: the SQLite file (created with its folder on first use).
        scope: the workspace opening it (old batches without a place get this one).
        timeout: how long to wait for another writer, in seconds.
    """

    shared = False

    def __init__(
        self, database: str | os.PathLike[str], scope: Scope, *, timeout: float = 30.0
    ) -> None:
        self.database = os.fspath(database)
        self.scope = scope
        self.timeout = timeout
        self.blob_folder: str | None = os.path.join(os.path.dirname(self.database), "blobs")
        self._lock = threading.RLock()
        self._db: sqlite3.Connection | None = None
        self._pid = 0
        self._applied: list[int] = []
        # idle read connections (with the generation they were opened in: close() starts
        # a new one), of process _readers_pid
        self._pool_lock = threading.Lock()
        self._readers: list[tuple[int, sqlite3.Connection]] = []
        self._readers_pid = 0
        self._generation = 0
        weakref.finalize(self, _close_all, self._readers)

    def describe(self) -> str:
        """The database file."""
        return self.database

    def _connection(self) -> sqlite3.Connection:
        if self._db is not None and self._pid == os.getpid():
            return self._db
        os.makedirs(os.path.dirname(self.database), exist_ok=True)
        db = sqlite3.connect(
            self.database, timeout=self.timeout, isolation_level=None, check_same_thread=False
        )
        # closed with this object, never left to the garbage collector's warning
        weakref.finalize(self, db.close)
        _OPEN.add(self)
        db.row_factory = sqlite3.Row
        _enter_wal(db, self.timeout)
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        self._db, self._pid = db, os.getpid()
        self._applied = self._migrate(db)
        return db

    def _migrate(self, db: sqlite3.Connection) -> list[int]:
        if _versions(db) >= SCHEMA_VERSIONS:
            return []  # the usual case, decided without taking the write lock
        # only a new or older store: start-up time of every other command
        from patchwright.workspace.history.migrations import VERSIONS_TABLE, pending

        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(VERSIONS_TABLE)
            todo = pending(_versions(db))
            for migration in todo:
                for statement in migration.sqlite:
                    db.execute(statement)
                if migration.backfill:
                    db.execute(
                        "UPDATE batches SET machine=?, workspace=? WHERE machine IS NULL",
                        (self.scope.machine, self.scope.workspace),
                    )
                db.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, utc_now()),
                )
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return [m.version for m in todo]

    @contextmanager
    def transaction(self, *, write: bool) -> Iterator[Tx]:
        """A transaction on the store's connection (``BEGIN IMMEDIATE`` to write); a read
        while another thread uses that connection runs on a read connection of its own
        (see :meth:`_reading`) instead of waiting."""
        if not write and not self._lock.acquire(blocking=False):
            with self._reading() as tx:
                yield tx
            return
        try:
            with self._lock:
                try:
                    with _begun(self._connection(), write=write) as tx:
                        yield tx
                except sqlite3.Error as exc:
                    raise self._error(exc) from exc
        finally:
            if not write:
                self._lock.release()  # taken above, without waiting

    @contextmanager
    def _reading(self) -> Iterator[Tx]:
        """A read transaction on an idle read connection of this process (a new one when
        none is idle), for a read that found the store's connection busy: in WAL mode a
        reader sees the last committed state while a write runs, so calls running at
        the same time read the history side by side instead of taking turns with its
        writes, while a process that reads and writes in turn (a command, one session)
        keeps one connection. At most :data:`IDLE_READERS` idle connections are kept."""
        if self._db is None or self._pid != os.getpid():
            self.migrate()  # the schema first, on the writing connection
        generation, db = self._reader()
        try:
            with _begun(db, write=False) as tx:
                yield tx
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        finally:
            self._put_back(generation, db)

    def _reader(self) -> tuple[int, sqlite3.Connection]:
        with self._pool_lock:
            if self._readers_pid != os.getpid():
                # a forked child never uses (nor closes) its parent's connections
                self._readers[:], self._readers_pid = [], os.getpid()
            if self._readers:
                return self._readers.pop()
            generation = self._generation
        try:
            db = sqlite3.connect(
                self.database, timeout=self.timeout, isolation_level=None,
                check_same_thread=False,
            )  # fmt: skip
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        db.row_factory = sqlite3.Row
        return generation, db

    def _put_back(self, generation: int, db: sqlite3.Connection) -> None:
        with self._pool_lock:
            kept = (
                generation == self._generation
                and self._readers_pid == os.getpid()
                and len(self._readers) < IDLE_READERS
                and not db.in_transaction
            )
            if kept:
                self._readers.append((generation, db))
                return
        db.close()

    @contextmanager
    def savepoint(self, tx: Tx) -> Iterator[None]:
        """A part of write transaction ``tx`` (of this store) rolled back alone when it
        raises, its database error raised as :meth:`transaction` raises it (group.py).

        Raises:
            GroupBroken: the failure ended the whole transaction (SQLite rolls one back
                by itself on a full disk or an I/O error): nothing of it stays.
        """
        if not isinstance(tx, _SQLiteTx):
            raise TypeError("a savepoint of another store's transaction")
        db = tx.db
        try:
            db.execute("SAVEPOINT part")
        except sqlite3.Error as exc:
            raise GroupBroken(self._error(exc)) from exc
        try:
            yield
        except BaseException as exc:
            error = self._error(exc) if isinstance(exc, sqlite3.Error) else exc
            if not db.in_transaction and isinstance(error, Exception):
                raise GroupBroken(error) from exc
            try:
                db.execute("ROLLBACK TO part")
                db.execute("RELEASE part")
            except sqlite3.Error as rollback_exc:
                raise GroupBroken(self._error(rollback_exc)) from exc
            if error is exc:
                raise
            raise error from exc
        try:
            db.execute("RELEASE part")
        except sqlite3.Error as exc:
            raise GroupBroken(self._error(exc)) from exc

    def _error(self, exc: sqlite3.Error) -> PatchwrightError:
        """A database error as the ``history`` error callers see."""
        if isinstance(exc, sqlite3.IntegrityError):
            return history_error(
                f"The history store {self.database} refused a record: {exc}.",
                unique=unique_column(str(exc)),
            )
        return history_error(f"The history store {self.database} failed: {exc}.")

    def migrate(self) -> list[int]:
        """Apply missing migrations (done on first use); the versions applied by this store."""
        with self._lock:
            try:
                self._connection()
            except sqlite3.Error as exc:
                raise history_error(f"The history store {self.database} failed: {exc}.") from exc
            return list(self._applied)

    def versions(self) -> list[int]:
        """The schema versions recorded in the database."""
        with self.transaction(write=False) as tx:
            return [int(r["version"]) for r in tx.rows("SELECT version FROM schema_migrations")]

    def close(self) -> None:
        """Close this process's connections (the next use opens new ones); a read
        connection in use is closed when its transaction ends."""
        with self._lock:
            if self._db is not None and self._pid == os.getpid():
                self._db.close()
            self._db = None
        with self._pool_lock:
            self._generation += 1
            idle = self._readers[:] if self._readers_pid == os.getpid() else []
            self._readers[:] = []
        for _, db in idle:
            db.close()


#: Idle read connections a store keeps (more, opened while many calls read at once,
#: are closed after use).
IDLE_READERS = 8


@contextmanager
def _begun(db: sqlite3.Connection, *, write: bool) -> Iterator[Tx]:
    """One transaction on ``db`` (``BEGIN IMMEDIATE`` to write), committed when the body
    ends and rolled back when it raises (a failed rollback leaves the body's error)."""
    db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
    try:
        yield _SQLiteTx(db)
    except BaseException:
        with suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _close_all(readers: list[tuple[int, sqlite3.Connection]]) -> None:
    for _, db in readers:
        db.close()


def _versions(db: sqlite3.Connection) -> set[int]:
    try:
        return {int(row[0]) for row in db.execute("SELECT version FROM schema_migrations")}
    except sqlite3.OperationalError:  # no such table: a new or pre-migrations store
        return set()


_OPEN: weakref.WeakSet[SQLiteBackend] = weakref.WeakSet()


def _close_before_fork() -> None:
    for backend in list(_OPEN):
        backend.close()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(before=_close_before_fork)


def _enter_wal(db: sqlite3.Connection, timeout: float) -> None:
    """Switch to WAL mode. While another process creates the same new database, SQLite
    answers the switch with "database is locked" at once, without calling the busy
    handler, so the switch is retried until ``timeout`` (a bounded wait, as for writers)."""
    deadline = time.monotonic() + timeout
    pause = 0.005
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)
