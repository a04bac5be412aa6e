"""The answers of ``apply_patch``: per file what happened, where each hunk landed and
which recovery found it; a dry run's preview diff in the text the model reads; a
refusal in spec 002's form (the failing hunk, what was expected and found).
"""

from __future__ import annotations

from typing import Any

from patchwright.api import ApplyReport, FileOutcome
from patchwright.model import PatchwrightError, ToolResult
from patchwright.tools.replace import describe_match

_VERBS = {"update": "update", "create": "add", "delete": "delete", "move": "move"}


def file_line(outcome: FileOutcome) -> str:
    """``update src/app.py: hunk 1 at lines 3-5; hunk 2 at line 9, matched via ...``."""
    target = f" -> {outcome.move_to}" if outcome.move_to else ""
    head = f"  {_VERBS.get(outcome.action, outcome.action)} {outcome.path}{target}"
    if outcome.action in ("create", "delete"):
        return head
    hunks = [f"hunk {r.index + 1} at {describe_match(r)}" for r in outcome.reports]
    if outcome.new_mode:
        hunks.append(f"mode {outcome.old_mode or 'new'} -> {outcome.new_mode}")
    return head + (": " + "; ".join(hunks) if hunks else "")


def success(report: ApplyReport, undo: str | None) -> ToolResult:
    """The result of an applied (or dry-run) patch; ``undo`` names the exposed undo tool."""
    count = len(report.files)
    files = f"{count} file{'s' if count != 1 else ''}"
    if report.already_applied is not None or report.already_in_files:
        return ToolResult(True, report.summary(), data=report.to_dict())
    if report.dry_run:
        lines = [f"Dry run - no changes made. The patch ({report.format}) would apply to {files}:"]
    elif not report.applied:
        lines = [f"Patch ({report.format}) checked on {files}: the files already hold this "
                 "content; nothing written."]  # fmt: skip
    else:
        lines = [f"Applied patch ({report.format}) to {files}:"]
    lines += [file_line(f) for f in report.files]
    lines += [f"  Warning: {w}" for w in report.warnings]
    if report.batch_id and report.applied:
        lines.append(
            f"History: batch {report.batch_id}" + (f" ({undo} reverts it)" if undo else "")
        )
    if report.dry_run and report.diff:
        lines += ["Preview (the diff that would be written):", report.diff.rstrip("\n")]
    data: dict[str, Any] = report.to_dict()
    return ToolResult(True, "\n".join(lines), diff=report.diff, warnings=report.warnings,
                      data=data)  # fmt: skip


def refusal(report: ApplyReport, err: PatchwrightError) -> PatchwrightError:
    """The refusal, its message in spec 002's form (the hint stays the error's own)."""
    text = report.summary()
    if err.hint:
        text = text.replace("\n" + ("  Hint: " + err.hint).replace("\n", "\n    "), "")
    details = {**err.details, "report": report.to_dict()}
    return PatchwrightError(
        err.code, text, err.hint, path=err.path, field=err.field or "patch", line=err.line,
        details=details,
    )  # fmt: skip
