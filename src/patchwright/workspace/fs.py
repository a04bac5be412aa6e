"""The file-system seam of the workspace.

Everything the workspace does to disk goes through the small :class:`FileSystem`
protocol, on absolute paths. :class:`OsFileSystem` is the real implementation. The seam
exists so tests can wrap the real implementation (pause or fail before a given step,
block a read) and so the sandbox and the commit logic never call ``os`` directly.

Below a root the workspace holds (:meth:`FileSystem.hold_root`), every path is reached
from the root's directory descriptor, one folder at a time, never through a symlink
(dirfd.py): a folder swapped for a symlink mid-call raises :class:`SymlinkInPath` instead
of redirecting a read or a write. Reading never follows a symlink in the last component
(``O_NOFOLLOW``) and never blocks on a FIFO (``O_NONBLOCK``); it reports what it found as
a :class:`Probe` and the caller decides what to refuse. Replacing a file carries its
owner, group and extended attributes over to the new one (metadata.py).

Writing only ever creates new files exclusively (``O_EXCL``) and puts them in place with
an atomic rename, or adds a hard link to an existing file (:meth:`FileSystem.link`, which
the journal and the history use to keep a file's old content without copying its bytes).
"""

from __future__ import annotations

import errno
import os
import posixpath
import stat
from _thread import allocate_lock, get_ident
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager

from patchwright._lazy import lazy_literals
from patchwright._records import record, replace
from patchwright.workspace.dirfd import Anchors, FolderMoved, FolderWalk, SymlinkInPath
from patchwright.workspace.metadata import carry_over

__all__ = [
    "LINK_MODE", "MISSING", "FileSystem", "FolderMoved", "Kind", "OsFileSystem", "Probe",
    "SymlinkInPath", "kind_of",
]  # fmt: skip

#: The ``mode_bits`` of a symbolic link (git's mode 120000): :meth:`FileSystem.read_file`
#: reports a link with it, its content being the link's target, and
#: :meth:`FileSystem.write_new` given it creates a link to ``data`` instead of a file.
#: Outside the permission bits (0 to 0o7777), so it is never taken for them.
LINK_MODE = stat.S_IFLNK

#: Every :data:`Kind`: ``get_args(Kind)``, kept as a constant so that no run-time use of
#: the alias imports ``typing`` (start-up time).
KINDS = (
    "file", "dir", "symlink", "fifo", "socket", "char_device", "block_device", "missing", "other"
)  # fmt: skip

TYPE_CHECKING = False
if TYPE_CHECKING:
    from threading import Thread
    from typing import Literal, Protocol, TypeVar

    _T = TypeVar("_T")
    Kind = Literal[
        "file", "dir", "symlink", "fifo", "socket", "char_device", "block_device", "missing",
        "other",
    ]  # fmt: skip
else:
    # FileSystem is a protocol for type checkers only: nothing checks it at run time
    Protocol = object
    __getattr__ = lazy_literals(__name__, {"Kind": KINDS}, globals())


@record(frozen=True)
class Probe:
    """What stands at a path (the path itself, symlinks not followed).

    Attributes:
        kind: the file type, or ``missing``.
        size: size in bytes (0 when missing).
        mode_bits: permission bits (``stat.S_IMODE``), ``None`` when missing;
            :data:`LINK_MODE` for a symlink read by :meth:`FileSystem.read_file`.
        data: the content, only from :meth:`FileSystem.read_file` on a regular file
            within the size limit, or on a symlink (its target, as bytes).
        identity: ``(device, inode, size, mtime_ns)``, ``None`` when missing: two probes
            with the same identity saw the same, unmodified file.
        nlink: the number of hard links to the file (0 when missing).
        uid / gid: the owner and group, ``None`` when missing.
    """

    kind: Kind
    size: int = 0
    mode_bits: int | None = None
    data: bytes | None = None
    identity: tuple[int, int, int, int] | None = None
    nlink: int = 0
    uid: int | None = None
    gid: int | None = None


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
    """The operations the workspace needs, on absolute paths. ``OSError`` passes through.

    Below a held root (:meth:`hold_root`), a symlink met on the way to a path raises
    :class:`SymlinkInPath` (an ``OSError``) in every operation but :meth:`realpath`.
    """

    def hold_root(self, path: str) -> None:
        """Hold the folder ``path`` (real, existing) open; reach every path below it
        from that descriptor, folder by folder, never through a symlink."""

    def root_deleted(self, path: str) -> bool:
        """Whether the folder ``path`` held by :meth:`hold_root` has since been deleted
        (whatever now stands at its path)."""

    def keeping_folders(self) -> AbstractContextManager[None]:
        """A block in which this thread reaches each folder below a held root once and
        keeps its descriptor for every later call (dirfd.py); closed when it ends."""

    def recheck_folders(self) -> None:
        """Refuse (:class:`FolderMoved`) if a folder kept by the current
        :meth:`keeping_folders` block no longer stands at its path."""

    def probe(self, path: str) -> Probe:
        """What stands at ``path`` (``lstat``); :data:`MISSING` when nothing does."""

    def read_file(self, path: str, limit: int) -> Probe:
        """Read a regular file; ``data`` is ``None`` when it is not one or is over ``limit``.

        A symlink (never followed) is read as itself: ``data`` is its target and
        ``mode_bits`` :data:`LINK_MODE`.
        """

    def write_new(self, path: str, data: bytes, mode_bits: int | None) -> None:
        """Create ``path`` exclusively, write ``data``, set ``mode_bits`` if given, fsync.

        With ``mode_bits`` :data:`LINK_MODE`, ``path`` is created as a symlink to ``data``
        (made durable by the fsync of its folder, which every writer does after).
        """

    def link(self, src: str, dst: str, *, sync: bool = True) -> Probe:
        """Hard-link the file at ``src`` (a symlink is not followed) as the new name ``dst``
        and make that file's content durable (fsync; ``sync=False`` for a file whose
        content was made durable already, such as a journal before-image).

        Returns what ``dst`` now is, for the caller to check its ``identity``;
        :data:`MISSING` when no hard link can be made here (``dst`` on another device,
        not permitted, not supported), and the caller copies the bytes instead.
        """

    def replace(self, src: str, dst: str) -> None:
        """Atomically rename ``src`` over ``dst``, giving ``src`` first the owner, group and
        extended attributes of the regular file ``dst`` (as far as permitted)."""

    def unlink(self, path: str) -> None:
        """Remove a file."""

    def unlink_all(self, paths: Sequence[str]) -> None:
        """Remove these files (each as :meth:`unlink` does), several at a time, in no
        particular order; every one is tried, then the first ``OSError`` is raised."""

    def mkdir(self, path: str) -> None:
        """Create one directory (an existing one is not an error)."""

    def rmdir(self, path: str) -> None:
        """Remove an empty directory."""

    def fsync_dir(self, path: str) -> None:
        """Make the entries of directory ``path`` durable."""

    def batched_fsync(self, *, first_at_once: bool = False) -> AbstractContextManager[None]:
        """A block in which :meth:`write_new` and :meth:`link` leave their fsync for the
        end of the block, where every file's is done at once; an error inside skips them.

        The files are durable when the block ends, as if each call had synced its own:
        fsyncs issued together let the file system commit them in one go, which makes a
        commit of hundreds of files several times faster.

        ``first_at_once``: the first file's fsync starts as soon as it is written, in a
        thread of its own, so that the block's remaining work (Python, holding the GIL)
        runs while the disk writes it; the block's end waits for it as for the others.
        """

    def listdir(self, path: str) -> list[str]:
        """The names in directory ``path`` (a symlink to a folder is listed)."""

    def walk_folders(self, path: str) -> AbstractContextManager[FolderWalk]:
        """A :class:`~patchwright.workspace.dirfd.FolderWalk` starting at the folder
        ``path``: each folder below is reached from its parent's descriptor (linear in
        depth, past ``PATH_MAX``), every descriptor closed when the block ends."""

    def realpath(self, path: str) -> str:
        """``path`` with every symlink resolved (missing tail components kept)."""

    def realpath_below(self, root: str, rel: str) -> str:
        """:meth:`realpath` of ``root/rel`` where ``root`` is a real path (no symlink in
        it): only the components of ``rel`` are looked at."""


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
        uid=st.st_uid,
        gid=st.st_gid,
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


_REALPATH_TRIES = 3
_READ_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
# a symlink, or a socket, where a file was expected when opening it
_NOT_OPENABLE = frozenset({errno.ELOOP, errno.ENXIO, errno.EOPNOTSUPP})


class _FsyncBatch:
    """Open files waiting for their fsync; synced together by a few threads, since a
    journaling file system then commits many of them at once (fsync releases the GIL)."""

    # files kept open before a flush, well under the usual limit of open descriptors
    _MAX_OPEN = 256
    _THREADS = 16

    def __init__(self, first_at_once: bool = False) -> None:
        self.fds: list[int] = []
        self.first_at_once = first_at_once
        # the first file's fsync running ahead (see FileSystem.batched_fsync)
        self._ahead: tuple[Thread, int, list[OSError]] | None = None

    def add(self, fd: int) -> None:
        if self.first_at_once:
            self.first_at_once = False
            from threading import Thread  # only for a commit that keeps a large content

            errors: list[OSError] = []
            worker = Thread(target=_fsync_into, args=(fd, errors))
            self._ahead = (worker, fd, errors)
            worker.start()
            return
        self.fds.append(fd)
        if len(self.fds) >= self._MAX_OPEN:
            self.flush()

    def flush(self) -> None:
        """fsync every waiting file, then close it; the first failure is raised."""
        fds, self.fds = self.fds, []
        try:
            _fsync_together(fds, self._THREADS)  # alongside the one running ahead
        finally:
            for fd in fds:
                os.close(fd)
            failed = self._wait_ahead()
        if failed:
            raise failed[0]

    def close(self) -> None:
        """Close whatever still waits, unsynced (the block failed)."""
        self._wait_ahead()
        fds, self.fds = self.fds, []
        for fd in fds:
            os.close(fd)

    def _wait_ahead(self) -> list[OSError]:
        """Wait for the fsync running ahead, if any, close its file; its failure."""
        if self._ahead is None:
            return []
        (worker, fd, errors), self._ahead = self._ahead, None
        worker.join()  # never close a descriptor another thread still syncs
        os.close(fd)
        return errors


def _fsync_into(fd: int, errors: list[OSError]) -> None:
    """fsync ``fd``, keeping its failure in ``errors`` (for a thread of its own)."""
    try:
        os.fsync(fd)
    except OSError as exc:
        errors.append(exc)


def _fsync_together(fds: list[int], threads: int) -> None:
    _together(fds, os.fsync, threads)


def _together(items: Sequence[_T], action: Callable[[_T], object], threads: int) -> None:
    """``action`` on every item, shared among a few threads (each call is a system call
    that releases the GIL and may wait on the disk); every item is tried, then the first
    ``OSError`` is raised."""
    if len(items) < 2:
        for item in items:
            action(item)
        return
    import threading  # only for commits of several files

    errors: list[OSError] = []
    shares = [items[k::threads] for k in range(min(threads, len(items)))]

    def run(share: Sequence[_T]) -> None:
        for item in share:
            try:
                action(item)
            except OSError as exc:
                errors.append(exc)

    workers = [threading.Thread(target=run, args=(share,)) for share in shares[1:]]
    for worker in workers:
        worker.start()
    run(shares[0])
    for worker in workers:
        worker.join()
    if errors:
        raise errors[0]


class _FolderSyncs:
    """The fsyncs of one folder asked for by threads at the same time (see
    :func:`shared_fsync`): tickets handed out, tickets a finished fsync covers, and the
    fsync running now, if any."""

    __slots__ = ("asked", "running", "synced", "users")

    def __init__(self) -> None:
        self.asked = 0
        self.synced = 0
        self.running: _Running | None = None
        self.users = 0


class _Running:
    """One fsync in progress: the tickets it covers, and a lock held until it ends."""

    __slots__ = ("covers", "done")

    def __init__(self, covers: int) -> None:
        self.covers = covers
        self.done = allocate_lock()
        self.done.acquire()


_SYNCS_LOCK = allocate_lock()
#: Folders (device, inode) with an fsync asked for or running now.
FOLDER_SYNCS: dict[tuple[int, int], _FolderSyncs] = {}


def _forget_syncs_in_child() -> None:
    """In a forked child the parent's other threads, and the fsyncs they run, are not
    there: nobody would end them, so the child starts with none."""
    global _SYNCS_LOCK
    _SYNCS_LOCK = allocate_lock()
    FOLDER_SYNCS.clear()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_forget_syncs_in_child)


def shared_fsync(fd: int) -> None:
    """fsync the folder open as ``fd``, or wait for an fsync of it that another thread
    started after this call began, which covers this call's changes as well.

    A folder's fsync makes every entry change made before it started durable, whoever
    made it: at 16 sessions committing files of one folder, each commit renamed its file
    and then waited for a folder fsync of its own, one after another on the disk's
    journal. Each call now takes a ticket; an fsync covers the tickets handed out before
    it started. A call whose ticket the running fsync does not cover waits for it to
    end, then one of the waiting calls runs the next fsync for all of them. A call
    returns only once an fsync that started after its ticket succeeded; should that
    fsync fail, each call it covered tries its own, so every caller sees its own failure.
    """
    st = os.fstat(fd)
    key = (st.st_dev, st.st_ino)
    with _SYNCS_LOCK:
        state = FOLDER_SYNCS.get(key)
        if state is None:
            state = FOLDER_SYNCS[key] = _FolderSyncs()
        state.asked += 1
        state.users += 1
        ticket = state.asked
    try:
        while True:
            with _SYNCS_LOCK:
                if state.synced >= ticket:
                    return
                running = state.running
                if running is None:
                    mine = state.running = _Running(state.asked)
            if running is not None:
                with running.done:  # until that fsync ends; then look again
                    pass
                continue
            try:
                os.fsync(fd)
            except BaseException:
                with _SYNCS_LOCK:
                    state.running = None
                raise
            else:
                with _SYNCS_LOCK:
                    state.synced = max(state.synced, mine.covers)
                    state.running = None
            finally:
                mine.done.release()
            return
    finally:
        with _SYNCS_LOCK:
            state.users -= 1
            if not state.users:
                del FOLDER_SYNCS[key]


# removals shared among threads: removing the last name of a file frees its blocks, which
# waits on the file system's journal; several removals wait together
_UNLINK_THREADS = 8


class OsFileSystem:
    """:class:`FileSystem` on the real disk."""

    @property
    def _anchors(self) -> Anchors:
        # created on first use: subclasses (test doubles) need not call __init__
        anchors = vars(self).get("_held")
        if anchors is None:
            anchors = vars(self).setdefault("_held", Anchors())
        assert isinstance(anchors, Anchors)
        return anchors

    def hold_root(self, path: str) -> None:
        """See :meth:`FileSystem.hold_root`."""
        self._anchors.hold(path)

    def root_deleted(self, path: str) -> bool:
        """See :meth:`FileSystem.root_deleted`."""
        return self._anchors.deleted(path)

    def keeping_folders(self) -> AbstractContextManager[None]:
        """See :meth:`FileSystem.keeping_folders`."""
        return self._anchors.keeping()

    def recheck_folders(self) -> None:
        """See :meth:`FileSystem.recheck_folders`."""
        self._anchors.recheck()

    def probe(self, path: str) -> Probe:
        """See :meth:`FileSystem.probe`."""
        try:
            with self._anchors.parent(path) as (folder, name):
                st = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except (FileNotFoundError, NotADirectoryError):
            return MISSING
        return _probe_of(st)

    def read_file(self, path: str, limit: int) -> Probe:
        """See :meth:`FileSystem.read_file`."""
        try:
            with self._anchors.parent(path) as (folder, name):
                return self._read_in(folder, name, limit)
        except (FileNotFoundError, NotADirectoryError):
            return MISSING

    def _read_in(self, folder: int | None, name: str, limit: int) -> Probe:
        # lstat first so a device is never opened (opening one can have side effects).
        found = _probe_of(os.stat(name, dir_fd=folder, follow_symlinks=False))
        if found.kind == "symlink":
            # a link's content is its target, as git sees it; readlink never follows it
            target = os.readlink(os.fsencode(name), dir_fd=folder)
            return replace(found, size=len(target), mode_bits=LINK_MODE, data=target)
        if found.kind != "file" or found.size > limit:
            return found
        try:
            fd = os.open(name, _READ_FLAGS, dir_fd=folder)
        except OSError as exc:
            if exc.errno in _NOT_OPENABLE:
                # swapped for a symlink or a socket since the lstat
                return _probe_of(os.stat(name, dir_fd=folder, follow_symlinks=False))
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
            found = replace(found, size=len(data), identity=None)
        if len(data) > limit:
            return replace(found, data=None)
        return replace(found, data=data)

    def write_new(self, path: str, data: bytes, mode_bits: int | None) -> None:
        """See :meth:`FileSystem.write_new`."""
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
        if mode_bits == LINK_MODE:
            with self._anchors.parent(path) as (folder, name):
                os.symlink(data, os.fsencode(name), dir_fd=folder)
            return
        with self._anchors.parent(path) as (folder, name):
            fd = os.open(name, flags, 0o666, dir_fd=folder)  # the umask decides new bits
        try:
            if mode_bits is not None:
                os.fchmod(fd, mode_bits)
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
        except BaseException:
            os.close(fd)
            raise
        self._sync_and_close(fd)

    def _sync_and_close(self, fd: int) -> None:
        """fsync and close ``fd`` now, or at the end of a :meth:`batched_fsync` block."""
        batch = vars(self).get("_batches", {}).get(get_ident())
        if batch is not None:
            batch.add(fd)
            return
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    @contextmanager
    def batched_fsync(self, *, first_at_once: bool = False) -> Iterator[None]:
        """See :meth:`FileSystem.batched_fsync`."""
        # per thread: a file system may serve several commits at once (an HTTP server),
        # and another thread's writes must keep their own fsync
        batches: dict[int, _FsyncBatch] = vars(self).setdefault("_batches", {})
        me = get_ident()
        if me in batches:
            yield  # nested: what is waiting is synced here too, as this block promises
            batches[me].flush()
            return
        batch = batches[me] = _FsyncBatch(first_at_once)
        try:
            yield
            batch.flush()
        finally:
            del batches[me]
            batch.close()

    def link(self, src: str, dst: str, *, sync: bool = True) -> Probe:
        """See :meth:`FileSystem.link`."""
        anchors = self._anchors
        with anchors.parent(src) as (src_dir, src_name), anchors.parent(dst) as (dst_dir, name):
            try:
                os.link(
                    src_name, name, src_dir_fd=src_dir, dst_dir_fd=dst_dir, follow_symlinks=False
                )
            except OSError as exc:
                if exc.errno in _NO_LINK:
                    return MISSING
                raise
            if not sync:  # nothing to sync: what the new name is, without opening it
                return _probe_of(os.stat(name, dir_fd=dst_dir, follow_symlinks=False))
            try:
                fd = os.open(name, _READ_FLAGS, dir_fd=dst_dir)
            except OSError as exc:
                if exc.errno in _NOT_OPENABLE:  # linked a symlink or a socket: refused above
                    return _probe_of(os.stat(name, dir_fd=dst_dir, follow_symlinks=False))
                raise
        try:
            found = _probe_of(os.fstat(fd))
        except BaseException:
            os.close(fd)
            raise
        if found.kind != "file":
            os.close(fd)
            return found
        # the linked file may never have been flushed by whoever wrote it; a before-image
        # must survive a power cut like a copy would
        self._sync_and_close(fd)
        return found

    def replace(self, src: str, dst: str) -> None:
        """See :meth:`FileSystem.replace`."""
        anchors = self._anchors
        if posixpath.dirname(src) == posixpath.dirname(dst):
            # a temp file beside its target, the usual case: one walk serves both names
            with anchors.parent(dst) as (folder, name):
                # outside every held root the names are whole paths (see Anchors.parent)
                src_name = posixpath.basename(src) if folder is not None else src
                carry_over(folder, src_name, folder, name)
                os.replace(src_name, name, src_dir_fd=folder, dst_dir_fd=folder)
            return
        with anchors.parent(src) as (src_dir, src_name), anchors.parent(dst) as (dst_dir, name):
            carry_over(src_dir, src_name, dst_dir, name)
            os.replace(src_name, name, src_dir_fd=src_dir, dst_dir_fd=dst_dir)

    def unlink(self, path: str) -> None:
        """See :meth:`FileSystem.unlink`."""
        with self._anchors.parent(path) as (folder, name):
            os.unlink(name, dir_fd=folder)

    def unlink_all(self, paths: Sequence[str]) -> None:
        """See :meth:`FileSystem.unlink_all`."""
        _together(list(paths), self.unlink, _UNLINK_THREADS)

    def mkdir(self, path: str) -> None:
        """See :meth:`FileSystem.mkdir`."""
        with self._anchors.parent(path) as (folder, name):
            try:
                os.mkdir(name, dir_fd=folder)
            except FileExistsError:
                if not stat.S_ISDIR(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode):
                    raise

    def rmdir(self, path: str) -> None:
        """See :meth:`FileSystem.rmdir`."""
        with self._anchors.parent(path) as (folder, name):
            os.rmdir(name, dir_fd=folder)
        self._anchors.forget(path)  # a kept descriptor of it would name a removed folder

    def fsync_dir(self, path: str) -> None:
        """See :meth:`FileSystem.fsync_dir` (shared with other threads': :func:`shared_fsync`)."""
        with self._anchors.folder(path) as fd:
            shared_fsync(fd)

    @contextmanager
    def walk_folders(self, path: str) -> Iterator[FolderWalk]:
        """See :meth:`FileSystem.walk_folders`."""
        with self._anchors.folder(path) as fd:
            start = os.dup(fd)  # the walk closes its own; a kept folder stays open
        walk = FolderWalk(start, path)
        try:
            yield walk
        finally:
            walk.close()

    def listdir(self, path: str) -> list[str]:
        """See :meth:`FileSystem.listdir`."""
        # names only: a symlinked folder inside the root is listed like a folder, and
        # whoever uses a name reaches it again through the checks above
        return os.listdir(path)

    def realpath_below(self, root: str, rel: str) -> str:
        """See :meth:`FileSystem.realpath_below`."""
        # one lstat per component below the root instead of one per component from "/"
        # (the root was resolved once, when the workspace opened); the standard library
        # takes over at the first symlink
        current = root.rstrip("/")
        parts = rel.split("/")
        for index, name in enumerate(parts):
            if name in ("", ".", ".."):
                return self.realpath(posixpath.join(root, rel))  # not normalised: rare
            step = f"{current}/{name}"
            try:
                mode = os.lstat(step).st_mode
            except OSError:
                return posixpath.join(step, *parts[index + 1 :])  # a missing tail is kept
            if stat.S_ISLNK(mode):
                return self.realpath(posixpath.join(root, rel))
            current = step
        return current or "/"

    def realpath(self, path: str) -> str:
        """See :meth:`FileSystem.realpath`."""
        for _attempt in range(_REALPATH_TRIES - 1):
            try:
                return os.path.realpath(path)
            except OSError:
                # a symlink on the way vanished between its lstat and its readlink: the
                # next attempt sees the path as it is now
                continue
        return os.path.realpath(path)
