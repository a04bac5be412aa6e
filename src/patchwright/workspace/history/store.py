"""The :class:`History`: batches, file patches, changes and contents, on any backend.

Tables (see migrations.py)::

    batches(seq, id, created_at, tool, label, key, meta, reverts UNIQUE,
            machine, workspace, session, answer)
    files(seq, id, batch_id, position, path, move_from, action, key, label,
          before_sha256, after_sha256, before_mode, after_mode, diff, meta)
    changes(seq, id, file_id, batch_id, position, key, description, op,
            old_start, old_end, new_start, new_end, meta)
    blobs(sha256, data)      before and after contents, stored once per content

IDs are short and readable (``b-``/``f-``/``c-`` and eight hex digits); they are drawn at
random and checked against the store before use (one query for the IDs of several
commits, see :meth:`History.fresh_ids`).
``reverts`` is unique, so a batch can be undone once even when two processes try at the
same instant. :meth:`History.get` answers spec 001's ``get_patch_change``: a batch, a
file patch or a change by ID, as a JSON-ready dict, of this workspace on this machine
(every workspace's only when asked, for the fleet views people use). Listing and "the
latest batch to undo" are of this workspace on this machine unless asked for all; undo
itself is refused for a batch recorded elsewhere (:meth:`History.check_local`). One
:class:`History` is safe to share between threads.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager

from patchwright.model.errors import PatchwrightError
from patchwright.workspace.fs import FileSystem, OsFileSystem
from patchwright.workspace.history.backend import Backend, Row, Scope, Tx, history_error
from patchwright.workspace.history.contents import ContentStore
from patchwright.workspace.history.group import GroupCommit
from patchwright.workspace.records import (
    ChangeCommitRecord,
    CommitRecord,
    FileCommitRecord,
    draw_ids,
    sha256_hex,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from patchwright.workspace.history.deferred import DeferredDeletions

# IDs checked against the store per query (well under SQLite's bound-parameter limit)
_ID_CHUNK = 300
# chunks joined in one query (SQLite allows at most 500 terms in a compound SELECT)
_COMPOUND_TERMS = 50
#: IDs per prefix checked beyond a commit's own, for the next commits (History.fresh_ids)
_SPARE_IDS = {"b": 32, "f": 32, "c": 32}
_ID_TABLES = {"b": "batches", "f": "files", "c": "changes"}
_BATCH_COLUMNS = "id, created_at, tool, label, key, meta, reverts, machine, workspace, session"
# what a read of a batch returns: its columns and, once the call answered, the answer
_BATCH_READ = _BATCH_COLUMNS + ", answer"
_FILE_COLUMNS = (
    "id, batch_id, path, move_from, action, key, label, before_sha256, after_sha256, "
    "before_mode, after_mode, diff, meta"
)
_CHANGE_COLUMNS = (
    "id, batch_id, file_id, key, description, op, old_start, old_end, new_start, new_end, meta"
)


def _marks(count: int) -> str:
    return ",".join("?" * count)


class History:
    """The history of one workspace, in a store that may hold others' too.

    Args:
        backend: the database (SQLite of this workspace, or a shared PostgreSQL).
        scope: this workspace's machine, root and session, recorded with each batch.
        fs: the file system that content files are written through.
        deferred: where to remember batches a rollback could not delete from an
            unreachable shared store (deferred.py); ``None`` raises instead.
    """

    def __init__(
        self,
        backend: Backend,
        scope: Scope,
        fs: FileSystem | None = None,
        *,
        deferred: str | None = None,
    ) -> None:
        self.backend = backend
        self.scope = scope
        self.fs: FileSystem = fs if fs is not None else OsFileSystem()
        self.contents = ContentStore(backend, self.fs)
        self.deferred: DeferredDeletions | None = None
        if deferred is not None:  # a shared store's only: start-up time of the others
            from patchwright.workspace.history.deferred import DeferredDeletions

            self.deferred = DeferredDeletions(deferred, self.fs)
        # concurrent writes share transactions where the backend can (group.py)
        savepoint = getattr(backend, "savepoint", None)
        self.group = GroupCommit(backend, savepoint) if savepoint is not None else None
        self._spare: dict[str, list[str]] = {}
        self._spare_pid = 0
        self._spare_lock = threading.Lock()

    @property
    def shared(self) -> bool:
        """Whether the store holds the history of other workspaces and machines too."""
        return self.backend.shared

    def describe(self) -> str:
        """The store for people: a database path or a URL without its password."""
        return self.backend.describe()

    def migrate(self) -> list[int]:
        """Apply missing schema migrations (done on first use anyway); versions applied."""
        return self.backend.migrate()

    def versions(self) -> list[int]:
        """The schema versions the store has."""
        return self.backend.versions()

    def close(self) -> None:
        """Release this process's connection(s); the next call opens them again."""
        self.backend.close()

    @contextmanager
    def _transaction(self, *, write: bool) -> Iterator[Tx]:
        """A transaction of the backend, once the deletions left waiting are done."""
        waiting = self.deferred.pending() if self.deferred is not None else []
        if waiting and self.deferred is not None:
            with self.backend.transaction(write=True) as tx:
                for batch_id in waiting:
                    _delete(tx, batch_id)
            self.deferred.done(waiting)
        with self.backend.transaction(write=write) as tx:
            yield tx

    def _write(self, work: Callable[[Tx], None]) -> None:
        """``work(tx)`` in a write transaction: one shared with other threads' writes
        arriving meanwhile (group.py) when the backend allows it, else one of its own."""
        if self.group is not None and self.deferred is None:
            self.group.run(work)
            return
        with self._transaction(write=True) as tx:
            work(tx)

    # writing ---------------------------------------------------------------------------------
    def fresh_ids(self, counts: Mapping[str, int]) -> dict[str, list[str]]:
        """New IDs per prefix (``b``, ``f``, ``c``), unused in the store and distinct.

        IDs are checked against the store a few commits' worth at a time
        (:data:`_SPARE_IDS` more than asked), and the spare ones handed out by the next
        calls without a query. A spare ID is as safe as one checked just before use: in
        both cases only another writer drawing that very ID meanwhile could take it (one
        chance in four billion per ID it draws), and the store's unique keys refuse the
        second batch. A forked process forgets its parent's spares.
        """
        with self._spare_lock:
            if self._spare_pid != os.getpid():
                self._spare, self._spare_pid = {}, os.getpid()
            if any(len(self._spare.get(p, ())) < n for p, n in counts.items()):
                wanted = {p: n + _SPARE_IDS.get(p, 0) for p, n in counts.items()}
                self._spare = self._unused_ids(wanted)
            taken = {p: self._spare[p][:n] for p, n in counts.items()}
            for prefix, n in counts.items():
                del self._spare[prefix][:n]
            return taken

    def _unused_ids(self, counts: Mapping[str, int]) -> dict[str, list[str]]:
        """New IDs per prefix, checked unused in the store (one query) and distinct."""
        ids = draw_ids(counts)
        with self._transaction(write=False) as tx:
            taken = _existing(tx, ids)
            while taken:  # one in four billion per ID: draw again the few taken
                avoid = {i for drawn in ids.values() for i in drawn}
                again = {}
                for prefix, drawn in ids.items():
                    ids[prefix] = [i for i in drawn if i not in taken]
                    more = draw_ids({prefix: len(drawn) - len(ids[prefix])}, avoid.__contains__)
                    again[prefix] = more[prefix]
                    ids[prefix] += again[prefix]
                taken = _existing(tx, again)
        return ids

    def insert(
        self,
        record: CommitRecord,
        contents: Mapping[str, bytes],
        images: Mapping[str, str] | None = None,
    ) -> None:
        """Record a commit with the contents (by SHA256) its files had before and after.

        ``images`` maps a SHA256 to a file that holds that content, durably (fsynced),
        and that nothing else writes to (a journal before-image); the content may be
        stored as a hard link to it instead of a copy.

        Raises:
            PatchwrightError: ``history`` when the store refuses it (for instance the
                batch it reverts was undone by someone else meanwhile) or cannot be
                reached.
            OSError: a content file could not be written (the commit rolls back and
                reports it like any other failed write).
        """

        def work(tx: Tx) -> None:
            self._insert(tx, record)
            self.contents.store(tx, contents, record.files, images or {})

        try:
            self._write(work)
        except Exception as exc:
            details = getattr(exc, "details", {})
            if record.reverts and details.get("unique") == "batches.reverts":
                raise history_error(
                    f"Batch {record.reverts} was undone by another edit meanwhile.",
                    "Nothing to do: the batch is already undone.",
                    batch_id=record.reverts,
                ) from exc
            raise

    def _insert(self, tx: Tx, record: CommitRecord) -> None:
        scope = self.scope
        tx.run(
            f"INSERT INTO batches ({_BATCH_COLUMNS}) VALUES ({_marks(10)})",
            (record.batch_id, record.created_at, record.tool, record.label, record.key,
             dump_meta(record.meta), record.reverts, scope.machine, scope.workspace,
             scope.session),
        )  # fmt: skip
        tx.run_many(
            f"INSERT INTO files (position, {_FILE_COLUMNS}) VALUES ({_marks(14)})",
            [(position, f.file_id, record.batch_id, f.path, f.move_from, f.action, f.key,
              f.label, f.before_sha256, f.after_sha256, f.before_mode, f.after_mode, f.diff,
              dump_meta(f.meta))
             for position, f in enumerate(record.files)],
        )  # fmt: skip
        dumps = _MetaDumps()
        tx.run_many(
            f"INSERT INTO changes (position, {_CHANGE_COLUMNS}) VALUES ({_marks(12)})",
            [(i, c.change_id, record.batch_id, f.file_id, c.key, c.description, c.op,
              c.old_start, c.old_end, c.new_start, c.new_end, dumps(c.meta))
             for f in record.files for i, c in enumerate(f.changes)],
        )  # fmt: skip

    def delete_batch(self, batch_id: str) -> None:
        """Forget a batch (its commit was rolled back); unknown IDs are ignored.

        When a shared store cannot be reached, the batch is remembered locally and
        deleted before this workspace's next use of the store (deferred.py).
        """
        try:
            with self._transaction(write=True) as tx:
                _delete(tx, batch_id)
        except PatchwrightError as exc:
            if self.deferred is None or not exc.details.get("unreachable"):
                raise
            self.deferred.add(batch_id)

    def note_answer(self, batch_id: str, text: str) -> None:
        """Keep ``text``, what the model was answered by the call that made ``batch_id``
        (once: a batch has one answer; a batch of another workspace is left alone)."""
        where, params = self._here()
        self._write(
            lambda tx: tx.run(
                f"UPDATE batches SET answer=? WHERE id=? AND answer IS NULL AND {where}",
                [text, batch_id, *params],
            )
        )

    # reading ---------------------------------------------------------------------------------
    def _here(self) -> tuple[str, list[Any]]:
        """The condition selecting this workspace's batches in a shared store."""
        if not self.shared:
            return "1=1", []
        return "machine=? AND workspace=?", [self.scope.machine, self.scope.workspace]

    def list_batches(
        self, limit: int = 20, offset: int = 0, *, all_workspaces: bool = False
    ) -> list[dict[str, Any]]:
        """The newest batches first, each with its files (no diffs or contents).

        Only this workspace's, unless ``all_workspaces`` (every workspace and machine of
        a shared store).
        """
        where, params = ("1=1", []) if all_workspaces else self._here()
        with self._transaction(write=False) as tx:
            rows = tx.rows(
                f"SELECT {_BATCH_READ} FROM batches WHERE {where} "
                "ORDER BY seq DESC LIMIT ? OFFSET ?",
                [*params, limit, offset],
            )
            return _brief_batches(tx, rows)

    def get(self, item_id: str, *, anywhere: bool = False) -> dict[str, Any]:
        """A batch (``b-``), file patch (``f-``) or change (``c-``) by ID, as a dict.

        In a shared store, only a record of this workspace on this machine is found,
        unless ``anywhere`` (the fleet views for people: ``review``, ``log
        --all-workspaces``): an agent never reads the diffs of files it was not given.

        Raises:
            PatchwrightError: ``history`` when no record (of this workspace) has that ID.
        """
        table = _ID_TABLES.get(item_id[:1]) if item_id[1:2] == "-" else None
        if table is not None:
            columns = {"batches": _BATCH_READ, "files": _FILE_COLUMNS}.get(table)
            with self._transaction(write=False) as tx:
                found = tx.rows(
                    f"SELECT {columns or _CHANGE_COLUMNS} FROM {table} WHERE id=?", (item_id,)
                )
                if found and not (anywhere or self._is_here(tx, found[0])):
                    found = []
                if found and table == "batches":
                    return _batch_dict(tx, found[0])
                if found and table == "files":
                    return _file_dict(tx, found[0])
                if found:
                    return _change_dict(tx, found[0])
        elsewhere = " of this workspace" if self.shared and not anywhere else ""
        raise history_error(
            f"No batch, file patch or change{elsewhere} has the ID {item_id!r}.",
            "Use an ID returned by an earlier edit: batch IDs start with 'b-', file patch "
            "IDs with 'f-', change IDs with 'c-'.",
            id=item_id,
        )

    def _is_here(self, tx: Tx, row: Row) -> bool:
        """Whether a record's batch is this workspace's (always so in a private store)."""
        if not self.shared:
            return True
        if "machine" in row:  # a batch row
            place = [row]
        else:
            place = tx.rows("SELECT machine, workspace FROM batches WHERE id=?", (row["batch_id"],))
        here = (self.scope.machine, self.scope.workspace)
        return bool(place) and (place[0]["machine"], place[0]["workspace"]) == here

    def content(self, sha256: str | None) -> bytes | None:
        """A stored before/after content by its SHA256 (``None`` in, ``None`` out)."""
        if sha256 is None:
            return None
        return self.contents.read(sha256)

    def latest_file(self, path: str) -> dict[str, Any] | None:
        """The newest file patch of this workspace that wrote ``path`` (its ``batch_id``,
        ``tool``, ``action``, ``before_sha256``, ``after_sha256``, ``move_from``), or
        ``None``: what a retry of the same edit is checked against."""
        where, params = self._here()
        where = where.replace("machine", "b.machine").replace("workspace", "b.workspace")
        with self._transaction(write=False) as tx:
            rows = tx.rows(
                "SELECT f.batch_id, b.tool, f.action, f.before_sha256, f.after_sha256, "
                "f.move_from FROM files f JOIN batches b ON b.id = f.batch_id "
                f"WHERE {where} AND f.path=? ORDER BY f.seq DESC LIMIT 1",
                [*params, path],
            )
        return dict(rows[0]) if rows else None

    def keep_content(self, data: bytes) -> str:
        """Keep ``data`` in the content store (once per content) and return its SHA256:
        what an agent read, kept for a later three-way rebase instead of in memory."""
        sha = sha256_hex(data)
        if self.contents.holds(sha, len(data)):
            return sha
        with self._transaction(write=True) as tx:
            self.contents.store(tx, {sha: data}, (), {})
        return sha

    def load(self, batch_id: str, *, anywhere: bool = False) -> tuple[CommitRecord, str | None]:
        """A batch as a :class:`CommitRecord`, plus the ID of the batch that undid it
        (``anywhere`` as for :meth:`get`)."""
        data = self.get(batch_id, anywhere=anywhere)
        if data["kind"] != "batch":
            raise history_error(
                f"{batch_id!r} is a {data['kind']} ID, not a batch ID.", batch_id=batch_id
            )
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
        """This workspace's newest batch that is neither undone nor itself an undo."""
        where, params = self._here()
        with self._transaction(write=False) as tx:
            rows = tx.rows(
                f"SELECT id FROM batches b WHERE {where} AND reverts IS NULL AND NOT EXISTS "
                "(SELECT 1 FROM batches u WHERE u.reverts = b.id) ORDER BY seq DESC LIMIT 1",
                params,
            )
        return str(rows[0]["id"]) if rows else None

    def check_local(self, batch: Mapping[str, Any]) -> None:
        """Refuse to undo ``batch`` (a :meth:`get` dict) unless it is this workspace's.

        Raises:
            PatchwrightError: ``history`` naming the machine and workspace to undo it on.
        """
        machine, workspace = batch.get("machine"), batch.get("workspace")
        if not self.shared or machine is None:
            return
        if machine != self.scope.machine:
            raise history_error(
                f"Batch {batch['id']} was recorded on machine {machine!r} in workspace "
                f"{workspace}; undo works only on the machine that holds the workspace "
                f"(this is {self.scope.machine!r}).",
                f"Run `patchwright undo {batch['id']} --root {workspace}` on {machine}.",
                batch_id=batch["id"], machine=machine, workspace=workspace,
            )  # fmt: skip
        if workspace != self.scope.workspace:
            raise history_error(
                f"Batch {batch['id']} belongs to workspace {workspace}, not to "
                f"{self.scope.workspace}.",
                f"Run `patchwright undo {batch['id']} --root {workspace}`.",
                batch_id=batch["id"], machine=machine, workspace=workspace,
            )  # fmt: skip


class _MetaDumps:
    """``json.dumps`` of change metadata, once per distinct flat dict: the thousands of
    changes of a large diff mostly carry the same few (``{"rung": "exact"}``)."""

    def __init__(self) -> None:
        self.seen: dict[tuple[tuple[tuple[str, Any], ...], tuple[type, ...]], str] = {}

    def __call__(self, meta: Mapping[str, Any]) -> str:
        try:
            # the types too: True, 1 and 1.0 are equal keys but dump differently
            key = (tuple(meta.items()), tuple(map(type, meta.values())))
            found = self.seen.get(key)
        except TypeError:  # a nested value: not hashable, dumped each time
            return dump_meta(meta)
        if found is None:
            found = self.seen[key] = dump_meta(meta)
        return found


def dump_meta(meta: Mapping[str, Any]) -> str:
    """``json.dumps(meta)``: the text a change's metadata is stored as."""
    return json.dumps(meta)


# row shapes ----------------------------------------------------------------------------------
def _delete(tx: Tx, batch_id: str) -> None:
    tx.run("DELETE FROM changes WHERE batch_id=?", (batch_id,))
    tx.run("DELETE FROM files WHERE batch_id=?", (batch_id,))
    tx.run("DELETE FROM batches WHERE id=?", (batch_id,))


def _existing(tx: Tx, ids: Mapping[str, Sequence[str]]) -> set[str]:
    """The IDs of ``ids`` (by prefix) already used, in one query per few hundred.

    A query joins at most :data:`_COMPOUND_TERMS` chunks with ``UNION ALL``: SQLite
    refuses a compound statement of more than 500 terms ("too many terms in compound
    SELECT"), which a batch of 150,000 changes used to reach.
    """
    parts: list[tuple[str, list[str]]] = []
    for prefix, drawn in ids.items():
        for start in range(0, len(drawn), _ID_CHUNK):
            chunk = list(drawn[start : start + _ID_CHUNK])
            sql = f"SELECT id FROM {_ID_TABLES[prefix]} WHERE id IN ({_marks(len(chunk))})"
            parts.append((sql, chunk))
    taken: set[str] = set()
    for start in range(0, len(parts), _COMPOUND_TERMS):
        group = parts[start : start + _COMPOUND_TERMS]
        params = [value for _, chunk in group for value in chunk]
        rows = tx.rows(" UNION ALL ".join(sql for sql, _ in group), params)
        taken.update(str(r["id"]) for r in rows)
    return taken


def _plain(row: Row) -> dict[str, Any]:
    data = dict(row)
    if "meta" in data:
        data["meta"] = json.loads(data["meta"])
    return data


def _brief_batches(tx: Tx, rows: list[Row]) -> list[dict[str, Any]]:
    """Batches with their files' paths, in three queries however many batches."""
    if not rows:
        return []
    ids = [r["id"] for r in rows]
    marks = _marks(len(ids))
    undone = {
        r["reverts"]: r["id"]
        for r in tx.rows(f"SELECT id, reverts FROM batches WHERE reverts IN ({marks})", ids)
    }
    files: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
    for f in tx.rows(
        f"SELECT id, batch_id, path, action, move_from FROM files WHERE batch_id IN ({marks}) "
        "ORDER BY batch_id, position",
        ids,
    ):
        files[f["batch_id"]].append(
            {"id": f["id"], "path": f["path"], "action": f["action"], "move_from": f["move_from"]}
        )
    return [
        {**_plain(r), "kind": "batch", "reverted_by": undone.get(r["id"]), "files": files[r["id"]]}
        for r in rows
    ]


def _batch_dict(tx: Tx, row: Row) -> dict[str, Any]:
    undo = tx.rows("SELECT id FROM batches WHERE reverts=?", (row["id"],))
    files = tx.rows(
        f"SELECT {_FILE_COLUMNS} FROM files WHERE batch_id=? ORDER BY position", (row["id"],)
    )
    return {
        **_plain(row),
        "kind": "batch",
        "reverted_by": undo[0]["id"] if undo else None,
        "files": [_file_dict(tx, f) for f in files],
    }


def _file_dict(tx: Tx, row: Row) -> dict[str, Any]:
    changes = tx.rows(
        f"SELECT {_CHANGE_COLUMNS} FROM changes WHERE file_id=? ORDER BY position", (row["id"],)
    )
    listed = [_plain(c) | {"kind": "change"} for c in changes]
    return {**_plain(row), "kind": "file", "changes": listed}


def _change_dict(tx: Tx, row: Row) -> dict[str, Any]:
    path = tx.rows("SELECT path FROM files WHERE id=?", (row["file_id"],))
    return {**_plain(row), "kind": "change", "path": path[0]["path"] if path else None}


def _change_record(data: dict[str, Any]) -> ChangeCommitRecord:
    return ChangeCommitRecord(
        data["id"], data["key"], data["description"], data["op"], data["old_start"],
        data["old_end"], data["new_start"], data["new_end"], data["meta"],
    )  # fmt: skip
