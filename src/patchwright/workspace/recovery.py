"""Finding and rolling back commits whose process died, and locking around them.

A journal is *orphaned* when its writer is gone. Two ways to tell:

* :meth:`Recovery.recover_all` (run when a workspace opens): the journal's owner lock
  can be taken, so its writer released it, which it does only after removing the journal
  or by dying.
* :meth:`Recovery.hold` (run by every commit): once a commit holds the locks of its
  paths, any journal that names one of those paths is orphaned, because a live writer
  would still hold that path's lock. Such a journal is rolled back before the commit
  reads anything, so a commit never builds on a half-written state, even in a workspace
  opened before the crash.

Rolling back means: files back to their before-images, the batch removed from history
if it got there, the journal removed.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.workspace.history import History
from patchwright.workspace.journal import Journal, Manifest
from patchwright.workspace.locks import PathLocks

_MAX_ROUNDS = 20


class Recovery:
    """Orphaned-journal handling for one workspace."""

    def __init__(self, journal: Journal, locks: PathLocks, history: History | None) -> None:
        self.journal = journal
        self.locks = locks
        self.history = history

    def rollback(self, manifest: Manifest) -> list[str]:
        """Undo an unfinished commit completely (caller holds its path locks).

        Returns the paths left alone because someone else changed them since.
        """
        left = self.journal.rollback(manifest)
        if self.history is not None:
            self.history.delete_batch(manifest.batch_id)
        self.journal.discard(manifest.batch_id)
        return left

    def recover_all(self) -> list[str]:
        """Roll back every orphaned journal; returns the batch IDs rolled back."""
        rolled_back: list[str] = []
        for batch_id in self.journal.pending():
            with self.locks.try_own(batch_id) as owned:
                if not owned:
                    continue  # its writer is alive
                manifest = self.journal.load(batch_id)
                outcome = "gone" if manifest is None else self._rollback_locked(manifest)
                if outcome == "busy":
                    continue  # the next commit touching those paths rolls it back
                self.journal.discard(batch_id)
                # removed by its holder once the journal is gone, so whoever locks a
                # fresh owner file of that name finds nothing left to do
                self.locks.forget_owner(batch_id)
                if outcome == "rolled back":
                    rolled_back.append(batch_id)
        return rolled_back

    def _rollback_locked(self, manifest: Manifest) -> str:
        try:
            with self.locks.hold(manifest.paths):
                # another recoverer may have finished it while we waited
                if self.journal.load(manifest.batch_id) is None:
                    return "gone"
                self.rollback(manifest)
                return "rolled back"
        except PatchwrightError as exc:
            if exc.code != ErrorCode.LOCK_TIMEOUT:
                raise
            return "busy"

    @contextmanager
    def hold(self, paths: Iterable[str]) -> Iterator[None]:
        """Hold the locks of ``paths`` with no orphaned journal touching them."""
        wanted = set(paths)
        for attempt in range(_MAX_ROUNDS):
            with self.locks.hold(wanted):
                blocking = self._orphans_touching(wanted)
                if all(m.paths <= wanted for m in blocking):
                    for manifest in blocking:
                        self.rollback(manifest)
                    yield
                    return
            # an orphan also touches paths we do not hold: recover with its own locks
            # (or give the recoverer that owns it time to take ours)
            self.recover_all()
            time.sleep(0.01 * attempt)
        raise PatchwrightError(
            ErrorCode.LOCK_TIMEOUT,
            "Could not clear an interrupted commit touching these files: "
            + ", ".join(sorted(wanted)),
            "Retry; if it keeps failing, another process may be stuck mid-commit.",
        )

    def _orphans_touching(self, paths: set[str]) -> list[Manifest]:
        found: list[Manifest] = []
        for batch_id in self.journal.pending():
            manifest = self.journal.load(batch_id)
            if manifest is not None and manifest.paths & paths:
                found.append(manifest)
        return found


def rollback_failed(exc: BaseException, rollback_exc: BaseException) -> PatchwrightError:
    """The error of a commit whose rollback failed too (the journal or the next open
    finishes it)."""
    return PatchwrightError(
        ErrorCode.IO_ERROR,
        f"Writing failed ({exc}) and so did rolling back ({rollback_exc}); the "
        "interrupted commit stays journaled and is rolled back the next time the "
        "workspace opens.",
        "Fix the disk problem, then open the workspace again.",
    )


def failure_error(exc: BaseException, left: list[str]) -> PatchwrightError | None:
    """The error to raise for a failed, rolled-back commit; ``None``: re-raise ``exc``.

    ``left`` names the files left alone because someone else changed them meanwhile.
    """
    if isinstance(exc, PatchwrightError) or not isinstance(exc, Exception):
        return None  # the caller re-raises it unchanged
    return PatchwrightError(
        ErrorCode.IO_ERROR,
        f"Writing failed: {exc}. Every file was put back as it was; nothing changed.",
        "Check disk space and permissions, then retry.",
        details={"left_alone": left} if left else None,
    )
