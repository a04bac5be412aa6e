"""Group commit: the history writes of calls running at the same time, in one transaction.

An MCP server runs many calls at once, each in a thread of its own, and each commit
records its batch (then the answer it gave) in the history. One transaction per record
makes the calls take turns on the store's one connection: every turn hands its lock from
thread to thread, and a thread woken with the lock still has to win the interpreter's
lock before it can use it, so at 16 busy sessions a record waited about 20 ms for its
turn against 0.5 ms to write it. Here a write arriving while another thread is writing
joins a queue; when that write ends, the next arrival takes the whole queue and runs it
as one transaction, each write in a savepoint of its own.

Each write keeps the outcome it would have had alone: one that fails is rolled back to
its savepoint and its error is raised in its own thread, the others commit; and a write
returns only once the transaction holding it committed, so an answer that says a batch
was recorded is as true as before. Should the transaction itself fail (the disk full,
the database broken), every write in it gets that error and none is recorded.

A write alone (no other waiting) runs in a transaction of its own, without savepoint, so
one session pays nothing for this. Only a backend that can roll back part of a
transaction (``savepoint``) groups: the SQLite one; writes to a shared PostgreSQL store
run one transaction each as before.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable
from contextlib import AbstractContextManager

from patchwright.workspace.history.backend import Tx, history_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

    from patchwright.workspace.history.backend import Backend

    _T = TypeVar("_T")

#: A backend's ``savepoint(tx)``: a part of write transaction ``tx`` rolled back alone
#: when it raises, a database error raised as the transaction would raise it, and
#: :class:`GroupBroken` when the failure ended the whole transaction.
Savepoint = Callable[[Tx], AbstractContextManager[None]]


class GroupBroken(Exception):
    """A write's failure ended the whole transaction it shared (SQLite rolls back a
    transaction by itself on some errors: a full disk, an I/O error): every write of the
    group fails with :attr:`error`."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


class _Write:
    """One thread's write waiting in, or run by, a group."""

    __slots__ = ("done", "error", "value", "work")

    def __init__(self, work: Callable[[Tx], Any]) -> None:
        self.work = work
        self.done = False
        self.value: Any = None
        self.error: BaseException | None = None


class GroupCommit:
    """The write transactions of one history store (see module docstring).

    Attributes:
        transactions: write transactions committed or tried so far.
        writes: writes run so far (each :meth:`run` call is one).
    """

    def __init__(self, backend: Backend, savepoint: Savepoint) -> None:
        self.backend = backend
        self.savepoint = savepoint
        self._ready = threading.Condition(threading.Lock())
        self._queue: list[_Write] = []
        self._writing = False
        self.transactions = 0
        self.writes = 0
        _GROUPS.add(self)

    def _forked(self) -> None:
        """In a forked child: the writes of the parent's other threads are not here (nor
        is a transaction one of them was running), so the child starts afresh."""
        self._ready = threading.Condition(threading.Lock())
        self._queue = []
        self._writing = False

    @property
    def waiting(self) -> int:
        """How many writes wait for the transaction in progress to end."""
        with self._ready:
            return len(self._queue)

    def run(self, work: Callable[[Tx], _T]) -> _T:
        """``work(tx)`` in a write transaction, shared with the writes of other threads
        that arrive meanwhile; its value once that transaction committed.

        Raises:
            PatchwrightError: ``history``, as a transaction of its own would have.
            OSError: raised by ``work`` (it was rolled back).
        """
        write = _Write(work)
        with self._ready:
            self._queue.append(write)
            while self._writing and not write.done:
                self._ready.wait()
            lead = not write.done
            if lead:
                self._writing = True
                group, self._queue = self._queue, []
        if lead:
            try:
                self._commit(group)
            finally:
                with self._ready:
                    self._writing = False
                    self._ready.notify_all()
        if write.error is not None:
            raise write.error
        value: _T = write.value
        return value

    def _commit(self, group: list[_Write]) -> None:
        """Run ``group`` in one transaction; every write ends done, with its value or
        its error."""
        self.transactions += 1
        self.writes += len(group)
        try:
            with self.backend.transaction(write=True) as tx:
                if len(group) == 1:  # alone: no savepoint to pay for
                    group[0].value = group[0].work(tx)
                else:
                    for write in group:
                        _run_part(self.savepoint, tx, write)
        except GroupBroken as broken:
            for write in group:
                write.error = broken.error
        except BaseException as exc:
            # the transaction failed (or its one write did): nothing of it is recorded
            failure = exc if isinstance(exc, Exception) else _interrupted(exc)
            for write in group:
                if write.error is None:
                    write.error = failure
            if not isinstance(exc, Exception):
                raise
        finally:
            for write in group:
                write.done = True


def _run_part(savepoint: Savepoint, tx: Tx, write: _Write) -> None:
    try:
        with savepoint(tx):
            write.value = write.work(tx)
    except GroupBroken:
        raise
    except Exception as exc:  # this write's own failure: the others go on
        write.error = exc


def _interrupted(exc: BaseException) -> Exception:
    return history_error(
        f"The history write was interrupted ({type(exc).__name__}) in the transaction it "
        "shared with another call's; nothing of it was recorded."
    )


_GROUPS: weakref.WeakSet[GroupCommit] = weakref.WeakSet()


def _start_afresh_in_child() -> None:
    for group in list(_GROUPS):
        group._forked()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_start_afresh_in_child)
