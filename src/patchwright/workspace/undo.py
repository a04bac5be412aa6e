"""Undo: the inverse of a recorded batch, as a new recorded batch.

:func:`inverse_changes` turns each file of a batch (last first) into the change that puts
it back: a creation becomes a deletion, a deletion a creation with the old content and
permission bits, an update a write of the old content, a move a move back. Every inverse
change carries the batch's *after* hash as its precondition (or "must not exist" for a
deleted file), so the commit that applies it refuses when a file changed since; the
workspace reports that as ``conflict``, naming the file and both hashes. Undo uses each
path exactly as recorded: when a symlink, a folder or a special file now stands on it,
the commit refuses (``not_a_file``) and that too is a ``conflict``, never a write
through the symlink. A link the batch changed as a link (mode ``LINK_MODE``) is put
back as a link: a deleted link is re-created with its target, a created one removed
(the link itself, never its target). The new batch
records which batch it ``reverts``; the history store lets a batch be reverted only once.

The diff of each inverse change is rendered by the engine's ``file_diff`` (unified, or
per cell for a notebook), imported lazily because the engine is a sibling layer the
workspace does not otherwise need.
"""

from __future__ import annotations

from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.workspace.fs import LINK_MODE
from patchwright.workspace.history import History
from patchwright.workspace.records import CommitRecord, FileChange, FileCommitRecord


def select_batch(history: History, batch_id: str | None) -> CommitRecord:
    """The batch to undo: ``batch_id``, or the newest one not yet undone.

    Raises:
        PatchwrightError: ``history`` when there is nothing to undo, the ID is not a
            batch, or the batch was already undone.
    """
    if batch_id is None:
        batch_id = history.latest_undoable()
        if batch_id is None:
            raise PatchwrightError(
                ErrorCode.HISTORY,
                "Nothing to undo: the history holds no batch that is not already undone.",
            )
    if not batch_id.startswith("b-"):
        raise PatchwrightError(
            ErrorCode.HISTORY,
            f"undo takes a batch ID ('b-...'); {batch_id!r} is not one.",
            "Pass the batch_id returned by the edit you want to undo.",
            field="batch_id",
        )
    # undo only where the workspace is: a batch recorded elsewhere is refused naming its
    # machine and folder (never its contents)
    history.check_local(history.get(batch_id, anywhere=True))
    record, reverted_by = history.load(batch_id)
    if reverted_by is not None:
        raise PatchwrightError(
            ErrorCode.HISTORY,
            f"Batch {batch_id} was already undone by batch {reverted_by}; it cannot be "
            "undone twice.",
            f"To redo it, undo batch {reverted_by}.",
            details={"batch_id": batch_id, "reverted_by": reverted_by},
        )
    return record


def inverse_changes(history: History, record: CommitRecord) -> list[FileChange]:
    """The changes that revert ``record``, last file first."""
    return [_inverse(history, f) for f in reversed(record.files)]


def _inverse(history: History, f: FileCommitRecord) -> FileChange:
    before = history.content(f.before_sha256)
    after = history.content(f.after_sha256)
    label, meta = f"Undo {f.file_id}", {"reverts_file": f.file_id}
    # the batch left a link at its path: the inverse replaces that link, never follows it
    link = f.after_mode == LINK_MODE
    if f.action == "create":
        diff = render_diff(after, None, f.path, f.path)
        return FileChange(
            f.path, None, expected_sha256=f.after_sha256, diff=diff, label=label, meta=meta,
            replaces_link=link,
        )  # fmt: skip
    if f.action == "delete":
        diff = render_diff(None, before, f.path, f.path)
        return FileChange(
            f.path, before, must_not_exist=True, mode_bits=f.before_mode, diff=diff,
            label=label, meta=meta,
        )  # fmt: skip
    if f.action == "move":
        assert f.move_from is not None  # every recorded move has its old path
        diff = render_diff(after, before, f.path, f.move_from)
        return FileChange(
            f.move_from, before, expected_sha256=f.after_sha256, move_from=f.path,
            mode_bits=f.before_mode, diff=diff, label=label, meta=meta, replaces_link=link,
        )  # fmt: skip
    diff = render_diff(after, before, f.path, f.path)
    return FileChange(
        f.path, before, expected_sha256=f.after_sha256, mode_bits=f.before_mode, diff=diff,
        label=label, meta=meta, replaces_link=link,
    )  # fmt: skip


def conflict(batch_id: str, exc: PatchwrightError) -> PatchwrightError:
    """Turn the refusal of an inverse commit into the ``conflict`` undo reports."""
    if exc.code == ErrorCode.STALE:
        path = exc.path or "?"
        after, actual = exc.details.get("expected_sha256"), exc.details.get("actual_sha256")
        now = f"now has sha256 {actual}" if actual else "is now missing"
        what = f"{path!r} changed after batch {batch_id}: it had sha256 {after} then, {now}."
    elif exc.code == ErrorCode.NOT_A_FILE:
        path = exc.path or "?"
        kind = exc.details.get("kind", "something else")
        what = (
            f"{path!r} no longer holds the regular file batch {batch_id} wrote (there is "
            f"{'a ' + kind if kind != 'something else' else kind} on its path now); undo "
            "never writes through it."
        )
        after, actual = None, kind
    else:
        path = exc.path or "?"
        what = f"{path!r} was created again after batch {batch_id} moved or deleted it."
        after, actual = None, "present"
    return PatchwrightError(
        ErrorCode.CONFLICT,
        f"Cannot undo batch {batch_id}: {what} Nothing was changed.",
        "Undo the later edits of that file first, or edit it by hand.",
        path=exc.path,
        details={"batch_id": batch_id, "after_sha256": after, "actual_sha256": actual},
    )


def render_diff(before: bytes | None, after: bytes | None, old_path: str, new_path: str) -> str:
    """A unified diff between two contents (``None``: the file does not exist); a
    notebook's is shown cell by cell."""
    from patchwright.engine.notebook import file_diff  # lazy: see module docstring
    from patchwright.workspace.encoding import decode_file

    try:
        old = decode_file(before, old_path) if before is not None else None
        new = decode_file(after, new_path) if after is not None else None
    except PatchwrightError:
        return f"Binary files a/{old_path} and b/{new_path} differ\n"
    a = f"a/{old_path}" if before is not None else "/dev/null"
    b = f"b/{new_path}" if after is not None else "/dev/null"
    return file_diff(old, new, a, b)
