"""Cursor's ``edit_file``: a lazy snippet merged into the file, or a new file written.

The merge is the engine's (:func:`patchwright.engine.replacing.snippet.merge_snippet_file`): every
literal run placed at exactly one place, markers keeping the file's lines, nothing deleted
silently. The answer says what was placed where and which edges were kept. A retry is
answered as already applied, nothing written: when the history's newest batch on the file
made this very merge and the file still holds its result (merged again, a snippet without
a marker above its lines would now read as deleting them: its lines change nothing where
they stand), or when the snippet merges to the file as it stands.
"""

from __future__ import annotations

from patchwright.engine.replacing.snippet import merge_snippet_file
from patchwright.engine.replacing.snippet.markers import new_file_placeholders, parse_snippet
from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.model.text import TextFile
from patchwright.tools.context import ToolContext
from patchwright.tools.cursor.models import CursorEditRequest
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import load
from patchwright.tools.replace import already_applied, write_whole
from patchwright.tools.spec import WRITES, ToolSpec
from patchwright.tools.writing import commit_writes, planned
from patchwright.writing import racing

_PATH_FIELD = "target_file"
_SNIPPET_FIELD = "code_edit"


def run(ctx: ToolContext, req: CursorEditRequest) -> ToolResult:
    """Merge ``code_edit`` into ``target_file`` (or create it).

    Raises:
        PatchwrightError: the merge's refusal (``ambiguous``, ``not_found``,
            ``invalid_request``) naming snippet and file lines; a marker in a file to
            create; path and workspace refusals.
    """
    # a file another writer changed between this call's read and its commit: merged again
    return racing(ctx.workspace, lambda: _run_once(ctx, req))


def _run_once(ctx: ToolContext, req: CursorEditRequest) -> ToolResult:
    loaded = load(
        ctx.workspace, req.target_file, missing_ok=True, field=_PATH_FIELD, session=ctx.session
    )
    if not loaded.exists:
        _refuse_markers_in_new_file(loaded.path, req.code_edit)
        return write_whole(ctx, req.target_file, req.code_edit, path_field=_PATH_FIELD)

    def replay(before: TextFile | None) -> TextFile | None:
        # a file the batch created was written whole, not merged: the merge below tells
        return None if before is None else merge_snippet_file(before, req.code_edit).file

    done = already_applied(ctx, loaded, replay)
    if done is not None:
        return done
    try:
        merged = merge_snippet_file(loaded.current, req.code_edit, path=loaded.path)
    except PatchwrightError as err:
        if err.field is None:
            err.field = _SNIPPET_FIELD
        raise
    report = merged.report
    label = req.instructions.strip() or f"{ctx.tool} {loaded.path}"
    plan = planned(
        loaded,
        merged.file,
        label=label,
        meta={"snippet": report.to_dict()},
        rungs=[run.rung.value for run in report.runs],
    )
    if not plan.changed:
        return ToolResult(
            True,
            f"{loaded.path} already reads as the snippet says: the edit looks already "
            "applied. Nothing was written.",
            data={"path": loaded.path, "already_applied": True, "snippet": report.to_dict()},
        )
    outcome = commit_writes(ctx, [plan], label=label)
    text = [f"Edited {loaded.path}. {report.summary()}"]
    text += [f"  Warning: {w}" for w in outcome.warnings]
    data = {"path": loaded.path, "snippet": report.to_dict(), **outcome.data()}
    return ToolResult(
        True, "\n".join(text), diff=outcome.diff, warnings=outcome.warnings, data=data
    )


def _refuse_markers_in_new_file(path: str, snippet: str) -> None:
    """A file to create has nothing for a marker to keep: refuse rather than write one
    (the placeholder rule of every tool's new file: a bare ``...`` there is text)."""
    found = new_file_placeholders(list(parse_snippet(snippet).lines))
    if not found:
        return
    raise PatchwrightError(
        ErrorCode.FILE_NOT_FOUND,
        f"{path} does not exist, so the marker on line {found[0] + 1} of code_edit has "
        "no existing code to stand for; nothing was written.",
        "To create the file, send its whole content without markers; to edit an existing "
        "file, check the path you gave.",
        path=path,
        field=_SNIPPET_FIELD,
    )


SPEC = ToolSpec(
    name="cursor_edit_file",
    title="Edit a file with a lazy snippet",
    description=description("cursor_edit_file"),
    request_model=CursorEditRequest,
    handler=run,
    annotations=WRITES,
    contract="Cursor edit_file: target_file, instructions, code_edit (a lazy snippet)",
)
