"""Where a workspace keeps its state, outside the user's tree by default.

The per-user state folder is the first of:

1. the ``state_dir`` given to the workspace;
2. ``$PATCHWRIGHT_STATE_DIR``;
3. ``$XDG_STATE_HOME/patchwright``;
4. ``~/.local/state/patchwright``.

Each workspace root gets its own folder below it, ``workspaces/<name>-<hash>/`` (the hash
is of the real root path), holding::

    history.sqlite3   the history store (unless a shared one is configured)
    blobs/            large history contents (see history/contents.py)
    history-forget/   batches to delete from an unreachable shared history
    journal/          unfinished commits (see journal.py)
    locks/            lock files, 256 shared by all paths (never in the user's tree)
    root.txt          the root path, for people browsing the folder

and the state folder itself holds ``machine``, this machine's name in the history.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping

from patchwright._records import record
from patchwright.model.errors import ErrorCode, PatchwrightError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

# Paths are plain strings here: ``pathlib`` (with the ``urllib.parse`` and ``ipaddress``
# it imports) costs a one-line ``patchwright apply`` about a tenth of its start-up.


def state_base(environ: Mapping[str, str] | None = None) -> str:
    """The per-user state folder from the environment (see module docstring), as text."""
    env = os.environ if environ is None else environ
    if env.get("PATCHWRIGHT_STATE_DIR"):
        return os.path.expanduser(env["PATCHWRIGHT_STATE_DIR"])
    if env.get("XDG_STATE_HOME"):
        return os.path.join(os.path.expanduser(env["XDG_STATE_HOME"]), "patchwright")
    return os.path.join(os.path.expanduser("~"), ".local", "state", "patchwright")


def default_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The per-user state folder from the environment (see module docstring)."""
    from pathlib import Path

    return Path(state_base(environ))


@record(frozen=True)
class StatePaths:
    """The state files of one workspace root (absolute paths)."""

    folder: str

    @property
    def database(self) -> str:
        """The SQLite history store."""
        return os.path.join(self.folder, "history.sqlite3")

    @property
    def journal(self) -> str:
        """Folder of unfinished commits."""
        return os.path.join(self.folder, "journal")

    @property
    def locks(self) -> str:
        """Folder of lock files."""
        return os.path.join(self.folder, "locks")


def state_paths(real_root: str, base: str | os.PathLike[str] | None) -> StatePaths:
    """Create (if needed) and return the state folder of ``real_root``.

    Raises:
        PatchwrightError: ``io_error`` when the folder cannot be created.
    """
    base_dir = os.path.expanduser(os.fspath(base)) if base is not None else state_base()
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", os.path.basename(real_root) or "root")[:40]
    digest = hashlib.sha256(real_root.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    # joined to the working folder as it is: ``abspath`` would also fold ``..`` by text,
    # which a symlinked folder makes differ from what the system resolves
    if not os.path.isabs(base_dir):
        base_dir = os.path.join(os.getcwd(), base_dir)
    paths = StatePaths(os.path.join(base_dir, "workspaces", f"{name}-{digest}"))
    try:
        for folder in (paths.journal, paths.locks):
            os.makedirs(folder, exist_ok=True)
        marker = os.path.join(paths.folder, "root.txt")
        if not os.path.exists(marker):
            with open(marker, "w", encoding="utf-8", errors="surrogateescape") as out:
                out.write(real_root + "\n")
    except OSError as exc:
        raise PatchwrightError(
            ErrorCode.IO_ERROR,
            f"Cannot create the workspace state folder {paths.folder}: {exc.strerror or exc}.",
            "Set PATCHWRIGHT_STATE_DIR (or pass state_dir) to a writable folder.",
        ) from exc
    return paths
