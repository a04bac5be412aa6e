"""What the agent last saw of each file, and rebasing an edit when the file moved since.

Every reading tool calls :func:`remember_read`, and every write remembers the version it
wrote (:func:`remember_written`): the session keeps the SHA256 of that version per file
(:meth:`Session.saw`, bounded), and the content itself goes to the history's content
store, not to memory. When an edit arrives for a file whose bytes are no longer that
version (a formatter ran, the user saved, another agent wrote), :func:`rebase_edit`
computes the edit on the version the agent saw and rebases it three ways onto the file
as it is now (:func:`patchwright.engine.rebase.rebase`): it lands when the other change
left its lines alone, and is refused with the overlapping lines as they are now
otherwise. The answer names where the file had changed and, when patchwright made the
change, the batch.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress

from patchwright._records import record
from patchwright.api.retry import prior_batch
from patchwright.engine.rebase import Rebased, rebase
from patchwright.model import ErrorCode, PatchwrightError, TextFile
from patchwright.tools.context import ToolContext
from patchwright.tools.files import Loaded, numbered

__all__ = [
    "Stale",
    "overlap_error",
    "rebase_edit",
    "rebase_verdict",
    "remember_read",
    "remember_written",
    "seen_version",
    "stale_note",
]

# the most lines of an overlap a refusal shows
_SHOWN_LINES = 20


def remember_read(ctx: ToolContext, loaded: Loaded) -> None:
    """Remember the version of ``loaded`` the agent just read (its content kept in the
    history's content store when the workspace has a history)."""
    if loaded.state is None:
        return
    ws = ctx.workspace
    if ws.keeps_history:
        # without the content, a later change is applied to the file as it is
        with suppress(PatchwrightError, OSError):
            ws.history.keep_content(loaded.state.data)
    ctx.session.saw(loaded.path, loaded.state.sha256)


def remember_written(ctx: ToolContext, path: str, sha256: str | None) -> None:
    """Remember the version a write left (the commit stored its content)."""
    if sha256 is not None:
        ctx.session.saw(path, sha256)


def seen_version(ctx: ToolContext, loaded: Loaded) -> TextFile | None:
    """The version of ``loaded`` the agent last saw, when the file has changed since and
    that version is in the history; ``None`` when the file is as seen, never seen, or
    the version is not kept."""
    seen = ctx.session.seen(loaded.path)
    if seen is None or loaded.sha256 is None or seen == loaded.sha256:
        return None
    ws = ctx.workspace
    if not ws.keeps_history:
        return None
    try:
        data = ws.history.content(seen)
        return TextFile.decode(data, path=loaded.path) if data is not None else None
    except (PatchwrightError, OSError, ValueError):
        return None


@record(frozen=True)
class Stale:
    """An edit computed on the version the agent saw, rebased onto the file now.

    Attributes:
        rebased: the three-way result.
        by: who changed the file, in words (``batch b-... (edit_file)`` or ``another
            writer``).
    """

    rebased: Rebased
    by: str


def rebase_edit(
    ctx: ToolContext, loaded: Loaded, edit: Callable[[TextFile], TextFile]
) -> Stale | None:
    """``edit`` (which applies the agent's edit to a text, raising
    :class:`PatchwrightError` where it does not apply) rebased from the version the
    agent saw onto the file now; ``None`` when the file did not change since, the seen
    version is not kept, or the edit does not apply to it (it is then applied to the
    file as it is, as usual)."""
    base = seen_version(ctx, loaded)
    if base is None:
        return None
    try:
        mine = edit(base)
    except PatchwrightError:
        return None
    prior = prior_batch(ctx.workspace, loaded.path, loaded.sha256)
    by = f"batch {prior.batch_id} ({prior.tool})" if prior is not None else "another writer"
    return Stale(rebase(base, loaded.current, mine), by)


def rebase_verdict(
    ctx: ToolContext, loaded: Loaded, base_sha256: str, edit: Callable[[TextFile], TextFile]
) -> str:
    """One sentence for a tool that must refuse a stale edit (spec 001's SHA256 contract):
    whether the edit, made on the version ``base_sha256`` names, would rebase cleanly onto
    the file as it is now."""
    try:
        data = ctx.workspace.history.content(base_sha256) if ctx.workspace.keeps_history else None
        base = TextFile.decode(data, path=loaded.path) if data is not None else None
    except (PatchwrightError, OSError, ValueError):
        base = None
    if base is None:
        return (
            "Whether a rebase would apply cannot be told: the version with that sha256 is "
            "not in the history."
        )
    try:
        mine = edit(base)
    except PatchwrightError:
        return "A rebase would not apply: the changes do not apply to that version either."
    prior = prior_batch(ctx.workspace, loaded.path, loaded.sha256)
    by = f"batch {prior.batch_id} ({prior.tool})" if prior is not None else "another writer"
    stale = Stale(rebase(base, loaded.current, mine), by)
    if stale.rebased.clean:
        where = ", ".join(_span(a, b) for a, b in stale.rebased.changed[:5])
        return (
            f"A rebase would apply cleanly: the file changed at {where} (by {by}), none of "
            "them lines of these changes."
        )
    where = ", ".join(_span(a, b) for a, b in stale.rebased.overlaps)
    return (
        f"A rebase would not apply: the change (by {by}) overlaps these changes at {where} "
        "of the file now."
    )


def stale_note(path: str, stale: Stale) -> str:
    """The sentence of a rebased edit's answer: the file had changed, where, by whom."""
    changed = stale.rebased.changed
    where = ", ".join(_span(a, b) for a, b in changed[:5])
    more = f" and {len(changed) - 5} more places" if len(changed) > 5 else ""
    return (
        f"{path} had changed since you last read it ({where}{more} of the file now, by "
        f"{stale.by}); your edit touched none of those lines and was rebased onto it."
    )


def overlap_error(
    path: str, stale: Stale, current: TextFile, reader: str | None
) -> PatchwrightError:
    """The refusal of an edit whose lines someone else changed since the agent read them:
    the overlapping lines as they are now."""
    shown: list[str] = []
    for start, end in stale.rebased.overlaps:
        last = min(end, start + _SHOWN_LINES - 1, len(current.lines))
        shown.append(numbered(current.lines[start - 1 : last], start))
    where = ", ".join(_span(a, b) for a, b in stale.rebased.overlaps)
    again = f"call {reader} on it" if reader else "read it again"
    return PatchwrightError(
        ErrorCode.CONFLICT,
        f"{path} changed since you last read it (by {stale.by}), and the change overlaps "
        f"your edit at {where}. No change was made. Those lines are now:\n" + "\n".join(shown),
        f"Write the edit against the lines above, or {again} first.",
        path=path,
        details={"overlaps": [list(o) for o in stale.rebased.overlaps], "by": stale.by},
    )


def _span(start: int, end: int) -> str:
    if end < start:
        return f"a removal before line {start}"
    return f"line {start}" if start == end else f"lines {start}-{end}"
