"""The commit journal: what makes a multi-file commit all-or-nothing across crashes.

A commit, holding the locks of all its paths, goes through these steps::

    1. journal/<batch>/manifest.json  targets, temp names, before/after hashes and modes,
                                      the folders it will create (written to a temp name,
                                      fsynced, renamed: the manifest is whole or absent)
    2. create missing parent folders
    3. journal/<batch>/before-<i>     the before-image of every file that exists, and
       each new file written to a temp file in its target's folder; all of them fsynced
       together, and the journal folder once the images are named
    4. rename each temp file over its target / unlink deleted files; fsync the folders
    5. record the batch in the history store
    6. unlink manifest.json (the commit point), fsync; then remove the journal folder

A journal folder **with** a manifest is an unfinished commit: :meth:`Journal.rollback`
puts every file back to its before-image, removes the temp files and the folders the
commit created, and the caller deletes the batch from history if step 5 happened. Up to
step 4 every file still holds its before content, which rollback leaves as it is: a
before-image is only read for a file that holds the content the commit wrote, and
every image is durable before the first rename. A journal folder **without** a manifest
either never touched the tree (killed before step 1 completed) or is past its commit
point (killed during step 6); either way the folder is simply removed. Rollback is
idempotent, so a crash during recovery is recovered by the next attempt.

Files are replaced by rename, as most editors do: a hard link to the old file keeps the
old content, and the new file belongs to the user running patchwright (permission bits
are carried over; owner and group are not).

Rollback only puts a file back when it still holds the content this commit wrote (or
still misses, for a deletion): a file changed by someone else since is left alone and
reported, never overwritten.

A before-image is a hard link to the file itself, not a copy of its bytes: the commit
replaces the file by renaming a new one over it, so the old inode, and the content the
commit read and checked, stays intact under the journal's name (and costs no copy of a
large file). The link is taken only when the file on disk is still the one that was read
(same device, inode, size and mtime) and its content is then fsynced, so the image is as
durable as a copy would be. When no link can be made (the state folder on another
device, links not permitted or not supported) or the file changed since it was read, the
bytes that were read are copied instead. Rollback checks an image's SHA256 before using
it either way, so an image altered by a writer that ignores the locks is reported, never
restored.

A symbolic link changed as a link (mode ``LINK_MODE``, see fs.py) is journaled like a
file whose content is its target: its before-image is a plain file holding the target
(never a hard link to the link), and rollback re-creates the link from it. A path is
only taken to hold a content when it is of the kind recorded too (a link for
``LINK_MODE``, a regular file otherwise).
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping

from patchwright._records import asdict, record
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.workspace.fs import LINK_MODE, FileSystem, Probe
from patchwright.workspace.records import FileState, sha256_hex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MANIFEST = "manifest.json"
_FORMAT = 1


@record(frozen=True)
class JournalEntry:
    """One path a commit changes.

    Attributes:
        path: the path relative to the root.
        temp: the temp file (relative) the new content is written to; ``None`` for removals.
        before_sha256 / before_mode: the file before the commit (``None``: it did not exist).
        after_sha256 / after_mode: the file after the commit (``None``: removed).
    """

    path: str
    temp: str | None
    before_sha256: str | None
    before_mode: int | None
    after_sha256: str | None
    after_mode: int | None


@record(frozen=True)
class Manifest:
    """An unfinished commit: its batch, its entries and the folders it creates."""

    batch_id: str
    entries: tuple[JournalEntry, ...]
    created_dirs: tuple[str, ...] = ()

    @property
    def paths(self) -> set[str]:
        """Every path the commit changes."""
        return {e.path for e in self.entries}

    def to_json(self) -> bytes:
        """The manifest file's content."""
        import json  # only commits of several files write a manifest

        data: dict[str, Any] = {
            "format": _FORMAT,
            "batch_id": self.batch_id,
            "entries": [asdict(e) for e in self.entries],
            "created_dirs": list(self.created_dirs),
        }
        return json.dumps(data, indent=1).encode("utf-8")

    @classmethod
    def from_json(cls, raw: bytes) -> Manifest:
        """Parse a manifest file."""
        import json

        data = json.loads(raw.decode("utf-8"))
        entries = tuple(JournalEntry(**e) for e in data["entries"])
        return cls(data["batch_id"], entries, tuple(data["created_dirs"]))


def holds(found: Probe, sha256: str | None, mode: int | None) -> bool:
    """Whether ``found`` (from :meth:`FileSystem.read_file`) is what a commit recorded:
    missing for ``sha256`` ``None``, else that content in a link when ``mode`` is
    ``LINK_MODE`` and in a regular file otherwise."""
    if sha256 is None or found.kind == "missing":
        return sha256 is None and found.kind == "missing"
    if found.kind != ("symlink" if mode == LINK_MODE else "file") or found.data is None:
        return False
    return sha256_hex(found.data) == sha256


def temp_name(rel: str, batch_id: str, suffix: str) -> str:
    """A temp file next to ``rel``, unique to the batch."""
    folder, name = posixpath.split(rel)
    return posixpath.join(folder, f".{name[:100]}.{batch_id}.{suffix}")


class Journal:
    """The journal folder of one workspace.

    Args:
        folder: the journal folder (in the state folder).
        root: the real workspace root the entries are relative to.
        fs: the file system.
    """

    def __init__(self, folder: str | os.PathLike[str], root: str, fs: FileSystem) -> None:
        self.folder = os.fspath(folder)
        self.root = root
        self.fs = fs

    def _batch_dir(self, batch_id: str) -> str:
        return posixpath.join(self.folder, batch_id)

    def _abs(self, rel: str) -> str:
        return posixpath.join(self.root, rel)

    def image(self, batch_id: str, index: int) -> str:
        """The before-image of entry ``index`` of a batch (absolute path)."""
        return posixpath.join(self._batch_dir(batch_id), f"before-{index}")

    # writing ---------------------------------------------------------------------------------
    def start(self, manifest: Manifest) -> None:
        """Step 1: make the manifest durable in a new journal folder."""
        batch_dir = self._batch_dir(manifest.batch_id)
        self.fs.mkdir(batch_dir)
        self.fs.fsync_dir(self.folder)
        staging = posixpath.join(batch_dir, MANIFEST + ".tmp")
        self.fs.write_new(staging, manifest.to_json(), None)
        self.fs.replace(staging, posixpath.join(batch_dir, MANIFEST))
        self.fs.fsync_dir(batch_dir)

    def keep_befores(self, manifest: Manifest, befores: Mapping[str, FileState]) -> None:
        """Step 3, the journal's part: the before-image of every file that exists.

        ``befores`` holds each existing file as the commit read it (inside the locks).
        Called inside the commit's :meth:`FileSystem.batched_fsync` block, so the images'
        contents are synced together with the temp files; their names are made durable
        here. Both happen before the first rename, the first change rollback may have to
        undo with an image.
        """
        kept = False
        for index, entry in enumerate(manifest.entries):
            if entry.before_sha256 is not None:
                self.keep_before(self.image(manifest.batch_id, index), befores[entry.path])
                kept = True
        if kept:
            self.fs.fsync_dir(self._batch_dir(manifest.batch_id))

    def keep_before(self, image: str, state: FileState) -> None:
        """Make ``image`` hold ``state``'s content: a hard link when possible, else a copy
        (always for a link: the image holds its target, as a plain file)."""
        if state.identity is not None and state.mode_bits != LINK_MODE:
            linked = self.fs.link(self._abs(state.path), image)
            if linked.identity == state.identity:
                return
            if linked.kind != "missing":
                # the path holds another file (or changed) since it was read: keep the
                # bytes that were read and checked instead
                self.fs.unlink(image)
        self.fs.write_new(image, state.data, None)

    def commit_point(self, batch_id: str) -> None:
        """Step 7, first half: remove the manifest; past this the commit stands."""
        batch_dir = self._batch_dir(batch_id)
        self.fs.unlink(posixpath.join(batch_dir, MANIFEST))
        self.fs.fsync_dir(batch_dir)

    def discard(self, batch_id: str, *, durable: bool = True) -> None:
        """Remove a journal folder that has no manifest (or no longer needs one).

        ``durable=False`` skips the fsync of the journal folder: for a folder that never
        had a manifest, whose return after a power cut only means one more removal.
        """
        batch_dir = self._batch_dir(batch_id)
        if self.fs.probe(batch_dir).kind != "dir":
            return
        names = self.fs.listdir(batch_dir)
        # the before-images together (each frees the old content of a file), the
        # manifest, if any, after all of them
        self.fs.unlink_all([posixpath.join(batch_dir, n) for n in names if n != MANIFEST])
        if MANIFEST in names:
            self.fs.unlink(posixpath.join(batch_dir, MANIFEST))
        self.fs.rmdir(batch_dir)
        if durable:
            self.fs.fsync_dir(self.folder)

    # reading ---------------------------------------------------------------------------------
    def pending(self) -> list[str]:
        """Batch IDs that have a journal folder, oldest name first."""
        if self.fs.probe(self.folder).kind != "dir":
            return []
        return sorted(n for n in self.fs.listdir(self.folder) if not n.startswith("."))

    def load(self, batch_id: str) -> Manifest | None:
        """The manifest of a journal folder, ``None`` when it has none."""
        path = posixpath.join(self._batch_dir(batch_id), MANIFEST)
        found = self.fs.read_file(path, 1 << 30)
        if found.data is None:
            return None
        try:
            return Manifest.from_json(found.data)
        except (ValueError, KeyError, TypeError) as exc:
            raise PatchwrightError(
                ErrorCode.IO_ERROR,
                f"The journal of batch {batch_id} is unreadable ({exc}); files it touched "
                "may be half-written.",
                f"Inspect {path} by hand, then remove that folder.",
            ) from exc

    # rolling back ----------------------------------------------------------------------------
    def rollback(self, manifest: Manifest) -> list[str]:
        """Put every file back as it was before the commit; returns paths left alone.

        A path is left alone when it holds neither the before nor the after content (it
        was changed by someone else since).
        """
        left_alone: list[str] = []
        touched: set[str] = set()
        for index in reversed(range(len(manifest.entries))):
            entry = manifest.entries[index]
            if entry.temp is not None and self.fs.probe(self._abs(entry.temp)).kind != "missing":
                self.fs.unlink(self._abs(entry.temp))
                touched.add(posixpath.dirname(entry.path))
            outcome = self._restore(manifest.batch_id, index, entry)
            if outcome == "left":
                left_alone.append(entry.path)
            elif outcome == "restored":
                touched.add(posixpath.dirname(entry.path))
        for folder in reversed(manifest.created_dirs):
            if self.fs.probe(self._abs(folder)).kind == "dir" and not self.fs.listdir(
                self._abs(folder)
            ):
                self.fs.rmdir(self._abs(folder))
                touched.add(posixpath.dirname(folder))
        for folder in sorted(touched):
            if self.fs.probe(self._abs(folder)).kind == "dir":
                self.fs.fsync_dir(self._abs(folder))
        return sorted(left_alone)

    def _restore(self, batch_id: str, index: int, entry: JournalEntry) -> str:
        target = self._abs(entry.path)
        limit = 1 << 40
        current = self.fs.read_file(target, limit)
        if current.kind not in ("file", "missing", "symlink"):
            return "left"
        if holds(current, entry.before_sha256, entry.before_mode) and (
            entry.before_sha256 is None or current.mode_bits == entry.before_mode
        ):
            return "unchanged"
        if not holds(current, entry.after_sha256, entry.after_mode):
            return "left"
        if entry.before_sha256 is None:
            self.fs.unlink(target)
            return "restored"
        image = self.image(batch_id, index)
        found = self.fs.read_file(image, limit)
        if found.kind == "missing":
            # every image is durable before the commit's first rename: without one, the
            # file was never renamed by this commit, and someone else wrote that content
            return "left"
        if found.data is None or sha256_hex(found.data) != entry.before_sha256:
            raise PatchwrightError(
                ErrorCode.IO_ERROR,
                f"The journal's copy of {entry.path!r} for batch {batch_id} is damaged; "
                "the file cannot be rolled back.",
                f"Restore {entry.path!r} from version control; the journal is kept in {image}.",
                path=entry.path,
            )
        staging = temp_name(entry.path, batch_id, "pw-rb")
        if self.fs.probe(self._abs(staging)).kind != "missing":
            self.fs.unlink(self._abs(staging))
        self.fs.write_new(self._abs(staging), found.data, entry.before_mode)
        self.fs.replace(self._abs(staging), target)
        return "restored"
