"""Carrying a file's owner, group and extended attributes over to its replacement.

A commit replaces a file by renaming a new one over it, and the new file belongs to
whoever runs patchwright, with no extended attributes. Before the rename,
:func:`carry_over` gives the new file the old one's owner, group and extended
attributes, as far as the process is permitted: root keeps every owner; another user
keeps the group when it belongs to it, and loses nothing it could have kept by writing
in place. Extended attributes the process may not set (``trusted.*`` without
privilege, a file system without them) are skipped one by one. Permission bits are the
commit's business (it gives them to the new file when creating it); they are put back
after a change of owner because ``chown`` clears the set-user-ID and set-group-ID bits.

Nothing is done, and no extra fsync is paid, when there is nothing to carry: the same
owner and no extended attributes, the common case, which is told without opening either
file (two ``stat`` calls and a ``listxattr`` by path, on Linux through the folder
descriptor's ``/proc/self/fd`` entry; elsewhere the old file is opened to list them).
"""

from __future__ import annotations

import contextlib
import os
import stat

_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_XATTRS = hasattr(os, "listxattr")


def carry_over(src_dir: int | None, src: str, dst_dir: int | None, dst: str) -> None:
    """Give the file ``src`` the owner, group and xattrs of the regular file ``dst``.

    Both names are relative to their folder descriptors (``None``: plain paths). A
    missing or non-regular ``dst`` leaves ``src`` as it is. ``src`` is fsynced again
    only when something changed.
    """
    try:
        old = os.stat(dst, dir_fd=dst_dir, follow_symlinks=False)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(old.st_mode):
        return
    # the common case, the same owner and no extended attributes, opens neither file
    new = os.stat(src, dir_fd=src_dir, follow_symlinks=False)
    if stat.S_ISLNK(new.st_mode):
        return  # a link replacing a file: a link's owner and attributes mean nothing to git
    same_owner = (new.st_uid, new.st_gid) == (old.st_uid, old.st_gid)
    if same_owner and _no_xattrs(dst_dir, dst):
        return
    fd = os.open(src, _FLAGS, dir_fd=src_dir)
    try:
        changed = _carry_owner(fd, old)
        changed = _carry_xattrs(fd, dst_dir, dst) or changed
        if changed:
            os.fsync(fd)
    finally:
        os.close(fd)


def _no_xattrs(folder: int | None, name: str) -> bool:
    """Whether the file ``name`` in ``folder`` surely has no extended attribute, told
    without opening it where the system names a folder descriptor's path (Linux's
    ``/proc/self/fd``); ``False`` when it cannot tell (the caller opens it then)."""
    if not _XATTRS:
        return True
    # the folder's descriptor is followed, the file's own name is not
    path = name if folder is None else f"/proc/self/fd/{folder}/{name}"
    try:
        return not os.listxattr(path, follow_symlinks=False)
    except OSError:
        return False  # no /proc here, or the file went away: open it and see


def _carry_owner(fd: int, old: os.stat_result) -> bool:
    new = os.fstat(fd)
    if (new.st_uid, new.st_gid) == (old.st_uid, old.st_gid):
        return False
    try:
        os.fchown(fd, old.st_uid, old.st_gid)
    except PermissionError:
        # not root: a group the user belongs to can still be kept
        with contextlib.suppress(PermissionError):
            os.fchown(fd, -1, old.st_gid)
    # chown clears the set-user-ID / set-group-ID bits: put the chosen bits back
    os.fchmod(fd, stat.S_IMODE(new.st_mode))
    return True


def _carry_xattrs(fd: int, dst_dir: int | None, dst: str) -> bool:
    if not _XATTRS:
        return False
    try:
        old_fd = os.open(dst, _FLAGS | getattr(os, "O_NONBLOCK", 0), dir_fd=dst_dir)
    except OSError:
        return False  # unreadable to this user: there is nothing it could carry
    changed = False
    try:
        for name in _names(old_fd):
            try:
                os.setxattr(fd, name, os.getxattr(old_fd, name))
            except OSError:
                continue  # not permitted or not supported here: skip that one
            changed = True
    finally:
        os.close(old_fd)
    return changed


def _names(fd: int) -> list[str]:
    try:
        return os.listxattr(fd)
    except OSError:
        return []
