"""``patch`` (spec 000): replace / append_eof / prepend_bof / overwrite, with clipboards.

Every patch of a call is resolved against the original file at once (simultaneous
composition) and the file is written only if all of them apply (REQ-PATCH-002).
``replace`` needs ``oldText`` to occur exactly once; when it does not occur exactly,
the engine's whitespace recovery (indentation shift, trimmed first/last lines, trailing
whitespace, typographic punctuation) may still find it uniquely, and the patch then
applies to the matched boundaries (REQ-PATCH-005).

Clipboards (REQ-PATCH-003) are named and live for the session. ``toClipboard`` stores
the text ``oldText`` matched *as found in the file*; ``fromClipboard`` inserts a
clipboard instead of ``newText``; the same name in both copies the text and leaves the
file unchanged there. Within one call, a clipboard filled by an earlier patch can be
read by a later one (cut and paste in one call); across calls, clipboards persist. A
clipboard is only updated when the whole call succeeds.

Choices where the spec is open:

* ``replace`` needs ``newText`` (``""`` deletes), ``fromClipboard`` or ``toClipboard``
  (a cut); ``append_eof``, ``prepend_bof`` and ``overwrite`` need ``newText`` or
  ``fromClipboard``. ``oldText`` and ``toClipboard`` belong to ``replace`` only.
* ``overwrite`` replaces the whole file, so no other patch of its call may change that
  file (copies to a clipboard may go with it); see :func:`_check_overwrite`.
* The 60k-token limit (REQ-PATCH-008) counts every text the call carries, clipboard
  text it pastes included (:func:`carried_texts`; :mod:`patchwright.writing.guard` for
  the estimate).
* Appended / prepended text is taken as whole lines (a final newline is supplied); the
  file keeps its own final-newline state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from patchwright._records import record, replace
from patchwright.api.retry import edits_evidence
from patchwright.engine import MatchOptions, apply_edits
from patchwright.model import (
    Anchor,
    BeginningOfFile,
    Composition,
    Edit,
    EndOfFile,
    ErrorCode,
    MatchReport,
    OldText,
    PatchwrightError,
    TextFile,
    ToolResult,
    WholeFile,
)
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import Loaded, load
from patchwright.tools.patch.models import PatchOperation, PatchRequest
from patchwright.tools.patch.report import PatchLine, render_result
from patchwright.tools.patch.text import missing_clipboard, reindent
from patchwright.tools.replace import already_applied
from patchwright.tools.spec import WRITES, ToolSpec
from patchwright.tools.writing import commit_writes, planned
from patchwright.workspace import ChangeRecord
from patchwright.writing import check_token_limit, racing

OPTIONS = MatchOptions(mode="tolerant")
#: The same, for a retry replayed on the file's older content: no refusal diagnosis.
QUIET = replace(OPTIONS, explain=False)
EXACT_RUNGS = frozenset({"exact", "newline"})


@record
class _Step:
    """One patch, planned: what it inserts and which edit carries it."""

    index: int
    op: PatchOperation
    edit: Edit | None = None
    copied: str | None = None
    copy_report: MatchReport | None = None


def _invalid(message: str, hint: str, field: str) -> PatchwrightError:
    return PatchwrightError(ErrorCode.INVALID_REQUEST, message, hint, field=field)


def _check_shape(i: int, op: PatchOperation) -> None:
    name = f"patches[{i}]"
    if op.operation == "replace":
        if not op.oldText:
            raise _invalid(
                f"{name}: operation replace needs a non-empty oldText.",
                "Put the exact text to substitute in oldText, or use append_eof / prepend_bof "
                "/ overwrite.",
                f"{name}.oldText",
            )
        if op.newText is None and not op.fromClipboard and not op.toClipboard:
            raise _invalid(
                f'{name}: operation replace needs newText ("" deletes oldText), '
                "fromClipboard, or toClipboard (a cut).",
                "Add newText with the replacement text.",
                f"{name}.newText",
            )
        return
    for key in ("oldText", "toClipboard"):
        if getattr(op, key) is not None:
            raise _invalid(
                f"{name}: {key} belongs to operation replace, not {op.operation}.",
                f"Remove {key}, or use operation replace.",
                f"{name}.{key}",
            )
    if op.newText is None and not op.fromClipboard:
        raise _invalid(
            f"{name}: operation {op.operation} needs newText or fromClipboard.",
            "Add newText with the text to write.",
            f"{name}.newText",
        )


def _is_copy(op: PatchOperation) -> bool:
    """A copy: reads the original text into a clipboard and leaves the file unchanged."""
    return bool(op.toClipboard) and op.toClipboard == op.fromClipboard


def _check_overwrite(patches: list[PatchOperation]) -> None:
    """Refuse an overwrite that another patch of the call would also change the file with.

    REQ-PATCH-002 resolves every patch of a call against the original file at once, and
    all patches of a call edit the one file ``path`` names. ``overwrite`` replaces the
    whole original content, so any other change to that file contradicts it: a replace
    or a cut edits text the overwrite discards, a second overwrite competes with it, and
    text to prepend or append belongs in the overwrite's own ``newText``. A copy reads
    the original text and changes nothing, so it may go with an overwrite (to keep a
    block of the old content for a later paste). Other files are patched in other calls.
    """
    overwrites = [i for i, op in enumerate(patches) if op.operation == "overwrite"]
    if not overwrites:
        return
    first = overwrites[0]
    others = [i for i, op in enumerate(patches) if i != first and not _is_copy(op)]
    if not others:
        return
    listed = ", ".join(f"patches[{i}] ({patches[i].operation})" for i in others)
    raise PatchwrightError(
        ErrorCode.INVALID_REQUEST,
        f"patches[{first}]: overwrite replaces the whole file, so it cannot be combined with "
        f"other changes to the same file: {listed}. Every patch of a call applies to the "
        "original file at once. No change was made.",
        "Send the complete new content in one overwrite (with any text to prepend or append "
        "included in its newText), or use replace / append_eof / prepend_bof without "
        "overwrite. Copying original text to a clipboard (toClipboard and fromClipboard "
        "with the same name) may go with an overwrite.",
        field=f"patches[{first}].operation",
        details={"overwrite": first, "conflicting": others},
    )


def _anchor(op: PatchOperation) -> Anchor:
    if op.operation == "replace":
        assert op.oldText is not None  # checked by _check_shape
        return OldText(op.oldText)
    if op.operation == "append_eof":
        return EndOfFile()
    if op.operation == "prepend_bof":
        return BeginningOfFile()
    return WholeFile()


def _locate(original: TextFile, step: _Step) -> MatchReport:
    """Where a replace's oldText matches (a trial deletion, thrown away)."""
    assert step.op.oldText is not None
    trial = Edit(OldText(step.op.oldText), "", label=f"patches[{step.index}]")
    try:
        return apply_edits(original, [trial], options=OPTIONS).reports[0]
    except PatchwrightError as err:
        raise err.with_context(field=f"patches[{step.index}].oldText") from None


def _plan(
    original: TextFile, patches: list[PatchOperation], clipboards: dict[str, str]
) -> tuple[list[_Step], dict[str, str]]:
    """Each patch's edit, and the clipboards this call fills (in patch order)."""
    staged: dict[str, str] = {}
    steps: list[_Step] = []
    for i, op in enumerate(patches):
        step = _Step(i, op)
        field = f"patches[{i}]"
        text = op.newText or ""
        if op.fromClipboard and op.fromClipboard != op.toClipboard:
            available = {**clipboards, **staged}
            if op.fromClipboard not in available:
                raise missing_clipboard(op.fromClipboard, available, f"{field}.fromClipboard")
            text = available[op.fromClipboard]
        if op.toClipboard:
            report = _locate(original, step)
            staged[op.toClipboard] = _clip(report.matched_text)
            if op.fromClipboard == op.toClipboard:
                step.copied, step.copy_report = op.toClipboard, report
        if step.copied is None:
            step.edit = Edit(_anchor(op), reindent(text, op.reindent, field), label=field)
        steps.append(step)
    return steps, staged


def carried_texts(patches: list[PatchOperation], clipboards: Mapping[str, str]) -> dict[str, str]:
    """Every text a call carries, by request field, for the token limit (REQ-PATCH-008):
    ``oldText``, ``newText`` (also when a clipboard replaces it), the clipboard text each
    paste inserts (a missing clipboard counts as empty; it is refused later), and the
    reindent prefixes."""
    texts: dict[str, str] = {}
    for i, op in enumerate(patches):
        name = f"patches[{i}]"
        for key in ("oldText", "newText"):
            value = getattr(op, key)
            if value:
                texts[f"{name}.{key}"] = value
        if op.fromClipboard and not _is_copy(op):
            texts[f"{name}.fromClipboard"] = clipboards.get(op.fromClipboard, "")
        if op.reindent is not None:
            texts[f"{name}.reindent"] = (op.reindent.strip or "") + (op.reindent.add or "")
    return texts


def _clip(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _check_missing_file(path: str, patches: list[PatchOperation]) -> None:
    for i, op in enumerate(patches):
        if op.operation == "replace":
            raise PatchwrightError(
                ErrorCode.FILE_NOT_FOUND,
                f"{path} does not exist, so patches[{i}] (replace) has no text to find. "
                "No change was made.",
                "Check the path, or create the file with overwrite, append_eof or prepend_bof.",
                path=path,
                field=f"patches[{i}].operation",
            )


def run(ctx: ToolContext, req: PatchRequest) -> ToolResult:
    """Apply every patch of the request to one file, or none."""
    # checked before the file is read, so an oversized call costs nothing more ...
    check_token_limit("patch", carried_texts(req.patches, ctx.session.clipboards))
    for i, op in enumerate(req.patches):
        _check_shape(i, op)
    _check_overwrite(req.patches)
    # a file another writer changed between this call's read and its commit: the
    # patches are located again on what that writer left
    return racing(ctx.workspace, lambda: _run_once(ctx, req))


def _run_once(ctx: ToolContext, req: PatchRequest) -> ToolResult:
    loaded = load(ctx.workspace, req.path, missing_ok=True)
    if not loaded.exists:
        _check_missing_file(loaded.path, req.patches)
    original = loaded.current
    steps, staged = _plan(original, req.patches, ctx.session.clipboards)
    # ... and again once clipboards cut earlier in this call are known
    if staged:
        clipboards = {**ctx.session.clipboards, **staged}
        check_token_limit("patch", carried_texts(req.patches, clipboards))
    edits = [s.edit for s in steps if s.edit is not None]
    done = _retried(ctx, loaded, edits)
    if done is not None:
        return done
    reports: list[MatchReport] = []
    after = original
    if edits:
        try:
            result = apply_edits(
                original, edits, composition=Composition.SIMULTANEOUS, options=OPTIONS
            )
        except PatchwrightError as err:
            raise _located(err, steps, loaded.path) from None
        after, reports = result.file, result.reports
    lines = _lines(steps, reports, staged)
    plan = planned(
        loaded, after, label=f"patch {loaded.path}", changes=_records(lines),
        rungs=[r.rung for r in reports],
    )  # fmt: skip
    outcome = commit_writes(ctx, [plan], label=f"patch {loaded.path}")
    for name, text in staged.items():
        ctx.session.set_clipboard(name, text)
    return render_result(loaded, after, lines, staged, outcome)


def _retried(ctx: ToolContext, loaded: Loaded, edits: list[Edit]) -> ToolResult | None:
    """The answer to a retried call (``already_applied``): the history's newest batch on
    the file made these very patches, or the file shows every replace's result."""
    if not edits:
        return None  # copies only: nothing to apply twice

    def replay(before: TextFile | None) -> TextFile:
        after = apply_edits(
            before or TextFile(), edits, composition=Composition.SIMULTANEOUS, options=QUIET
        )
        return after.file

    evidence = edits_evidence(loaded.current.text, edits) if loaded.exists else None
    return already_applied(ctx, loaded, replay, evidence)


def _located(err: PatchwrightError, steps: list[_Step], path: str) -> PatchwrightError:
    """``err`` naming the patch it is about; the engine counts only the patches that
    carry an edit (copies do not), so its indexes are mapped back to ``patches[i]``."""
    with_edits = [s for s in steps if s.edit is not None]
    index = err.details.get("edit_index")
    if isinstance(index, int) and 0 <= index < len(with_edits):
        step = with_edits[index]
        key = "oldText" if step.op.operation == "replace" else "operation"
        err.with_context(field=f"patches[{step.index}].{key}")
    pair = err.details.get("edits")
    if err.code is ErrorCode.OVERLAP and isinstance(pair, list):
        patches = [
            with_edits[k].index for k in pair if isinstance(k, int) and 0 <= k < len(with_edits)
        ]
        if patches:
            err.details["patches"] = patches
            # the later patch is the one to move or merge into the earlier
            err.with_context(field=f"patches[{patches[-1]}]")
    return err.with_context(path=path)


def _lines(
    steps: list[_Step], reports: list[MatchReport], staged: dict[str, str]
) -> list[PatchLine]:
    by_step = iter(reports)
    out = []
    for step in steps:
        report = step.copy_report if step.edit is None else next(by_step)
        assert report is not None
        out.append(PatchLine(step.index, step.op, report, step.copied is not None))
    return out


def _records(lines: list[PatchLine]) -> list[ChangeRecord]:
    records = []
    for line in lines:
        if line.copy:
            continue
        r = line.report
        meta: dict[str, Any] = {"rung": r.rung}
        if line.op.toClipboard:
            meta["toClipboard"] = line.op.toClipboard
        if line.op.fromClipboard:
            meta["fromClipboard"] = line.op.fromClipboard
        records.append(
            ChangeRecord(
                description=f"patches[{line.index}]",
                op=line.op.operation,
                old_start=r.orig_start,
                old_end=r.orig_end,
                new_start=r.new_start,
                new_end=r.new_end,
                meta=meta,
            )
        )
    return records


_EXAMPLE = {
    "path": "src/app.py",
    "patches": [
        {"operation": "replace", "oldText": "return None", "newText": "return result"},
        {"operation": "append_eof", "newText": "__all__ = ['main']"},
    ],
}

SPEC = ToolSpec(
    name="patch",
    title="Patch a file",
    description=description("patch"),
    request_model=PatchRequest,
    handler=run,
    annotations=WRITES,
    contract="spec 000 patch tool (REQ-PATCH-001..009)",
    examples=(_EXAMPLE,),
)
