"""The refusal of a snippet the merge cannot decide: what is undecided, where (snippet
and file lines), the candidate result as a short diff, and what to add to the snippet."""

from __future__ import annotations

from patchwright._records import record
from patchwright.engine.diff import unified_diff
from patchwright.engine.replacing.snippet.markers import Piece, Snippet
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.text import TextFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from patchwright.engine.replacing.snippet.place import Placement

# Lines of the candidate diff a refusal shows at most.
_DIFF_LINES = 40

#: What a doubt can be about.
DOUBT_KINDS = (
    "nowhere",
    "several",
    "split",
    "deletion",
    "order",
    "whitespace",
    "edge",
    "beside",
)


@record(frozen=True)
class Doubt:
    """One thing the merge could not decide.

    Attributes:
        kind: one of :data:`DOUBT_KINDS`.
        run: the literal run concerned.
        lo / hi: 0-based original lines ``[lo, hi)`` concerned (the window searched, or
            the span whose lines would be deleted).
        place: the candidate placement taken, when there is one.
        count: for a deletion, the largest stretch of lines it would drop.
        readings: for a split, the other readings of the run.
    """

    kind: str
    run: Piece
    lo: int
    hi: int
    place: Placement | None = None
    count: int = 0
    readings: tuple[Placement, ...] = ()

    def sentence(self) -> str:
        """The doubt in words, naming snippet and file lines."""
        lines = lines_text("snippet", self.run.start + 1, self.run.end)
        one = self.run.end - self.run.start <= 1
        # a one-line run reads "snippet line 3 fits", a longer one "snippet lines 2-4 fit"
        s, they, them = ("s", "it", "it") if one else ("", "they", "them")
        first = _short(self.run.lines[0])
        window = _range(self.lo, self.hi)
        if self.kind == "nowhere":
            return (
                f"{lines} (starting {first}) match{'es' if one else ''} no original lines at "
                f"either end, so {they} could go anywhere in {window}."
            )
        if self.kind == "several":
            assert self.place is not None
            return (
                f"{lines} (starting {first}) fit{s} {self.place.others + 1} places in "
                f"{window}; the candidate below takes {_range(self.place.start, self.place.end)}."
            )
        if self.kind == "split":
            assert self.place is not None
            return (
                f"{lines} (starting {first}) stand whole at "
                f"{_range(self.place.start, self.place.end)}, but their first lines also "
                "stand further up and their last lines further down, with original "
                f"lines between them, in {window}: they may be written around a deletion "
                "or be the unchanged copy, and the marker next to them does not say which."
            )
        if self.kind == "beside":
            return (
                f"{lines} end{s} (or start{s}) with a new line right next to a marker, and the "
                f"marker keeps original line {self.lo + 1} there: the new line may be that "
                "line changed or a line added beside it."
            )
        if self.kind == "edge":
            assert self.place is not None
            return (
                f"{lines} change{s} nothing where {they} stand{s} "
                f"({_range(self.place.start, self.place.end)}) and the snippet has no "
                f"marker above or below {them}: the lines above {them}, the lines below "
                f"{them}, or both may be meant to go."
            )
        if self.kind == "whitespace":
            held = (
                "differs from an original line"
                if one
                else "hold lines that differ from original lines"
            )
            return (
                f"{lines} {held} in {_range(self.lo, self.hi)} only in "
                f"{'its' if one else 'their'} indentation or trailing blanks, and the "
                "snippet does not tell whether that is a change or a slip."
            )
        if self.kind == "order":
            where = _range(self.hi, self.place.end) if self.place else window
            return (
                f"{lines} (starting {first}) stand{s} at {where}, above the run before "
                f"{them}, which ends at original line {self.lo}."
            )
        return (
            f"{lines} would delete {self.count} original lines in {window} that {they} "
            f"{'does' if one else 'do'} not show, with no marker between "
            f"{'its' if one else 'their'} shown lines: that reads as a deletion or as a "
            "forgotten marker."
        )

    def advice(self) -> str:
        """What to add to the snippet to settle it."""
        if self.kind == "deletion":
            return (
                "If those lines stay, put a marker line (for example '// ... existing "
                "code ...') where they are; if they must go, send the deletion as a "
                "diff or a search/replace edit that names them."
            )
        if self.kind == "beside":
            return (
                "Show the unchanged line that follows (precedes) the changed line, copied "
                "from the file, between it and the marker."
            )
        if self.kind == "edge":
            return "Put a marker line above or below those lines on the side whose lines stay."
        if self.kind == "whitespace":
            return (
                "Copy the unchanged lines exactly as the file has them (re-read it), "
                "tabs and trailing blanks included."
            )
        if self.kind == "nowhere":
            return (
                "Show at least one unchanged line of the file right above and right "
                "below the new lines, copied exactly."
            )
        return (
            "Add one more unchanged line above or below those lines (one that occurs "
            "once in the file), or show the enclosing header line above them."
        )


def _short(line: str) -> str:
    text = line.strip()
    return repr(text if len(text) <= 50 else text[:47] + "...")


def _range(lo: int, hi: int) -> str:
    if hi <= lo:
        return f"the original at line {lo + 1}"
    return lines_text("original", lo + 1, hi)


def lines_text(what: str, first: int, last: int) -> str:
    """1-based lines ``first`` to ``last`` of ``what`` in words: "snippet line 3",
    "file lines 4-9"."""
    if last <= first:
        return f"{what} line {first}"
    return f"{what} lines {first}-{last}"


def refusal(
    file: TextFile, candidate: TextFile, snippet: Snippet, doubts: list[Doubt], path: str | None
) -> PatchwrightError:
    """The error for an undecided merge: every doubt, then the candidate as a diff."""
    name = path or "file"
    diff = unified_diff(file, candidate, f"a/{name}", f"b/{name}")
    rows = diff.splitlines()
    if len(rows) > _DIFF_LINES:
        rows = [*rows[:_DIFF_LINES], f"... ({len(rows) - _DIFF_LINES} more diff lines)"]
    ambiguous = any(d.kind != "nowhere" for d in doubts)
    code = ErrorCode.AMBIGUOUS if ambiguous else ErrorCode.NOT_FOUND
    text = "The snippet cannot be merged beyond doubt. No change was made.\n" + "\n".join(
        f"- {d.sentence()}" for d in doubts
    )
    if rows:
        text += "\nCandidate result (not applied):\n" + "\n".join(rows)
    hint = " ".join(dict.fromkeys(d.advice() for d in doubts))
    details = {
        "doubts": [
            {
                "kind": d.kind,
                "snippet_lines": [d.run.start + 1, d.run.end],
                "file_lines": [d.lo + 1, d.hi],
            }
            for d in doubts
        ],
        "candidate_diff": diff,
        "markers": snippet.markers,
    }
    return PatchwrightError(code, text, hint, path=path, details=details)
