"""The file-system seam of the workspace.

Everything the workspace does to disk goes through the small :class:`FileSystem`
protocol, on absolute paths. :class:`OsFileSystem` is the real implementation. The seam
exists so tests can wrap the real implementation (pause or fail before a given step,
block a read) and so the sandbox and the commit logic never call ``os`` directly.

Reading never follows a symlink in the last component (``O_NOFOLLOW``) and never blocks on
a FIFO (``O_NONBLOCK``); it reports what it found as a :class:`Probe` and the caller
decides what to refuse. Writing only ever creates new files exclusively (``O_EXCL``) and
puts them in place with an atomic rename.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from typing import Literal, Protocol

Kind = Literal[
    "file", "dir", "symlink", "fifo", "socket", "char_device", "block_device", "missing", "other"
]


@dataclass(frozen=True)
class Probe:
    """What stands at a path (the path itself, symlinks not followed).

    Attributes:
        kind: the file type, or ``missing``.
        size: size in bytes (0 when missing).
        mode_bits: permission bits (``stat.S_IMODE``), ``None`` when missing.
        data: the content, only from :meth:`FileSystem.read_file` on a regular file
            within the size limit.
    """

    kind: Kind
    size: int = 0
    mode_bits: int | None = None
    data: bytes | None = None


MISSING = Probe("missing")

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # POSIX; elsewhere the sandbox's checks stand alone


def kind_of(mode: int) -> Kind:
    """The :data:`Kind` of a ``st_mode``."""
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "dir"
    if stat.S_ISLNK(mode):
        return "symlink"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode):
        return "char_device"
    if stat.S_ISBLK(mode):
        return "block_device"
    return "other"


class FileSystem(Protocol):
    """The operations the workspace needs, on absolute paths. ``OSError`` passes through."""

    def probe(self, path: str) -> Probe:
        """What stands at ``path`` (``lstat``); :data:`MISSING` when nothing does."""

    def read_file(self, path: str, limit: int) -> Probe:
        """Read a regular file; ``data`` is ``None`` when it is not one or is over ``limit``."""

    def write_new(self, path: str, data: bytes, mode_bits: int | None) -> None:
        """Create ``path`` exclusively, write ``data``, set ``mode_bits`` if given, fsync."""

    def replace(self, src: str, dst: str) -> None:
        """Atomically rename ``src`` over ``dst``."""

    def unlink(self, path: str) -> None:
        """Remove a file."""

    def mkdir(self, path: str) -> None:
        """Create one directory (an existing one is not an error)."""

    def rmdir(self, path: str) -> None:
        """Remove an empty directory."""

    def fsync_dir(self, path: str) -> None:
        """Make the entries of directory ``path`` durable."""

    def listdir(self, path: str) -> list[str]:
        """The names in directory ``path``."""

    def realpath(self, path: str) -> str:
        """``path`` with every symlink resolved (missing tail components kept)."""


def _read_at_most(fd: int, count: int) -> bytes:
    chunks: list[bytes] = []
    while count > 0:
        chunk = os.read(fd, min(count, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)


class OsFileSystem:
    """:class:`FileSystem` on the real disk."""

    def probe(self, path: str) -> Probe:
        """See :meth:`FileSystem.probe`."""
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return MISSING
        except NotADirectoryError:
            return MISSING
        return Probe(kind_of(st.st_mode), st.st_size, stat.S_IMODE(st.st_mode))

    def read_file(self, path: str, limit: int) -> Probe:
        """See :meth:`FileSystem.read_file`."""
        # lstat first so a device is never opened (opening one can have side effects).
        found = self.probe(path)
        if found.kind != "file" or found.size > limit:
            return found
        flags = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            return MISSING
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EOPNOTSUPP):
                # swapped for a symlink or a socket since the lstat
                return self.probe(path)
            raise
        try:
            st = os.fstat(fd)
            found = Probe(kind_of(st.st_mode), st.st_size, stat.S_IMODE(st.st_mode))
            if found.kind != "file" or st.st_size > limit:
                return found
            data = _read_at_most(fd, limit + 1)  # one byte more than allowed shows growth
        finally:
            os.close(fd)
        if len(data) > limit:
            return Probe("file", len(data), found.mode_bits)
        return Probe("file", len(data), found.mode_bits, data)

    def write_new(self, path: str, data: bytes, mode_bits: int | None) -> None:
        """See :meth:`FileSystem.write_new`."""
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(path, flags, 0o666)  # the umask decides the bits of a new file
        try:
            if mode_bits is not None:
                os.fchmod(fd, mode_bits)
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)

    def replace(self, src: str, dst: str) -> None:
        """See :meth:`FileSystem.replace`."""
        os.replace(src, dst)

    def unlink(self, path: str) -> None:
        """See :meth:`FileSystem.unlink`."""
        os.unlink(path)

    def mkdir(self, path: str) -> None:
        """See :meth:`FileSystem.mkdir`."""
        try:
            os.mkdir(path)
        except FileExistsError:
            if not os.path.isdir(path):
                raise

    def rmdir(self, path: str) -> None:
        """See :meth:`FileSystem.rmdir`."""
        os.rmdir(path)

    def fsync_dir(self, path: str) -> None:
        """See :meth:`FileSystem.fsync_dir`."""
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def listdir(self, path: str) -> list[str]:
        """See :meth:`FileSystem.listdir`."""
        return os.listdir(path)

    def realpath(self, path: str) -> str:
        """See :meth:`FileSystem.realpath`."""
        return os.path.realpath(path)
