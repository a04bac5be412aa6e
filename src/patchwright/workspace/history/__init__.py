"""The history store: every commit, in SQLite (one per workspace) or PostgreSQL (shared).

Modules, each with one job:

* ``backend``: the seam: a :class:`Backend` hands out transactions running portable SQL;
* ``sqlite`` / ``postgres``: the two backends;
* ``migrations``: the versioned schema, applied on first use and by
  ``patchwright history migrate``;
* ``contents``: contents stored once by SHA256 (large ones as files beside SQLite);
* ``store``: :class:`History`, what the workspace, undo and the tools call;
* ``deferred``: batches a rollback could not delete from an unreachable shared store;
* ``identity``: which store, machine and session, from the environment.

:func:`open_history` picks the store for a workspace: PostgreSQL when
``PATCHWRIGHT_HISTORY_URL`` is set, otherwise the workspace's own SQLite database.
docs/history.md describes the schema and what a crash or a lost connection leaves.
"""

from __future__ import annotations

import os

from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.workspace.fs import FileSystem
from patchwright.workspace.history.backend import Backend, Scope
from patchwright.workspace.history.contents import FILE_BLOB_MIN
from patchwright.workspace.history.identity import (
    history_timeout,
    history_url,
    machine_name,
    session_name,
)
from patchwright.workspace.history.sqlite import SQLiteBackend
from patchwright.workspace.history.store import History
from patchwright.workspace.state import StatePaths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "FILE_BLOB_MIN",
    "Backend",
    "History",
    "Scope",
    "list_all_workspaces",
    "open_history",
]


def _scope(state_base: str | os.PathLike[str], root: str) -> Scope:
    try:
        return Scope(machine_name(state_base), root, session_name())
    except OSError as exc:
        raise PatchwrightError(
            ErrorCode.IO_ERROR,
            f"Cannot record this machine's name in {state_base}: {exc.strerror or exc}.",
            "Set PATCHWRIGHT_STATE_DIR to a writable folder, or PATCHWRIGHT_MACHINE to a name.",
        ) from exc


def open_history(
    state_folder: str | os.PathLike[str],
    root: str,
    fs: FileSystem | None = None,
    *,
    create: bool = True,
) -> History | None:
    """The history of the workspace at ``root`` whose state is in ``state_folder``.

    PostgreSQL when ``PATCHWRIGHT_HISTORY_URL`` is set (connected on first use), else
    ``state_folder/history.sqlite3``, opened and migrated now. With ``create=False``
    a SQLite database is opened only if it exists (``None`` otherwise).

    Raises:
        PatchwrightError: ``invalid_request`` for a malformed variable; ``history``
            when the SQLite database cannot be opened.
    """
    url = history_url()
    state_folder = os.fspath(state_folder)
    # <state>/workspaces/<name>-<hash>
    state_base = os.path.dirname(os.path.dirname(state_folder))
    database = StatePaths(state_folder).database
    if url is None and not create and not os.path.exists(database):
        return None
    scope = _scope(state_base, root)
    if url is not None:
        from patchwright.workspace.history.postgres import PostgresBackend

        backend = PostgresBackend(url, timeout=history_timeout())
        return History(backend, scope, fs, deferred=os.path.join(state_folder, "history-forget"))
    history = History(SQLiteBackend(database, scope), scope, fs)
    history.migrate()  # opened now: a broken database is reported when the workspace opens
    return history


def list_all_workspaces(
    state_base: str | os.PathLike[str], limit: int = 20
) -> list[dict[str, Any]]:
    """The newest batches of every workspace: the shared store's, or each SQLite
    history kept in the state folder ``state_base`` (one machine's workspaces)."""
    url = history_url()
    if url is not None:
        from patchwright.workspace.history.postgres import PostgresBackend

        scope = _scope(state_base, "")
        shared = History(PostgresBackend(url, timeout=history_timeout()), scope)
        return shared.list_batches(limit, all_workspaces=True)
    from pathlib import Path  # listing every workspace is not on an edit's path

    batches: list[dict[str, Any]] = []
    name = os.path.basename(StatePaths(os.fspath(state_base)).database)
    for database in sorted((Path(state_base) / "workspaces").glob(f"*/{name}")):
        marker = database.parent / "root.txt"
        if not marker.exists():
            continue  # not a workspace's state folder
        root = marker.read_text(encoding="utf-8", errors="surrogateescape").rstrip("\n")
        scope = _scope(state_base, root)
        history = History(SQLiteBackend(database, scope), scope)
        try:
            batches.extend(history.list_batches(limit))
        finally:
            history.close()
    batches.sort(key=lambda b: str(b["created_at"]), reverse=True)
    return batches[:limit]
