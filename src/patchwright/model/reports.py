"""What the engine says about each edit it applied."""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from patchwright._records import field, record
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.text import TextFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Rung(str, Enum):
    """How an edit was located: a rung of the matching ladder (in ladder order) or, for
    anchors that need no search, the anchor kind. Values are the names reports and
    JSON carry; :attr:`words` is what a model reads about it."""

    EXACT = "exact"
    NEWLINE = "newline"
    TRAILING_WHITESPACE = "trailing_whitespace"
    INDENTATION = "indentation"
    TRIMMED_EDGES = "trimmed_edges"
    UNICODE = "unicode"
    ELISION = "elision"
    OMITTED = "omitted_line"
    FUZZY = "fuzzy"
    LINE_RANGE = "line_range"
    BOF = "bof"
    EOF = "eof"
    WHOLE_FILE = "whole_file"
    BLANKS = "blanks"

    # Render as the bare value everywhere (f-strings, str()), as the names always were.
    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    @property
    def words(self) -> str:
        """The rung in a sentence for a model: ``matched via {words}``."""
        return _RUNG_WORDS[self]

    @property
    def recovered(self) -> bool:
        """Whether the text was found only by tolerating a difference (not as written,
        line endings aside, and not by an anchor that needs no search)."""
        return self in _RECOVERED


_RUNG_WORDS: dict[Rung, str] = {
    Rung.EXACT: "exact match",
    Rung.NEWLINE: "exact match (line endings aside)",
    Rung.TRAILING_WHITESPACE: "trailing-whitespace recovery",
    Rung.INDENTATION: "indentation (dedent) recovery",
    Rung.TRIMMED_EDGES: "trimmed first/last line recovery",
    Rung.UNICODE: "punctuation normalisation",
    Rung.ELISION: "elision recovery",
    Rung.OMITTED: "left-out line recovery",
    Rung.FUZZY: "fuzzy matching",
    Rung.LINE_RANGE: "line range",
    Rung.BOF: "beginning of file",
    Rung.EOF: "end of file",
    Rung.WHOLE_FILE: "whole file",
    Rung.BLANKS: "blanks recovery (escapes, or blanks inside or at the edges of lines)",
}


def recovered_syntax_error(rungs: Iterable[str], rejection: str) -> PatchwrightError | None:
    """The refusal of a result that does not parse when its edit was only found by
    tolerating a difference (any rung but an exact one): the place is then a reading of
    damaged text, and a syntax error the file did not have says that reading is wrong.
    Exact matches keep the syntax guard's own policy (``None`` is returned).

    Args:
        rungs: the rungs that placed the file's edits.
        rejection: the syntax guard's refusal text for the result (``""`` when the
            result introduced no syntax error).
    """
    loose = [Rung(r) for r in dict.fromkeys(rungs) if r in _BY_VALUE and Rung(r).recovered]
    if not rejection or not loose:
        return None
    how = ", ".join(f"{r.words} ({r.value})" for r in loose)
    return PatchwrightError(
        ErrorCode.SYNTAX_ERROR,
        f"{rejection}\nThe edit was not found as written but placed by {how}, and a "
        "loose reading is not written with a syntax error the file did not have (the "
        "error may lie in how the edit was placed or in its new text as written). No "
        "change was made.",
        "Copy the lines to change exactly from the file (re-read it first), with their "
        "indentation, and indent the new lines as they must stand.",
        details={"rungs": [r.value for r in loose]},
    )


_BY_VALUE = frozenset(r.value for r in Rung)

#: The matching ladder's rungs, in the order they are tried.
LADDER: tuple[Rung, ...] = (
    Rung.EXACT,
    Rung.NEWLINE,
    Rung.TRAILING_WHITESPACE,
    Rung.INDENTATION,
    Rung.TRIMMED_EDGES,
    Rung.UNICODE,
    Rung.ELISION,
    Rung.OMITTED,
    Rung.FUZZY,
)
# Rungs that only tolerate a difference: all but the exact ones (bytes, or bytes but endings).
_RECOVERED = frozenset((*LADDER[2:], Rung.BLANKS))


@record(frozen=True)
class MatchReport:
    """How one edit was located and what it changed.

    Line numbers are 1-based and inclusive. ``old_*`` refer to the text the edit was
    applied to, ``orig_*`` to the original text before any edit of the batch (they
    differ only under sequential composition), ``new_*`` to the final result. An empty
    range (pure insertion) has ``end == start - 1``.

    Attributes:
        index: 0-based position of the edit in its batch.
        label: the edit's label.
        rung: the :class:`Rung` that found it (a ladder rung or the anchor kind).
        similarity: 1.0 for exact matches, the fuzzy score otherwise.
        count: occurrences replaced (more than one only with ``replace_all``).
        matched_text: the file's text the anchor matched (what a clipboard should hold).
        reindent: the indentation change applied to inserted text, e.g. ``"+4 spaces"``.
        warnings: notes for the model (fuzzy match, reindented text...).
        cell: the notebook cell (0-based index in the result) whose source the line
            numbers count in; ``None`` for an edit of the whole file's text.
        assumed: for an edit matched loosely, what its placement took for granted, in a
            few words each (the indentation frame chosen, a line it left out kept, blanks
            ignored); empty for an exact match. :attr:`assumption` says it in one line.
    """

    index: int
    label: str
    rung: Rung
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
    assumed: tuple[str, ...] = ()
    cell: int | None = None

    @property
    def assumption(self) -> str:
        """What a loose match assumed, in one line (``""`` when nothing was)."""
        return "; ".join(self.assumed)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (``cell`` only for an edit inside a notebook cell)."""
        out = {
            "index": self.index,
            "label": self.label,
            "rung": str(self.rung),
            "similarity": round(self.similarity, 4),
            "old_lines": [self.orig_start, self.orig_end],
            "new_lines": [self.new_start, self.new_end],
            "count": self.count,
            "reindent": self.reindent,
            "warnings": list(self.warnings),
            "assumed": list(self.assumed),
        }
        if self.cell is not None:
            out["cell"] = self.cell
        return out


@record
class EngineResult:
    """The engine's answer: the new text and one report per edit."""

    file: TextFile
    reports: list[MatchReport] = field(default_factory=list)

    @property
    def warnings(self) -> list[str]:
        """Every report's warnings, in order."""
        return [w for r in self.reports for w in r.warnings]
