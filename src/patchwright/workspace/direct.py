"""One-file commits without the journal: the fsyncs a durable replace needs, no more.

A commit that writes or deletes one path, creates no folder and moves nothing is atomic
on its own, so it skips the journal (before-images, manifest, commit point: six more
fsyncs, see journal.py). Holding the path's lock, :func:`write_single`:

1. writes the new content to ``.<name>.pw-tmp`` beside the file and fsyncs it (together
   with the history's content file of the new content, when it keeps one: see below);
2. renames it over the file (or unlinks the file, for a deletion);
3. fsyncs the folder: from here the change survives a power cut;
4. records the batch in the history (its own transaction).

A kill before step 2 leaves the old file (and, at worst, the temp file, which the next
commit of that file removes); a kill after it leaves the new one. A kill between steps 3
and 4 leaves the change in place but unrecorded, so ``undo`` does not offer it;
docs/durability.md lists every point. A failure in the process (the history refusing
the batch, a full disk) puts the old content back before the error is raised, so the
commit is all-or-nothing there as well.

The history keeps the old content of the file. A large one is handed over as a hard link
to the old file, taken before the rename into a journal folder that has no manifest (so
recovery simply removes it if the process dies), the way the journal keeps before-images;
a smaller one is copied by the history if it does not hold it already. A large new
content that the history will keep whole, as a file of its own, is written to that file's
temp name in step 1 and synced with the temp file, one wait on the disk instead of two in
a row; it is named before the rename of step 2, and a commit that fails after that
leaves a whole content file that a later batch with that content reuses.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from patchwright._records import replace
from patchwright.model.errors import PatchwrightError
from patchwright.workspace.journal import JournalEntry, Manifest, holds
from patchwright.workspace.records import CommitRecord, FileState, sha256_hex
from patchwright.workspace.recovery import failure_error, rollback_failed

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Protocol

    from patchwright.workspace.fs import FileSystem
    from patchwright.workspace.history import History
    from patchwright.workspace.journal import Journal
    from patchwright.workspace.locks import PathLocks
    from patchwright.workspace.sandbox import Sandbox
else:
    Protocol = object  # structural types for type checkers only: no ``typing`` at run time


class CommitParts(Protocol):
    """What a one-file commit uses of commit.py's context (structural: commit.py
    imports this module, never the reverse)."""

    @property
    def sandbox(self) -> Sandbox: ...
    @property
    def fs(self) -> FileSystem: ...
    @property
    def locks(self) -> PathLocks: ...
    @property
    def journal(self) -> Journal: ...
    @property
    def history(self) -> History | None: ...


class CheckedCommit(Protocol):
    """What a one-file commit uses of commit.py's checked draft."""

    @property
    def record(self) -> CommitRecord: ...
    @property
    def befores(self) -> dict[str, FileState]: ...
    @property
    def writes(self) -> dict[str, bytes]: ...
    @property
    def contents(self) -> dict[str, bytes]: ...


#: Old contents at least this large reach the history as a hard link, not a copy.
LINK_IMAGE_MIN = 1 << 20
_TEMP_SUFFIX = "pw-tmp"


def qualifies(manifest: Manifest) -> bool:
    """Whether a commit can skip the journal: one path, no move, no folder to create."""
    return len(manifest.entries) == 1 and not manifest.created_dirs


def temp_for(rel: str) -> str:
    """The temp file of a one-file commit of ``rel``: one fixed name per file.

    Fixed, so a temp file left by a killed commit is found (and removed) by the next
    commit of the same file, which holds the same lock. Long names are shortened with a
    digest of the whole name, so two files never share a temp name.
    """
    folder, name = posixpath.split(rel)
    if len(name) > 200:
        digest = sha256_hex(name.encode("utf-8", "surrogateescape"))[:16]
        name = f"{name[:100]}.{digest}"
    return posixpath.join(folder, f".{name}.{_TEMP_SUFFIX}")


def write_single(ctx: CommitParts, manifest: Manifest, draft: CheckedCommit) -> CommitRecord:
    """Steps 1-4 of the module docstring for the one entry of ``manifest``."""

    (entry,) = manifest.entries
    before = draft.befores.get(entry.path)
    progress = _Progress()
    with _history_image(ctx, manifest.batch_id, before) as images:
        try:
            _place(ctx, entry, draft.writes.get(entry.path), progress, before)
            record = with_new_modes(ctx.fs, ctx.sandbox, draft.record)
            if ctx.history is not None:
                ctx.history.insert(record, draft.contents, images)
        except BaseException as exc:
            if ctx.history is not None:
                ctx.history.contents.forget_plan()
            _abort_single(ctx, entry, before, progress.placed, exc)
            raise
    return record


class _Progress:
    """How far a one-file commit got: ``placed`` once the file was replaced or removed."""

    placed = False


def _place(
    ctx: CommitParts,
    entry: JournalEntry,
    data: bytes | None,
    progress: _Progress,
    before: FileState | None,
) -> None:
    """Put the new content in place and make it durable (steps 1-3)."""
    fs, sandbox = ctx.fs, ctx.sandbox
    target = sandbox.abspath(entry.path)
    kept = None
    if data is None:
        fs.unlink(target)
    else:
        temp = sandbox.abspath(temp_for(entry.path))
        kept = _write_temps(ctx, temp, data, entry, before)
        if kept is not None and ctx.history is not None:
            try:
                fs.replace(*kept)  # a whole content file: harmless if the commit then fails
            except BaseException:
                ctx.history.contents.drop_temps([kept[0]])
                raise
        fs.replace(temp, target)
    progress.placed = True
    fs.fsync_dir(sandbox.abspath(posixpath.dirname(entry.path)))
    if kept is not None:
        fs.fsync_dir(posixpath.dirname(kept[1]))  # before the batch's rows name it


def _write_temps(
    ctx: CommitParts, temp: str, data: bytes, entry: JournalEntry, before: FileState | None
) -> tuple[str, str] | None:
    """Write the temp file and, when the history will keep the new content as a file of
    its own, that file's temp too: both synced together (one wait on the disk instead
    of two in a row). Returns the content file's ``(temp, final)`` names, if any."""
    history = ctx.history
    sha = entry.after_sha256
    if history is None or sha is None or not history.contents.may_keep_file(len(data)):
        _write_temp(ctx, temp, data, entry.after_mode)
        return None
    kept = None
    try:
        # the temp file's fsync starts at once: the history's look for a delta (Python
        # work on a large content) runs while the disk writes it
        with ctx.fs.batched_fsync(first_at_once=True):
            _write_temp(ctx, temp, data, entry.after_mode)
            kept = history.contents.start_file(sha, data, before.data if before else None)
    except BaseException:
        if kept is not None:
            history.contents.drop_temps([kept[0]])
        raise
    return kept


def _write_temp(ctx: CommitParts, temp: str, data: bytes, mode: int | None) -> None:
    try:
        ctx.fs.write_new(temp, data, mode)
    except FileExistsError:
        # left by a commit of this file that was killed before its rename: this commit
        # holds the file's lock, so nobody else writes that name
        ctx.fs.unlink(temp)
        ctx.fs.write_new(temp, data, mode)


@contextmanager
def _history_image(
    ctx: CommitParts, batch_id: str, before: FileState | None
) -> Iterator[dict[str, str]]:
    """A hard link to a large old file for the history, removed once the batch is done.

    None when the history holds that content already (the usual case: the old content
    of an edit is the new content of the one before): linking and syncing it would be
    thrown away. Should it be dropped from the history meanwhile, the batch copies it
    from memory instead, like a small content.
    """
    history = ctx.history
    if history is None or before is None or len(before.data) < LINK_IMAGE_MIN:
        yield {}
        return
    if history.contents.holds(before.sha256, len(before.data)):
        yield {}
        return
    journal = ctx.journal
    folder = posixpath.dirname(journal.image(batch_id, 0))
    with ctx.locks.own(batch_id):
        try:
            ctx.fs.mkdir(folder)
            image = journal.image(batch_id, 0)
            journal.keep_before(image, before)
            yield {before.sha256: image}
        finally:
            with suppress(OSError):
                # no manifest: whatever is left is removed by the next recovery
                journal.discard(batch_id, durable=False)


def _abort_single(
    ctx: CommitParts,
    entry: JournalEntry,
    before: FileState | None,
    placed: bool,
    exc: BaseException,
) -> None:
    """Put the old content back after a failure, then report it as commit.py does."""
    try:
        left = _put_back(ctx, entry, before) if placed else []
        temp = ctx.sandbox.abspath(temp_for(entry.path))
        if ctx.fs.probe(temp).kind in ("file", "symlink"):
            ctx.fs.unlink(temp)
    except (OSError, PatchwrightError) as rollback_exc:
        raise rollback_failed(exc, rollback_exc) from exc
    failure = failure_error(exc, left)
    if failure is not None:
        raise failure from exc


def _put_back(ctx: CommitParts, entry: JournalEntry, before: FileState | None) -> list[str]:
    """Restore the old content if the file still holds the new one; else leave it alone."""
    fs, sandbox = ctx.fs, ctx.sandbox
    target = sandbox.abspath(entry.path)
    current = fs.read_file(target, 1 << 40)
    if not holds(current, entry.after_sha256, entry.after_mode):
        return [entry.path]
    if before is None:
        fs.unlink(target)
    else:
        temp = sandbox.abspath(temp_for(entry.path))
        _write_temp(ctx, temp, before.data, before.mode_bits)
        fs.replace(temp, target)
    fs.fsync_dir(sandbox.abspath(posixpath.dirname(entry.path)))
    return []


def with_new_modes(fs: FileSystem, sandbox: Sandbox, record: CommitRecord) -> CommitRecord:
    """``record`` with the permission bits of the files it created, read from disk.

    A created file's bits come from the umask, known only once it exists.
    """
    files = tuple(
        replace(f, after_mode=fs.probe(sandbox.abspath(f.path)).mode_bits)
        if f.after_sha256 is not None and f.after_mode is None
        else f
        for f in record.files
    )
    return replace(record, files=files)
