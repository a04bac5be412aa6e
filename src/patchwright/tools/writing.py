"""How a tool hands its planned files to the write path (:mod:`patchwright.writing`).

:func:`planned` makes a :class:`~patchwright.writing.PlannedWrite` of a file a tool
read (:class:`~patchwright.tools.files.Loaded`) and its new text; :func:`commit_writes`
writes a batch of them through :func:`patchwright.writing.write` with the context's
workspace, syntax policy and tool name, checks against the text the session last wrote
(the same object the syntax caches saw), and keeps each written text for the next edit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from patchwright.engine import MatchOptions
from patchwright.model import TextFile
from patchwright.tools.context import ToolContext
from patchwright.tools.files import Loaded
from patchwright.workspace import ChangeRecord, CommitRecord
from patchwright.writing import PlannedWrite, WriteOutcome, write


def planned(
    loaded: Loaded,
    after: TextFile,
    *,
    key: str | None = None,
    label: str = "",
    changes: Sequence[ChangeRecord] = (),
    meta: dict[str, Any] | None = None,
    rungs: Sequence[str] = (),
) -> PlannedWrite:
    """The plan to write ``after`` over ``loaded`` (created when it was missing), checked
    against the bytes the tool read."""
    state = loaded.state
    return PlannedWrite(
        loaded.path,
        loaded.text,
        after,
        sha256=loaded.sha256,
        old_data=state.data if state is not None else None,
        key=key,
        label=label,
        changes=changes,
        meta=dict(meta or {}),
        rungs=rungs,
    )


def commit_writes(
    ctx: ToolContext,
    plans: Sequence[PlannedWrite],
    *,
    label: str = "",
    key: str | None = None,
    meta: dict[str, Any] | None = None,
    dry_run: bool = False,
) -> WriteOutcome:
    """Write ``plans`` as one batch through the write path (see the module docstring).

    Raises:
        PatchwrightError: ``restricted``; ``syntax_error`` under the ``reject`` policy;
            every workspace refusal (``stale``, ``file_exists``, sandbox...).
    """
    outcome = write(
        ctx.workspace,
        plans,
        ctx.syntax_policy,
        tool=ctx.tool,
        label=label,
        key=key,
        meta=meta,
        dry_run=dry_run,
        recall=ctx.session.written_text,
    )
    if outcome.record is not None:
        _remember_texts(ctx, plans, outcome.record)
    return outcome


#: The rungs of strict matching: a write placed by these alone is replayed strictly.
_EXACT = frozenset(rung.value for rung in MatchOptions(mode="strict").rungs)


def _remember_texts(ctx: ToolContext, plans: Sequence[PlannedWrite], record: CommitRecord) -> None:
    """Keep each written text for the next edit of its file (Session.written_text)."""
    if record.dry_run:
        return
    written = {f.path: f.after_sha256 for f in record.files if f.after_sha256 is not None}
    replaced = {f.path: f.before_sha256 for f in record.files if f.before_sha256 is not None}
    for plan in plans:
        sha = written.get(plan.path)
        if sha is not None and plan.after is not None:
            ctx.session.remember_text(plan.path, sha, plan.text, plan.after)
            ctx.session.saw(plan.path, sha)  # the agent knows what it wrote (tools.reads)
            before_sha = replaced.get(plan.path)
            if before_sha is not None and plan.before is not None and not plan.move_from:
                # a retry of this write is replayed on it (api.retry.replayed_by)
                exact = bool(plan.rungs) and set(plan.rungs) <= _EXACT
                ctx.session.remember_before(
                    plan.path, before_sha, plan.before, len(plan.text), exact=exact
                )
