"""The shared history: one PostgreSQL database for many workspaces and machines.

Chosen by ``PATCHWRIGHT_HISTORY_URL=postgresql://...`` (see identity.py). psycopg 3
and its pool are imported only here and only when such a store is first used, so
``import patchwright`` and every command without that variable never load them.

Each process keeps one small pool per URL (``psycopg_pool``; a pool is never used
across ``fork``) of autocommit connections: a read is one round trip, a write is one
transaction sent as a pipeline. A connection idle for a second or more is checked
before it is lent, so one broken by a server restart is replaced rather than failing a
call. Migrations run once per process and
URL, on the first connection, in one transaction that holds an advisory lock, so any
number of processes may open a new database at once.

When the server cannot be reached within ``timeout`` seconds (or the connection breaks
mid-transaction) the call fails with a ``history`` error whose details carry
``unreachable: true``; the commit that asked then rolls back (docs/history.md).
"""

from __future__ import annotations

import atexit
import importlib.util
import logging
import os
import re
import threading
import time
import weakref
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Any

from patchwright.model.errors import PatchwrightError
from patchwright.workspace.history.backend import Row, Tx, history_error, unique_column
from patchwright.workspace.history.migrations import VERSIONS_TABLE, pending
from patchwright.workspace.records import utc_now

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

# any fixed number: the advisory lock migrators take (pg_advisory_xact_lock)
_MIGRATION_LOCK = 0x70617463  # "patc"
_POOLS: dict[tuple[str, int], ConnectionPool[psycopg.Connection[Any]]] = {}
_MIGRATED: dict[tuple[str, int], list[int]] = {}
_GUARD = threading.Lock()
# when each pooled connection was last used, and how long it is then taken as alive
_LAST_USE: weakref.WeakKeyDictionary[psycopg.Connection[Any], float] = weakref.WeakKeyDictionary()
_FRESH = 1.0


def _check_if_idle(conn: psycopg.Connection[Any]) -> None:
    """Check a pooled connection before lending it, unless it worked a moment ago.

    A round trip per call is a noticeable part of a commit; a connection used within
    the last second is taken as alive, and if the server went away in that second the
    call fails like any lost connection (and the pool is replaced).
    """
    last = _LAST_USE.get(conn)
    if last is None or time.monotonic() - last > _FRESH:
        from psycopg_pool import ConnectionPool

        ConnectionPool.check_connection(conn)


def _connection_lost(exc: Exception) -> bool:
    """Whether ``exc`` means the server cannot be reached or went away, rather than a
    refused statement: no connection from the pool, a broken client connection, or a
    connection-class (08) or shutdown (57P) error."""
    import psycopg

    if type(exc).__name__ == "PoolTimeout" or isinstance(exc, psycopg.InterfaceError):
        return True
    state = getattr(exc, "sqlstate", None)
    lost = state is None or state.startswith(("08", "57P"))
    return isinstance(exc, psycopg.OperationalError) and lost


def redact(url: str) -> str:
    """``url`` without its password."""
    return re.sub(r"(//[^:/@]*):[^@/]*@", r"\1:***@", url)


class _PostgresTx:
    def __init__(self, cursor: psycopg.Cursor[Row], pipeline: psycopg.Pipeline | None) -> None:
        self.cursor = cursor
        self.pipeline = pipeline

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        # A cursor of its own: in pipeline mode (write transactions) a cursor keeps the
        # result of every statement it sent, and `fetchall` reads the oldest one not yet
        # consumed, which is an earlier INSERT's whenever its result had not been
        # processed before this query was sent (timing-dependent).
        with self.cursor.connection.cursor(row_factory=self.cursor.row_factory) as cursor:
            cursor.execute(_dialect(sql), params)
            return cursor.fetchall()

    def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        self.cursor.execute(_dialect(sql), params)

    def run_many(self, sql: str, params: Sequence[Sequence[Any]]) -> None:
        if params:
            self.cursor.executemany(_dialect(sql), params)

    def count(self, sql: str, params: Sequence[Any] = ()) -> int:
        # a cursor of its own, as for ``rows``; in pipeline mode the count is known only
        # once the statement's result is in, which a sync of the pipeline waits for
        with self.cursor.connection.cursor() as cursor:
            cursor.execute(_dialect(sql), params)
            if self.pipeline is not None:
                self.pipeline.sync()
            return int(cursor.rowcount)


def _dialect(sql: str) -> str:
    return sql.replace("?", "%s")


class PostgresBackend:
    """A PostgreSQL history (see module docstring).

    Args:
        url: a libpq connection URL (``postgresql://user:password@host:port/db``).
        timeout: seconds to wait for a connection before reporting the store unreachable.
    """

    shared = True
    blob_folder: str | None = None

    def __init__(self, url: str, *, timeout: float = 10.0) -> None:
        self.url = url
        self.timeout = timeout
        missing = [m for m in ("psycopg", "psycopg_pool") if importlib.util.find_spec(m) is None]
        if missing:  # found without importing them: a workspace opens lazily
            raise history_error(
                f"PATCHWRIGHT_HISTORY_URL asks for a PostgreSQL history, but "
                f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed.",
                "Install them with `pip install 'patchwright[postgres]'`, or unset "
                "PATCHWRIGHT_HISTORY_URL to keep the history in SQLite.",
            )

    def describe(self) -> str:
        """The URL without its password."""
        return redact(self.url)

    def _pool(self) -> ConnectionPool[psycopg.Connection[Any]]:
        key = (self.url, os.getpid())
        with _GUARD:
            pool = _POOLS.get(key)
            if pool is None:
                from psycopg_pool import ConnectionPool  # lazy: see module docstring

                # the pool logs each failed reconnection; the caller gets one clear
                # error instead, and an application that configures logging still sees
                # them (a handler here only keeps Python's last-resort one off stderr)
                logging.getLogger("psycopg.pool").addHandler(logging.NullHandler())
                pool = ConnectionPool(
                    self.url, min_size=1, max_size=4, open=False, timeout=self.timeout,
                    check=_check_if_idle, name="patchwright-history",
                    kwargs={"connect_timeout": max(1, int(self.timeout)), "autocommit": True},
                )  # fmt: skip
                pool.open()
                _POOLS[key] = pool
            return pool

    @contextmanager
    def transaction(self, *, write: bool) -> Iterator[Tx]:
        """A transaction on a pooled connection (committed when the block ends)."""
        import psycopg  # lazy: see module docstring
        from psycopg.rows import dict_row
        from psycopg_pool import PoolTimeout

        try:
            with self._pool().connection(timeout=self.timeout) as conn:
                self._ensure_migrated(conn)
                try:
                    with ExitStack() as stack:
                        pipeline = None
                        if write:
                            # one round trip for the batch's statements (a read inside
                            # waits for its result) and one for the commit
                            pipeline = stack.enter_context(conn.pipeline())
                            stack.enter_context(conn.transaction())
                        cursor = stack.enter_context(conn.cursor(row_factory=dict_row))
                        yield _PostgresTx(cursor, pipeline)
                finally:
                    _LAST_USE[conn] = time.monotonic()
        except psycopg.errors.UniqueViolation as exc:
            name = exc.diag.constraint_name or str(exc)
            raise history_error(
                f"The history store {self.describe()} refused a record: {exc}.",
                unique=unique_column(name),
            ) from exc
        except (PoolTimeout, psycopg.Error) as exc:
            if not _connection_lost(exc):
                raise history_error(f"The history store {self.describe()} failed: {exc}.") from exc
            # a fresh pool connects at once when the server is back, where this one may
            # be waiting out its reconnection back-off
            self.close()
            raise self._unreachable(exc) from exc
            raise history_error(f"The history store {self.describe()} failed: {exc}.") from exc

    def _unreachable(self, exc: Exception) -> PatchwrightError:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if type(exc).__name__ == "PoolTimeout":
            reason = self._why_not(reason)
        return history_error(
            f"The shared history {self.describe()} is unreachable: {reason}.",
            "Edits are refused while the history cannot record them, and nothing is "
            "written. Start the PostgreSQL server (or correct PATCHWRIGHT_HISTORY_URL), "
            "then retry; `patchwright history migrate` checks the connection.",
            unreachable=True,
        )

    def _why_not(self, fallback: str) -> str:
        """The server's own reason a connection fails, when the pool only timed out."""
        import psycopg

        try:
            psycopg.connect(self.url, connect_timeout=2).close()
        except psycopg.Error as exc:
            return str(exc).strip().splitlines()[0] if str(exc).strip() else fallback
        return fallback

    def _ensure_migrated(self, conn: psycopg.Connection[Any]) -> None:
        key = (self.url, os.getpid())
        if key in _MIGRATED:
            return
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            conn.execute(VERSIONS_TABLE)
            have = {int(r[0]) for r in conn.execute("SELECT version FROM schema_migrations")}
            todo = pending(have)
            for migration in todo:
                for statement in migration.postgres:
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (%s, %s, %s)",
                    (migration.version, migration.name, utc_now()),
                )
        _MIGRATED[key] = [m.version for m in todo]

    def migrate(self) -> list[int]:
        """Apply missing migrations; the versions this process applied."""
        with self.transaction(write=False):
            pass
        return list(_MIGRATED[(self.url, os.getpid())])

    def versions(self) -> list[int]:
        """The schema versions recorded in the database."""
        with self.transaction(write=False) as tx:
            rows = tx.rows("SELECT version FROM schema_migrations ORDER BY version")
        return [int(r["version"]) for r in rows]

    def close(self) -> None:
        """Close this process's pool for this URL (the next use opens a new one)."""
        key = (self.url, os.getpid())
        with _GUARD:
            pool = _POOLS.pop(key, None)
            _MIGRATED.pop(key, None)
        if pool is not None:
            pool.close()


@atexit.register
def close_pools() -> None:
    """Close every pool this process opened (at exit, and for tests between servers)."""
    with _GUARD:
        mine = [key for key in _POOLS if key[1] == os.getpid()]
        pools = [_POOLS.pop(key) for key in mine]
        for key in mine:
            _MIGRATED.pop(key, None)
    for pool in pools:
        pool.close()
