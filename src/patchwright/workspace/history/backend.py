"""The seam between the history and its database.

A :class:`Backend` hands out transactions (:class:`Tx`) that run SQL written once for
both databases: ``?`` placeholders, ``ON CONFLICT DO NOTHING``, no dialect-only
functions. The SQLite backend runs it as is; the PostgreSQL backend turns ``?`` into
``%s``. Every database error leaves a backend as a :class:`PatchwrightError` with code
``history``; a broken unique constraint carries ``details["unique"]``, the
``table.column`` it guards, so the store can tell "batch already undone" apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from contextlib import AbstractContextManager

from patchwright._records import record
from patchwright.model.errors import ErrorCode, PatchwrightError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol

    Row = dict[str, Any]
else:
    # no ``typing`` at run time (start-up time): the protocols below are structural types
    # for type checkers, which nothing checks at run time, and a row is a dict
    Protocol = object
    Row = dict

#: The version of every schema migration (migrations.py checks that the two agree). A
#: store that has them all needs nothing more: opening one decides so without importing
#: the migrations, which only a new or older store needs (start-up time of a command).
SCHEMA_VERSIONS = frozenset({1, 2, 3, 4, 5, 6, 7})


@record(frozen=True)
class Scope:
    """Where the batches a store writes come from.

    Attributes:
        machine: the machine's name (see identity.py).
        workspace: the real path of the workspace root.
        session: the session (by default one per process, see identity.py).
    """

    machine: str
    workspace: str
    session: str


class Tx(Protocol):
    """One open transaction."""

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run a query; its rows as dicts."""

    def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Run a statement."""

    def run_many(self, sql: str, params: Sequence[Sequence[Any]]) -> None:
        """Run a statement once per parameter tuple."""

    def count(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run an ``UPDATE`` or ``DELETE``; the number of rows it changed."""


class Backend(Protocol):
    """A database the history lives in.

    Attributes:
        shared: one history for many workspaces and machines (PostgreSQL), rather than
            one per workspace (SQLite); reads of "this workspace" then filter by place.
        blob_folder: where contents of :data:`FILE_BLOB_MIN` bytes and more are kept as
            files, or ``None`` to keep every content in the database.
    """

    shared: bool
    blob_folder: str | None

    def describe(self) -> str:
        """The store for people: a path or a URL without its password."""

    def transaction(self, *, write: bool) -> AbstractContextManager[Tx]:
        """A transaction, committed when the block ends, rolled back when it raises.

        Raises:
            PatchwrightError: ``history`` when the database fails or cannot be reached.
        """

    def migrate(self) -> list[int]:
        """Apply the migrations the store lacks; the versions applied now."""

    def versions(self) -> list[int]:
        """The schema versions the store has (migrating first, as any use does)."""

    def close(self) -> None:
        """Release the connection(s) of this process."""


def history_error(message: str, hint: str = "", **details: Any) -> PatchwrightError:
    """A ``history`` error."""
    return PatchwrightError(ErrorCode.HISTORY, message, hint, details=details)


_PG_CONSTRAINT = re.compile(r"(batches|files|changes|proposals)_(id|reverts)_key")


def unique_column(constraint: str) -> str:
    """``table.column`` of a unique constraint, from SQLite's message or a PostgreSQL name."""
    sqlite = re.search(r"UNIQUE constraint failed: (\w+\.\w+)", constraint)
    if sqlite:
        return sqlite.group(1)
    pg = _PG_CONSTRAINT.fullmatch(constraint)
    return f"{pg.group(1)}.{pg.group(2)}" if pg else constraint
