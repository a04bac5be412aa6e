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
from patchwright.model import (
    Anchor,
    ErrorCode,
    FilePatch,
    Hunk,
    OldText,
    PatchwrightError,
    TextFile,
    ToolResult,
)
from patchwright.tools.apply_patch.models import ApplyPatchRequest
from patchwright.tools.apply_patch.report import refusal, success
from patchwright.tools.confirm import apply_confirmed, offer_readings, offer_texts
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import Loaded, encoding_step, load, with_next_step
from patchwright.tools.reads import remember_written
from patchwright.tools.replace import readings
from patchwright.tools.spec import WRITES, ToolSpec
from patchwright.tools.validation import missing_field
from patchwright.writing import racing


def apply(ctx: ToolContext, patch: str, *, format: str = "auto", mode: str = "fuzzy",
          dry_run: bool = False, path: str | None = None, encoding: str | None = None,
          encoding_field: str | None = None) -> ToolResult:  # fmt: skip
    """Apply ``patch`` to the context's workspace (shared by the dialects that take a
    patch text).

    Raises:
        PatchwrightError: the refusal, in spec 002's form; nothing was written.
    """
    # a file another writer changed between the plan's read and the commit: the patch
    # is located again on what that writer left (its context says where)
    report = racing(
        ctx.workspace,
        lambda: apply_patch_text(
            patch,
            workspace=ctx.workspace,
            format=format,
            mode=mode,
            dry_run=dry_run,
            syntax=ctx.syntax_policy,
            path=path,
            encoding=encoding,
        ),
        lambda report: report.error,
    )
    if report.error is not None:
        err = report.error
        if err.code is ErrorCode.FILE_NOT_FOUND and err.path:
            with_next_step(ctx.workspace, err, err.path)
        if err.code is ErrorCode.ENCODING and "characters" in err.details:
            err.with_context(field="patch")  # the patch's new text holds them
        encoding_step(err, encoding_field)
        refused = refusal(report, err)
        if err.details.get("frame") == "undecided" and not dry_run:
            refused = _with_readings(ctx, patch, format, mode, refused)
        elif err.code is ErrorCode.AMBIGUOUS and "lines" in err.details and not dry_run:
            refused = _with_places(ctx, patch, format, mode, refused)
        elif _a_large_gap(err) and not dry_run:
            refused = _with_merge(ctx, err, refused)
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
    one = _one_file(ctx, patch, format)
    if one is None:
        return err
    fp, loaded = one
    base = MatchOptions(mode=mode)  # type: ignore[arg-type]  # the request model checked it
    found = readings(lambda options: apply_file_patch(
        loaded.text, fp, replace_record(base, frame=options.frame))[0])  # fmt: skip
    return offer_readings(ctx, loaded, found, err, "patch")


def _a_large_gap(err: PatchwrightError) -> bool:
    """Whether ``err`` refuses a snippet only for the original lines it would delete
    without showing them (a stretch longer than a snippet may delete unmarked)."""
    doubts = err.details.get("doubts")
    return (
        err.path is not None
        and isinstance(err.details.get("candidate_diff"), str)
        and isinstance(doubts, list)
        and bool(doubts)
        and all(isinstance(d, dict) and d.get("kind") == "deletion" for d in doubts)
    )


def _with_merge(
    ctx: ToolContext, err: PatchwrightError, refused: PatchwrightError
) -> PatchwrightError:
    """A snippet refused for a large unmarked gap: the merge it would make (the
    candidate result the refusal shows) as a candidate (tools.confirm). The candidate's
    diff, applied exactly to the file as it is now, gives its text: a file changed since
    the refusal's read gives none."""
    assert err.path is not None
    try:
        loaded = load(ctx.workspace, err.path)
        (fp,) = parse_patch(str(err.details["candidate_diff"]), "udiff").files
        if loaded.text is None:
            return refused
        new = apply_file_patch(loaded.text, fp, MatchOptions(mode="strict"))[0]
    except (PatchwrightError, ValueError):
        return refused
    if new is None:
        return refused
    return offer_texts(ctx, loaded, [new], refused, "patch", "the candidate result above",
                       "put a marker line where the lines stay", diff_above=True)  # fmt: skip


def _one_file(ctx: ToolContext, patch: str, format: str) -> tuple[FilePatch, Loaded] | None:
    """The only file of ``patch`` and the file as it is, or ``None`` (several files, a
    move, a patch that does not parse): a candidate applies to one file."""
    try:
        parsed = parse_patch(patch, format)
        if len(parsed.files) != 1 or parsed.files[0].move_to:
            return None
        fp = parsed.files[0]
        return fp, load(ctx.workspace, fp.path, missing_ok=True)
    except PatchwrightError:
        return None


def _with_places(
    ctx: ToolContext, patch: str, format: str, mode: str, err: PatchwrightError
) -> PatchwrightError:
    """A one-file patch refused because a hunk matches several places: the patch with
    that hunk pinned to each place as a candidate (tools.confirm)."""
    found = _one_file(ctx, patch, format)
    index = err.details.get("edit_index")
    if found is None or not isinstance(index, int):
        return err
    fp, loaded = found
    if loaded.text is None or not 0 <= index < len(fp.edits):
        return err
    options = MatchOptions(mode=mode)  # type: ignore[arg-type]  # the request model checked it
    texts: list[TextFile] = []
    for line in list(err.details["lines"])[:5]:
        edit = fp.edits[index]
        anchor = edit.anchor
        pinned: Anchor
        if isinstance(anchor, Hunk):
            pinned = replace_record(anchor, old_start=line, old_count=None)
        elif isinstance(anchor, OldText):
            pinned = replace_record(anchor, hint_line=line)
        else:
            return err
        edits = list(fp.edits)
        edits[index] = replace_record(edit, anchor=pinned)
        try:
            new = apply_file_patch(loaded.text, replace_record(fp, edits=edits), options)[0]
        except PatchwrightError:
            continue  # pinned there, the patch fails elsewhere: no candidate
        if new is not None:
            texts.append(new)
    return offer_texts(ctx, loaded, texts, err, "patch", f"{len(texts)} places",
                       "include more unchanged lines around the change")  # fmt: skip


def run(ctx: ToolContext, req: ApplyPatchRequest) -> ToolResult:
    """Apply (or, dry run, check) the patch, or the candidate a confirm token names.

    Raises:
        PatchwrightError: ``invalid_request`` for ``confirm`` sent with other fields, a
            missing ``patch``, or a ``path`` without ``format: "snippet"`` (a patch names
            its files itself); the patch's refusal.
    """
    if req.confirm is not None:
        others = [
            k
            for k in ("patch", "format", "mode", "dry_run", "path", "encoding")
            if getattr(req, k) is not None
        ]
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
