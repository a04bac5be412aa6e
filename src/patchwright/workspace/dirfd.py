"""Reaching a path from a held root descriptor, one folder at a time, never via a symlink.

A path checked by name and then used by name can be redirected in between: another
process swaps a folder on the way for a symlink to somewhere outside the workspace, and
the write lands there. :class:`Anchors` closes that window. A workspace root is held open
as a directory descriptor (:meth:`Anchors.hold`); every later path below it is reached by
opening each folder with ``openat(parent, name, O_NOFOLLOW | O_DIRECTORY)`` from that
descriptor, and the last component is created, read, renamed or removed relative to its
parent's descriptor (``dir_fd=``). A symlink met on the way raises
:class:`SymlinkInPath`; nothing is ever done through it.

Paths outside every held root (the per-user state folder, unless it sits inside the
root) are used by name, as before.

Inside a :meth:`Anchors.keeping` block (a commit of several files) a thread keeps every
folder it opened and reaches it again through that descriptor, instead of walking from
the root for every read, check and write: one walk per folder per commit. A kept folder
is the one that stood at its path, symlink-free and inside the root, when the block
first reached it; :meth:`Anchors.recheck` walks every kept folder afresh and refuses
(:class:`FolderMoved`) one that no longer stands at its path, which a commit does before
it writes into the tree. docs/security.md says what holds in between.
"""

from __future__ import annotations

import errno
import os
import posixpath
import stat
import weakref
from _thread import get_ident
from collections.abc import Iterator
from contextlib import contextmanager, suppress

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)

#: Whether this platform can walk from a descriptor (every POSIX system patchwright runs on).
SUPPORTED = bool(_O_NOFOLLOW and _O_DIRECTORY) and os.open in os.supports_dir_fd

# what open(O_NOFOLLOW | O_DIRECTORY) reports for a symlink: ELOOP on Linux and macOS,
# EMLINK on FreeBSD, ENOTDIR on a few others
_LINK_ERRNOS = frozenset({errno.ELOOP, errno.EMLINK, errno.ENOTDIR})


class SymlinkInPath(OSError):
    """A folder on the way to a path is a symlink (or was swapped for one mid-call).

    Attributes:
        path: the absolute path being reached.
        component: the absolute path of the symlink met on the way.
    """

    def __init__(self, path: str, component: str) -> None:
        super().__init__(errno.ELOOP, f"{component} is a symlink, not a folder", path)
        self.path = path
        self.component = component


class FolderMoved(SymlinkInPath):
    """A folder kept open by a :meth:`Anchors.keeping` block no longer stands at its
    path (renamed away, or replaced by another folder or a symlink)."""

    def __init__(self, path: str, component: str) -> None:
        super().__init__(path, component)
        self.strerror = f"{component} was moved or replaced"


def open_dir_at(parent: int | None, name: str, whole: str, where: str) -> int:
    """Open the folder ``name`` in ``parent`` without following a symlink.

    ``whole`` is the path being reached and ``where`` this folder's absolute path, for
    the error. Raises :class:`SymlinkInPath` for a symlink; ``FileNotFoundError`` /
    ``NotADirectoryError`` pass through.
    """
    flags = os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC
    try:
        return os.open(name, flags, dir_fd=parent)
    except OSError as exc:
        if exc.errno not in _LINK_ERRNOS:
            raise
        try:
            st = os.stat(name, dir_fd=parent, follow_symlinks=False)
        except OSError:
            raise exc from None
        if stat.S_ISLNK(st.st_mode) or stat.S_ISDIR(st.st_mode):
            # a folder now, but not when it was opened: it was swapped in the meantime
            raise SymlinkInPath(whole, where) from None
        raise NotADirectoryError(errno.ENOTDIR, "Not a directory", where) from None


class Anchors:
    """The root folders held open as descriptors, and the walk from them."""

    def __init__(self) -> None:
        self._fds: dict[str, int] = {}
        # per thread inside a keeping() block: absolute folder path -> its descriptor
        self._kept: dict[int, dict[str, int]] = {}
        # the descriptors close with the object that holds them
        self._finalizer = weakref.finalize(self, _close_all, self._fds)

    def hold(self, root: str) -> None:
        """Hold ``root`` (an existing, symlink-free folder path) open from now on."""
        root = posixpath.normpath(root)
        if not SUPPORTED or root in self._fds:
            return
        self._fds[root] = os.open(root, os.O_RDONLY | _O_DIRECTORY | _O_CLOEXEC)

    def deleted(self, root: str) -> bool:
        """Whether the held folder ``root`` has been deleted (it has no name any more)."""
        fd = self._fds.get(posixpath.normpath(root))
        if fd is None:
            return False
        try:
            return os.fstat(fd).st_nlink == 0
        except OSError:
            return True

    def _anchor_of(self, path: str) -> tuple[str, int] | None:
        best: tuple[str, int] | None = None
        for root, fd in self._fds.items():
            inside = path == root or path.startswith(root.rstrip("/") + "/")
            if inside and (best is None or len(root) > len(best[0])):
                best = (root, fd)
        return best

    @contextmanager
    def parent(self, path: str) -> Iterator[tuple[int | None, str]]:
        """``(descriptor of the parent folder, last name)`` of ``path``.

        Below a held root the parent is reached from the root's descriptor (the root
        itself is ``(root descriptor, ".")``); elsewhere the descriptor is ``None`` and
        the name is the whole path, which every ``os`` call taking ``dir_fd`` accepts.
        """
        path = posixpath.normpath(path)
        anchored = self._anchor_of(path)
        if anchored is None:
            yield None, path
            return
        root, fd = anchored
        # ``path`` is normalised and lies below ``root`` (see _anchor_of): cut, not relpath
        rest = "." if path == root else path[len(root.rstrip("/")) + 1 :]
        if rest == ".":
            yield fd, "."
            return
        parts = rest.split("/")
        kept = self._kept.get(get_ident()) if self._kept else None
        if kept is not None:
            yield self._kept_walk(kept, fd, root, path, parts[:-1]), parts[-1]
            return
        current, where = fd, root
        try:
            for name in parts[:-1]:
                where = posixpath.join(where, name)
                opened = open_dir_at(current, name, path, where)
                if current != fd:
                    os.close(current)
                current = opened
            yield current, parts[-1]
        finally:
            if current != fd:
                os.close(current)

    @contextmanager
    def folder(self, path: str) -> Iterator[int]:
        """A descriptor of the folder ``path`` itself, reached the same way."""
        path = posixpath.normpath(path)
        kept = self._kept.get(get_ident()) if self._kept else None
        anchored = self._anchor_of(path) if kept is not None else None
        if kept is not None and anchored is not None:
            root, fd = anchored
            if path != root:
                rest = path[len(root.rstrip("/")) + 1 :].split("/")
                fd = self._kept_walk(kept, fd, root, path, rest)
            yield fd  # kept (or the root's): it stays open until the block ends
            return
        with self.parent(path) as (parent, name):
            fd = open_dir_at(parent, name, path, path)
        try:
            yield fd
        finally:
            os.close(fd)

    def _kept_walk(
        self, kept: dict[str, int], fd: int, root: str, path: str, folders: list[str]
    ) -> int:
        """The kept descriptor of the last of ``folders``, opening (and keeping) those
        not reached yet in this block."""
        current, where = fd, root
        for name in folders:
            where = posixpath.join(where, name)
            found = kept.get(where)
            if found is None:
                found = kept[where] = open_dir_at(current, name, path, where)
            current = found
        return current

    @contextmanager
    def keeping(self) -> Iterator[None]:
        """A block in which this thread opens each folder below a held root once and
        reaches it again through that descriptor (see the module docstring); the
        descriptors close when the block ends. A nested block shares the outer one's."""
        me = get_ident()
        if me in self._kept:
            yield
            return
        kept = self._kept[me] = {}
        try:
            yield
        finally:
            del self._kept[me]
            _close_all(kept)

    def forget(self, path: str) -> None:
        """Close and drop the kept descriptors of ``path`` and the folders below it (a
        folder removed in this block: a new one of that name is opened afresh)."""
        kept = self._kept.get(get_ident())
        if not kept:
            return
        path = posixpath.normpath(path)
        below = path.rstrip("/") + "/"
        for where in [w for w in kept if w == path or w.startswith(below)]:
            with suppress(OSError):
                os.close(kept.pop(where))

    def recheck(self) -> None:
        """Walk every folder this thread keeps afresh from its root.

        Raises:
            FolderMoved: a kept folder no longer stands at its path (moved away, or
                replaced by another folder or a symlink).
        """
        kept = self._kept.get(get_ident())
        if not kept:
            return
        fresh: dict[str, int] = {}
        try:
            # outermost first: each folder is opened from its parent's fresh descriptor
            # (every kept folder's parent is its root or kept too: see _kept_walk)
            for where in sorted(kept, key=lambda w: w.count("/")):
                anchored = self._anchor_of(where)
                if anchored is None:
                    continue
                up, name = posixpath.split(where)
                parent = anchored[1] if up == anchored[0] else fresh[up]
                try:
                    fresh[where] = open_dir_at(parent, name, where, where)
                except (FileNotFoundError, NotADirectoryError, SymlinkInPath):
                    raise FolderMoved(where, where) from None
                now, held = os.fstat(fresh[where]), os.fstat(kept[where])
                if (now.st_dev, now.st_ino) != (held.st_dev, held.st_ino):
                    raise FolderMoved(where, where)
        finally:
            _close_all(fresh)


def _close_all(fds: dict[str, int]) -> None:
    """Close every descriptor of ``fds`` and empty it."""
    for fd in fds.values():
        with suppress(OSError):
            os.close(fd)
    fds.clear()
