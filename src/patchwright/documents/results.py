"""What an applied directive returns."""

from __future__ import annotations

from typing import Any

from patchwright._records import record
from patchwright.documents.directives import ActionType, TextRange
from patchwright.documents.spans import Span
from patchwright.documents.state import Annotation


@record(frozen=True)
class EditResult:
    """The outcome of one applied directive.

    Attributes:
        text / version: the document after the directive.
        previous_version: the version the directive was applied to.
        spans: the changed regions, old and new offsets, in document order (empty for
            ``annotate``).
        summary: one line for the transcript, e.g. ``applied: +120 chars (patch,
            version=sha256:...)``.
        selection_hint: the selection the editor should show: the last changed span (a
            caret at its start for a deletion), or the annotated range.
        warnings: notes from the matcher (a hunk found by a tolerant rung, header line
            numbers that were off...).
        annotation: the note an ``annotate`` directive stored.
        rationale: the directive's rationale, when it gave one.
        rungs: the matching-ladder rung that placed each hunk of a ``patch``.
    """

    action: ActionType
    text: str
    version: str
    previous_version: str
    spans: tuple[Span, ...]
    summary: str
    selection_hint: TextRange
    warnings: tuple[str, ...] = ()
    annotation: Annotation | None = None
    rationale: str | None = None
    rungs: tuple[str, ...] = ()

    @property
    def chars_delta(self) -> int:
        """Characters gained by the document (negative when it shrank)."""
        return sum(span.delta for span in self.spans)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (the text itself is included: hosts may drop it)."""
        return {
            "status": "applied",
            "action": self.action.value,
            "summary": self.summary,
            "version": self.version,
            "previous_version": self.previous_version,
            "chars_delta": self.chars_delta,
            "spans": [span.to_dict() for span in self.spans],
            "selection_hint": self.selection_hint.to_list(),
            "warnings": list(self.warnings),
            "annotation": None if self.annotation is None else self.annotation.to_dict(),
            "rationale": self.rationale,
            "text": self.text,
        }


def applied_summary(action: ActionType, delta: int, version: str, detail: str = "") -> str:
    """``applied: +120 chars (patch, version=sha256:...)``; ``detail`` replaces the count."""
    what = detail or f"{delta:+d} chars"
    return f"applied: {what} ({action.value}, version={version})"
