"""The answer of spec 000's ``patch``: confirmation, per-patch lines, clipboard notices.

REQ-PATCH-007: a confirmation for the model, the unified diff for display, and a notice
whenever a clipboard holds text that differs from the ``oldText`` the model sent (the
match needed whitespace recovery, so the clipboard got the file's own text).
"""

from __future__ import annotations

from typing import Any

from patchwright._records import record
from patchwright.model import MatchReport, TextFile, ToolResult
from patchwright.model.text import split_lines
from patchwright.tools.files import Loaded, line_stats
from patchwright.tools.patch.models import PatchOperation
from patchwright.tools.replace import RUNG_WORDS
from patchwright.writing import WriteOutcome


@record(frozen=True)
class PatchLine:
    """One applied patch and how it was located."""

    index: int
    op: PatchOperation
    report: MatchReport
    copy: bool = False

    @property
    def recovered(self) -> bool:
        """Whether oldText was found only through a recovery rung."""
        return self.op.operation == "replace" and self.report.rung not in ("exact", "newline")

    def describe(self) -> str:
        """``replace lines 10-12 -> 10-13 (exact match); cut to clipboard 'a'``."""
        r = self.report
        if self.copy:
            return (
                f"copy {_span(r.orig_start, r.orig_end)} to clipboard "
                f"{self.op.toClipboard!r} (file unchanged there)"
            )
        new = _span(r.new_start, r.new_end)
        if self.op.operation == "replace":
            how = RUNG_WORDS.get(r.rung, "exact match")
            text = f"replace {_span(r.orig_start, r.orig_end)} -> {new} ({how})"
        elif self.op.operation == "overwrite":
            text = f"overwrite: the file now has {r.new_end} line{'s' if r.new_end != 1 else ''}"
        else:
            text = f"{self.op.operation}: inserted {new}"
        if self.op.toClipboard:
            verb = "cut" if not (self.op.newText or self.op.fromClipboard) else "copied old text"
            text += f"; {verb} to clipboard {self.op.toClipboard!r}"
        if self.op.fromClipboard:
            text += f"; pasted clipboard {self.op.fromClipboard!r}"
        return text

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "index": self.index,
            "operation": "copy" if self.copy else self.op.operation,
            "toClipboard": self.op.toClipboard,
            "fromClipboard": self.op.fromClipboard,
            **self.report.to_dict(),
        }


def _span(a: int, b: int) -> str:
    """``line 4`` / ``lines 4-6`` / ``nothing`` (an empty range)."""
    if b < a:
        return "nothing"
    return f"line {a}" if a == b else f"lines {a}-{b}"


def clipboard_notices(lines: list[PatchLine], staged: dict[str, str]) -> list[str]:
    """A notice per clipboard filled from a recovered (not exact) match."""
    notes = []
    for line in lines:
        name = line.op.toClipboard
        if name and line.recovered:
            r = line.report
            notes.append(
                f"Clipboard {name!r} was updated with the text actually matched at "
                f"{_span(r.orig_start, r.orig_end)} ({RUNG_WORDS.get(r.rung, r.rung)}), "
                f"which differs from your oldText ({len(split_lines(staged[name])[0])} lines)."
            )
    return notes


def render_result(
    loaded: Loaded,
    after: TextFile,
    lines: list[PatchLine],
    staged: dict[str, str],
    outcome: WriteOutcome,
) -> ToolResult:
    """The successful ``patch`` result."""
    path = loaded.path
    notices = clipboard_notices(lines, staged)
    warnings = [w for line in lines for w in line.report.warnings]
    warnings += notices + outcome.warnings
    added, removed = line_stats(outcome.diff)
    if outcome.record is None:
        head = f"No change to {path}: the file already has this content."
        if all(line.copy for line in lines):
            head = f"No change to {path}."
    elif not loaded.exists:
        count = len(after.lines)
        head = f"Created {path} ({count} line{'s' if count != 1 else ''})."
    else:
        count = len([line for line in lines if not line.copy])
        plural = "es" if count != 1 else ""
        head = f"Applied {count} patch{plural} to {path} (+{added} -{removed} lines)."
    body = [head, *(f"  {line.index + 1}. {line.describe()}" for line in lines)]
    body += notices
    body += [f"Warning: {w}" for w in warnings if w not in notices]
    if outcome.record is not None:
        body.append(f"History: batch {outcome.record.batch_id}.")
    data: dict[str, Any] = {
        "path": path,
        "created": not loaded.exists and outcome.record is not None,
        "before_sha256": loaded.sha256,
        "after_sha256": _after_sha(outcome, loaded),
        "patches": [line.to_dict() for line in lines],
        "clipboards": {
            name: {"chars": len(t), "lines": len(split_lines(t)[0])} for name, t in staged.items()
        },
        **outcome.data(),
    }
    return ToolResult(True, "\n".join(body), diff=outcome.diff, warnings=warnings, data=data)


def _after_sha(outcome: WriteOutcome, loaded: Loaded) -> str | None:
    if outcome.record is None:
        return loaded.sha256
    return outcome.record.files[0].after_sha256
