"""What a snippet merge says it did: where each literal run went, which rung placed it,
what each marker and each edge kept, and which lines were added and deleted.

The report is plain data (JSON through :meth:`SnippetReport.to_dict`) for the CLI's
``--json`` and for tool results; :meth:`SnippetReport.summary` is the text a model reads.
"""

from __future__ import annotations

from patchwright._records import record
from patchwright.model.reports import Rung
from patchwright.model.text import TextFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: How the lines between two placed runs (or beyond the outermost ones) were treated.
KEPT = "kept"  # a marker stood for them
EDGE_KEPT = "edge_kept"  # no marker at the snippet's top or bottom: the file's lines stay
DELETED = "deleted"  # spelled out: the snippet replaced or dropped them
GAP_HOWS = (KEPT, EDGE_KEPT, DELETED)


@record(frozen=True)
class RunReport:
    """Where one literal run of the snippet was placed.

    Line numbers are 1-based and inclusive; an empty file range has ``end == start - 1``.

    Attributes:
        snippet_start / snippet_end: the run's lines in the snippet.
        file_start / file_end: the original lines the run covers.
        rung: the ladder rung that placed its context (``exact`` when written as in the
            file; a looser rung means whitespace or punctuation slips were tolerated).
        kept: context lines taken from the file; added / deleted: lines the run adds and
            the original lines it drops.
    """

    snippet_start: int
    snippet_end: int
    file_start: int
    file_end: int
    rung: Rung
    kept: int
    added: int
    deleted: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "snippet_lines": [self.snippet_start, self.snippet_end],
            "file_lines": [self.file_start, self.file_end],
            "rung": str(self.rung),
            "loose": self.rung.recovered,
            "kept": self.kept,
            "added": self.added,
            "deleted": self.deleted,
        }


@record(frozen=True)
class GapReport:
    """Original lines outside every run, and what became of them.

    Attributes:
        file_start / file_end: 1-based inclusive original lines (empty: ``end < start``).
        how: :data:`KEPT` (a marker, at ``snippet_line``), :data:`EDGE_KEPT` (above the
            first run or below the last one, no marker there).
        snippet_line: the marker's 1-based snippet line, when a marker kept them.
    """

    file_start: int
    file_end: int
    how: str
    snippet_line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        data: dict[str, Any] = {"file_lines": [self.file_start, self.file_end], "how": self.how}
        if self.snippet_line is not None:
            data["snippet_line"] = self.snippet_line
        return data


@record(frozen=True)
class SnippetReport:
    """The recovery of one snippet.

    Attributes:
        runs: one per literal run, in snippet order.
        gaps: the original lines outside the runs, in file order.
        top / bottom: ``"marker"`` (the snippet had one there), ``"kept"`` (it had none
            and the file's lines above / below its first / last run were kept), or
            ``"file"`` (the run reaches the file's first / last line).
        warnings: notes for the model (loose matches, kept edges).
    """

    runs: tuple[RunReport, ...]
    gaps: tuple[GapReport, ...]
    top: str
    bottom: str
    warnings: tuple[str, ...] = ()

    @property
    def added(self) -> int:
        """Lines the merge added."""
        return sum(r.added for r in self.runs)

    @property
    def deleted(self) -> int:
        """Original lines the merge deleted: the runs' own, and an edge's lines the
        snippet shows going (:data:`DELETED` gaps)."""
        edges = sum(g.file_end - g.file_start + 1 for g in self.gaps if g.how == DELETED)
        return sum(r.deleted for r in self.runs) + max(edges, 0)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "runs": [r.to_dict() for r in self.runs],
            "gaps": [g.to_dict() for g in self.gaps],
            "edges": {"top": self.top, "bottom": self.bottom},
            "added": self.added,
            "deleted": self.deleted,
            "warnings": list(self.warnings),
        }

    def summary(self) -> str:
        """One paragraph for a model: what was placed where, what was kept."""
        parts = [f"Merged {len(self.runs)} run(s): +{self.added} -{self.deleted} line(s)."]
        parts.extend(self.warnings)
        return "\n".join(parts)


@record(frozen=True)
class SnippetMerge:
    """The merged text and its report.

    Attributes:
        file: the merged file (the original's encoding, BOM, line endings and final
            newline kept).
        report: how each run was placed.
    """

    file: TextFile
    report: SnippetReport
