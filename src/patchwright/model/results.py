"""The one result shape every tool returns; adapters only format it."""

from __future__ import annotations

from typing import Any

from patchwright._records import field, record
from patchwright.model.errors import PatchwrightError


@record
class ToolResult:
    """What a tool call produced.

    Attributes:
        ok: whether the call succeeded (a refusal is ``False``).
        text: the answer written for the model.
        diff: a unified diff of what changed, for a person ("" when nothing changed).
        warnings: notes for the model (fuzzy matches, re-indentation, syntax...).
        data: structured extras (IDs, hashes, line ranges, reports).
        error: on failure, the error (code, message, hint).
    """

    ok: bool
    text: str
    diff: str = ""
    warnings: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    error: PatchwrightError | None = None

    @classmethod
    def failure(cls, error: PatchwrightError, **data: Any) -> ToolResult:
        """A refused call: the text is the error as a model should read it."""
        return cls(False, error.render(), error=error, data=dict(data))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (what the CLI prints and what hosts may forward)."""
        out: dict[str, Any] = {
            "ok": self.ok,
            "text": self.text,
            "diff": self.diff,
            "warnings": list(self.warnings),
            "data": self.data,
        }
        if "candidates" in self.data:  # a refusal's candidates, where a host looks first
            out["candidates"] = self.data["candidates"]
        if self.error is not None:
            out["error"] = self.error.to_dict()
        return out
