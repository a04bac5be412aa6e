"""Per-file locks between threads and processes (``filelock``).

One lock file per workspace path, kept in the state folder (``locks/<hash>.lock``) so the
user's tree stays clean. A commit takes the locks of every path it reads or writes in
sorted order, which rules out deadlocks between commits that share files; it then reads,
checks the SHA256 preconditions and writes while holding them. Each acquisition uses a
fresh ``FileLock`` object, so two threads of one process exclude each other just as two
processes do (``flock`` locks belong to the open file, not to the process).

Lock files are never deleted: removing a lock file someone else is waiting on would let
two holders in at once.

A commit also holds an *owner* lock on its journal (``locks/journal-<batch>.lock``) from
before the journal exists until after it is gone, so recovery can tell a journal whose
writer died (owner lock free) from one still being written (owner lock held).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from filelock import FileLock, Timeout

from patchwright.model.errors import ErrorCode, PatchwrightError

_POLL = 0.005  # seconds between attempts; commits are short, so poll often


class PathLocks:
    """Lock files for the paths of one workspace.

    Args:
        folder: where lock files live.
        timeout: how long to wait for each lock, in seconds.
    """

    def __init__(self, folder: Path, timeout: float) -> None:
        self.folder = folder
        self.timeout = timeout

    def lock_file(self, rel: str) -> Path:
        """The lock file of a workspace path."""
        digest = hashlib.sha256(rel.encode("utf-8", "surrogateescape")).hexdigest()[:32]
        return self.folder / f"{digest}.lock"

    def owner_file(self, batch_id: str) -> Path:
        """The owner lock file of a journal."""
        return self.folder / f"journal-{batch_id}.lock"

    @contextmanager
    def hold(self, paths: Iterable[str], *, timeout: float | None = None) -> Iterator[None]:
        """Hold the locks of ``paths`` (sorted, deduplicated) for the ``with`` body.

        Raises:
            PatchwrightError: ``lock_timeout`` naming the path whose lock stayed busy.
        """
        wait = self.timeout if timeout is None else timeout
        held: list[FileLock] = []
        try:
            for rel in sorted(set(paths)):
                lock = FileLock(str(self.lock_file(rel)), thread_local=False)
                try:
                    lock.acquire(timeout=wait, poll_interval=_POLL)
                except Timeout as exc:
                    raise PatchwrightError(
                        ErrorCode.LOCK_TIMEOUT,
                        f"{rel!r} is being changed by another edit; its lock stayed busy "
                        f"for {wait:g} s.",
                        "Retry in a moment; read the file again first, it may have changed.",
                        path=rel,
                    ) from exc
                held.append(lock)
            yield
        finally:
            for lock in reversed(held):
                lock.release()

    @contextmanager
    def own(self, batch_id: str) -> Iterator[None]:
        """Hold the owner lock of a journal being written."""
        lock = FileLock(str(self.owner_file(batch_id)), thread_local=False)
        try:
            lock.acquire(timeout=self.timeout, poll_interval=_POLL)
        except Timeout as exc:  # only a recoverer's brief look can hold it
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
        lock = FileLock(str(self.owner_file(batch_id)), thread_local=False)
        try:
            lock.acquire(timeout=0)
        except Timeout:
            yield False
            return
        try:
            yield True
        finally:
            lock.release()

    def forget_owner(self, batch_id: str) -> None:
        """Remove an owner lock file once its journal is gone (it is never waited on)."""
        with suppress(FileNotFoundError):
            self.owner_file(batch_id).unlink()
