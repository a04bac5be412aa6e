"""``apply_patch``: apply one patch text, all files or none.

The patch may be in any format the command line reads (``*** Begin Patch``, unified or
git diff, SEARCH/REPLACE blocks), detected unless ``format`` names one; it may update,
add, delete and move many files. Every hunk is located through the matching ladder
``mode`` allows; if one file fails, nothing is written. A hunk whose new text already
stands where its old text was expected is refused as already applied.
"""

from __future__ import annotations

from patchwright._records import replace as replace_record
from patchwright.api import apply_patch_text
from patchwright.engine import MatchOptions, apply_file_patch
from patchwright.formats import parse_patch
from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.tools.apply_patch.models import ApplyPatchRequest
from patchwright.tools.apply_patch.report import refusal, success
from patchwright.tools.confirm import apply_confirmed, offer_readings
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import load, with_next_step
from patchwright.tools.reads import remember_written
from patchwright.tools.replace import RACE_TRIES, readings
from patchwright.tools.spec import WRITES, ToolSpec
from patchwright.tools.validation import missing_field


def apply(ctx: ToolContext, patch: str, *, format: str = "auto", mode: str = "fuzzy",
          dry_run: bool = False) -> ToolResult:  # fmt: skip
    """Apply ``patch`` to the context's workspace (shared by the dialects that take a
    patch text).

    Raises:
        PatchwrightError: the refusal, in spec 002's form; nothing was written.
    """
    for _ in range(RACE_TRIES):
        report = apply_patch_text(
            patch,
            workspace=ctx.workspace,
            format=format,
            mode=mode,
            dry_run=dry_run,
            syntax=ctx.syntax_policy,
        )
        # a file another writer changed between the plan's read and the commit: the
        # patch is located again on what that writer left (its context says where)
        if report.error is None or report.error.code is not ErrorCode.STALE:
            break
    if report.error is not None:
        err = report.error
        if err.code is ErrorCode.FILE_NOT_FOUND and err.path:
            with_next_step(ctx.workspace, err, err.path)
        refused = refusal(report, err)
        if err.details.get("frame") == "undecided" and not dry_run:
            refused = _with_readings(ctx, patch, format, mode, refused)
        raise refused
    if not dry_run:
        for path, sha in report.written.items():
            remember_written(ctx, path, sha)
    return success(report, ctx.exposed_name("undo"))


def _with_readings(
    ctx: ToolContext, patch: str, format: str, mode: str, err: PatchwrightError
) -> PatchwrightError:
    """A one-file patch refused because its added lines' indentation is undecided: each
    reading of it as a candidate (tools.confirm)."""
    try:
        parsed = parse_patch(patch, format)
        if len(parsed.files) != 1 or parsed.files[0].move_to:
            return err
        fp = parsed.files[0]
        loaded = load(ctx.workspace, fp.path, missing_ok=True)
    except PatchwrightError:
        return err
    base = MatchOptions(mode=mode)  # type: ignore[arg-type]  # the request model checked it
    found = readings(lambda options: apply_file_patch(
        loaded.text, fp, replace_record(base, frame=options.frame))[0])  # fmt: skip
    return offer_readings(ctx, loaded, found, err, "patch")


def run(ctx: ToolContext, req: ApplyPatchRequest) -> ToolResult:
    """Apply (or, dry run, check) the patch, or the candidate a confirm token names."""
    if req.confirm is not None:
        others = [k for k in ("patch", "format", "mode", "dry_run") if getattr(req, k) is not None]
        if others:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"confirm must be sent alone, not with {', '.join(others)}.",
                'Send {"confirm": "<token>"} alone to apply a candidate, or the patch '
                "without confirm.",
                field="confirm",
            )
        return apply_confirmed(ctx, req.confirm)
    if req.patch is None:
        raise missing_field(ApplyPatchRequest, "patch", ctx.name_of("apply_patch"))
    return apply(
        ctx, req.patch, format=req.format or "auto", mode=req.mode or "fuzzy",
        dry_run=bool(req.dry_run),
    )  # fmt: skip


SPEC = ToolSpec(
    name="apply_patch",
    title="Apply a patch to many files",
    description=description("apply_patch"),
    request_model=ApplyPatchRequest,
    handler=run,
    annotations=WRITES,
    contract="apply_patch: one patch text in any format, many files, all or none",
)
