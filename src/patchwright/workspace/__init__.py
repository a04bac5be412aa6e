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
"""

from patchwright.workspace.approval import DEFAULT_APPROVAL_TIMEOUT, Proposal, Proposals
from patchwright.workspace.fs import FileSystem, OsFileSystem, Probe
from patchwright.workspace.gate import RESTRICTED_MESSAGE, Mode
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
from patchwright.workspace.workspace import DEFAULT_MAX_FILE_BYTES, Workspace

__all__ = [
    "DEFAULT_APPROVAL_TIMEOUT",
    "DEFAULT_DENY",
    "DEFAULT_MAX_FILE_BYTES",
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
    "default_state_dir",
    "sha256_hex",
]
