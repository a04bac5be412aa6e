"""What the engine says about each edit it applied."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from patchwright.model.text import TextFile


@dataclass(frozen=True)
class MatchReport:
    """How one edit was located and what it changed.

    Line numbers are 1-based and inclusive. ``old_*`` refer to the text the edit was
    applied to, ``orig_*`` to the original text before any edit of the batch (they
    differ only under sequential composition), ``new_*`` to the final result. An empty
    range (pure insertion) has ``end == start - 1``.

    Attributes:
        index: 0-based position of the edit in its batch.
        label: the edit's label.
        rung: the matching-ladder rung that found it (``exact``, ``newline``,
            ``trailing_whitespace``, ``indentation``, ``trimmed_edges``, ``unicode``,
            ``elision``, ``fuzzy``) or the anchor kind (``line_range``, ``bof``, ``eof``,
            ``whole_file``).
        similarity: 1.0 for exact matches, the fuzzy score otherwise.
        count: occurrences replaced (more than one only with ``replace_all``).
        matched_text: the file's text the anchor matched (what a clipboard should hold).
        reindent: the indentation change applied to inserted text, e.g. ``"+4 spaces"``.
        warnings: notes for the model (fuzzy match, reindented text...).
    """

    index: int
    label: str
    rung: str
    similarity: float
    old_start: int
    old_end: int
    orig_start: int
    orig_end: int
    new_start: int
    new_end: int
    count: int = 1
    matched_text: str = ""
    reindent: str = ""
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "index": self.index,
            "label": self.label,
            "rung": self.rung,
            "similarity": round(self.similarity, 4),
            "old_lines": [self.orig_start, self.orig_end],
            "new_lines": [self.new_start, self.new_end],
            "count": self.count,
            "reindent": self.reindent,
            "warnings": list(self.warnings),
        }


@dataclass
class EngineResult:
    """The engine's answer: the new text and one report per edit."""

    file: TextFile
    reports: list[MatchReport] = field(default_factory=list)

    @property
    def warnings(self) -> list[str]:
        """Every report's warnings, in order."""
        return [w for r in self.reports for w in r.warnings]
