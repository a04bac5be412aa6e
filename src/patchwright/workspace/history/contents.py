"""Before and after contents, stored once each by SHA256 (content-addressed).

A content is kept in one of three forms, and a content already kept in any of them is
never stored again:

* **whole, in the table** ``blobs(sha256, data)``: small contents, and with PostgreSQL
  every content that has no form below (every machine can read it there);
* **whole, as a file** ``blobs/<sha256>`` beside a SQLite database, for contents of
  :data:`FILE_BLOB_MIN` bytes and more: writing megabytes into SQLite costs them twice
  (the WAL, then the checkpoint). A before-content is hard-linked from the commit
  journal's before-image (the old file itself, see journal.py) when that has no other
  name left, so keeping it costs no copy; otherwise it is copied. A smaller
  before-content is kept as a file only when it can be linked that way (a commit of
  several files has an image of each), never copied. Files are fsynced before the
  batch's rows commit, so a row never names a missing content (a linked image was
  synced by the journal already: only the folder is synced for its new name). A one-file
  commit may write its new content's file ahead of the batch (:meth:`ContentStore.start_file`),
  synced with its own temp file;
* **as a change to the content it replaced**, ``deltas(sha256, base, depth, prefix,
  suffix, middle, regions)``: the after-content of a file whose before-content is kept
  is the base with some byte ranges replaced (regions.py finds them). With one range,
  it is the base's first ``prefix`` bytes, then ``middle``, then its last ``suffix``
  bytes (``regions`` NULL: the form every version reads); with several, ``regions``
  packs each range of the base and the length of its new bytes, which follow one
  another in ``middle``. An edit of a few places of a file so stores only those, in the
  batch's own transaction (no file, no fsync of its own), instead of a fresh copy of
  the whole file. A delta is used when it keeps at most half the content's bytes (each
  range counting 24), in at most :data:`~patchwright.workspace.history.regions.MAX_REGIONS`
  ranges, and its chain of bases is shorter than :data:`MAX_DEPTH`; otherwise the
  content is stored whole, which bounds what a read has to put together.

Whatever its form, a content read back is checked against its SHA256: a damaged one is
reported, never returned.
"""

from __future__ import annotations

import os
import posixpath
import re
import time
from collections.abc import Mapping, Sequence
from contextlib import suppress

from patchwright.workspace.fs import FileSystem
from patchwright.workspace.history.backend import Backend, Tx, history_error
from patchwright.workspace.history.regions import apply, find_regions, pack, unpack
from patchwright.workspace.records import FileCommitRecord, sha256_hex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The folder (inside the content folder) where content files are written before they
#: take their names.
PARTIAL = ".partial"
#: Seconds after which a content temp file is a dead process's leftover (see
#: :meth:`ContentStore._temp_name`).
TEMP_MAX_AGE = 3600

#: Contents at least this large are stored as files beside a SQLite database.
FILE_BLOB_MIN = 64 * 1024
#: The longest chain of deltas a content may sit at the end of.
MAX_DEPTH = 16
_SHA256 = re.compile(r"[0-9a-f]{64}")
_CHUNK = 300  # hashes per query, well under both databases' parameter limits


class ContentStore:
    """The contents of one history (see module docstring)."""

    def __init__(self, backend: Backend, fs: FileSystem) -> None:
        self.backend = backend
        self.fs = fs
        self.folder = backend.blob_folder
        # the delta start_file() found for a one-file commit's content, until its store()
        self._planned: tuple[str, bytes, Plan] | None = None

    # writing ---------------------------------------------------------------------------------
    def store(
        self,
        tx: Tx,
        contents: Mapping[str, bytes],
        files: Sequence[FileCommitRecord],
        images: Mapping[str, str],
    ) -> None:
        """Keep the contents not kept yet, inside the batch's transaction (content files
        are written and fsynced before its rows commit).

        Raises:
            OSError: a content file could not be written.
        """
        if not contents:
            return
        depth = self._known(tx, {sha: len(data) for sha, data in contents.items()})
        bases = {
            f.after_sha256: f.before_sha256
            for f in files
            if f.after_sha256 is not None and f.before_sha256 in contents
        }
        whole: dict[str, bytes] = {}
        deltas: list[DeltaRow] = []
        planned, self._planned = self._planned, None
        # befores first: a before-content stored now is the base of its file's after
        for sha in sorted(contents, key=lambda s: s in bases):
            data, base = contents[sha], bases.get(sha)
            if sha in depth:
                continue
            delta = None
            if base is not None and base in depth:
                before = contents[base]
                same = planned is not None and planned[0] == sha and planned[1] is before
                found = planned[2] if planned is not None and same else None
                delta = _delta(sha, data, base, before, depth[base], found)
            if delta is not None:
                deltas.append(delta)
            else:
                whole[sha] = data
            depth[sha] = delta[2] if delta is not None else 0
        if self.folder is not None:
            # a smaller content goes to a file only when its before-image can simply be
            # linked there (a journaled commit's): no bytes to write for it at all
            as_files = {s: d for s, d in whole.items() if len(d) >= FILE_BLOB_MIN or s in images}
            kept = self._store_files(as_files, images)
            whole = {s: d for s, d in whole.items() if s not in kept}
        tx.run_many(
            "INSERT INTO blobs (sha256, data) VALUES (?, ?) ON CONFLICT DO NOTHING",
            list(whole.items()),
        )
        tx.run_many(
            "INSERT INTO deltas (sha256, base, depth, prefix, suffix, middle, regions) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            deltas,
        )

    def start_file(self, sha: str, data: bytes, base: bytes | None) -> tuple[str, str] | None:
        """Begin keeping ``data`` (the new content of a one-file commit, whose old
        content is ``base``) as a content file ahead of its batch, so that its fsync joins
        the commit's own: written to a temp file, which the caller syncs (in its
        :meth:`~patchwright.workspace.fs.FileSystem.batched_fsync` block), renames to the
        returned final name and whose folder it syncs before the batch is recorded.

        ``None`` when the batch would not keep it as a file: no content folder (a shared
        store), a content under :data:`FILE_BLOB_MIN`, one kept already, or one that is
        a small change to ``base`` (a delta). A content file left by a commit that then
        failed is whole and named by its hash, so it is simply reused by a later batch.
        """
        folder = self.folder
        if folder is None or not self.may_keep_file(len(data)) or self.holds(sha, len(data)):
            return None  # a content kept already is the usual case: told before any search
        if base is not None:
            found = plan(data, base)
            if found is not None:
                # kept for the batch's store(), which would otherwise search again
                self._planned = (sha, base, found)
                return None
        self.fs.mkdir(folder)
        temp = self._temp_name(sha)
        try:
            self.fs.write_new(temp, data, None)
        except BaseException:
            self.drop_temps([temp])
            raise
        return temp, posixpath.join(folder, sha)

    def forget_plan(self) -> None:
        """Drop the delta :meth:`start_file` found for a commit that then failed before
        its batch was stored (it holds the old content, a large one in a server)."""
        self._planned = None

    def drop_temps(self, temps: Sequence[str]) -> None:
        """Remove content temp files a failed write left (best effort: a temp file is
        never named as a content, so one left over only takes room until a later writer
        sweeps it, see :meth:`_temp_name`)."""
        for temp in temps:
            with suppress(OSError):
                if self.fs.probe(temp).kind == "file":
                    self.fs.unlink(temp)

    def may_keep_file(self, size: int) -> bool:
        """Whether a content of ``size`` bytes may be kept as a file of its own."""
        return self.folder is not None and size >= FILE_BLOB_MIN

    def _temp_name(self, sha: str) -> str:
        """A fresh name for a content temp file, in the temp folder (``<folder>/.partial``),
        after removing the temp files a dead process left there.

        A process killed between writing a content's temp file and renaming it leaves
        the temp file behind (a large content: up to the file's size). A live commit
        renames or removes its temp file within the same call, so one older than
        :data:`TEMP_MAX_AGE` belongs to no live commit; should one be that slow after
        all, its rename fails and the commit rolls back, nothing is lost. The temp files
        have a folder of their own so that finding them lists a folder that is nearly
        always empty, not every content kept.
        """
        assert self.folder is not None
        fs = self.fs
        partial = posixpath.join(self.folder, PARTIAL)
        fs.mkdir(partial)
        now = time.time_ns()
        for name in fs.listdir(partial):
            path = posixpath.join(partial, name)
            seen = fs.probe(path)
            stamp = seen.identity[3] if seen.identity is not None else now
            if seen.kind == "file" and now - stamp > TEMP_MAX_AGE * 1_000_000_000:
                with suppress(OSError):
                    fs.unlink(path)
        return posixpath.join(partial, f".{sha}.{os.urandom(4).hex()}.tmp")

    def holds(self, sha256: str, size: int) -> bool:
        """Whether the content with ``sha256`` (of ``size`` bytes) is kept already, in
        any form: a commit then needs no copy or link of it for the history."""
        with self.backend.transaction(write=False) as tx:
            return sha256 in self._known(tx, {sha256: size})

    def _known(self, tx: Tx, sizes: Mapping[str, int]) -> dict[str, int]:
        """The depth of each content already kept (0: whole), a query per few hundred;
        ``sizes`` maps each SHA256 asked about to its content's length."""
        shas = list(sizes)
        known: dict[str, int] = {}
        for start in range(0, len(shas), _CHUNK):
            chunk = shas[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            rows = tx.rows(
                f"SELECT sha256, 0 AS depth FROM blobs WHERE sha256 IN ({marks}) UNION ALL "
                f"SELECT sha256, depth FROM deltas WHERE sha256 IN ({marks})",
                [*chunk, *chunk],
            )
            for r in sorted(rows, key=lambda r: int(r["depth"])):
                known.setdefault(str(r["sha256"]), int(r["depth"]))
        if self.folder is not None:
            # any size: a small before-content may have been linked there from a journal
            for sha in sizes:
                if (
                    sha not in known
                    and self.fs.probe(posixpath.join(self.folder, sha)).kind == "file"
                ):
                    known[sha] = 0
        return known

    def _store_files(self, files: Mapping[str, bytes], images: Mapping[str, str]) -> set[str]:
        """Make the contents of ``files`` durable as ``<folder>/<sha256>``: each large
        one, and each smaller one whose before-image can be linked. Returns those kept as
        files (the others go to the table)."""
        if not files or self.folder is None:
            return set()
        fs = self.fs
        fs.mkdir(self.folder)
        # the links and temp files of every content are synced together, each temp file
        # before it takes its final name (a named content file is always whole)
        temps: list[tuple[str, str]] = []
        try:
            with fs.batched_fsync():
                kept, added = self._write_files(files, images, temps)
            added = added or bool(temps)
            while temps:
                fs.replace(*temps[-1])
                temps.pop()
        except BaseException:
            self.drop_temps([temp for temp, _ in temps])
            raise
        if added:
            fs.fsync_dir(self.folder)
        return kept

    def _write_files(
        self, files: Mapping[str, bytes], images: Mapping[str, str], temps: list[tuple[str, str]]
    ) -> tuple[set[str], bool]:
        """Link the contents that can be linked and write the other large ones to temp
        files, each added to ``temps`` with its final name as soon as it exists. Returns
        the contents kept as files and whether a link was made."""
        assert self.folder is not None
        fs = self.fs
        kept: set[str] = set()
        added = False
        for sha, data in files.items():
            # _known() found no file of that name just before: one stored meanwhile by
            # another commit makes the link fail (below), or is replaced by the same bytes
            final = posixpath.join(self.folder, sha)
            image = images.get(sha)
            # a before-image with another name left (a hard link elsewhere in the tree)
            # could still be written through that name, so it is copied instead
            if image is not None and fs.probe(image).nlink == 1:
                try:
                    # an image's content was synced by the journal: the folder's fsync
                    # below makes the new name durable, the content needs no fsync again
                    if fs.link(image, final, sync=False).kind == "file":
                        kept.add(sha)
                        added = True
                        continue
                except FileExistsError:
                    kept.add(sha)
                    continue  # stored meanwhile by another commit
            if len(data) < FILE_BLOB_MIN:
                continue  # nothing to link: a small content is cheaper in the table
            temp = self._temp_name(sha)
            temps.append((temp, final))  # before it exists: a failed write may leave it
            fs.write_new(temp, data, None)
            kept.add(sha)
        return kept, added

    # reading ---------------------------------------------------------------------------------
    def read(self, sha256: str) -> bytes:
        """A content by its SHA256, put together and checked.

        Raises:
            PatchwrightError: ``history`` when it is missing or damaged.
        """
        chain: list[dict[str, Any]] = []
        with self.backend.transaction(write=False) as tx:
            current = sha256
            while True:
                whole = self._whole(tx, current)
                if whole is not None:
                    break
                rows = tx.rows(
                    "SELECT base, prefix, suffix, middle, regions FROM deltas WHERE sha256=?",
                    (current,),
                )
                if not rows or len(chain) > MAX_DEPTH:
                    raise history_error(
                        f"The history store has no content with sha256 {current}.",
                        "That batch can no longer be undone or shown from history.",
                        sha256=current,
                    )
                chain.append(rows[0])
                current = str(rows[0]["base"])
        data = whole
        try:
            for step in reversed(chain):
                data = _rebuild(data, step)
        except ValueError:
            raise _damaged(sha256) from None
        if chain and sha256_hex(data) != sha256:
            raise _damaged(sha256)
        return data

    def _whole(self, tx: Tx, sha256: str) -> bytes | None:
        if self.folder is not None and _SHA256.fullmatch(sha256):
            found = self.fs.read_file(posixpath.join(self.folder, sha256), 1 << 40)
            if found.data is not None:
                if sha256_hex(found.data) != sha256:
                    raise _damaged(sha256)
                return found.data
        rows = tx.rows("SELECT data FROM blobs WHERE sha256=?", (sha256,))
        return bytes(rows[0]["data"]) if rows else None


#: A row of ``deltas``: sha256, base, depth, prefix, suffix, middle, regions.
DeltaRow = tuple[str, str, int, int, int, bytes, "bytes | None"]
#: The ranges of a delta and the bytes put in their place (see regions.py).
Plan = tuple[list[tuple[int, int, int]], list[bytes]]


def plan(data: bytes, base: bytes) -> Plan | None:
    """``data`` as ``base`` with ranges replaced, or ``None`` when that keeps more than
    half the content's bytes (it is then kept whole)."""
    return find_regions(base, data, len(data) // 2)


def _delta(
    sha: str, data: bytes, base_sha: str, base: bytes, base_depth: int, found: Plan | None = None
) -> DeltaRow | None:
    """``data`` as a change to ``base``, or ``None`` when storing it whole is better.

    One replaced range is written as before several existed (``prefix``, ``suffix``,
    ``middle``; ``regions`` NULL), so that any patchwright reads it; several are the
    packed ranges in ``regions`` and their new bytes one after another in ``middle``,
    with ``prefix`` and ``suffix`` the common ends.
    """
    if base_depth + 1 > MAX_DEPTH:
        return None
    found = found if found is not None else plan(data, base)
    if found is None:
        return None  # decided before any copy: a large content changed throughout
    ranges, inserted = found
    depth = base_depth + 1
    if not ranges:
        return sha, base_sha, depth, len(data), 0, b"", None
    first, last = ranges[0], ranges[-1]
    packed = pack(ranges) if len(ranges) > 1 else None
    middle = b"".join(inserted)
    return sha, base_sha, depth, first[0], len(base) - last[1], middle, packed


def _rebuild(base: bytes, step: Mapping[str, Any]) -> bytes:
    """A delta row applied to its base.

    Raises:
        ValueError: the row does not fit its base (damaged).
    """
    middle = bytes(step["middle"])
    if step["regions"] is None:
        end = len(base) - int(step["suffix"])
        return base[: int(step["prefix"])] + middle + base[end:]
    return apply(base, unpack(bytes(step["regions"])), middle)


def _damaged(sha256: str) -> Exception:
    return history_error(
        f"The history's copy of the content with sha256 {sha256} is damaged "
        "(its bytes no longer have that hash).",
        "That batch can no longer be undone or shown from history.",
        sha256=sha256,
    )
