"""Which files a commit may rewrite: not read-only ones, not ones with several hard links.

See the module docstring of sandbox.py (the ``writing`` variant) and docs/security.md
for why each is refused rather than written.
"""

from __future__ import annotations

import os

from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.workspace.fs import Probe


def require_writable(rel: str, found: Probe) -> None:
    """Refuse (``path_denied``) a read-only file and a file with several hard links."""
    mode = found.mode_bits or 0
    if not _may_write(mode, found.uid, found.gid):
        raise PatchwrightError(
            ErrorCode.PATH_DENIED,
            f"{rel!r} is read-only (mode {mode:04o}): patchwright does not change a file "
            "its permissions protect. Nothing was written.",
            f"Ask the user whether {rel!r} should change; if so, they can make it writable "
            f"(chmod u+w {rel}) and you retry.",
            path=rel,
            details={"reason": "read_only", "mode": f"{mode:04o}"},
        )
    if found.nlink > 1:
        raise PatchwrightError(
            ErrorCode.PATH_DENIED,
            f"{rel!r} has {found.nlink} hard links: replacing it would split them, and "
            "writing it in place could leave every link torn by a crash. Nothing was written.",
            f"Ask the user: to change this name alone, they can split it (cp {rel} {rel}.new "
            f"&& mv {rel}.new {rel}) and you retry; the other links stay as they are.",
            path=rel,
            details={"reason": "hard_links", "nlink": found.nlink},
        )


def _may_write(mode: int, uid: int | None, gid: int | None) -> bool:
    euid = os.geteuid() if hasattr(os, "geteuid") else None
    if euid is None:
        return bool(mode & 0o200)
    if euid == 0:
        return bool(mode & 0o222)  # root could; an editor still asks first
    if uid == euid:
        return bool(mode & 0o200)
    if gid is not None and (gid == os.getegid() or gid in os.getgroups()):
        return bool(mode & 0o020)
    return bool(mode & 0o002)
