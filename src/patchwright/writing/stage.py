"""From planned files to one workspace commit: diff, guard, change records, hand-off.

:func:`stage` takes the plans of one batch and, file by file, renders the diff
(:func:`~patchwright.writing.diff.render_diff`), runs the guard
(:func:`~patchwright.writing.guard.guard`: ``reject`` and a loosely placed edit that
breaks the syntax refuse here, before anything is written) and builds the workspace's
:class:`~patchwright.workspace.FileChange`. :func:`commit` hands the staged changes to
:meth:`Workspace.commit <patchwright.workspace.Workspace.commit>`, which writes them all
or none, each checked against the SHA256 its planner read. :func:`write` is both, after
refusing in restricted mode (a dry run is allowed there).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from patchwright._records import field, record
from patchwright.workspace import LINK_MODE, FileChange, Workspace
from patchwright.writing.diff import render_diff
from patchwright.writing.guard import guard
from patchwright.writing.plan import PlannedWrite, WriteOutcome

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from patchwright.syntax import SyntaxPolicy

#: ``recall(path, sha256)``: the text a session last wrote to ``path`` with that SHA256
#: (the same object the syntax caches saw), or ``None``.
Recall = Callable[[str, "str | None"], "str | None"]


@record
class Staged:
    """A batch ready to commit: the workspace changes and what staging found."""

    changes: list[FileChange] = field(default_factory=list)
    outcome: WriteOutcome = field(default_factory=lambda: WriteOutcome(None))


def stage(
    plans: Iterable[PlannedWrite],
    policy: SyntaxPolicy,
    *,
    recall: Recall | None = None,
    release: bool = False,
) -> Staged:
    """Diff, guard and turn ``plans`` into workspace changes; unchanged plans are left out.

    Args:
        plans: the batch's files, in order (an iterator is consumed one plan at a time).
        policy: the syntax policy.
        recall: finds the text a session wrote last, to check against (see :data:`Recall`).
        release: the caller does not use the plans' texts again: each old text is
            dropped once checked and each new one emptied while encoded, so a large
            patch does not keep both texts and the new bytes alive together.

    Raises:
        PatchwrightError: ``syntax_error`` (see :func:`~patchwright.writing.guard.guard`);
            ``encoding`` for a character the file's encoding cannot hold.
    """
    staged = Staged()
    outcome = staged.outcome
    for plan in plans:
        if not plan.changed:
            continue
        diff = render_diff(plan)
        outcome.diffs[plan.path] = diff
        if plan.after is not None and plan.mode_bits != LINK_MODE:  # a link's target: no code
            before_text = None
            if recall is not None and plan.before is not None:
                before_text = recall(plan.move_from or plan.path, plan.sha256)
            report, notes = guard(
                policy,
                plan.path,
                plan.before,
                plan.after,
                rungs=plan.rungs,
                regions=plan.regions,
                before_text=before_text,
                after_text=None if release else plan.text,
            )
            if report is not None:
                outcome.syntax[plan.path] = report.to_dict()
            outcome.notes[plan.path] = notes
        staged.changes.append(_file_change(plan, diff, release))
    return staged


def _file_change(plan: PlannedWrite, diff: str, release: bool) -> FileChange:
    if release:
        plan.before = None  # diffed and checked: the old text is no longer needed
        data = plan.after.encode_releasing() if plan.after is not None else None
    else:
        data = plan.data
    return FileChange(
        plan.path,
        data,
        expected_sha256=plan.sha256,
        move_from=plan.move_from,
        diff=diff,
        key=plan.key,
        label=plan.label,
        changes=tuple(plan.changes),
        meta=dict(plan.meta),
        must_not_exist=plan.sha256 is None and plan.move_from is None,
        mode_bits=plan.mode_bits,
        replaces_link=plan.replaces_link,
    )


def commit(
    ws: Workspace,
    staged: Staged,
    *,
    tool: str,
    label: str = "",
    key: str | None = None,
    meta: dict[str, Any] | None = None,
    dry_run: bool = False,
) -> WriteOutcome:
    """Hand the staged changes to the workspace's commit (nothing when none changed);
    the record lands in ``staged.outcome.record``.

    Raises:
        PatchwrightError: every workspace refusal (``restricted``, ``stale``,
            ``file_exists``, sandbox...).
    """
    if staged.changes:
        staged.outcome.record = ws.commit(
            staged.changes, tool=tool, label=label, key=key, meta=dict(meta or {}),
            dry_run=dry_run,
        )  # fmt: skip
    return staged.outcome


def write(
    ws: Workspace,
    plans: Iterable[PlannedWrite],
    policy: SyntaxPolicy,
    *,
    tool: str,
    label: str = "",
    key: str | None = None,
    meta: dict[str, Any] | None = None,
    dry_run: bool = False,
    recall: Recall | None = None,
) -> WriteOutcome:
    """Refuse in restricted mode (unless a dry run), then :func:`stage` and
    :func:`commit` ``plans`` as one batch.

    Raises:
        PatchwrightError: ``restricted``; what :func:`stage` and :func:`commit` raise.
    """
    if not dry_run:
        ws.ensure_writable()
    staged = stage(plans, policy, recall=recall)
    return commit(ws, staged, tool=tool, label=label, key=key, meta=meta, dry_run=dry_run)
