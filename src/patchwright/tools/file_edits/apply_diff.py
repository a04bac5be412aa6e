"""``apply_diff`` (spec 002 part 2, the unified-diff "patch" skill) applied to one target.

The diff comes inline (``diff``) or from a file in the workspace (``diff_file``), never
both. ``target`` names the file to patch; the diff's ``---``/``+++`` headers are
informational. When the diff holds several files, only the sections whose path has the
target's base name are used (with a warning); a diff naming one other file is applied to
the target anyway, with a warning. Paths with ``..`` in the diff are refused outright.

Hunks are applied in order with offset tracking (each hunk's line numbers are only a
hint; it is located by its context and removed lines) in the chosen ``mode``:
``strict`` (exact text), ``tolerant`` (whitespace, indentation, punctuation) or
``fuzzy`` (also similarity >= ``fuzzy_threshold``). Header line counts that disagree
with the body are recomputed, with a warning. All hunks apply or nothing is written;
``dry_run`` checks everything and writes nothing.
"""

from __future__ import annotations

import posixpath
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from patchwright._records import replace
from patchwright.api.retry import edits_evidence
from patchwright.engine import MatchOptions, apply_file_patch
from patchwright.formats import parse_unified
from patchwright.model import (
    ErrorCode,
    FileAction,
    FilePatch,
    PatchSet,
    PatchwrightError,
    ToolResult,
)
from patchwright.model.text import diff_rows
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.diff_report import failure, success
from patchwright.tools.files import load, resolve
from patchwright.tools.replace import already_applied
from patchwright.tools.spec import WRITES, ToolSpec
from patchwright.tools.writing import commit_writes, planned
from patchwright.workspace import ChangeRecord
from patchwright.writing import racing


class ApplyDiffRequest(BaseModel):
    """Arguments of ``apply_diff``."""

    model_config = ConfigDict(extra="forbid")

    diff: str | None = Field(None, description="Unified diff content (inline)")
    diff_file: str | None = Field(None, description="Path to .diff/.patch file to read")
    target: str = Field(description="Target file to patch (required)")
    mode: Literal["strict", "tolerant", "fuzzy"] = Field(
        "strict", description="Matching strictness"
    )
    fuzzy_threshold: float = Field(
        0.8, ge=0.5, le=1.0, description="Similarity threshold for fuzzy mode (0.5-1.0)"
    )
    dry_run: bool = Field(False, description="Validate without applying")


def _diff_text(ctx: ToolContext, req: ApplyDiffRequest) -> str:
    if req.diff is not None and req.diff_file is not None:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            "diff and diff_file are mutually exclusive.",
            "Send the diff inline in diff, or the path of a .diff/.patch file in diff_file, "
            "not both.",
            field="diff_file",
        )
    if req.diff_file is not None:
        return load(ctx.workspace, req.diff_file, field="diff_file").current.text
    if req.diff is None or not req.diff.strip():
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            "No diff given: diff is missing or empty and no diff_file was named.",
            "Send the unified diff in diff, or the path of a .diff/.patch file in diff_file.",
            field="diff",
        )
    return req.diff


_HEADERS = ("--- ", "+++ ", "diff --git ", "rename from ", "rename to ", "copy from ", "copy to ")


def _parse(text: str, field: str) -> PatchSet:
    """The diff parsed; a parse error names the field the diff came in."""
    try:
        return parse_unified(text)
    except PatchwrightError as err:
        raise err.with_context(field=field) from None


def _check_paths(text: str, files: tuple[FilePatch, ...], field: str) -> None:
    """Refuse a diff whose headers name a path climbing with ``..`` (either side)."""
    named = [p for f in files for p in (f.path, f.move_to) if p]
    for line in diff_rows(text):
        prefix = next((h for h in _HEADERS if line.startswith(h)), None)
        if prefix is not None:
            named.extend(line[len(prefix) :].split())
    for p in named:
        if ".." in p.strip().strip('"').split("/"):
            raise PatchwrightError(
                ErrorCode.PATH_OUTSIDE_ROOT,
                f"The diff names the path {p.strip()!r}, which climbs with '..'. No change was "
                "made.",
                "Use paths relative to the workspace root without '..'.",
                path=p.strip(),
                field=field,
            )


def select_sections(
    files: tuple[FilePatch, ...], target: str, field: str = "diff"
) -> tuple[FilePatch, list[str]]:
    """The sections of a diff that concern ``target``, merged into one, and warnings;
    ``field`` is the request field that carried the diff.

    Raises:
        PatchwrightError: ``invalid_request`` when no section or several different files
            match the target's base name; ``unsupported`` for a deletion.
    """
    base = posixpath.basename(target)
    warnings: list[str] = []
    matching = [f for f in files if not f.path or posixpath.basename(f.path) == base]
    exact = [f for f in matching if f.path == target]
    if exact:
        matching = [f for f in matching if not f.path or f.path == target]
    if not matching and len(files) == 1:
        warnings.append(
            f"The diff's header names {files[0].path}, not {target}; applied to {target} as "
            "asked (the header is informational)."
        )
        matching = list(files)
    if not matching:
        names = ", ".join(f.path for f in files)
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"The diff has no section for {target} (it has: {names}).",
            "Send the hunks for the target file, or set target to the file the diff edits.",
            field="target",
        )
    distinct = {f.path for f in matching if f.path}
    if len(distinct) > 1:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"Several files of the diff share the base name {base!r}: "
            f"{', '.join(sorted(distinct))}.",
            "Set target to the full path of the file to patch.",
            field="target",
        )
    if len(files) > len(matching):
        warnings.append(f"Diff contains {len(files)} files, applying only hunks for {base}")
    return _merge(matching, target, warnings, field), warnings


def _merge(sections: list[FilePatch], target: str, warnings: list[str], field: str) -> FilePatch:
    if any(f.action is FileAction.DELETE for f in sections):
        raise PatchwrightError(
            ErrorCode.UNSUPPORTED,
            f"The diff deletes {target}; this tool only patches a file's content.",
            "Send hunks that change the file, not a deletion.",
            field=field,
        )
    if any(f.move_to for f in sections):
        warnings.append("The diff also renames the file; the rename was ignored.")
    first = sections[0]
    if first.action is FileAction.CREATE and len(sections) == 1:
        return replace(first, path=target, move_to=None)
    edits = tuple(e for f in sections for e in f.edits)
    return replace(first, path=target, action=FileAction.UPDATE, edits=edits, move_to=None)


def run(ctx: ToolContext, req: ApplyDiffRequest) -> ToolResult:
    """Apply (or, dry run, check) a unified diff to the target file; located again on
    the file as it is when another writer changed it between the read and the commit."""
    text = _diff_text(ctx, req)
    source = "diff_file" if req.diff_file is not None else "diff"
    patch_set = _parse(text, source)
    _check_paths(text, patch_set.files, source)
    return racing(ctx.workspace, lambda: _run_once(ctx, req, patch_set, source))


def _run_once(
    ctx: ToolContext, req: ApplyDiffRequest, patch_set: PatchSet, source: str
) -> ToolResult:
    target = resolve(ctx.workspace, req.target, field="target")
    fp, warnings = select_sections(patch_set.files, target, source)
    warnings = [*_parser_notes(patch_set.warnings), *warnings]
    loaded = load(ctx.workspace, target, missing_ok=True, field="target")
    options = MatchOptions(mode=req.mode, fuzzy_threshold=req.fuzzy_threshold)
    evidence = edits_evidence(loaded.current.text, fp.edits) if loaded.exists else None
    done = already_applied(ctx, loaded, lambda before: apply_file_patch(before, fp, options)[0],
                           evidence)  # fmt: skip
    if done is not None:
        return done
    try:
        new, reports = apply_file_patch(loaded.text, fp, options)
    except PatchwrightError as err:
        raise failure(err, fp, loaded, req.mode, field=source) from None
    assert new is not None  # deletions were refused by select_sections
    records = [
        ChangeRecord(description=r.label, op="hunk", old_start=r.orig_start, old_end=r.orig_end,
                     new_start=r.new_start, new_end=r.new_end, meta={"rung": r.rung})
        for r in reports
    ]  # fmt: skip
    plan = planned(
        loaded, new, label=f"apply_diff {target}", changes=records, rungs=[r.rung for r in reports]
    )
    outcome = commit_writes(
        ctx, [plan], label=f"apply_diff {target}", meta={"mode": req.mode}, dry_run=req.dry_run
    )
    return success(loaded, reports, warnings, outcome, req.dry_run)


def _parser_notes(notes: tuple[str, ...]) -> list[str]:
    # bare hunks are expected here: the target names the file
    return [n for n in notes if "without a file header" not in n]


SPEC = ToolSpec(
    name="apply_diff",
    title="Apply a unified diff to one file",
    description=description("apply_diff"),
    request_model=ApplyDiffRequest,
    handler=run,
    annotations=WRITES,
    contract="spec 002 part 2: unified-diff patch skill (diff/diff_file, target, mode, dry_run)",
)
