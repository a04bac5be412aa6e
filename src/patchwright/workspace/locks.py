"""Per-file locks between threads and processes (``flock``; ``filelock`` elsewhere).

A workspace's paths share a bounded set of lock files kept in the state folder
(``locks/stripe-<nn>.lock``, :data:`STRIPES` of them), so the user's tree stays clean and
the state folder does not grow by a file for every path ever edited: a path's lock is
the stripe its hash picks. A commit takes the distinct stripes of every path it reads
or writes, once each and in ascending order, which rules out deadlocks between commits
(two commits wait for each other only on a stripe both need, and each takes its
stripes in the same order); it then reads, checks the SHA256 preconditions and writes
while holding them. Two paths on one stripe exclude each other too: a commit of one may
wait for a commit of the other, briefly, never for ever.

Each acquisition opens the lock file anew, so two threads of one process exclude each
other just as two processes do (``flock`` locks belong to the open file, not to the
process). A thread that already holds a stripe through the same :class:`PathLocks` (a
hold inside a hold, of paths sharing a stripe) does not take it again: it would wait
for itself until the timeout.

On POSIX a lock is the standard library's ``fcntl.flock`` on that descriptor, taken
without blocking and retried every few milliseconds until the timeout: an acquisition
and release cost two system calls and an ``open``, about 6 us. ``filelock`` takes the
same ``flock`` with a good deal of bookkeeping around it (fork tracking, a registry of
instances, a path resolution), about 230 us per acquisition here: a tenth of an
``edit_file`` call, so it is used only where ``fcntl`` does not exist (Windows).

Stripe files are never deleted: removing a lock file someone else is waiting on would
let two holders in at once. (Versions before the stripes kept one lock file per path,
``locks/<hash>.lock``; those files are left alone, and a process of such a version does
not exclude this one.)

A commit also holds an *owner* lock on its journal (``locks/journal-<batch>.lock``) from
before the journal exists until after it is gone, so recovery can tell a journal whose
writer died (owner lock free) from one still being written (owner lock held). That file
is removed by its holder once the journal is gone; a lock taken on it after it was
unlinked guards no name, so it is dropped and taken again on the path's current file.
"""

from __future__ import annotations

import hashlib
import os
import time
from _thread import get_ident
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress

from patchwright.model.errors import ErrorCode, PatchwrightError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol
else:
    Protocol = object  # a structural type for type checkers only: no ``typing`` at run time

#: How many lock files the paths of a workspace share. Enough that two edits of different
#: files rarely share one (1 in 256), few enough that a fresh state folder creates them
#: once and a commit of hundreds of files takes each at most once.
STRIPES = 256

_POLL = 0.005  # seconds between attempts; commits are short, so poll often
# O_NONBLOCK: a lease on the file must not hold the open beyond the timeout
_OPEN_FLAGS = (
    os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)  # fmt: skip


class _Busy(Exception):
    """The lock stayed busy until the timeout."""


class _Lock(Protocol):
    def release(self) -> None: ...


class _FlockLock:
    """An exclusive ``flock`` on a fresh descriptor of the lock file."""

    def __init__(self, path: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            fd = _open(path)
            try:
                state = _try_lock(fd)
            except BaseException:
                os.close(fd)
                raise
            if state == "taken":
                self._fd = fd
                return
            os.close(fd)
            if state == "unlinked":
                continue  # its holder removed it after we opened it: open the new one
            if time.monotonic() >= deadline:
                raise _Busy(path)
            time.sleep(_POLL)

    def release(self) -> None:
        """Unlock (closing the descriptor drops its ``flock``)."""
        os.close(self._fd)


def _open(path: str) -> int:
    try:
        return os.open(path, _OPEN_FLAGS, 0o644)
    except FileNotFoundError:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return os.open(path, _OPEN_FLAGS, 0o644)


def _try_lock(fd: int) -> str:
    """``taken``, ``busy``, or ``unlinked``: the file lost its name between our ``open``
    and our ``flock`` (an owner file removed by its holder), so that lock guards nothing."""
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return "busy"
    return "taken" if os.fstat(fd).st_nlink > 0 else "unlinked"


class _PortableLock:
    """``filelock``'s lock, where ``fcntl`` does not exist."""

    def __init__(self, path: str, timeout: float) -> None:
        from filelock import FileLock, Timeout

        self._lock = FileLock(path, thread_local=False)
        try:
            self._lock.acquire(timeout=timeout, poll_interval=_POLL)
        except Timeout as exc:
            raise _Busy(path) from exc

    def release(self) -> None:
        """Unlock."""
        self._lock.release()


def _take(path: str, timeout: float) -> _Lock:
    """The exclusive lock of ``path`` (created when missing), waiting up to ``timeout``;
    ``timeout <= 0`` tries once.

    Raises:
        _Busy: it stayed busy.
    """
    kind = _PortableLock if os.name == "nt" else _FlockLock
    return kind(path, timeout)


class PathLocks:
    """Lock files for the paths of one workspace.

    Args:
        folder: where lock files live.
        timeout: how long to wait for each lock, in seconds.
    """

    def __init__(self, folder: str | os.PathLike[str], timeout: float) -> None:
        self.folder = os.fspath(folder)
        self.timeout = timeout
        # the stripes each thread holds now through this object
        self._held: dict[int, set[str]] = {}

    def lock_file(self, rel: str) -> str:
        """The lock file of a workspace path (its stripe)."""
        digest = hashlib.sha256(rel.encode("utf-8", "surrogateescape")).hexdigest()
        return os.path.join(self.folder, f"stripe-{int(digest[:8], 16) % STRIPES:03d}.lock")

    def owner_file(self, batch_id: str) -> str:
        """The owner lock file of a journal."""
        return os.path.join(self.folder, f"journal-{batch_id}.lock")

    @contextmanager
    def hold(self, paths: Iterable[str], *, timeout: float | None = None) -> Iterator[None]:
        """Hold the locks of ``paths`` for the ``with`` body: each distinct stripe once,
        in ascending order, except those this thread holds already.

        Raises:
            PatchwrightError: ``lock_timeout`` naming a path whose lock stayed busy.
        """
        wait = self.timeout if timeout is None else timeout
        stripes: dict[str, str] = {}
        for rel in sorted(set(paths)):
            stripes.setdefault(self.lock_file(rel), rel)  # the first path names it
        mine = self._held.setdefault(get_ident(), set())
        held: list[tuple[str, _Lock]] = []
        try:
            for file in sorted(stripes.keys() - mine):
                try:
                    lock = _take(file, wait)
                except _Busy as exc:
                    raise _busy_error(stripes[file], wait) from exc
                held.append((file, lock))
                mine.add(file)
            yield
        finally:
            for file, lock in reversed(held):
                mine.discard(file)
                lock.release()
            if not mine:
                self._held.pop(get_ident(), None)

    @contextmanager
    def own(self, batch_id: str) -> Iterator[None]:
        """Hold the owner lock of a journal being written."""
        try:
            lock = _take(self.owner_file(batch_id), self.timeout)
        except _Busy as exc:  # only a recoverer's brief look can hold it
            raise PatchwrightError(
                ErrorCode.LOCK_TIMEOUT,
                f"The journal lock of batch {batch_id} stayed busy for {self.timeout:g} s.",
                "Retry the edit.",
            ) from exc
        try:
            yield
        finally:
            lock.release()
            self.forget_owner(batch_id)

    @contextmanager
    def try_own(self, batch_id: str) -> Iterator[bool]:
        """Try once to take a journal's owner lock; yields whether it was taken."""
        try:
            lock = _take(self.owner_file(batch_id), 0)
        except _Busy:
            yield False
            return
        try:
            yield True
        finally:
            lock.release()

    def forget_owner(self, batch_id: str) -> None:
        """Remove an owner lock file once its journal is gone (it is never waited on)."""
        with suppress(FileNotFoundError):
            os.unlink(self.owner_file(batch_id))


def _busy_error(rel: str, wait: float) -> PatchwrightError:
    return PatchwrightError(
        ErrorCode.LOCK_TIMEOUT,
        f"{rel!r} is being changed by another edit (of this file, or of one sharing its "
        f"lock); its lock stayed busy for {wait:g} s.",
        "Retry in a moment; read the file again first, it may have changed.",
        path=rel,
    )
