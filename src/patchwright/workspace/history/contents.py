"""Before and after contents, stored once each by SHA256 (content-addressed).

Small contents live in the store's ``blobs(sha256, data)`` table; a content already
there is never sent again (the store asks which of a commit's hashes it lacks first).
With SQLite, contents of :data:`FILE_BLOB_MIN` bytes and more are kept as files beside
the database instead, ``blobs/<sha256>``, written before the batch's rows so a row
never names a missing content: writing megabytes into SQLite costs them twice (the WAL,
then the checkpoint). A before-content is hard-linked from the commit journal's
before-image (the old file itself, see journal.py) when it has no other name left, so
keeping it costs no copy; an after-content is copied (a link to the file in the tree
would change with it). Both are fsynced before the rows commit. PostgreSQL keeps every
content in its table, where every machine can read it.

Every content file is checked against its SHA256 when read: a damaged one is reported,
never returned.
"""

from __future__ import annotations

import posixpath
import re
import secrets
from collections.abc import Mapping

from patchwright.workspace.fs import FileSystem
from patchwright.workspace.history.backend import history_error
from patchwright.workspace.records import sha256_hex

#: Contents at least this large are stored as files, not in the database (SQLite).
FILE_BLOB_MIN = 64 * 1024
_SHA256 = re.compile(r"[0-9a-f]{64}")


class ContentFiles:
    """Large contents as files named by their SHA256 in ``folder``."""

    def __init__(self, folder: str, fs: FileSystem) -> None:
        self.folder = folder
        self.fs = fs

    def store(self, large: Mapping[str, bytes], images: Mapping[str, str]) -> None:
        """Make every content of ``large`` durable as ``<folder>/<sha256>``.

        ``images`` maps a SHA256 to a file holding that content that nothing else
        writes to (a journal before-image), linked instead of copied when it can be.
        """
        if not large:
            return
        fs = self.fs
        fs.mkdir(self.folder)
        added = False
        for sha, data in large.items():
            final = posixpath.join(self.folder, sha)
            if fs.probe(final).kind == "file":
                continue  # content-addressed: the same content is already stored
            image = images.get(sha)
            # a before-image with another name left (a hard link elsewhere in the tree)
            # could still be written through that name, so it is copied instead
            if image is not None and fs.probe(image).nlink == 1:
                try:
                    if fs.link(image, final).kind == "file":
                        added = True
                        continue
                except FileExistsError:
                    continue  # stored meanwhile by another commit
            temp = posixpath.join(self.folder, f".{sha}.{secrets.token_hex(4)}.tmp")
            fs.write_new(temp, data, None)
            fs.replace(temp, final)
            added = True
        if added:
            fs.fsync_dir(self.folder)

    def read(self, sha256: str) -> bytes | None:
        """The content stored as a file, ``None`` when there is no such file.

        Raises:
            PatchwrightError: ``history`` when the file no longer has that hash.
        """
        if not _SHA256.fullmatch(sha256):
            return None
        found = self.fs.read_file(posixpath.join(self.folder, sha256), 1 << 40)
        if found.data is None:
            return None
        if sha256_hex(found.data) != sha256:
            raise history_error(
                f"The history's copy of the content with sha256 {sha256} is damaged "
                "(its bytes no longer have that hash).",
                "That batch can no longer be undone or shown from history.",
                sha256=sha256,
            )
        return found.data
