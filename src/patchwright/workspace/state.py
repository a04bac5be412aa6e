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
    proposals.sqlite3 changes waiting for approval (see approval.py)
    journal/          unfinished commits (see journal.py)
    locks/            lock files, 256 shared by all paths (never in the user's tree)
    root.txt          the root path, for people browsing the folder

and the state folder itself holds ``machine``, this machine's name in the history.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from patchwright._digest import sha256_hex
from patchwright._records import record
from patchwright.model.errors import ErrorCode, PatchwrightError


def default_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The per-user state folder from the environment (see module docstring)."""
    env = os.environ if environ is None else environ
    if env.get("PATCHWRIGHT_STATE_DIR"):
        return Path(env["PATCHWRIGHT_STATE_DIR"]).expanduser()
    if env.get("XDG_STATE_HOME"):
        return Path(env["XDG_STATE_HOME"]).expanduser() / "patchwright"
    return Path.home() / ".local" / "state" / "patchwright"


@record(frozen=True)
class StatePaths:
    """The state files of one workspace root."""

    folder: Path

    @property
    def database(self) -> Path:
        """The SQLite history store."""
        return self.folder / "history.sqlite3"

    @property
    def proposals(self) -> Path:
        """The SQLite store of proposals waiting for approval."""
        return self.folder / "proposals.sqlite3"

    @property
    def journal(self) -> Path:
        """Folder of unfinished commits."""
        return self.folder / "journal"

    @property
    def locks(self) -> Path:
        """Folder of lock files."""
        return self.folder / "locks"


def state_paths(real_root: str, base: str | Path | None) -> StatePaths:
    """Create (if needed) and return the state folder of ``real_root``.

    Raises:
        PatchwrightError: ``io_error`` when the folder cannot be created.
    """
    base_dir = Path(base).expanduser() if base is not None else default_state_dir()
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", os.path.basename(real_root) or "root")[:40]
    digest = sha256_hex(real_root.encode("utf-8", "surrogateescape"))[:16]
    paths = StatePaths(base_dir.absolute() / "workspaces" / f"{name}-{digest}")
    try:
        for folder in (paths.journal, paths.locks):
            folder.mkdir(parents=True, exist_ok=True)
        marker = paths.folder / "root.txt"
        if not marker.exists():
            marker.write_text(real_root + "\n", encoding="utf-8", errors="surrogateescape")
    except OSError as exc:
        raise PatchwrightError(
            ErrorCode.IO_ERROR,
            f"Cannot create the workspace state folder {paths.folder}: {exc.strerror or exc}.",
            "Set PATCHWRIGHT_STATE_DIR (or pass state_dir) to a writable folder.",
        ) from exc
    return paths
