"""``apply_patch``: apply one patch text, all files or none.

The patch may be in any format the command line reads (``*** Begin Patch``, unified or
git diff, SEARCH/REPLACE blocks), detected unless ``format`` names one; it may update,
add, delete and move many files. Every hunk is located through the matching ladder
``mode`` allows; if one file fails, nothing is written. A hunk whose new text already
stands where its old text was expected is refused as already applied.
"""

from __future__ import annotations

from patchwright.api import apply_patch_text
from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.tools.apply_patch.models import ApplyPatchRequest
from patchwright.tools.apply_patch.report import refusal, success
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import encoding_step, with_next_step
from patchwright.tools.spec import WRITES, ToolSpec


def apply(ctx: ToolContext, patch: str, *, format: str = "auto", mode: str = "fuzzy",
          dry_run: bool = False, path: str | None = None, encoding: str | None = None,
          encoding_field: str | None = None) -> ToolResult:  # fmt: skip
    """Apply ``patch`` to the context's workspace (shared by the dialects that take a
    patch text).

    Raises:
        PatchwrightError: the refusal, in spec 002's form; nothing was written.
    """
    report = apply_patch_text(
        patch,
        workspace=ctx.workspace,
        format=format,
        mode=mode,
        dry_run=dry_run,
        syntax=ctx.syntax_policy,
        path=path,
        encoding=encoding,
    )
    if report.error is not None:
        err = report.error
        if err.code is ErrorCode.FILE_NOT_FOUND and err.path:
            with_next_step(ctx.workspace, err, err.path)
        if err.code is ErrorCode.ENCODING and "characters" in err.details:
            err.with_context(field="patch")  # the patch's new text holds them
        encoding_step(err, encoding_field)
        raise refusal(report, err)
    return success(report, ctx.exposed_name("undo"))


def run(ctx: ToolContext, req: ApplyPatchRequest) -> ToolResult:
    """Apply (or, dry run, check) the patch.

    Raises:
        PatchwrightError: ``invalid_request`` for a ``path`` without ``format: "snippet"``
            (a patch names its files itself); the patch's refusal.
    """
    if req.path is not None and req.format != "snippet":
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            "path is only read with format 'snippet': a patch names its files itself.",
            "Leave path out, or set format to 'snippet' if patch is a lazy snippet of that file.",
            field="path",
        )
    return apply(
        ctx, req.patch, format=req.format or "auto", mode=req.mode or "fuzzy",
        dry_run=bool(req.dry_run), path=req.path, encoding=req.encoding,
        encoding_field="encoding",
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
