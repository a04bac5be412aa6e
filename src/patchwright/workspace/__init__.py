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

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - static view of the lazy exports
    from patchwright.workspace.approval import Proposal as Proposal
    from patchwright.workspace.approval import Proposals as Proposals
    from patchwright.workspace.fs import LINK_MODE as LINK_MODE
    from patchwright.workspace.fs import FileSystem as FileSystem
    from patchwright.workspace.fs import OsFileSystem as OsFileSystem
    from patchwright.workspace.fs import Probe as Probe
    from patchwright.workspace.gate import DEFAULT_APPROVAL_TIMEOUT as DEFAULT_APPROVAL_TIMEOUT
    from patchwright.workspace.gate import RESTRICTED_MESSAGE as RESTRICTED_MESSAGE
    from patchwright.workspace.gate import Mode as Mode
    from patchwright.workspace.globs import DEFAULT_DENY as DEFAULT_DENY
    from patchwright.workspace.history import History as History
    from patchwright.workspace.records import ChangeCommitRecord as ChangeCommitRecord
    from patchwright.workspace.records import ChangeRecord as ChangeRecord
    from patchwright.workspace.records import CommitRecord as CommitRecord
    from patchwright.workspace.records import FileChange as FileChange
    from patchwright.workspace.records import FileCommitRecord as FileCommitRecord
    from patchwright.workspace.records import FileState as FileState
    from patchwright.workspace.records import sha256_hex as sha256_hex
    from patchwright.workspace.state import default_state_dir as default_state_dir
    from patchwright.workspace.workspace import DEFAULT_MAX_FILE_BYTES as DEFAULT_MAX_FILE_BYTES
    from patchwright.workspace.workspace import Workspace as Workspace
    from patchwright.workspace.workspace import calling_as as calling_as
else:  # type checkers read the imports above
    __getattr__, __dir__, __all__ = lazy_exports(globals())
