"""``workspace_write_patch`` (spec 001): a batch of line-based patches over several files.

Order of work, nothing written unless every step passes:

1. structural validation of every file and change (:mod:`.checks`);
2. each ``docPath`` resolved in the workspace, ignoring letter case (exact path first;
   several case variants are an ``ambiguous`` error); a docPath may appear once;
3. each file read and its SHA256 compared with ``originalSha256`` (``stale`` when the
   file changed since it was read); a missing file is accepted only with the SHA256 of
   empty content, and is then created;
4. ranges checked against the file and ``expectedOriginalLines`` compared exactly;
5. all changes of a file applied against its original lines at once, every file
   committed as one atomic batch (re-checked against the SHA256 inside the file locks),
   recorded in history with the keys and descriptions; IDs come from that record.

The result is an InvokeResult-style envelope in ``ToolResult.data``: ``successful``,
``result`` (IDs, keys and descriptions echoed back, new SHA256 per file) and
``errors``. Start, success and error events go to the ``logging`` logger
``patchwright.tools.workspace_write_patch``.
"""

from __future__ import annotations

from collections.abc import Callable

from patchwright.engine import apply_edits
from patchwright.model import (
    Composition,
    Edit,
    ErrorCode,
    LineRange,
    MatchReport,
    PatchwrightError,
    TextFile,
    ToolResult,
)
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import load, resolve, resolve_doc_path
from patchwright.tools.reads import rebase_verdict
from patchwright.tools.spec import WRITES, ToolSpec
from patchwright.tools.write_patch.checks import (
    FilePlan,
    Placed,
    check_against_file,
    check_file_shape,
)
from patchwright.tools.write_patch.models import (
    ChangeObject,
    WritePatchRequest,
)
from patchwright.tools.write_patch.report import HOOKS, combined, render
from patchwright.tools.writing import commit_writes, planned
from patchwright.workspace import ChangeRecord, sha256_hex
from patchwright.writing import PlannedWrite, racing

EMPTY_SHA256 = sha256_hex(b"")


def _resolve_all(
    ctx: ToolContext, req: WritePatchRequest
) -> tuple[list[str], list[PatchwrightError]]:
    paths: list[str] = []
    problems: list[PatchwrightError] = []
    seen: dict[str, int] = {}
    for i, fp in enumerate(req.files):
        field = f"files[{i}].docPath"
        try:
            path = resolve_doc_path(ctx.workspace, fp.docPath, field=field)
        except PatchwrightError as err:
            if (
                err.code is not ErrorCode.FILE_NOT_FOUND
                or fp.originalSha256.lower() != EMPTY_SHA256
            ):
                problems.append(err)
                paths.append("")
                continue
            path = resolve(ctx.workspace, fp.docPath, field=field)
        if path in seen:
            problems.append(
                PatchwrightError(
                    ErrorCode.INVALID_REQUEST,
                    f"{field}: {fp.docPath!r} names the same file as files[{seen[path]}] ({path}); "
                    "each docPath may appear at most once in a batch.",
                    "Put all changes of a file in one file patch.",
                    field=field,
                    path=path,
                )
            )
        seen.setdefault(path, i)
        paths.append(path)
    return paths, problems


def _read_all(ctx: ToolContext, req: WritePatchRequest, paths: list[str],
              placed: list[list[Placed]]) -> list[FilePlan]:  # fmt: skip
    plans: list[FilePlan] = []
    problems: list[PatchwrightError] = []
    for i, (fp, path) in enumerate(zip(req.files, paths)):
        new_ok = fp.originalSha256.lower() == EMPTY_SHA256
        loaded = load(ctx.workspace, path, missing_ok=new_ok, field=f"files[{i}].docPath")
        actual = loaded.sha256 or EMPTY_SHA256
        if actual != fp.originalSha256.strip().lower():
            would = rebase_verdict(ctx, loaded, fp.originalSha256.strip().lower(),
                                   _applying([_edit(p) for p in placed[i]]))  # fmt: skip
            problems.append(
                PatchwrightError(
                    ErrorCode.STALE,
                    f"files[{i}]: {path} changed since it was read (originalSha256 "
                    f"{fp.originalSha256}, the file now has {actual}). {would}",
                    "Read the file again (that returns its current sha256), redo the changes on "
                    "its current lines, and send the batch again.",
                    field=f"files[{i}].originalSha256",
                    path=path,
                    details={"expected_sha256": fp.originalSha256, "actual_sha256": actual},
                )
            )
            continue
        found = check_against_file(f"files[{i}]", placed[i], loaded.current)
        problems.extend(p.with_context(path=path) for p in found)
        plans.append(FilePlan(i, fp, placed[i], loaded))
    if problems:
        raise combined(problems)
    return plans


def _applying(edits: list[Edit]) -> Callable[[TextFile], TextFile]:
    """The changes of one file patch as a function of the text they are made on."""
    return lambda base: apply_edits(base, edits, composition=Composition.SIMULTANEOUS).file


def _edit(p: Placed) -> Edit:
    c = p.change
    new = "".join(line + "\n" for line in c.newLines or ())
    label = f"changes[{p.index}]"
    if c.operation == "insert":
        assert c.afterLine is not None
        return Edit(LineRange(c.afterLine + 1, c.afterLine), new, label=label)
    assert c.startLine is not None and c.endLine is not None
    expected = tuple(c.expectedOriginalLines or ())
    return Edit(LineRange(c.startLine, c.endLine, expected), new, label=label)


def _record(c: ChangeObject, r: MatchReport) -> ChangeRecord:
    return ChangeRecord(
        key=c.changeKey,
        description=c.description or "",
        op=c.operation,
        old_start=r.orig_start,
        old_end=r.orig_end,
        new_start=r.new_start,
        new_end=r.new_end,
    )


def _unchanged(plan: FilePlan) -> PatchwrightError:
    field = f"files[{plan.index}].changes"
    return PatchwrightError(
        ErrorCode.INVALID_REQUEST,
        f"{field}: the changes leave {plan.loaded.path} exactly as it is.",
        "Send only changes that change something (newLines different from "
        "expectedOriginalLines), or leave the file out of the batch.",
        field=field,
        path=plan.loaded.path,
    )


def run(ctx: ToolContext, req: WritePatchRequest) -> ToolResult:
    """Validate, apply and commit the batch, all files or none; planned again on the
    files as they are when another writer changed one between the read and the commit."""
    return racing(ctx.workspace, lambda: _run_once(ctx, req))


def _run_once(ctx: ToolContext, req: WritePatchRequest) -> ToolResult:
    if not req.files:
        empty = PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            "files: must not be empty.",
            "Send at least one file patch.",
            field="files",
        )
        raise combined([empty])
    placed: list[list[Placed]] = []
    problems: list[PatchwrightError] = []
    for i, fp in enumerate(req.files):
        ok, found = check_file_shape(i, fp)
        placed.append(ok)
        # the file is known before it is resolved: name it as the request does (the error
        # event of spec 001 section 9 logs the docPath of a failure)
        problems.extend(p.with_context(path=fp.docPath) for p in found)
    paths, unresolved = _resolve_all(ctx, req)
    problems.extend(unresolved)
    if problems:
        raise combined(problems)
    plans = _read_all(ctx, req, paths, placed)
    writes: list[PlannedWrite] = []
    for plan in plans:
        edits = [_edit(p) for p in plan.placed]
        try:
            result = apply_edits(plan.loaded.current, edits, composition=Composition.SIMULTANEOUS)
        except PatchwrightError as err:
            raise combined(
                [err.with_context(path=plan.loaded.path, field=f"files[{plan.index}]")]
            ) from None
        records = [_record(p.change, r) for p, r in zip(plan.placed, result.reports)]
        fp = plan.patch
        write = planned(
            plan.loaded, result.file, key=fp.fileKey, label=fp.fileLabel or "", changes=records,
            rungs=[r.rung for r in result.reports],
        )  # fmt: skip
        if not write.changed:
            problems.append(_unchanged(plan))
        writes.append(write)
    if problems:
        raise combined(problems)
    outcome = commit_writes(ctx, writes, label=req.batchLabel or "", key=req.batchKey)
    return render(req, plans, writes, outcome)


_EXAMPLE = {
    "batchLabel": "Rename greet",
    "files": [
        {
            "docPath": "src/app.py",
            "originalSha256": "0" * 64,
            "changes": [
                {
                    "operation": "replace",
                    "startLine": 1,
                    "endLine": 1,
                    "expectedOriginalLines": ["def greet(name):"],
                    "newLines": ["def welcome(name):"],
                }
            ],
        }
    ],
}

SPEC = ToolSpec(
    name="workspace_write_patch",
    title="Write a line-based patch batch",
    description=description("workspace_write_patch"),
    request_model=WritePatchRequest,
    handler=run,
    annotations=WRITES,
    contract="spec 001 workspace_write_patch (TUL-002)",
    examples=(_EXAMPLE,),
    hooks=HOOKS,
)
