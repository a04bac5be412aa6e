"""The history store: every commit, in an embedded SQLite database.

One database per workspace root, in the state folder (see state.py). Tables::

    batches(seq, id, created_at, tool, label, key, meta, reverts UNIQUE)
    files(seq, id, batch_id, position, path, move_from, action, key, label,
          before_sha256, after_sha256, before_mode, after_mode, diff, meta)
    changes(seq, id, file_id, batch_id, position, key, description, op,
            old_start, old_end, new_start, new_end, meta)
    blobs(sha256, data)      small before and after contents, stored once per content

Contents of 64 KiB and more are kept as files beside the database instead,
``blobs/<sha256>``, written before the batch's rows so a row never names a missing
content: writing megabytes into SQLite costs them twice (the WAL, then the checkpoint)
and dominated the commit of a large file. A before-content is hard-linked from the
commit journal's before-image (the old file itself, see journal.py) when it has no other
name left, so keeping it costs no copy; an after-content is copied (a link to the file
in the tree would change with it). Both are fsynced before the rows commit, and SQLite
runs with ``synchronous=FULL`` (its WAL default), so the history survives a power cut
as the tree does. Every content file is checked against its SHA256 when read: a damaged
one is reported, never returned. Stores written before content files existed keep
working: :meth:`History.content` falls back to the table.

IDs are short and readable (``b-``/``f-``/``c-`` and eight hex digits); they are drawn at
random and checked against the store before use. ``reverts`` is unique, so a batch can be
undone once even when two processes try at the same instant. :meth:`History.get` answers
spec 001's ``get_patch_change``: a batch, a file patch or a change by ID, as a JSON-ready
dict. Each call opens its own connection, so one :class:`History` is safe to share
between threads; WAL mode lets readers run while a commit writes.
"""

from __future__ import annotations

import json
import posixpath
import re
import secrets
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.workspace.fs import FileSystem, OsFileSystem
from patchwright.workspace.records import (
    ChangeCommitRecord,
    CommitRecord,
    FileCommitRecord,
    draw_ids,
    sha256_hex,
)

#: Contents at least this large are stored as files, not in the database.
FILE_BLOB_MIN = 64 * 1024
_SHA256 = re.compile(r"[0-9a-f]{64}")
# IDs checked against the store per query (well under SQLite's bound-parameter limit)
_ID_CHUNK = 500
_ID_TABLES = {"b": "batches", "f": "files", "c": "changes"}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS batches (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL,
    tool TEXT NOT NULL, label TEXT NOT NULL, key TEXT, meta TEXT NOT NULL, reverts TEXT UNIQUE);
CREATE TABLE IF NOT EXISTS files (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
    batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE, position INTEGER NOT NULL,
    path TEXT NOT NULL, move_from TEXT, action TEXT NOT NULL, key TEXT, label TEXT NOT NULL,
    before_sha256 TEXT, after_sha256 TEXT, before_mode INTEGER, after_mode INTEGER,
    diff TEXT NOT NULL, meta TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE,
    file_id TEXT NOT NULL REFERENCES files(id) ON DELETE CASCADE, batch_id TEXT NOT NULL,
    position INTEGER NOT NULL, key TEXT, description TEXT NOT NULL, op TEXT NOT NULL,
    old_start INTEGER, old_end INTEGER, new_start INTEGER, new_end INTEGER, meta TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS blobs (sha256 TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS files_batch ON files(batch_id);
CREATE INDEX IF NOT EXISTS changes_file ON changes(file_id);
"""

_BATCH_COLUMNS = "id, created_at, tool, label, key, meta, reverts"
_FILE_COLUMNS = (
    "id, batch_id, path, move_from, action, key, label, before_sha256, after_sha256, "
    "before_mode, after_mode, diff, meta"
)
_CHANGE_COLUMNS = (
    "id, batch_id, file_id, key, description, op, old_start, old_end, new_start, new_end, meta"
)


def _error(message: str, hint: str = "", **details: Any) -> PatchwrightError:
    return PatchwrightError(ErrorCode.HISTORY, message, hint, details=details)


class History:
    """The history store of one workspace.

    Args:
        database: the SQLite file (created with its folder on first use).
        timeout: how long to wait for another writer, in seconds.
        fs: the file system that content files are written through.
    """

    def __init__(
        self, database: Path, *, timeout: float = 30.0, fs: FileSystem | None = None
    ) -> None:
        self.database = database
        self.timeout = timeout
        self.fs: FileSystem = fs if fs is not None else OsFileSystem()
        self.blobs = str(database.parent / "blobs")
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            self.database.parent.mkdir(parents=True, exist_ok=True)
            with closing(sqlite3.connect(self.database, timeout=self.timeout)) as db:
                db.row_factory = sqlite3.Row
                db.execute("PRAGMA foreign_keys=ON")
                with db:  # one transaction: committed on success, rolled back on error
                    yield db
        except sqlite3.Error as exc:
            raise _error(f"The history store {self.database} failed: {exc}.") from exc

    # writing ---------------------------------------------------------------------------------
    def fresh_ids(self, counts: Mapping[str, int]) -> dict[str, list[str]]:
        """New IDs per prefix (``b``, ``f``, ``c``), unused in the store and distinct."""
        ids = draw_ids(counts)
        with self._connect() as db:
            for prefix, drawn in ids.items():
                # one query per few hundred IDs, not one per ID: a diff of thousands of
                # hunks records thousands of changes
                taken = _existing(db, _ID_TABLES[prefix], drawn)
                if not taken:
                    continue
                kept = [i for i in drawn if i not in taken]
                more = _redraw(db, _ID_TABLES[prefix], prefix, len(drawn) - len(kept), set(drawn))
                ids[prefix] = kept + more
        return ids

    def insert(
        self,
        record: CommitRecord,
        contents: Mapping[str, bytes],
        images: Mapping[str, str] | None = None,
    ) -> None:
        """Record a commit with the contents (by SHA256) its files had before and after.

        ``images`` maps a SHA256 to a file that holds that content and that nothing
        else writes to (a journal before-image); a large content may be stored as a
        hard link to it instead of a copy.

        Raises:
            PatchwrightError: ``history`` when the store refuses it (for instance the
                batch it reverts was undone by someone else meanwhile).
            OSError: a content file could not be written (the commit rolls back and
                reports it like any other failed write).
        """
        small = {sha: data for sha, data in contents.items() if len(data) < FILE_BLOB_MIN}
        large = {sha: data for sha, data in contents.items() if len(data) >= FILE_BLOB_MIN}
        self._store_files(large, images or {})
        try:
            with self._connect() as db:
                db.execute("BEGIN IMMEDIATE")
                self._insert(db, record, small)
        except PatchwrightError as exc:
            if record.reverts and "UNIQUE constraint failed: batches.reverts" in exc.message:
                raise _error(
                    f"Batch {record.reverts} was undone by another edit meanwhile.",
                    "Nothing to do: the batch is already undone.",
                    batch_id=record.reverts,
                ) from exc
            raise

    def _insert(
        self, db: sqlite3.Connection, record: CommitRecord, contents: Mapping[str, bytes]
    ) -> None:
        db.execute(
            f"INSERT INTO batches ({_BATCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (record.batch_id, record.created_at, record.tool, record.label, record.key,
             json.dumps(record.meta), record.reverts),
        )  # fmt: skip
        db.executemany(
            "INSERT OR IGNORE INTO blobs (sha256, data) VALUES (?, ?)", list(contents.items())
        )
        for position, f in enumerate(record.files):
            db.execute(
                f"INSERT INTO files (position, {_FILE_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (position, f.file_id, record.batch_id, f.path, f.move_from, f.action, f.key,
                 f.label, f.before_sha256, f.after_sha256, f.before_mode, f.after_mode, f.diff,
                 json.dumps(f.meta)),
            )  # fmt: skip
            db.executemany(
                f"INSERT INTO changes (position, {_CHANGE_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(i, c.change_id, record.batch_id, f.file_id, c.key, c.description, c.op,
                  c.old_start, c.old_end, c.new_start, c.new_end, json.dumps(c.meta))
                 for i, c in enumerate(f.changes)],
            )  # fmt: skip

    def _store_files(self, large: Mapping[str, bytes], images: Mapping[str, str]) -> None:
        """Make every large content durable as ``blobs/<sha256>`` (see module docstring)."""
        if not large:
            return
        fs = self.fs
        fs.mkdir(self.blobs)
        added = False
        for sha, data in large.items():
            final = posixpath.join(self.blobs, sha)
            if fs.probe(final).kind == "file":
                continue  # content-addressed: the same content is already stored
            image = images.get(sha)
            # a before-image with another name left (a hard link elsewhere in the tree)
            # could still be written through that name, so it is copied instead
            if image is not None and fs.probe(image).nlink == 1:
                try:
                    if fs.link(image, final).kind == "file":
                        added = True
                        continue
                except FileExistsError:
                    continue  # stored meanwhile by another commit
            temp = posixpath.join(self.blobs, f".{sha}.{secrets.token_hex(4)}.tmp")
            fs.write_new(temp, data, None)
            fs.replace(temp, final)
            added = True
        if added:
            fs.fsync_dir(self.blobs)

    def delete_batch(self, batch_id: str) -> None:
        """Forget a batch (its commit was rolled back); unknown IDs are ignored."""
        with self._connect() as db:
            db.execute("DELETE FROM changes WHERE batch_id=?", (batch_id,))
            db.execute("DELETE FROM files WHERE batch_id=?", (batch_id,))
            db.execute("DELETE FROM batches WHERE id=?", (batch_id,))

    # reading ---------------------------------------------------------------------------------
    def list_batches(self, limit: int = 20, offset: int = 0) -> list[dict[str, Any]]:
        """The newest batches first, each with its files (no diffs or contents)."""
        with self._connect() as db:
            rows = db.execute(
                f"SELECT {_BATCH_COLUMNS} FROM batches ORDER BY seq DESC LIMIT ? OFFSET ?",
                (limit, offset),
            ).fetchall()
            return [self._batch_dict(db, row, brief=True) for row in rows]

    def get(self, item_id: str) -> dict[str, Any]:
        """A batch (``b-``), file patch (``f-``) or change (``c-``) by ID, as a dict.

        Raises:
            PatchwrightError: ``history`` when no record has that ID.
        """
        with self._connect() as db:
            if item_id.startswith("b-"):
                row = db.execute(
                    f"SELECT {_BATCH_COLUMNS} FROM batches WHERE id=?", (item_id,)
                ).fetchone()
                if row is not None:
                    return self._batch_dict(db, row, brief=False)
            elif item_id.startswith("f-"):
                row = db.execute(
                    f"SELECT {_FILE_COLUMNS} FROM files WHERE id=?", (item_id,)
                ).fetchone()
                if row is not None:
                    return self._file_dict(db, row)
            elif item_id.startswith("c-"):
                row = db.execute(
                    f"SELECT {_CHANGE_COLUMNS} FROM changes WHERE id=?", (item_id,)
                ).fetchone()
                if row is not None:
                    return self._change_dict(db, row)
        raise _error(
            f"No batch, file patch or change has the ID {item_id!r}.",
            "Use an ID returned by an earlier edit: batch IDs start with 'b-', file patch "
            "IDs with 'f-', change IDs with 'c-'.",
            id=item_id,
        )

    def content(self, sha256: str | None) -> bytes | None:
        """A stored before/after content by its SHA256 (``None`` in, ``None`` out)."""
        if sha256 is None:
            return None
        if _SHA256.fullmatch(sha256):
            found = self.fs.read_file(posixpath.join(self.blobs, sha256), 1 << 40)
            if found.data is not None:
                if sha256_hex(found.data) != sha256:
                    raise _error(
                        f"The history's copy of the content with sha256 {sha256} is damaged "
                        "(its bytes no longer have that hash).",
                        "That batch can no longer be undone or shown from history.",
                        sha256=sha256,
                    )
                return found.data
        with self._connect() as db:
            row = db.execute("SELECT data FROM blobs WHERE sha256=?", (sha256,)).fetchone()
        if row is None:
            raise _error(f"The history store has no content with sha256 {sha256}.")
        return bytes(row["data"])

    def load(self, batch_id: str) -> tuple[CommitRecord, str | None]:
        """A batch as a :class:`CommitRecord`, plus the ID of the batch that undid it."""
        data = self.get(batch_id)
        if data["kind"] != "batch":
            raise _error(f"{batch_id!r} is a {data['kind']} ID, not a batch ID.", batch_id=batch_id)
        files = tuple(
            FileCommitRecord(
                file_id=f["id"], path=f["path"], action=f["action"],
                before_sha256=f["before_sha256"], after_sha256=f["after_sha256"],
                diff=f["diff"], move_from=f["move_from"], before_mode=f["before_mode"],
                after_mode=f["after_mode"], key=f["key"], label=f["label"],
                changes=tuple(_change_record(c) for c in f["changes"]), meta=f["meta"],
            )
            for f in data["files"]
        )  # fmt: skip
        record = CommitRecord(
            data["id"], files, data["created_at"], data["tool"], data["label"], data["key"],
            data["meta"], data["reverts"],
        )  # fmt: skip
        return record, data["reverted_by"]

    def latest_undoable(self) -> str | None:
        """The newest batch that is neither undone nor itself an undo."""
        with self._connect() as db:
            row = db.execute(
                "SELECT id FROM batches b WHERE reverts IS NULL AND NOT EXISTS "
                "(SELECT 1 FROM batches u WHERE u.reverts = b.id) ORDER BY seq DESC LIMIT 1"
            ).fetchone()
        return None if row is None else str(row["id"])

    # row shapes ------------------------------------------------------------------------------
    def _batch_dict(
        self, db: sqlite3.Connection, row: sqlite3.Row, *, brief: bool
    ) -> dict[str, Any]:
        undo = db.execute("SELECT id FROM batches WHERE reverts=?", (row["id"],)).fetchone()
        files = db.execute(
            f"SELECT {_FILE_COLUMNS} FROM files WHERE batch_id=? ORDER BY position", (row["id"],)
        ).fetchall()
        data = {**_plain(row), "kind": "batch", "reverted_by": undo["id"] if undo else None}
        if brief:
            data["files"] = [
                {
                    "id": f["id"],
                    "path": f["path"],
                    "action": f["action"],
                    "move_from": f["move_from"],
                }
                for f in files
            ]
        else:
            data["files"] = [self._file_dict(db, f) for f in files]
        return data

    def _file_dict(self, db: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
        changes = db.execute(
            f"SELECT {_CHANGE_COLUMNS} FROM changes WHERE file_id=? ORDER BY position",
            (row["id"],),
        ).fetchall()
        return {
            **_plain(row),
            "kind": "file",
            "changes": [_plain(c) | {"kind": "change"} for c in changes],
        }

    def _change_dict(self, db: sqlite3.Connection, row: sqlite3.Row) -> dict[str, Any]:
        path = db.execute("SELECT path FROM files WHERE id=?", (row["file_id"],)).fetchone()
        return {**_plain(row), "kind": "change", "path": path["path"] if path else None}


def _redraw(
    db: sqlite3.Connection, table: str, prefix: str, count: int, avoid: set[str]
) -> list[str]:
    """``count`` more IDs for ``table``, none in ``avoid`` nor in the store."""

    def used(candidate: str) -> bool:
        return candidate in avoid or bool(_existing(db, table, [candidate]))

    return draw_ids({prefix: count}, used)[prefix]


def _existing(db: sqlite3.Connection, table: str, ids: Sequence[str]) -> set[str]:
    """The IDs of ``ids`` already used in ``table``."""
    found: set[str] = set()
    for start in range(0, len(ids), _ID_CHUNK):
        chunk = list(ids[start : start + _ID_CHUNK])
        marks = ",".join("?" * len(chunk))
        rows = db.execute(f"SELECT id FROM {table} WHERE id IN ({marks})", chunk).fetchall()
        found.update(str(row["id"]) for row in rows)
    return found


def _plain(row: sqlite3.Row) -> dict[str, Any]:
    data = {key: row[key] for key in row.keys()}  # noqa: SIM118  # sqlite3.Row is not a Mapping
    if "meta" in data:
        data["meta"] = json.loads(data["meta"])
    return data


def _change_record(data: dict[str, Any]) -> ChangeCommitRecord:
    return ChangeCommitRecord(
        data["id"], data["key"], data["description"], data["op"], data["old_start"],
        data["old_end"], data["new_start"], data["new_end"], data["meta"],
    )  # fmt: skip
