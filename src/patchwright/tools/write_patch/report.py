"""The answer of ``workspace_write_patch``: the InvokeResult envelope, text and log events.

Envelope (``ToolResult.data``)::

    {"successful": true, "errors": [], "warnings": [...],
     "result": {"batchId", "batchKey", "batchLabel", "createdAt",
                "files": [{"filePatchId", "fileKey", "docPath", "path", "fileLabel",
                           "originalSha256", "newSha256",
                           "changes": [{"changeId", "changeKey", "operation", "description",
                                        "afterLine" | "startLine", "endLine",
                                        "newStartLine", "newEndLine"}]}]}}

On failure ``successful`` is false, ``result`` is null and ``errors`` lists every
problem (code, message, hint, field, path).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.tools.spec import ToolHooks
from patchwright.tools.write_patch.checks import FilePlan
from patchwright.tools.write_patch.models import WritePatchRequest
from patchwright.writing import PlannedWrite, WriteOutcome

log = logging.getLogger("patchwright.tools.workspace_write_patch")


def combined(problems: Sequence[PatchwrightError]) -> PatchwrightError:
    """One error for a refused batch, listing every problem."""
    codes = {p.code for p in problems}
    code = problems[0].code if len(codes) == 1 else ErrorCode.INVALID_REQUEST
    first = problems[0]
    if len(problems) == 1:
        message = f"{first.message} Nothing was written."
    else:
        listed = "\n".join(f"- {p.message}" for p in problems)
        message = f"The patch batch has {len(problems)} problems; nothing was written:\n{listed}"
    return PatchwrightError(
        code,
        message,
        first.hint,
        path=first.path,
        field=first.field,
        details={"errors": [p.to_dict() for p in problems]},
    )


def _change_view(change: Any, commit_change: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "changeId": commit_change.change_id,
        "changeKey": change.changeKey,
        "operation": change.operation,
        "description": change.description,
    }
    if change.operation == "insert":
        view["afterLine"] = change.afterLine
    else:
        view["startLine"], view["endLine"] = change.startLine, change.endLine
    view["newStartLine"], view["newEndLine"] = commit_change.new_start, commit_change.new_end
    return view


def render(
    req: WritePatchRequest,
    plans: Sequence[FilePlan],
    writes: Sequence[PlannedWrite],
    outcome: WriteOutcome,
) -> ToolResult:
    """The successful result."""
    record = outcome.record
    assert record is not None  # every file changes (checked before committing)
    files = []
    for plan, committed in zip(plans, record.files):
        fp = plan.patch
        files.append(
            {
                "filePatchId": committed.file_id,
                "fileKey": fp.fileKey,
                "docPath": fp.docPath,
                "path": committed.path,
                "fileLabel": fp.fileLabel,
                "originalSha256": fp.originalSha256,
                "newSha256": committed.after_sha256,
                "changes": [_change_view(c, cc) for c, cc in zip(fp.changes, committed.changes)],
            }
        )
    result = {
        "batchId": record.batch_id,
        "batchKey": req.batchKey,
        "batchLabel": req.batchLabel,
        "createdAt": record.created_at,
        "files": files,
    }
    data = {
        "successful": True,
        "result": result,
        "errors": [],
        "warnings": list(outcome.warnings),
        "syntax": outcome.syntax,
    }
    return ToolResult(True, _text(result), diff=outcome.diff, warnings=outcome.warnings, data=data)


def _span(start: int, end: int) -> str:
    if end < start:
        return ""
    return f"line {start}" if start == end else f"lines {start}-{end}"


def _text(result: Mapping[str, Any]) -> str:
    files = result["files"]
    changes = sum(len(f["changes"]) for f in files)
    key = f" (batchKey {result['batchKey']})" if result["batchKey"] else ""
    lines = [
        f"Batch {result['batchId']}{key} applied and stored: {len(files)} file(s), "
        f"{changes} change(s)."
    ]
    for i, f in enumerate(files):
        fkey = f", fileKey {f['fileKey']}" if f["fileKey"] else ""
        lines.append(
            f"files[{i}] {f['path']}: filePatchId {f['filePatchId']}{fkey}; new sha256 "
            f"{f['newSha256']}"
        )
        for j, c in enumerate(f["changes"]):
            ckey = f" [{c['changeKey']}]" if c["changeKey"] else ""
            where = (
                f"after line {c['afterLine']}"
                if c["operation"] == "insert"
                else _span(c["startLine"], c["endLine"])
            )
            now = _span(c["newStartLine"], c["newEndLine"])
            now = f"now {now}" if now else "removed"
            why = f": {c['description']}" if c["description"] else ""
            lines.append(
                f"  changes[{j}] {c['changeId']}{ckey} {c['operation']} {where} -> {now}{why}"
            )
    lines.append("Use each file's new sha256 as originalSha256 for further patches.")
    return "\n".join(lines)


def error_data(err: PatchwrightError) -> dict[str, Any]:
    """The failed envelope."""
    errors = [_as_error(err, e) for e in err.details.get("errors") or [err.to_dict()]]
    return {"successful": False, "result": None, "errors": errors, "warnings": []}


def _as_error(err: PatchwrightError, entry: Mapping[str, Any]) -> dict[str, Any]:
    if "code" in entry:
        return dict(entry)
    # a request-validation problem: {field, problem, fix}
    field = entry.get("field", "")
    return {
        "code": err.code.value,
        "message": f"{field}: {entry.get('problem', '')}" if field else entry.get("problem", ""),
        "hint": entry.get("fix", ""),
        "field": field,
    }


def _started(args: Mapping[str, Any]) -> None:
    files = args.get("files")
    files = files if isinstance(files, list) else []
    changes = sum(len(f.get("changes") or []) for f in files if isinstance(f, dict))
    log.info(
        "workspace_write_patch: batch received (%d file(s), %d change(s), batchKey=%s)",
        len(files), changes, args.get("batchKey"),
        extra={"event": "patch_batch_received", "files": len(files), "changes": changes,
               "batch_key": args.get("batchKey")},
    )  # fmt: skip


def _succeeded(result: ToolResult) -> None:
    stored = result.data.get("result") or {}
    files = stored.get("files", [])
    changes = sum(len(f["changes"]) for f in files)
    log.info(
        "workspace_write_patch: batch %s stored (%d file(s), %d change(s))",
        stored.get("batchId"), len(files), changes,
        extra={"event": "patch_batch_stored", "batch_id": stored.get("batchId"),
               "files": len(files), "changes": changes},
    )  # fmt: skip


def _failed(err: PatchwrightError, unexpected: bool) -> None:
    """The error event (spec 001 section 9): reason, docPath (if applicable), failures.

    ``doc_path`` is the file of the first failure that names one (a problem found before
    the file was resolved names it by the docPath sent); ``doc_paths`` lists every such
    file once. Refusals of a bad request are expected and logged at WARNING; an
    unexpected exception is logged at ERROR (the dispatcher also logs its traceback).
    """
    errors = error_data(err)["errors"]
    failures = [e["message"] for e in errors]
    doc_paths = list(dict.fromkeys(str(e["path"]) for e in errors if e.get("path")))
    doc_path = err.path or (doc_paths[0] if doc_paths else None)
    level = logging.ERROR if unexpected else logging.WARNING
    log.log(
        level,
        "workspace_write_patch: batch refused (%s) docPath=%s: %s",
        err.code.value, doc_path, "; ".join(failures),
        extra={"event": "patch_batch_failed", "reason": err.code.value, "doc_path": doc_path,
               "doc_paths": doc_paths, "failures": failures},
    )  # fmt: skip


HOOKS = ToolHooks(started=_started, succeeded=_succeeded, failed=_failed, error_data=error_data)
