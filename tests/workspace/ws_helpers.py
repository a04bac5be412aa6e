"""Helpers for workspace tests: snapshots of folders that never open special files."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def snapshot(folder: Path) -> dict[str, tuple[str, object, int]]:
    """Every entry below ``folder``: kind, content or link target, permission bits.

    Special files are never opened (a FIFO would block).
    """
    out: dict[str, tuple[str, object, int]] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            st = path.lstat()
            rel = path.relative_to(folder).as_posix()
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(path), 0)
            elif stat.S_ISREG(st.st_mode):
                out[rel] = ("file", path.read_bytes(), stat.S_IMODE(st.st_mode))
            else:
                out[rel] = ("other", stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode))
    return out


def files(folder: Path) -> dict[str, bytes]:
    """Every regular file below ``folder`` with its content."""
    return {k: v[1] for k, v in snapshot(folder).items() if v[0] == "file"}  # type: ignore[misc]
