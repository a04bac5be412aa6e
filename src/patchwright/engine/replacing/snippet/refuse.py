"""The refusal of a snippet the merge cannot decide: what is undecided, where (snippet
and file lines), the candidate result as a short diff, and what to add to the snippet."""

from __future__ import annotations

from patchwright._records import record
from patchwright.engine.diff import unified_diff
from patchwright.engine.replacing.snippet.markers import Piece, Snippet
from patchwright.engine.replacing.snippet.place import NAMED
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.text import TextFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

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
            the stretch whose lines would be deleted).
        place: the candidate placement taken, when there is one.
        count: for a deletion, the lines of the stretch no new line takes the place
            of; for whitespace, how many lines differ so.
        readings: for a split, the other readings of the run.
        new: for a deletion, the new lines the run puts in place of the stretch.
        pairs: for whitespace, the first (snippet line, original line) pairs, 0-based,
            that differ in whitespace only (at most :data:`NAMED`).
    """

    kind: str
    run: Piece
    lo: int
    hi: int
    place: Placement | None = None
    count: int = 0
    readings: tuple[Placement, ...] = ()
    new: int = 0
    pairs: tuple[tuple[int, int], ...] = ()

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
                f"{lines} (starting {first}) match{'es' if one else ''} no original line at "
                f"either end as written (indentation included), so {they} could go anywhere "
                f"in {window}."
            )
        if self.kind == "several":
            return self._several(lines, one, first, window)
        if self.kind == "split":
            assert self.place is not None
            place = self.place
            where = _range(place.start, place.end)
            alternatives = "; ".join(_split_words(r) for r in self.readings[:NAMED])
            if len(self.readings) > NAMED:
                alternatives += f"; and {len(self.readings) - NAMED} more such readings"
            return (
                f"{lines} (starting {first}) "
                f"{'stand whole at' if _pure_place(self.run, place) else 'are placed at'} "
                f"{where}, but they also read as written around a deletion in {window} "
                f"({alternatives}): they may be written around a deletion or be the "
                "unchanged copy, and the marker next to them does not say which."
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
            named = ", ".join(
                f"snippet line {j + 1} against original line {i + 1}" for j, i in self.pairs
            )
            if self.count > len(self.pairs):
                named += f", and {self.count - len(self.pairs)} more"
            return (
                f"{lines} (placed at {_range(self.lo, self.hi)}) differ{s} from the file "
                f"only in indentation or trailing blanks at {self.count} "
                f"line{'' if self.count == 1 else 's'} ({named}), and the snippet does not "
                "tell whether that is a change or a slip."
            )
        if self.kind == "order":
            where = _range(self.hi, self.place.end) if self.place else window
            return (
                f"{lines} (starting {first}) stand{s} at {where}, above the run before "
                f"{them}, which ends at original line {self.lo}."
            )
        return self._deletion(lines, one, window)

    def _several(self, lines: str, one: bool, first: str, window: str) -> str:
        """The sentence of a run placed in several ways: each place, first three."""
        s, they, them = ("s", "it", "it") if one else ("", "they", "them")
        assert self.place is not None
        place = self.place
        count = f"{place.others + 1}{' or more' if place.more else ''}"
        if all(not line.strip() for line in self.run.lines):
            return (
                f"{lines} {'is a blank line' if one else 'are blank lines'} only, "
                f"which could stand before any of {_range(self.lo, self.hi)} or after "
                f"them ({count} places); the candidate below puts {them} before "
                f"original line {place.start + 1}."
            )
        if len(place.places) < 2 and place.more:
            return (
                f"{lines} (starting {first}) stand{s} at {_range(place.start, place.end)} "
                f"by end lines that each stand in many places in {window}, too many "
                "readings to weigh."
            )
        if len(place.places) < 2:
            # placed by end lines that say nothing: the other reading keeps the lines
            # they frame beside the new lines
            return (
                f"{lines} (starting {first}) stand{s} at {_range(place.start, place.end)} "
                "only by end lines that say nothing (a '}' or a blank line) and would "
                f"drop original lines there that {they} do not show: the new lines may "
                "as well be meant beside those lines."
            )
        return (
            f"{lines} (starting {first}) fit{s} {count} places in {window}: "
            f"{_places(place.places, place.others + 1)}; the candidate below takes "
            f"{_range(place.start, place.end)}."
        )

    def _deletion(self, lines: str, one: bool, window: str) -> str:
        """The sentence of a deletion: the stretch, and the side it is on."""
        they, them = ("it", "it") if one else ("they", "them")
        assert self.place is not None
        place = self.place
        # beyond the run's place, or at its open edge (new lines there, no context)
        if self.hi <= place.start or (self.lo == place.start and not place.head):
            side = f"above {them}"
        elif self.lo >= place.end or (self.hi == place.end and not place.tail):
            side = f"below {them}"
        else:
            side = f"between {'its' if one else 'their'} shown lines"
        stretch = f"{window} ({self.hi - self.lo} lines)"
        if self.new:
            what = (
                f"would replace {stretch} with {self.new} new "
                f"line{'' if self.new == 1 else 's'}, dropping {self.count} lines "
                f"{they} {'does' if one else 'do'} not show"
            )
        else:
            what = f"would delete {stretch}, which {they} {'does' if one else 'do'} not show"
        return (
            f"{lines} {what}, with no marker {side}: that reads as a deletion or as a "
            "forgotten marker."
        )

    def to_dict(self) -> dict[str, object]:
        """The doubt for programs: kind, snippet and original lines (1-based, inclusive;
        an empty original range ``[n, n - 1]`` is the place before line ``n``), and
        what the sentence names: candidate places, split readings, the new lines of a
        deletion, the lines differing in whitespace."""
        out: dict[str, object] = {
            "kind": self.kind,
            "snippet_lines": [self.run.start + 1, self.run.end],
            "file_lines": [self.lo + 1, self.hi],
        }
        place = self.place
        if place is not None:
            out["candidate"] = [place.start + 1, place.end]
        if self.kind == "several" and place is not None:
            out["places"] = [[start + 1, end] for start, end in place.places]
            out["place_count"] = place.others + 1
            out["place_count_is_a_floor"] = place.more
        if self.kind == "split":
            out["readings"] = [
                [r.start + 1, r.start + r.head, r.end - r.tail + 1, r.end] for r in self.readings
            ]
        if self.kind == "deletion":
            out["deleted"] = self.hi - self.lo
            out["new_lines"] = self.new
        if self.kind == "whitespace":
            out["lines"] = [[j + 1, i + 1] for j, i in self.pairs]
            out["count"] = self.count
        return out

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


def _places(places: Sequence[tuple[int, int]], total: int) -> str:
    """Candidate places in words: "original lines 4-6, original lines 20-22 and 3 more"."""
    words = [_range(start, end) for start, end in places]
    if total > len(words):
        return ", ".join(words) + f" and {total - len(words)} more"
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def _split_words(reading: Placement) -> str:
    """A split reading in words: where its head and its tail stand."""
    head_end = reading.start + reading.head
    tail_start = reading.end - reading.tail
    return (
        f"their first {_count(reading.head)} at {_range(reading.start, head_end)} and "
        f"their last {_count(reading.tail)} at {_range(tail_start, reading.end)}"
    )


def _count(n: int) -> str:
    return "line" if n == 1 else f"{n} lines"


def _pure_place(run: Piece, place: Placement) -> bool:
    """Whether a run stands whole where it is placed (no line new, none dropped)."""
    size = len(run.lines)
    return place.head == size and place.end - place.start == size


def _short(line: str) -> str:
    text = line.strip()
    if not text:
        return "with a blank line"
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
        "doubts": [d.to_dict() for d in doubts],
        "candidate_diff": diff,
        "markers": snippet.markers,
    }
    return PatchwrightError(code, text, hint, path=path, details=details)
