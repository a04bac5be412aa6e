"""The workspace layer: the only part of patchwright that reads or writes files.

Modules, each with one job:

* ``fs``: the file-system seam (a small protocol and the real implementation);
* ``globs`` / ``sandbox``: which paths and file types may be touched, size limit;
* ``gate``: restricted / unrestricted mode and waiting for idle on a mode change;
* ``locks``: per-file locks between threads and processes (``flock``), kept in the
  state folder;
* ``journal`` / ``recovery``: crash-safe all-or-nothing commits and their rollback;
* ``commit``: the read-check-write sequence of one commit inside the locks;
* ``history`` / ``undo``: the history store (SQLite per workspace, or a shared
  PostgreSQL; see docs/history.md) and the inverse of a batch;
* ``approval``: approval mode (writes held as proposals until a person decides);
* ``listing``: case-insensitive lookup (spec 001 ``docPath``) and file listing;
* ``state``: where the per-user state folder is;
* ``workspace``: the :class:`Workspace` facade the tools layer uses.

Typical use::

    ws = Workspace("/path/to/repo")
    state = ws.read("src/app.py")
    record = ws.commit(
        [FileChange("src/app.py", new_bytes, expected_sha256=state.sha256, diff=diff)],
        tool="edit_file",
    )
    ws.history.get(record.batch_id)
    ws.undo()

The names below are imported on first use (see patchwright/_lazy.py): applying a patch
loads the commit path only, not approval mode or tree walking.
"""

from __future__ import annotations

from patchwright._lazy import lazy_exports

_APPROVAL = "patchwright.workspace.approval"
_RECORDS = "patchwright.workspace.records"
_FS = "patchwright.workspace.fs"
_GATE = "patchwright.workspace.gate"
_WORKSPACE = "patchwright.workspace.workspace"

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    "DEFAULT_APPROVAL_TIMEOUT": _GATE,
    "Proposal": _APPROVAL,
    "Proposals": _APPROVAL,
    "FileSystem": _FS,
    "LINK_MODE": _FS,
    "OsFileSystem": _FS,
    "Probe": _FS,
    "RESTRICTED_MESSAGE": _GATE,
    "Mode": _GATE,
    "DEFAULT_DENY": "patchwright.workspace.globs",
    "History": "patchwright.workspace.history",
    "ChangeCommitRecord": _RECORDS,
    "ChangeRecord": _RECORDS,
    "CommitRecord": _RECORDS,
    "FileChange": _RECORDS,
    "FileCommitRecord": _RECORDS,
    "FileState": _RECORDS,
    "sha256_hex": _RECORDS,
    "default_state_dir": "patchwright.workspace.state",
    "DEFAULT_MAX_FILE_BYTES": _WORKSPACE,
    "Workspace": _WORKSPACE,
    "calling_as": _WORKSPACE,
}

__all__ = [
    "DEFAULT_APPROVAL_TIMEOUT",
    "DEFAULT_DENY",
    "DEFAULT_MAX_FILE_BYTES",
    "LINK_MODE",
    "RESTRICTED_MESSAGE",
    "ChangeCommitRecord",
    "ChangeRecord",
    "CommitRecord",
    "FileChange",
    "FileCommitRecord",
    "FileState",
    "FileSystem",
    "History",
    "Mode",
    "OsFileSystem",
    "Probe",
    "Proposal",
    "Proposals",
    "Workspace",
    "calling_as",
    "default_state_dir",
    "sha256_hex",
]

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - static view of the lazy exports
    from patchwright.workspace.approval import Proposal, Proposals
    from patchwright.workspace.fs import LINK_MODE, FileSystem, OsFileSystem, Probe
    from patchwright.workspace.gate import DEFAULT_APPROVAL_TIMEOUT, RESTRICTED_MESSAGE, Mode
    from patchwright.workspace.globs import DEFAULT_DENY
    from patchwright.workspace.history import History
    from patchwright.workspace.records import (
        ChangeCommitRecord,
        ChangeRecord,
        CommitRecord,
        FileChange,
        FileCommitRecord,
        FileState,
        sha256_hex,
    )
    from patchwright.workspace.state import default_state_dir
    from patchwright.workspace.workspace import DEFAULT_MAX_FILE_BYTES, Workspace, calling_as
else:  # mypy reads the imports above, so it flags an unknown name
    __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
