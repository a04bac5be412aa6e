"""Versioned schema migrations of the history store, one list for both databases.

Each :class:`Migration` has a version, a name and its statements in each dialect; a
store records the versions it has in ``schema_migrations(version, name, applied_at)``.
:func:`pending` says which migrations a store still lacks; the backends apply them in
order, in one transaction each, holding a lock that serialises migrators (SQLite's
write lock, a PostgreSQL advisory lock), so two processes opening a new store at once
apply each migration once.

Version 1 is the schema SQLite stores had before migrations existed, written with
``IF NOT EXISTS``: on such a store it changes nothing and is only recorded, which is
how old stores are carried over. Version 2 records where each batch comes from
(machine, workspace root, session); on an old SQLite store (one database per
workspace) its batches are given the machine and workspace of the workspace opening
it (``backfill``). Version 3 adds the table of contents kept as deltas (contents.py).
Version 4 drops the index of version 2 from SQLite stores: one database holds one
workspace, whose queries never select by place, and every commit wrote one page of it.
Version 5 lets a delta replace several ranges of its base (``deltas.regions``; rows
without it are the one-range deltas of version 3, still read as they are). Version 6
keeps the proposals of approval mode beside the batches (approval.py), with the machine
and workspace that proposed each, so a shared store shows every machine's waiting
writes; a SQLite store's proposals were kept in their own file before. Version 7 keeps
the text the model was answered for each batch (``batches.answer``, written once the
call that made it has answered; empty for batches made outside a tool call).

To add a table, append a migration with the next
version; never edit one that has shipped.
"""

from __future__ import annotations

from patchwright._records import record
from patchwright.workspace.history.backend import SCHEMA_VERSIONS

#: How the table of applied versions is created (same text in both dialects).
VERSIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
)


@record(frozen=True)
class Migration:
    """One schema change.

    Attributes:
        version: its number (1, 2, ...), applied in increasing order.
        name: what it does, recorded beside the version.
        sqlite / postgres: its statements in each dialect.
        backfill: after the statements, give batches without a machine the machine and
            workspace of the store's opener (SQLite only: one database per workspace).
    """

    version: int
    name: str
    sqlite: tuple[str, ...]
    postgres: tuple[str, ...]
    backfill: bool = False


_SQLITE_V1 = (
    """CREATE TABLE IF NOT EXISTS batches (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL,
    tool TEXT NOT NULL, label TEXT NOT NULL, key TEXT, meta TEXT NOT NULL, reverts TEXT UNIQUE)""",
    """CREATE TABLE IF NOT EXISTS files (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
    batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    path TEXT NOT NULL, move_from TEXT, action TEXT NOT NULL, key TEXT, label TEXT NOT NULL,
    before_sha256 TEXT, after_sha256 TEXT, before_mode INTEGER, after_mode INTEGER,
    diff TEXT NOT NULL, meta TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
    file_id TEXT NOT NULL REFERENCES files(id) ON DELETE CASCADE, batch_id TEXT NOT NULL,
    position INTEGER NOT NULL, key TEXT, description TEXT NOT NULL, op TEXT NOT NULL,
    old_start INTEGER, old_end INTEGER, new_start INTEGER, new_end INTEGER, meta TEXT NOT NULL)""",
    "CREATE TABLE IF NOT EXISTS blobs (sha256 TEXT PRIMARY KEY, data BLOB NOT NULL)",
    "CREATE INDEX IF NOT EXISTS files_batch ON files(batch_id)",
    "CREATE INDEX IF NOT EXISTS changes_file ON changes(file_id)",
)

# Constraint names are spelled out: a unique violation is reported by them (see
# backend.unique_column).
_POSTGRES_V1 = (
    """CREATE TABLE batches (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL CONSTRAINT batches_id_key UNIQUE, created_at TEXT NOT NULL,
    tool TEXT NOT NULL, label TEXT NOT NULL, key TEXT, meta TEXT NOT NULL,
    reverts TEXT CONSTRAINT batches_reverts_key UNIQUE)""",
    """CREATE TABLE files (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL CONSTRAINT files_id_key UNIQUE,
    batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    path TEXT NOT NULL, move_from TEXT, action TEXT NOT NULL, key TEXT, label TEXT NOT NULL,
    before_sha256 TEXT, after_sha256 TEXT, before_mode INTEGER, after_mode INTEGER,
    diff TEXT NOT NULL, meta TEXT NOT NULL)""",
    """CREATE TABLE changes (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL CONSTRAINT changes_id_key UNIQUE,
    file_id TEXT NOT NULL REFERENCES files(id) ON DELETE CASCADE, batch_id TEXT NOT NULL,
    position INTEGER NOT NULL, key TEXT, description TEXT NOT NULL, op TEXT NOT NULL,
    old_start INTEGER, old_end INTEGER, new_start INTEGER, new_end INTEGER, meta TEXT NOT NULL)""",
    "CREATE TABLE blobs (sha256 TEXT PRIMARY KEY, data BYTEA NOT NULL)",
    "CREATE INDEX files_batch ON files(batch_id)",
    "CREATE INDEX changes_file ON changes(file_id)",
)

_PLACE_COLUMNS = tuple(
    f"ALTER TABLE batches ADD COLUMN {name} TEXT" for name in ("machine", "workspace", "session")
)
_PLACE_INDEX = "CREATE INDEX batches_place ON batches(workspace, machine, seq)"

_DELTAS = (
    "CREATE TABLE deltas (sha256 TEXT PRIMARY KEY, base TEXT NOT NULL, depth INTEGER NOT NULL, "
    "prefix {integer} NOT NULL, suffix {integer} NOT NULL, middle {blob} NOT NULL)"
)

_PROPOSALS = (
    """CREATE TABLE proposals (
    seq {serial}, id TEXT NOT NULL CONSTRAINT proposals_id_key UNIQUE,
    created_at TEXT NOT NULL, status TEXT NOT NULL, session TEXT NOT NULL, tool TEXT NOT NULL,
    label TEXT NOT NULL, batch TEXT NOT NULL, files TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '', batch_id TEXT, decided_at TEXT,
    waiter TEXT NOT NULL DEFAULT '', waiter_beat {real}, expires_at {real},
    approver TEXT NOT NULL DEFAULT '', approver_at {real},
    machine TEXT NOT NULL, workspace TEXT NOT NULL)""",
    """CREATE TABLE proposal_contents (
    proposal_id TEXT NOT NULL REFERENCES proposals(id) ON DELETE CASCADE,
    position INTEGER NOT NULL, data {blob}, PRIMARY KEY (proposal_id, position))""",
    "CREATE INDEX proposals_status ON proposals(status, seq)",
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "batches, files, changes and contents", _SQLITE_V1, _POSTGRES_V1),
    Migration(
        2,
        "machine, workspace and session of every batch",
        (*_PLACE_COLUMNS, _PLACE_INDEX),
        (*_PLACE_COLUMNS, _PLACE_INDEX),
        backfill=True,
    ),
    Migration(
        3,
        "contents kept as changes to the content they replaced",
        (_DELTAS.format(integer="INTEGER", blob="BLOB"),),
        (_DELTAS.format(integer="BIGINT", blob="BYTEA"),),
    ),
    Migration(
        4,
        "no index of batches by place in a one-workspace store",
        ("DROP INDEX IF EXISTS batches_place",),
        (),  # a shared store selects each workspace's batches by place: it keeps the index
    ),
    Migration(
        5,
        "contents kept as changes of several ranges of the content they replaced",
        ("ALTER TABLE deltas ADD COLUMN regions BLOB",),
        ("ALTER TABLE deltas ADD COLUMN regions BYTEA",),
    ),
    Migration(
        6,
        "proposals waiting for approval, with the machine and workspace that made them",
        tuple(
            s.format(serial="INTEGER PRIMARY KEY AUTOINCREMENT", blob="BLOB", real="REAL")
            for s in _PROPOSALS
        ),
        tuple(
            s.format(
                serial="BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
                blob="BYTEA",
                real="DOUBLE PRECISION",
            )
            for s in _PROPOSALS
        ),
    ),
    Migration(
        7,
        "the text the model was answered for each batch",
        ("ALTER TABLE batches ADD COLUMN answer TEXT",),
        ("ALTER TABLE batches ADD COLUMN answer TEXT",),
    ),
)

#: The schema version this patchwright writes and reads.
LATEST = MIGRATIONS[-1].version

if {m.version for m in MIGRATIONS} != SCHEMA_VERSIONS:  # pragma: no cover
    raise ImportError("backend.SCHEMA_VERSIONS must list the version of every migration")


def pending(applied: set[int]) -> list[Migration]:
    """The migrations not in ``applied``, in the order they are applied."""
    return [m for m in MIGRATIONS if m.version not in applied]
