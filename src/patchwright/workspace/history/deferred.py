"""Batches to forget once the shared history is reachable again.

When a commit is rolled back (its process failed or died after recording the batch and
before its commit point), the batch must leave the history too. If the shared store
cannot be reached at that moment, the rollback of the tree still completes: the batch's
ID is written, durably, as an empty file ``<state folder>/history-forget/<batch id>``,
and the store deletes those batches at the start of its next transaction from this
workspace, before anything else is read or written. Edits themselves are never queued
(docs/history.md).
"""

from __future__ import annotations

import posixpath
import re
from contextlib import suppress

from patchwright.workspace.fs import FileSystem

_BATCH_ID = re.compile(r"b-[0-9a-f]{8}")


class DeferredDeletions:
    """The folder of batch IDs still to delete from the shared history."""

    def __init__(self, folder: str, fs: FileSystem) -> None:
        self.folder = folder
        self.fs = fs
        # checked on first use; afterwards only when this process adds one
        self.maybe_some = True

    def add(self, batch_id: str) -> None:
        """Remember ``batch_id`` durably (file and folder entry fsynced)."""
        self.fs.mkdir(self.folder)
        path = posixpath.join(self.folder, batch_id)
        with suppress(FileExistsError):  # already remembered
            self.fs.write_new(path, b"", None)
        self.fs.fsync_dir(self.folder)
        self.maybe_some = True

    def pending(self) -> list[str]:
        """The batch IDs waiting, oldest name first."""
        if not self.maybe_some:
            return []
        if self.fs.probe(self.folder).kind != "dir":
            self.maybe_some = False
            return []
        found = sorted(n for n in self.fs.listdir(self.folder) if _BATCH_ID.fullmatch(n))
        self.maybe_some = bool(found)
        return found

    def done(self, batch_ids: list[str]) -> None:
        """Forget the files of batches deleted from the store."""
        for batch_id in batch_ids:
            with suppress(FileNotFoundError):  # deleted meanwhile by another process
                self.fs.unlink(posixpath.join(self.folder, batch_id))
        self.fs.fsync_dir(self.folder)
        self.maybe_some = False
