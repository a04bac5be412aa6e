"""One commit: check the request, then read, check and write inside the file locks.

Outside the locks, :func:`plan` resolves every path through the sandbox and refuses a
malformed request (nothing to do, a path named twice, a move onto itself, content over
the size limit, a SHA256 that is not one). Inside the locks of every path involved,
:func:`run_commit`:

1. rolls back any interrupted commit touching those paths (recovery.py);
2. reads every file through the sandbox (type and size checks again);
3. checks every ``expected_sha256`` (``stale``, naming each file with the expected and the
   actual hash), then existence (``file_not_found`` for deleting or moving a missing file,
   ``file_exists`` for creating over or moving onto an existing one);
4. builds the records and the journal manifest and, unless it is a dry run, writes
   through the journal (journal.py) and records the batch in history.

Any failure while writing rolls everything back before the error is raised, so a commit
is all-or-nothing in the process as well as across a crash.

A change with ``mode_bits`` ``LINK_MODE`` (or ``replaces_link``) acts on a symbolic
link as a link (see
:class:`~patchwright.workspace.records.FileChange`): its paths are resolved and read
through the sandbox's ``links`` variant, and the target of every link it writes is
checked to stay inside the root, inside the locks, before anything is written (undo
excepted: it puts back a link as recorded).
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from contextlib import nullcontext, suppress

from patchwright._records import field, record, replace
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.workspace.direct import qualifies, with_new_modes, write_single
from patchwright.workspace.fs import LINK_MODE, FileSystem
from patchwright.workspace.history import History
from patchwright.workspace.journal import Journal, JournalEntry, Manifest, temp_name
from patchwright.workspace.locks import PathLocks
from patchwright.workspace.records import (
    ChangeCommitRecord,
    CommitRecord,
    FileChange,
    FileCommitRecord,
    FileState,
    draw_ids,
    normalise_sha256,
    sha256_hex,
    utc_now,
)
from patchwright.workspace.recovery import Recovery, failure_error, rollback_failed
from patchwright.workspace.sandbox import Sandbox

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from patchwright.workspace.records import FileAction


@record(frozen=True)
class CommitContext:
    """The parts of a workspace a commit uses."""

    sandbox: Sandbox
    fs: FileSystem
    locks: PathLocks
    journal: Journal
    recovery: Recovery
    history: History | None


@record(frozen=True)
class BatchInfo:
    """The caller's description of a batch."""

    tool: str = ""
    label: str = ""
    key: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    reverts: str | None = None


@record(frozen=True)
class Step:
    """One requested file change with its paths resolved."""

    change: FileChange
    field: str
    path: str
    source: str | None
    expected: str | None

    @property
    def subject(self) -> str:
        """The path the precondition is about (the old path of a move)."""
        return self.source or self.path


def _invalid(message: str, hint: str, field_name: str, path: str | None = None) -> PatchwrightError:
    return PatchwrightError(ErrorCode.INVALID_REQUEST, message, hint, field=field_name, path=path)


def plan(sandbox: Sandbox, changes: Sequence[FileChange]) -> list[Step]:
    """Resolve and validate a request (no locks, nothing read)."""
    if not changes:
        raise _invalid("The commit changes no file.", "Send at least one file change.", "changes")
    steps: list[Step] = []
    seen: dict[str, str] = {}
    for index, change in enumerate(changes):
        name = f"changes[{index}]"
        box = sandbox.as_links() if _as_link(change) else sandbox
        path = box.resolve(change.path, field=f"{name}.path")
        source = None
        if change.move_from is not None:
            source = box.resolve(change.move_from, field=f"{name}.move_from")
        expected = None
        if change.expected_sha256 is not None:
            expected = normalise_sha256(
                change.expected_sha256, field_name=f"{name}.expected_sha256", path=path
            )
        _check_shape(change, name, path, source, expected)
        if change.data is not None:
            sandbox.check_size(path, change.data)
        for one in filter(None, (path, source)):
            if one in seen:
                raise _invalid(
                    f"{one!r} appears twice in one commit ({seen[one]} and {name}).",
                    "Combine all edits of a file into one change.",
                    name,
                    one,
                )
            seen[one] = name
        steps.append(Step(change, name, path, source, expected))
    return steps


def _as_link(change: FileChange) -> bool:
    """Whether a change acts on a link at its paths as a link (see FileChange)."""
    return change.mode_bits == LINK_MODE or change.replaces_link


def _check_shape(
    change: FileChange, name: str, path: str, source: str | None, expected: str | None
) -> None:
    if source == path:
        raise _invalid(
            f"{name} moves {path!r} onto itself.", "Give a different new path.", name, path
        )
    if change.must_not_exist and source is None and (change.data is None or expected is not None):
        raise _invalid(
            f"{name} says {path!r} must not exist, yet it "
            + ("deletes it." if change.data is None else "gives its expected sha256."),
            "Use must_not_exist only to create a new file.",
            name,
            path,
        )
    if change.mode_bits not in (None, LINK_MODE) and not 0 <= change.mode_bits <= 0o7777:
        raise _invalid(
            f"{name}.mode_bits {change.mode_bits!r} is not a permission mode (0 to 0o7777) "
            "nor LINK_MODE.",
            "Give permission bits such as 0o644, or leave mode_bits out.",
            f"{name}.mode_bits",
            path,
        )


def run_commit(
    ctx: CommitContext, changes: Sequence[FileChange], info: BatchInfo, *, dry_run: bool
) -> CommitRecord:
    """Plan, check inside the locks, and write (see module docstring)."""
    steps = plan(ctx.sandbox, changes)
    involved = {p for s in steps for p in (s.path, s.source) if p is not None}
    # several files: each folder is walked once and kept for the whole commit, and
    # rechecked before the tree is written (dirfd.py, docs/security.md)
    keeping = ctx.fs.keeping_folders() if len(involved) > 1 else nullcontext()
    # the paths of link changes are read as they stand: a link there is the link itself
    as_links = {p for s in steps if _as_link(s.change) for p in (s.path, s.source) if p}
    links_box = ctx.sandbox.as_links()
    with keeping, ctx.recovery.hold(involved):
        states = {
            p: (links_box if p in as_links else ctx.sandbox).read(p) for p in sorted(involved)
        }
        _check_preconditions(steps, states)
        created_dirs = _dirs_to_create(ctx.sandbox, steps)
        draft = _Draft.build(ctx, steps, states, info)
        for entry in draft.entries:
            # a link written (created, changed, moved); undo puts back a link exactly as
            # the history recorded it, even one the user made to a place outside
            if entry.after_mode == LINK_MODE and info.reverts is None:
                links_box.check_link_target(entry.path, draft.writes[entry.path])
        if dry_run:
            return replace(draft.record, dry_run=True)
        manifest = Manifest(draft.record.batch_id, tuple(draft.entries), tuple(created_dirs))
        return _write(ctx, manifest, draft)


def _check_preconditions(steps: Sequence[Step], states: dict[str, FileState | None]) -> None:
    stale = []
    for step in steps:
        state = states[step.subject]
        actual = state.sha256 if state is not None else None
        if step.expected is not None and actual != step.expected:
            stale.append(
                {"path": step.subject, "expected_sha256": step.expected, "actual_sha256": actual}
            )
    if stale:
        raise _stale_error(stale)
    for step in steps:
        subject = states[step.subject]
        verb = "move" if step.source else "delete"
        if (step.source or step.change.data is None) and subject is None:
            raise PatchwrightError(
                ErrorCode.FILE_NOT_FOUND,
                f"Cannot {verb} {step.subject!r}: it does not exist.",
                "Check the path (relative to the workspace root); list the folder to see "
                "its files.",
                path=step.subject,
                field=step.field,
            )
        if (step.source or step.change.must_not_exist) and states[step.path] is not None:
            raise PatchwrightError(
                ErrorCode.FILE_EXISTS,
                f"Cannot {'move a file onto' if step.source else 'create'} {step.path!r}: "
                "a file already exists there.",
                "Edit the existing file instead, or pick another path.",
                path=step.path,
                field=step.field,
            )


def _stale_error(stale: list[dict[str, str | None]]) -> PatchwrightError:
    parts = [
        f"{s['path']!r} (expected sha256 {s['expected_sha256']}, now "
        + (f"{s['actual_sha256']})" if s["actual_sha256"] else "missing: it was deleted)")
        for s in stale
    ]
    first = stale[0]
    return PatchwrightError(
        ErrorCode.STALE,
        "File changed since you read it: " + "; ".join(parts) + ". Nothing was written.",
        "Read the file again (that returns its current sha256) and redo the edit on its "
        "current content.",
        path=first["path"],
        details={
            "expected_sha256": first["expected_sha256"],
            "actual_sha256": first["actual_sha256"],
            "files": stale,
        },
    )


def _dirs_to_create(sandbox: Sandbox, steps: Sequence[Step]) -> list[str]:
    folders: list[str] = []
    for step in steps:
        if step.source or step.change.data is not None:
            folders.extend(d for d in sandbox.missing_dirs(step.path) if d not in folders)
    return sorted(folders, key=lambda d: d.count("/"))


@record
class _Draft:
    """Records, journal entries and contents of a checked commit, before writing."""

    record: CommitRecord
    entries: list[JournalEntry]
    befores: dict[str, FileState]
    writes: dict[str, bytes]
    contents: dict[str, bytes]

    @classmethod
    def build(
        cls,
        ctx: CommitContext,
        steps: Sequence[Step],
        states: dict[str, FileState | None],
        info: BatchInfo,
    ) -> _Draft:
        ids = _IdSource(ctx.history, len(steps), sum(len(s.change.changes) for s in steps))
        batch_id = ids.take("b", 1)[0]
        draft = cls(CommitRecord(batch_id, (), utc_now()), [], {}, {}, {})
        files = [draft._add(ids, batch_id, step, states) for step in steps]
        draft.record = CommitRecord(
            batch_id, tuple(files), draft.record.created_at, info.tool, info.label, info.key,
            dict(info.meta), info.reverts,
        )  # fmt: skip
        return draft

    def _add(
        self, ids: _IdSource, batch_id: str, step: Step, states: dict[str, FileState | None]
    ) -> FileCommitRecord:
        change = step.change
        before = states[step.subject]
        if before is not None:
            self.befores[step.subject] = before
            self.contents[before.sha256] = before.data
        data = change.data
        action: FileAction
        if step.source is not None:
            assert before is not None  # a missing source was refused by the preconditions
            data = data if data is not None else before.data
            self.entries.append(
                JournalEntry(step.source, None, before.sha256, before.mode_bits, None, None)
            )
            action, replaced = "move", None
        else:
            action = "delete" if data is None else "update" if before is not None else "create"
            replaced = before
        after_mode = change.mode_bits
        after_sha = None
        if data is not None:
            if after_mode is None and before is not None and before.mode_bits != LINK_MODE:
                after_mode = before.mode_bits  # (a file replacing a link gets the default)
            # hashed once: a large file's hash is a noticeable part of a commit
            same = before is not None and data is before.data  # a move keeping its content
            after_sha = before.sha256 if same and before is not None else sha256_hex(data)
            self.writes[step.path] = data
            self.contents[after_sha] = data
        self.entries.append(
            JournalEntry(
                step.path,
                temp_name(step.path, batch_id, "pw-tmp") if data is not None else None,
                replaced.sha256 if replaced is not None else None,
                replaced.mode_bits if replaced is not None else None,
                after_sha,
                after_mode if data is not None else None,
            )
        )
        change_ids = ids.take("c", len(change.changes))
        return FileCommitRecord(
            file_id=ids.take("f", 1)[0], path=step.path, action=action,
            before_sha256=before.sha256 if before else None,
            after_sha256=after_sha,
            diff=change.diff, move_from=step.source,
            before_mode=before.mode_bits if before else None,
            after_mode=after_mode if data is not None else None,
            key=change.key, label=change.label, meta=dict(change.meta),
            changes=tuple(
                ChangeCommitRecord(cid, c.key, c.description, c.op, c.old_start, c.old_end,
                                   c.new_start, c.new_end, dict(c.meta))
                for cid, c in zip(change_ids, change.changes, strict=True)
            ),
        )  # fmt: skip


class _IdSource:
    """Fresh IDs for one batch, drawn together (checked against history when there is one)."""

    def __init__(self, history: History | None, files: int, changes: int) -> None:
        counts = {"b": 1, "f": files, "c": changes}
        self.ids = history.fresh_ids(counts) if history is not None else draw_ids(counts)

    def take(self, prefix: str, count: int) -> list[str]:
        """The next ``count`` IDs with ``prefix``."""
        taken, self.ids[prefix] = self.ids[prefix][:count], self.ids[prefix][count:]
        return taken


def _write(ctx: CommitContext, manifest: Manifest, draft: _Draft) -> CommitRecord:
    # A shared (PostgreSQL) history goes through the journal even for one file: only the
    # journal's rollback remembers a batch whose insert may have reached the server before
    # the connection dropped, so it is deleted there later (history/deferred.py).
    shared = ctx.history is not None and ctx.history.shared
    if qualifies(manifest) and not shared:
        _recheck(ctx)  # folders kept by an enclosing block (Workspace.keeping_folders)
        return write_single(ctx, manifest, draft)  # atomic alone: no journal (direct.py)
    fs, sandbox = ctx.fs, ctx.sandbox
    with ctx.locks.own(manifest.batch_id):
        try:
            ctx.journal.start(manifest)
            _recheck(ctx)
            for folder in manifest.created_dirs:
                fs.mkdir(sandbox.abspath(folder))
            # every before-image and temp file durable before the first rename, synced
            # in one batch (docs/durability.md)
            with fs.batched_fsync():
                ctx.journal.keep_befores(manifest, draft.befores)
                for entry in manifest.entries:
                    if entry.temp is not None:
                        fs.write_new(
                            sandbox.abspath(entry.temp), draft.writes[entry.path], entry.after_mode
                        )
            _recheck(ctx)  # the folders still where they were read, just before the renames
            for entry in manifest.entries:
                if entry.temp is not None:
                    fs.replace(sandbox.abspath(entry.temp), sandbox.abspath(entry.path))
                else:
                    fs.unlink(sandbox.abspath(entry.path))
            touched = {posixpath.dirname(p) for p in (*manifest.paths, *manifest.created_dirs)}
            for folder in sorted(touched):
                fs.fsync_dir(sandbox.abspath(folder))
            record = with_new_modes(fs, sandbox, draft.record)
            if ctx.history is not None:
                # the before-images are files the history may hard-link, not copy
                images = {
                    e.before_sha256: ctx.journal.image(manifest.batch_id, index)
                    for index, e in enumerate(manifest.entries)
                    if e.before_sha256 is not None
                }
                ctx.history.insert(record, draft.contents, images)
            ctx.journal.commit_point(manifest.batch_id)
        except BaseException as exc:
            _abort(ctx, manifest, exc)
            raise
        with suppress(OSError):
            # the commit stands; a folder left without its manifest is removed by the
            # next recovery, and the before-images it holds are no longer needed
            ctx.journal.discard(manifest.batch_id)
    return record


def _recheck(ctx: CommitContext) -> None:
    """Refuse (``path_outside_root``) if a folder the commit keeps open was moved or
    replaced since it was reached: the tree is written only into folders still in place."""
    with ctx.sandbox.guard():
        ctx.fs.recheck_folders()


def _abort(ctx: CommitContext, manifest: Manifest, exc: BaseException) -> None:
    """Roll back after a failure while writing, then turn the failure into a PatchwrightError."""
    try:
        left = ctx.recovery.rollback(manifest)
    except (OSError, PatchwrightError) as rollback_exc:
        raise rollback_failed(exc, rollback_exc) from exc
    failure = failure_error(exc, left)
    if failure is not None:
        raise failure from exc
