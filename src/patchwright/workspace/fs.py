"""The file-system seam of the workspace.

Everything the workspace does to disk goes through the small :class:`FileSystem`
protocol, on absolute paths. :class:`OsFileSystem` is the real implementation. The seam
exists so tests can wrap the real implementation (pause or fail before a given step,
block a read) and so the sandbox and the commit logic never call ``os`` directly.

Reading never follows a symlink in the last component (``O_NOFOLLOW``) and never blocks on
a FIFO (``O_NONBLOCK``); it reports what it found as a :class:`Probe` and the caller
decides what to refuse. Writing only ever creates new files exclusively (``O_EXCL``) and
puts them in place with an atomic rename, or adds a hard link to an existing file
(:meth:`FileSystem.link`, which the journal and the history use to keep a file's old
content without copying its bytes).
"""

from __future__ import annotations

import dataclasses
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
        identity: ``(device, inode, size, mtime_ns)``, ``None`` when missing: two probes
            with the same identity saw the same, unmodified file.
        nlink: the number of hard links to the file (0 when missing).
    """

    kind: Kind
    size: int = 0
    mode_bits: int | None = None
    data: bytes | None = None
    identity: tuple[int, int, int, int] | None = None
    nlink: int = 0


MISSING = Probe("missing")

# Why a hard link cannot be made (other device, not permitted, not supported): the
# caller then copies the bytes instead.
_NO_LINK = frozenset(
    getattr(errno, name)
    for name in ("EXDEV", "EPERM", "EACCES", "EMLINK", "ENOTSUP", "EOPNOTSUPP", "ENOSYS")
    if hasattr(errno, name)
)

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

    def link(self, src: str, dst: str) -> Probe:
        """Hard-link the file at ``src`` (a symlink is not followed) as the new name ``dst``
        and make that file's content durable (fsync).

        Returns what ``dst`` now is, for the caller to check its ``identity``;
        :data:`MISSING` when no hard link can be made here (``dst`` on another device,
        not permitted, not supported), and the caller copies the bytes instead.
        """

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


def process_umask() -> int:
    """The process's umask: the permission bits a new file does not get."""
    try:
        # Linux reports it without changing it
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)  # elsewhere the only way is to set it and put it back
    os.umask(mask)
    return mask


def _probe_of(st: os.stat_result) -> Probe:
    return Probe(
        kind_of(st.st_mode),
        st.st_size,
        stat.S_IMODE(st.st_mode),
        identity=(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns),
        nlink=st.st_nlink,
    )


def _read_at_most(fd: int, count: int, expected: int) -> bytes:
    # one read of the expected size (plus the byte that shows growth) usually gets the
    # whole file, and joining a single chunk returns it without another copy
    chunks: list[bytes] = []
    step = expected + 1
    while count > 0:
        chunk = os.read(fd, min(count, step))
        if not chunk:
            break
        chunks.append(chunk)
        count -= len(chunk)
        step = 1 << 20
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
        return _probe_of(st)

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
            found = _probe_of(os.fstat(fd))
            if found.kind != "file" or found.size > limit:
                return found
            data = _read_at_most(fd, limit + 1, found.size)  # a byte over the limit shows growth
        finally:
            os.close(fd)
        if len(data) != found.size:
            # it grew or shrank while being read: no identity, so nothing trusts the stamp
            found = dataclasses.replace(found, size=len(data), identity=None)
        if len(data) > limit:
            return dataclasses.replace(found, data=None)
        return dataclasses.replace(found, data=data)

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

    def link(self, src: str, dst: str) -> Probe:
        """See :meth:`FileSystem.link`."""
        try:
            os.link(src, dst, follow_symlinks=False)
        except OSError as exc:
            if exc.errno in _NO_LINK:
                return MISSING
            raise
        flags = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(dst, flags)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EOPNOTSUPP):
                return self.probe(dst)  # linked a symlink or a socket: the caller refuses it
            raise
        try:
            found = _probe_of(os.fstat(fd))
            if found.kind == "file":
                # the linked file may never have been flushed by whoever wrote it; a
                # before-image must survive a power cut like a copy would
                os.fsync(fd)
        finally:
            os.close(fd)
        return found

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
