"""Merge a lazy snippet into the original text, deterministically, unique-or-refuse.

Rules (the format is :mod:`patchwright.engine.replacing.snippet.markers`):

1. Every literal run is placed, in order, at exactly one span of the original
   (:mod:`.place`): its first and last lines anchor it through the keyed rungs of the
   matching ladder, within the window its already placed neighbours leave. Runs that
   are unique in the whole file are placed first; their places narrow the windows of the
   others, and so do the places where an unplaced run's end lines stand (a place that
   leaves a neighbour no room is out): order settles what a line alone cannot.
2. Inside its span a run is diffed against the original under the rung that placed it:
   lines equal there are context and keep the file's bytes; the run's other lines are
   new; original lines it does not show are deleted, which is only done where the
   deletion is spelled out beyond doubt (:data:`MAX_DELETED` lines at most between
   shown lines); a larger unshown stretch could as well be a forgotten marker.
3. A marker keeps every original line between the spans of its neighbouring runs.
4. No marker at the snippet's top (bottom): the lines above its first run (below its
   last run) are kept, and the report says so; a run that opens (closes) with new lines
   there replaces at most :data:`MAX_EDGE_DELETED` unshown lines above (below) its
   context; a run that changes nothing where it stands shows that the lines beyond it
   go (on one side only); a snippet with no marker and no line of the file replaces a
   file of at most :data:`MAX_EDGE_DELETED` lines.
5. Anything undecided (a run placed in several ways or nowhere, a run that also reads
   around a deletion, a large deletion, a new line right beside a marker, whitespace
   that may be a slip or a change) refuses the whole merge with the candidate result as
   a short diff, the snippet and file lines concerned and what to add.
"""

from __future__ import annotations

from collections.abc import Sequence

from patchwright._records import record, replace
from patchwright.engine.diff import matcher_opcodes
from patchwright.engine.matching.index import LineIndex
from patchwright.engine.matching.normalize import leading
from patchwright.engine.replacing.snippet.markers import Piece, Snippet, parse_snippet
from patchwright.engine.replacing.snippet.place import (
    MAX_DELETED,
    MAX_EDGE_DELETED,
    MAX_SPLITS,
    NAMED,
    Keys,
    Placement,
    place_run,
    split_reading,
)
from patchwright.engine.replacing.snippet.refuse import Doubt, lines_text, refusal
from patchwright.engine.replacing.snippet.report import (
    DELETED,
    EDGE_KEPT,
    KEPT,
    GapReport,
    RunReport,
    SnippetMerge,
    SnippetReport,
)
from patchwright.engine.replacing.snippet.slips import Slips
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.reports import Rung
from patchwright.model.text import TextFile

__all__ = ["MAX_DELETED", "merge_snippet_file"]


def merge_snippet_file(file: TextFile, snippet: str, *, path: str | None = None) -> SnippetMerge:
    """Merge ``snippet`` into ``file`` and say how.

    Pure: ``file`` is not modified. The result keeps the file's encoding, BOM, each
    unchanged line's ending and the final newline state; new lines take the file's
    dominant newline.

    Raises:
        PatchwrightError: ``invalid_request`` for an empty snippet or one made of markers
            only; ``not_found`` when a run stands nowhere; ``ambiguous`` when a run fits
            several places, a new block could go in several places, or a large stretch of
            original lines would be deleted. Each names the snippet and file lines, shows
            the candidate result when there is one, and says what to add.
    """
    index = LineIndex(file.lines)
    keys = Keys(index)
    parsed = parse_snippet(snippet, keys)
    runs = [p for p in parsed.pieces if not p.marker]
    if not runs or (not parsed.markers and not any(line.strip() for line in parsed.lines)):
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            "The snippet has no lines to merge"
            + (" (only markers)." if parsed.markers else " (it is empty)."),
            "Send the new lines with the unchanged lines around them, and a marker such as "
            "'// ... existing code ...' for each stretch left out.",
            path=path,
        )
    places, doubts = _place_all(keys, parsed, runs, len(file.lines))
    slips = Slips.learn(file.lines, runs, places)
    merged, report, more = _build(file, parsed, runs, places, slips)
    doubts.extend(more)
    doubts = [d for d in doubts if not _same_text(file, parsed, runs, places, slips, merged, d)]
    if doubts:
        raise refusal(file, merged, parsed, doubts, path)
    return SnippetMerge(merged, report)


def _same_text(
    file: TextFile,
    parsed: Snippet,
    runs: list[Piece],
    places: list[Placement],
    slips: Slips,
    merged: TextFile,
    doubt: Doubt,
) -> bool:
    """Whether a split doubt leaves no doubt about the result: every other reading of
    the run (written around a deletion) merges to the very text the reading taken
    gives (a run ending the file, with no marker below, that shows the lines between
    its copies go either way)."""
    if doubt.kind != "split" or not doubt.readings or len(doubt.readings) > MAX_SPLITS:
        return False
    at = runs.index(doubt.run)
    for other in doubt.readings:
        alternative = [*places[:at], other, *places[at + 1 :]]
        text, _, _ = _build(file, parsed, runs, alternative, slips)
        if text.lines != merged.lines or text.endings != merged.endings:
            return False
    return True


def _neighbours(pieces: Sequence[Piece], run: Piece) -> tuple[bool, bool]:
    """Whether ``run`` has no marker above it and none below it (open edges)."""
    at = pieces.index(run)
    return at == 0, at == len(pieces) - 1


def _place_all(
    keys: Keys, parsed: Snippet, runs: list[Piece], n: int
) -> tuple[list[Placement], list[Doubt]]:
    """Place every run: unique ones first, then those their places settle; what stays
    undecided is placed at its first candidate and recorded as a doubt.

    A run that fits several places, all of them known, narrows its neighbours' windows
    by them before anything is decided: the run above ends before the last of them
    starts, the run below starts after the first of them ends (it stands at one of
    them, or the merge is refused). Two runs in doubt may so leave each other one
    place. A run placed after all at none of the places that narrowed its neighbours is
    in doubt."""
    placed: list[Placement | None] = [None] * len(runs)
    doubts: list[Doubt] = []
    waiting: set[int] = set()  # runs that change nothing and stand in several places
    spans: dict[int, tuple[tuple[int, int], ...]] = {}  # the places of runs in doubt
    seen: dict[tuple[int, int, int], Placement | None] = {}  # a run in a window: its place
    progress = True
    settle = False
    while None in placed:
        progress = False
        windows = _windows(keys, runs, placed, n, spans)
        for i, run in enumerate(runs):
            if placed[i] is not None:
                continue
            lo, hi = windows[i]
            top, bottom = _neighbours(parsed.pieces, run)
            where = _place(seen, keys, (i, run), (lo, hi), (top, bottom))
            if where is None:
                if not settle:
                    continue
                if lo != hi:  # new lines only, between two places with lines between
                    doubts.append(Doubt("nowhere", run, lo, hi))
                where = Placement(lo, lo, Rung.EXACT, 0, 0)
            elif where.others:
                if not settle:
                    _remember(spans, i, where)
                    continue
                inner = not top and not bottom  # an edge run's place decides its edge
                pure = inner and _pure(run, where)
                if pure and not split_reading(keys, run.lines, lo, hi, where):
                    if any(p is None for j, p in enumerate(placed) if j != i and j not in waiting):
                        waiting.add(i)  # the others first: this one only orients them
                        continue
                    # changes nothing wherever it stands, and every other run is placed
                    # (it narrows no window): where among its copies makes no difference
                    placed[i] = replace(where, others=0)
                    progress, settle = True, False
                    break
                doubts.append(Doubt("several", run, lo, hi, where))
            elif not where.head and not where.tail and lo != hi and where.start == where.end:
                doubts.append(Doubt("nowhere", run, lo, hi))
            elif splits := split_reading(keys, run.lines, lo, hi, where):
                doubts.append(Doubt("split", run, lo, hi, where, readings=tuple(splits)))
            placed[i] = _checked(spans.get(i, ()), run, lo, hi, where, doubts)
            progress = True
            settle = False
            break
        if not progress:
            # nothing unique left: the next pass decides (and doubts), unless the places
            # of the runs in doubt leave their neighbours less room
            settle = not _narrower(_windows(keys, runs, placed, n, spans), windows)
    return [p for p in placed if p is not None], doubts


def _place(
    seen: dict[tuple[int, int, int], Placement | None],
    keys: Keys,
    at: tuple[int, Piece],
    window: tuple[int, int],
    edges: tuple[bool, bool],
) -> Placement | None:
    """:func:`place_run` for run ``i`` in ``window``, once per window (a pass places
    one run: the windows of most others stay as they were)."""
    i, run = at
    lo, hi = window
    if (i, lo, hi) not in seen:
        top, bottom = edges
        seen[i, lo, hi] = place_run(keys, run.lines, lo, hi, open_top=top, open_bottom=bottom)
    return seen[i, lo, hi]


def _remember(spans: dict[int, tuple[tuple[int, int], ...]], i: int, where: Placement) -> None:
    """Keep every place of run ``i``, in doubt, to narrow its neighbours' windows
    (when they are all known; forget older ones otherwise)."""
    if where.every:
        spans[i] = where.every
    else:
        spans.pop(i, None)


def _checked(
    spans: tuple[tuple[int, int], ...],
    run: Piece,
    lo: int,
    hi: int,
    where: Placement,
    doubts: list[Doubt],
) -> Placement:
    """``where``, a run's place, as a doubt when it is none of the ``spans`` its
    neighbours were narrowed by (they were read for a run standing at one of them)."""
    if not spans or where.others or (where.start, where.end) in spans:
        return where
    where = where.several(spans)
    # the places were read in a wider window: the doubt names the window holding them
    lo = min(lo, *(start for start, _ in spans))
    hi = max(hi, *(end for _, end in spans))
    doubts.append(Doubt("several", run, lo, hi, where))
    return where


def _narrower(new: list[tuple[int, int]], old: list[tuple[int, int]]) -> bool:
    """Whether every window of ``new`` lies within its window of ``old`` and one is
    smaller (windows only narrow, so the passes they start end)."""
    inside = all(a >= c and b <= d for (a, b), (c, d) in zip(new, old))
    return inside and new != old


def _windows(
    keys: Keys,
    runs: list[Piece],
    placed: Sequence[Placement | None],
    n: int,
    spans: dict[int, tuple[tuple[int, int], ...]] | None = None,
) -> list[tuple[int, int]]:
    """For each run, the original lines ``[lo, hi)`` it may stand in: between its placed
    neighbours, after the first place the unplaced runs above it can end at, and before
    the last place those below it can start at.

    Runs stand in snippet order, so an unplaced run ends after the first place one of
    its end lines stands in, and starts no later than the last such place: a place that
    leaves a neighbour no room is out. The bounds come from every place a run's first
    or last line stands in (under the loosest keyed comparison), a superset of the
    places it can be given, so they never exclude a place a run could have; a run of
    blank lines, or one whose end lines stand nowhere in its window (new lines), takes
    no room. A run in doubt whose every place is known (``spans``) bounds them by those
    places. Two passes each way, linear in the runs.
    """
    size = len(runs)
    lo, hi = [0] * size, [n] * size
    for _ in range(2):  # each bound narrows the other's windows; twice settles nearly all
        cur = 0
        for j in range(size):  # top down: each run starts after those above end
            p = placed[j]
            if p is not None:
                cur = p.end
                continue
            lo[j] = cur
            found = _stands(keys, runs[j], cur, hi[j])
            if found:
                cur = max(cur, found[0] + 1)
            if spans and j in spans:
                cur = max(cur, min(end for _, end in spans[j]))
        cur = n
        for j in range(size - 1, -1, -1):  # bottom up: each ends before those below start
            p = placed[j]
            if p is not None:
                cur = p.start
                continue
            hi[j] = cur
            found = _stands(keys, runs[j], lo[j], cur)
            if found:
                cur = min(cur, found[-1])
            if spans and j in spans:
                cur = min(cur, max(start for start, _ in spans[j]))
    for j in range(size):
        if hi[j] < lo[j]:  # no room left: the placement between its neighbours says why
            lo[j] = next((p.end for p in reversed(placed[:j]) if p is not None), 0)
            hi[j] = next((p.start for p in placed[j + 1 :] if p is not None), n)
    return list(zip(lo, hi))


def _stands(keys: Keys, run: Piece, lo: int, hi: int) -> list[int]:
    """The original lines in ``[lo, hi)`` where the run's first or last line stands,
    sorted (none for a run of blank lines: it goes anywhere)."""
    lines = run.lines
    if all(not line.strip() for line in lines):
        return []
    return sorted({*keys.positions(lines[0], lo, hi), *keys.positions(lines[-1], lo, hi)})


def _build(
    file: TextFile,
    parsed: Snippet,
    runs: list[Piece],
    places: list[Placement],
    slips: Slips,
) -> tuple[TextFile, SnippetReport, list[Doubt]]:
    """The merged text from the placements, with its report and the deletions in doubt."""
    lines, endings = file.lines, file.endings
    nl = file.newline
    out: list[str] = []
    out_end: list[str] = []
    run_reports: list[RunReport] = []
    gaps: list[GapReport] = []
    doubts: list[Doubt] = []
    top, cursor = _top_edge(parsed, runs[0], places[0], gaps, doubts)
    # runs whose only change is blanks dropped at line ends, and the lines elsewhere
    # whose dropped blanks were read as slips (see _blanks_are_its_change)
    meant: list[Doubt] = []
    slipped_ends: list[Doubt] = []
    marker_at = _markers_before(parsed, runs)
    for run, place, marker in zip(runs, places, marker_at):
        if place.start < cursor:
            doubts.append(Doubt("order", run, cursor, place.start, place))
            continue
        if marker is not None:
            gaps.append(GapReport(cursor + 1, place.start, KEPT, marker))
        out.extend(lines[cursor : place.start])
        out_end.extend(endings[cursor : place.start])
        spliced = _splice_run(file, run, place, out, out_end, nl, slips)
        kept, added, deleted = spliced.kept, spliced.added, spliced.deleted
        slipped = spliced.undecided or _shifted_whole(file, run, place)
        span = lines[place.start : place.end]
        ends = tuple((j, i) for j, i in spliced.slipped if _end_blanks(run.lines[j], span[i]))
        if (spliced.undecided or ends) and _blanks_are_its_change(file, run, place, spliced, ends):
            # written from the snippet: the undecided lines already are, the slips not
            at = len(out) - len(run.lines)
            for j, _ in ends:
                out[at + j], out_end[at + j] = run.lines[j], nl
            kept, added, deleted = kept - len(ends), added + len(ends), deleted + len(ends)
            meant.append(_whitespace_doubt(run, place, sorted(spliced.undecided + ends)))
            slipped = ()
        elif ends:
            slipped_ends.append(_whitespace_doubt(run, place, ends))
        if slipped:
            doubts.append(_whitespace_doubt(run, place, slipped))
        open_edge = _open_edge_unshown(parsed, run, place)
        if open_edge is not None:
            lo, hi, new = open_edge
            doubts.append(Doubt("deletion", run, lo, hi, place, hi - lo - new, new=new))
        beside = _beside_marker(file, parsed, run, place)
        if beside is not None:
            doubts.append(Doubt("beside", run, beside, beside + 1, place))
        if spliced.worst > MAX_DELETED:
            lo, hi, new = spliced.stretch
            doubts.append(Doubt("deletion", run, lo, hi, place, hi - lo - new, new=new))
        run_reports.append(
            RunReport(run.start + 1, run.end, place.start + 1, place.end, place.rung,
                      kept, added, deleted)
        )  # fmt: skip
        cursor = max(cursor, place.end)
    if meant and slipped_ends:
        # blanks a run is written for are meant, so the same blanks dropped elsewhere
        # are no longer slips beyond doubt: both are in doubt
        doubts.extend(meant + slipped_ends)
    bottom, stop = _bottom_edge(parsed, runs[-1], places[-1], len(lines), gaps, doubts)
    if top == bottom == "deleted" and len(runs) == 1:
        # one run changing nothing, lines on both sides: which side goes is not said
        doubts.append(Doubt("edge", runs[0], 0, len(lines), places[0]))
    out.extend(lines[stop:])
    out_end.extend(endings[stop:])
    _settle(file, out_end)
    warnings = _warnings(run_reports, gaps) + tuple(_blanks_dropped(d) for d in meant)
    report = SnippetReport(tuple(run_reports), tuple(gaps), top, bottom, warnings)
    return file.with_lines(out, out_end), report, doubts


def _open_edge_unshown(
    parsed: Snippet, run: Piece, place: Placement
) -> tuple[int, int, int] | None:
    """The original lines ``[lo, hi)`` a run replaces above its head (below its tail)
    when it opens (closes) the snippet with new lines, and how many new lines it puts
    there, when the stretch is more than :data:`MAX_EDGE_DELETED` lines longer than
    the new lines; ``None`` otherwise."""
    at = parsed.pieces.index(run)
    found: list[tuple[int, int, int, int]] = []
    if at == 0 and not place.head:
        lo, hi, new = place.start, place.end - place.tail, len(run.lines) - place.tail
        found.append(((hi - lo) - new, lo, hi, new))
    if at == len(parsed.pieces) - 1 and not place.tail:
        lo, hi, new = place.start + place.head, place.end, len(run.lines) - place.head
        found.append(((hi - lo) - new, lo, hi, new))
    unshown, lo, hi, new = max(found, default=(0, 0, 0, 0))
    return (lo, hi, new) if unshown > MAX_EDGE_DELETED else None


def _beside_marker(file: TextFile, parsed: Snippet, run: Piece, place: Placement) -> int | None:
    """The original line a new line at a run's end next to a marker may replace: with
    no unchanged line between them, the run's new last (first) line may be the first
    (last) line the marker keeps, changed, or a line added next to it. ``None`` when
    the run ends (starts) with context there."""
    lines = file.lines
    at = parsed.pieces.index(run)
    after = at + 1 < len(parsed.pieces)
    before = at > 0
    last, first = run.lines[-1], run.lines[0]
    new_last = not place.tail and place.head < len(run.lines)
    if new_last and after and place.end < len(lines) and last.strip():
        return place.end
    new_first = not place.head and place.tail < len(run.lines)
    if new_first and before and place.start > 0 and first.strip():
        return place.start - 1
    return None


def _shifted_whole(file: TextFile, run: Piece, place: Placement) -> tuple[tuple[int, int], ...]:
    """The (run line, span line) pairs, 0-based, of a run that stands whole only with
    its space indentation shifted, where the indentation differs: the model
    re-indented the block (a change) or copied it shifted (a slip), and the run is its
    own only witness. None when it is not so. (Tabs written as spaces are told by
    :class:`Slips`.)"""
    if not _pure(run, place) or not place.rung.recovered:
        return ()
    span = file.lines[place.start : place.end]
    return tuple(
        (k, k)
        for k, (mine, theirs) in enumerate(zip(run.lines, span))
        if mine.strip() and leading(mine) != leading(theirs) and "\t" not in leading(theirs)
    )


def _whitespace_doubt(run: Piece, place: Placement, pairs: Sequence[tuple[int, int]]) -> Doubt:
    """A ``whitespace`` doubt naming the (run line, span line) pairs, 0-based."""
    named = tuple((run.start + j, place.start + i) for j, i in pairs)
    return Doubt("whitespace", run, place.start, place.end, place, len(named),
                 pairs=named[:NAMED])  # fmt: skip


def _blanks_are_its_change(
    file: TextFile,
    run: Piece,
    place: Placement,
    spliced: _Spliced,
    ends: Sequence[tuple[int, int]],
) -> bool:
    """Whether the lines of a run that differ from the file only by blanks dropped at
    their end are its change: read as slips (as the snippet's evidence reads some of
    them, ``ends``), the run would change nothing where it stands, and each of them
    stands inside the run (a shown line of the run above and below it).

    A run is written to change something: lines shown as they stand, with blanks
    dropped at line ends (trailing blanks, a blank line's blanks) in their midst, say
    those blanks go. Not a run's first or last line (a header shown for orientation
    may be copied with a slip); not indentation (a shifted copy is told by
    :func:`_shifted_whole`). The merge then refuses when a line of another run drops
    such blanks and was read as a slip: one snippet does not both mean and slip the
    same blanks.
    """
    size = len(run.lines)
    count = len(spliced.undecided)
    if place.end - place.start != size or spliced.added != count or spliced.deleted != count:
        return False
    if len(spliced.slipped) != len(ends):
        return False  # another slip (tabs, indentation) is in the run: not only blanks
    span = file.lines[place.start : place.end]
    return all(
        0 < j < size - 1 and _end_blanks(run.lines[j], span[i])
        for j, i in (*spliced.undecided, *ends)
    )


def _blanks_dropped(doubt: Doubt) -> str:
    """The warning for a run read by :func:`_blanks_are_its_change`."""
    named = ("file line " if doubt.count == 1 else "file lines ") + ", ".join(
        str(i + 1) for _, i in doubt.pairs
    )
    if doubt.count > len(doubt.pairs):
        named += f" and {doubt.count - len(doubt.pairs)} more"
    return (
        f"{lines_text('snippet', doubt.run.start + 1, doubt.run.end)} change nothing but "
        f"the blanks at the end of {named}: those blanks were dropped as the change"
    )


def _end_blanks(mine: str, theirs: str) -> bool:
    """Whether snippet line ``mine`` is file line ``theirs`` with blanks dropped at its
    end only (trailing blanks, or the blanks of a blank line)."""
    return mine != theirs and theirs.rstrip() == mine


def _pure(run: Piece, place: Placement) -> bool:
    """Whether a run stands whole in the file, changing nothing where it stands."""
    return place.head == len(run.lines) and place.end - place.start == len(run.lines)


def _top_edge(
    parsed: Snippet, run: Piece, place: Placement, gaps: list[GapReport], doubts: list[Doubt]
) -> tuple[str, int]:
    """What becomes of the lines above the first run, and the first original line the
    merge goes on from: kept (a marker, or none and the run changes something: a
    dropped marker), or deleted (no marker and the run changes nothing where it
    stands: it is there to show the lines above it go)."""
    if parsed.top_marker:
        return "marker", 0
    if place.start == 0:
        return "file", 0
    if not _pure(run, place):
        gaps.append(GapReport(1, place.start, EDGE_KEPT))
        return "kept", 0
    if place.start > MAX_DELETED:
        doubts.append(Doubt("deletion", run, 0, place.start, place, place.start))
    gaps.append(GapReport(1, place.start, DELETED))
    return "deleted", place.start


def _bottom_edge(
    parsed: Snippet,
    run: Piece,
    place: Placement,
    n: int,
    gaps: list[GapReport],
    doubts: list[Doubt],
) -> tuple[str, int]:
    """:func:`_top_edge` for the lines below the last run; the original line after which
    the merge copies the rest."""
    below = n - place.end
    if parsed.bottom_marker:
        gaps.append(GapReport(place.end + 1, n, KEPT, parsed.pieces[-1].start + 1))
        return "marker", place.end
    if below <= 0:
        return "file", place.end
    if not _pure(run, place):
        gaps.append(GapReport(place.end + 1, n, EDGE_KEPT))
        return "kept", place.end
    if below > MAX_DELETED:
        doubts.append(Doubt("deletion", run, place.end, n, place, below))
    gaps.append(GapReport(place.end + 1, n, DELETED))
    return "deleted", n


def _markers_before(parsed: Snippet, runs: list[Piece]) -> list[int | None]:
    """For each run, the 1-based snippet line of the marker just above it, if any."""
    out: list[int | None] = []
    previous: Piece | None = None
    for piece in parsed.pieces:
        if not piece.marker:
            out.append(previous.start + 1 if previous is not None and previous.marker else None)
        previous = piece
    return out


@record(frozen=True)
class _Spliced:
    """What writing one run did.

    Attributes:
        kept / added / deleted: context lines kept, lines added, original lines dropped.
        worst: the largest number of original lines dropped in one stretch beyond the
            new lines put in their place.
        stretch: that stretch, as original lines ``[lo, hi)`` and its new lines.
        undecided: (run line, span line) pairs, 0-based within the run and its span,
            differing in whitespace only where the snippet does not say which it means
            (written as changes).
        slipped: (run line, span line) pairs, 0-based, differing in whitespace and read
            as slips (the file's line kept).
    """

    kept: int
    added: int
    deleted: int
    worst: int
    stretch: tuple[int, int, int]
    undecided: tuple[tuple[int, int], ...]
    slipped: tuple[tuple[int, int], ...]


def _splice_run(
    file: TextFile,
    run: Piece,
    place: Placement,
    out: list[str],
    out_end: list[str],
    nl: str,
    slips: Slips,
) -> _Spliced:
    """Write the run's lines for its span: context from the file (its bytes), the rest
    from the snippet, and say what that did."""
    span = file.lines[place.start : place.end]
    new = list(run.lines)
    # the run's anchored ends are its context, as placed: only the lines between them
    # are diffed (a diff of the whole run could align a new block that repeats the
    # context's lines with the context itself)
    head = _common(span, new, min(place.head, len(span), len(new)), slips, 1)
    tail = _common(span, new, min(place.tail, len(span) - head, len(new) - head), slips, -1)
    mid_old, mid_new = span[head : len(span) - tail], new[head : len(new) - tail]
    middle = matcher_opcodes(
        [slips.file_key(x) for x in mid_old], [slips.snippet_key(x) for x in mid_new]
    )
    ops = [("equal", 0, head, 0, head)] if head else []
    ops += [(t, i1 + head, i2 + head, j1 + head, j2 + head) for t, i1, i2, j1, j2 in middle]
    if tail:
        ops.append(("equal", len(span) - tail, len(span), len(new) - tail, len(new)))
    kept = added = deleted = worst = 0
    stretch = (place.start, place.start, 0)
    undecided: list[tuple[int, int]] = []
    slipped: list[tuple[int, int]] = []
    base = place.start
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            for i, j in zip(range(i1, i2), range(j1, j2)):
                verdict = slips.same(span[i], new[j])
                if verdict and not slips.anchors(span[i], new[j]):
                    verdict = None  # copied exactly where every copy slips: which is it?
                if verdict is None:
                    undecided.append((j, i))
                elif verdict and span[i] != new[j]:
                    slipped.append((j, i))
                if verdict:
                    out.append(span[i])
                    out_end.append(file.endings[base + i])
                    kept += 1
                else:
                    out.append(new[j])
                    out_end.append(nl)
                    added += 1
                    deleted += 1
                    worst = max(worst, 1)
            continue
        out.extend(new[j1:j2])
        out_end.extend([nl] * (j2 - j1))
        added += j2 - j1
        deleted += i2 - i1
        # lines replaced by as many new ones are spelled out; only those beyond go unshown
        if (i2 - i1) - (j2 - j1) > worst:
            worst = (i2 - i1) - (j2 - j1)
            stretch = (base + i1, base + i2, j2 - j1)
    return _Spliced(kept, added, deleted, worst, stretch, tuple(undecided), tuple(slipped))


def _common(old: list[str], new: list[str], limit: int, slips: Slips, step: int) -> int:
    """How many lines from the start (``step`` 1) or the end (-1) of ``old`` and ``new``
    are the same, up to ``limit``."""
    k = 0
    while k < limit:
        a, b = (old[k], new[k]) if step == 1 else (old[-1 - k], new[-1 - k])
        if not slips.anchors(a, b):
            break
        k += 1
    return k


def _settle(file: TextFile, endings: list[str]) -> None:
    """Only the last line may lack an ending, and it does exactly when the file's did."""
    nl = file.newline
    if "" in endings:
        for i, end in enumerate(endings):
            if not end:
                endings[i] = nl
    if endings and file.endings and not file.ends_with_newline:
        endings[-1] = ""


def _warnings(runs: list[RunReport], gaps: list[GapReport]) -> tuple[str, ...]:
    out: list[str] = []
    for r in runs:
        if r.rung.recovered:
            out.append(
                f"{lines_text('snippet', r.snippet_start, r.snippet_end)}: context placed "
                f"at {lines_text('file', r.file_start, r.file_end)} by {r.rung.words}; the "
                "file's own text was kept for it"
            )
    for g in gaps:
        if g.how == EDGE_KEPT and g.file_end >= g.file_start:
            side = "top" if g.file_start == 1 else "bottom"
            out.append(
                f"no marker at the snippet's {side}: "
                f"{lines_text('file', g.file_start, g.file_end)} "
                f"{'was kept as it is' if g.file_end == g.file_start else 'were kept as they are'}"
            )
        elif g.how == DELETED and g.file_end >= g.file_start:
            top = g.file_start == 1
            out.append(
                f"no marker at the snippet's {'top' if top else 'bottom'}, and its "
                f"{'first' if top else 'last'} lines stand unchanged in the file: "
                f"{lines_text('file', g.file_start, g.file_end)} "
                f"{'above' if top else 'below'} them "
                f"{'was' if g.file_end == g.file_start else 'were'} deleted (a marker "
                f"{'above' if top else 'below'} them keeps such lines)"
            )
    return tuple(out)
