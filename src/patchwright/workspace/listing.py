"""Finding files: case-insensitive lookup (spec 001 ``docPath``); folder reads shared with
the listing and search walk (navigation.py).

Spec 001 names files by a lowercase ``docPath``; on a case-sensitive file system the real
file may be ``src/AgentOrchestrator.cs``. :func:`find_case_insensitive` walks the path one
segment at a time, listing only the folders on the way, and returns every existing
regular file whose path equals the given one ignoring case. It only returns
paths the sandbox accepts (no denied paths, no symlinks leading outside).
"""

from __future__ import annotations

import posixpath

from patchwright.model.errors import PatchwrightError
from patchwright.workspace.sandbox import Sandbox

_MAX_MATCHES = 50


def _accepted(sandbox: Sandbox, rel: str) -> str | None:
    try:
        resolved = sandbox.resolve(rel)
    except PatchwrightError:
        return None
    return resolved if sandbox.fs.probe(sandbox.abspath(resolved)).kind == "file" else None


def find_case_insensitive(sandbox: Sandbox, path: str) -> list[str]:
    """Existing files whose path equals ``path`` ignoring case, sorted.

    Raises:
        PatchwrightError: when ``path`` itself is refused by the sandbox rules.
    """
    wanted = sandbox.resolve_lexical(path)
    frontier = [""]
    for segment in wanted.split("/"):
        folded = segment.casefold()
        following: list[str] = []
        for folder in frontier:
            try:
                # a symlinked folder is listed at its real place, if that is inside
                absolute = sandbox.abspath(sandbox.resolve(folder)) if folder else sandbox.root
                if sandbox.fs.probe(absolute).kind != "dir":
                    continue
                names = sandbox.fs.listdir(absolute)
            except (OSError, PatchwrightError):
                continue
            following.extend(
                posixpath.join(folder, n) if folder else n for n in names if n.casefold() == folded
            )
        frontier = following[:_MAX_MATCHES]
    found = {ok for rel in frontier if (ok := _accepted(sandbox, rel)) is not None}
    return sorted(found)


def _entries(sandbox: Sandbox, folder: str) -> list[str]:
    try:
        names = sorted(sandbox.fs.listdir(sandbox.abspath(folder) if folder else sandbox.root))
    except OSError:
        return []
    return [posixpath.join(folder, n) if folder else n for n in names]
