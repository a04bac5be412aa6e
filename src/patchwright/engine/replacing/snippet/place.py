"""Place one literal run of a snippet in the original: the file lines it covers.

A run is the new text of a stretch of the file: context lines (unchanged) at its ends,
changes and shown lines inside. Its *head* is the longest prefix of the run that stands
in the file, its *tail* the longest suffix; each is found through the keyed rungs of the
matching ladder (:data:`patchwright.engine.matching.rungs.KEYED`: exact, trailing whitespace,
indentation, punctuation; a loose rung only when the whole prefix is shifted alike, as
the ladder asks of any block). A run's span runs from its head's first line to its
tail's last line; a placement is unique when exactly one (head, tail) pair fits in the
window its placed neighbours leave, or when the run's inner lines settle it: new lines
that read as window lines rewritten point at the lines the run replaces
(:func:`_by_rewrite`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from difflib import SequenceMatcher

from patchwright._records import record, replace
from patchwright.engine.diff import matcher_opcodes
from patchwright.engine.matching.index import LineIndex
from patchwright.engine.matching.normalize import is_blank, unicode_key
from patchwright.engine.matching.reindent import detect_shift
from patchwright.engine.matching.rungs import KEYED, Comparator, keyed_matches
from patchwright.model.reports import Rung

#: Original lines a run may drop between two of its shown lines (or at an open edge)
#: without a marker saying otherwise; beyond this, "delete" and "forgot a marker" look
#: alike and the merge refuses with the candidate.
MAX_DELETED = 12

#: Original lines a run opening (closing) the snippet with new lines, no marker there,
#: may drop above (below) its context without showing what takes their place: the
#: file's edge bounds them, but nothing in the snippet says the model saw them.
MAX_EDGE_DELETED = 2

#: The rungs that place a run's context, in ladder order (each looser than the last).
RUNGS: tuple[Rung, ...] = tuple(KEYED)

#: The rungs that keep a line's indentation.
_STRICT = (Rung.EXACT, Rung.TRAILING_WHITESPACE)


@record(frozen=True)
class End:
    """The placements of one end (head or tail) of a run.

    Attributes:
        length: run lines this end covers (0: the run's line at this end is in no
            candidate place: a new line).
        rung: the rung that matched them.
        starts: for a head, the file lines where it starts; for a tail, where it ends
            (exclusive). Sorted. Every place it reaches ``length`` lines or enough
            (:data:`ENOUGH`) lines is one.
        lengths: the run lines it covers at each of ``starts``.
        anywhere: every place its first line (a head's) or last line (a tail's) stands
            under the punctuation-folded comparison, as ``starts`` counts them.
    """

    length: int
    rung: Rung
    starts: tuple[int, ...]
    lengths: tuple[int, ...] = ()
    anywhere: tuple[int, ...] = ()

    def at(self, length: int) -> tuple[int, ...]:
        """The starts where this end covers ``length`` lines or more."""
        return tuple(s for s, k in zip(self.starts, self.lengths) if k >= length)


@record(frozen=True)
class Placement:
    """Where a run goes: original lines ``[start, end)`` and the rung of its context.

    Attributes:
        head / tail: run lines its head and tail cover (0: none anchored there).
        others: how many other (start, end) pairs fit the window (0: unique).
        places: when several fit, the first of them as original lines ``[start, end)``
            (at most :data:`NAMED`, this one first), for a refusal to name.
        more: ``others`` is a floor: the places were counted up to a cap.
        every: every place it fits, this one first, when they are all known (each
            place counted is listed, none beyond); empty otherwise.
    """

    start: int
    end: int
    rung: Rung
    head: int
    tail: int
    others: int = 0
    places: tuple[tuple[int, int], ...] = ()
    more: bool = False
    every: tuple[tuple[int, int], ...] = ()

    def several(self, spans: Sequence[tuple[int, int]], *, more: bool = False) -> Placement:
        """This placement as one of the ``spans`` it fits (its own named first)."""
        own = (self.start, self.end)
        listed = (own, *(span for span in dict.fromkeys(spans) if span != own))
        others = max(self.others, len(listed) - 1)
        every = listed if not more and others == len(listed) - 1 else ()
        return replace(self, others=others, places=listed[:NAMED], more=more, every=every)


#: Candidate places of a run in doubt a refusal names at most (the rest are counted).
NAMED = 3


class Keys:
    """Where a line of a run stands in the file, found through the line index's folded
    text (a C-speed substring search, then each hit's key checked), memoised per merge.

    Every keyed rung's equal lines are equal once punctuation is folded and blanks
    collapsed (the unicode rung's key), so these positions serve every rung.
    """

    def __init__(self, index: LineIndex) -> None:
        self.index = index
        self.lines = index.lines
        self._found: dict[str, list[int]] = {}

    def _all(self, key: str) -> list[int]:
        found = self._found.get(key)
        if found is None:
            lines = self.lines
            if not key:
                found = [i for i, line in enumerate(lines) if not line.strip()]
            else:
                hits = self.index.line_starts(key, self.index.collapsed)
                found = [i for i in hits if unicode_key(lines[i]) == key]
            self._found[key] = found
        return found

    def positions(self, line: str, lo: int, hi: int) -> list[int]:
        """File lines in ``[lo, hi)`` equal to ``line`` once punctuation is folded."""
        found = self._all(unicode_key(line))
        return found[bisect_left(found, lo) : bisect_left(found, hi)]

    def __contains__(self, stripped: object) -> bool:
        """Whether a line of the file, stripped, is ``stripped`` (the parser asks it of
        marker-shaped lines: one that is a line of the file is text)."""
        if not isinstance(stripped, str):
            return False
        return any(self.lines[i].strip() == stripped for i in self._all(unicode_key(stripped)))


def _shifted_alike(pattern: Sequence[str], found: Sequence[str]) -> bool:
    return detect_shift(pattern, found) is not None


def _extent(
    keys: Keys, run: Sequence[str], rung: Rung, at: int, lo: int, hi: int, step: int
) -> int:
    """How many run lines from one end match the file from line ``at`` under ``rung``
    (``step`` 1: the head, run and file read downwards from ``at``; -1: the tail, read
    upwards from ``at``, which is then the file line of the run's last line)."""
    lines = keys.lines
    key: Comparator = KEYED[rung]
    size = len(run)
    k = 0
    # keys of the lines looked at only: a run's ends reach a few lines at each candidate
    if step == 1:
        while k < size and at + k < hi and key(lines[at + k]) == key(run[k]):
            k += 1
    else:
        while k < size and at - k >= lo and key(lines[at - k]) == key(run[size - 1 - k]):
            k += 1
    if k and rung in (Rung.INDENTATION, Rung.UNICODE):
        # ignoring indentation, one line (a "}") stands for any other: a loose rung
        # needs two non-blank lines to say where a block is
        ends = run[:k] if step == 1 else run[size - k :]
        found = lines[at : at + k] if step == 1 else lines[at - k + 1 : at + 1]
        if sum(1 for line in ends if not is_blank(line)) < 2 and not _tabs_expanded(ends, found):
            return 0
        # a loose rung holds only while the lines are shifted alike (re-indented lines
        # next to unchanged ones are a change, not slipped context)
        while k:
            if step == 1:
                pat, got = run[:k], keys.lines[at : at + k]
            else:
                pat, got = run[size - k :], keys.lines[at - k + 1 : at + 1]
            if _shifted_alike(pat, got):
                break
            k -= 1
    return k


def _tabs_expanded(mine: Sequence[str], theirs: Sequence[str]) -> bool:
    """Whether ``mine`` is ``theirs`` with every tab written as 4 (or every one as 8)
    spaces and trailing blanks dropped: a slip so specific that one line tells it."""
    for width in (4, 8):
        if all(
            a.rstrip() == b.replace("\t", " " * width).rstrip() and "\t" in b
            for a, b in zip(mine, theirs)
            if b.strip()
        ):
            return True
    return False


def find_end(
    keys: Keys,
    run: Sequence[str],
    lo: int,
    hi: int,
    *,
    tail: bool,
    rungs: Sequence[Rung] = RUNGS,
) -> End:
    """The longest head (or tail) of ``run`` standing in file lines ``[lo, hi)``: at the
    strictest rung that reaches that length, every place it stands. When that rung is a
    loose one whose places no whitespace slip explains (only shifted indentation), the
    places where two lines or more of the end stand as written are kept as well: the
    loose reading may be a copy one level in."""
    line = run[-1] if tail else run[0]
    candidates = keys.positions(line, lo, hi)
    best: End = End(0, Rung.EXACT, ())
    if not candidates or (is_blank(line) and len(candidates) > 64 and len(run) == 1):
        return best
    found: list[End] = []
    for rung in rungs:
        lengths = [(_extent(keys, run, rung, c, lo, hi, -1 if tail else 1), c) for c in candidates]
        longest = max(length for length, _ in lengths)
        if longest:
            floor = min(longest, ENOUGH)
            kept = [(c + 1 if tail else c, length) for length, c in lengths if length >= floor]
            if rung not in _STRICT:
                kept = _slipped_first(keys, run, kept, tail=tail)
            anywhere = tuple(c + 1 if tail else c for c in candidates)
            starts, reach = tuple(c for c, _ in kept), tuple(k for _, k in kept)
            found.append(End(longest, rung, starts, reach, anywhere))
        if longest == len(run):
            break
    if not found:
        return best
    # The strictest rung that reaches far enough: a looser one may only read changed
    # lines (re-indented on purpose) as slipped context.
    enough = min(ENOUGH, max(end.length for end in found))
    chosen = next(end for end in found if end.length >= enough)
    strict = next((end for end in found if end.rung in _STRICT and end.length >= 2), None)
    slipped = any(
        _slipped(keys, run, at, k, tail=tail) for at, k in zip(chosen.starts, chosen.lengths)
    )
    if chosen.rung not in _STRICT and strict is not None and not slipped:
        # the end also stands as written, shorter, and the loose reading is a shift of
        # indentation (no slip explains it): it may be a copy one level in, so the
        # places the end stands as written stay candidates
        extra = [(s, k) for s, k in zip(strict.starts, strict.lengths) if s not in chosen.starts]
        if extra:
            pairs = sorted([*zip(chosen.starts, chosen.lengths), *extra])
            chosen = replace(
                chosen,
                starts=tuple(s for s, _ in pairs),
                lengths=tuple(k for _, k in pairs),
            )
    return chosen


def _as_written(mine: str, theirs: str) -> bool:
    """Whether a run line is a file line as written, or with its tabs written as 4 or 8
    spaces (trailing blanks aside): the indentation it shows is the line's own."""
    if mine.rstrip() == theirs.rstrip():
        return True
    return "\t" in theirs and any(
        mine.rstrip() == theirs.replace("\t", " " * width).rstrip() for width in (4, 8)
    )


def _slipped_first(
    keys: Keys, run: Sequence[str], kept: list[tuple[int, int]], *, tail: bool
) -> list[tuple[int, int]]:
    """The places a loose rung found for an end, narrowed to those where the end is the
    file's lines with their tabs written as spaces, when there are such places and
    others: that slip explains every character, a shift of indentation only some (a
    "}" one level in closes another block)."""
    exact = [(at, length) for at, length in kept if _slipped(keys, run, at, length, tail=tail)]
    return exact if exact else kept


def _slipped(keys: Keys, run: Sequence[str], at: int, length: int, *, tail: bool) -> bool:
    """Whether the ``length`` end lines of a run are the file's lines at ``at`` (a
    head's first line, or a tail's end) with tabs written as 4 or 8 spaces."""
    size = len(run)
    mine = run[size - length :] if tail else run[:length]
    theirs = keys.lines[at - length : at] if tail else keys.lines[at : at + length]
    return any("\t" in line for line in theirs) and any(
        all(a.rstrip() == b.replace("\t", " " * width).rstrip() for a, b in zip(mine, theirs))
        for width in (4, 8)
    )


#: Context lines that place a run's end as well as any longer reach would: every place
#: an end reaches this far is a candidate, not only the place it reaches farthest.
ENOUGH = 3


def _looser(a: Rung, b: Rung) -> Rung:
    """The looser of two rungs (a run's context is as loose as its loosest end)."""
    return a if RUNGS.index(a) >= RUNGS.index(b) else b


def place_run(
    keys: Keys,
    run: Sequence[str],
    lo: int,
    hi: int,
    *,
    open_top: bool,
    open_bottom: bool,
) -> Placement | None:
    """Place ``run`` within original lines ``[lo, hi)``.

    ``open_top`` (``open_bottom``): no marker above (below) the run, so lines of the
    window above its head (below its tail) that it does not show are replaced by it;
    with a marker there, its new first (last) lines are inserted next to its context.

    Returns ``None`` when neither end stands anywhere in the window (but a run with no
    marker on either side, the whole snippet, replaces a window of at most
    :data:`MAX_EDGE_DELETED` lines: the new text of a file too short to show context
    for); a placement with ``others`` > 0 when several fit (the first of them is
    given). A run whose ends fit
    several places is placed by its inner lines when they settle it
    (:func:`_by_rewrite`).
    """
    placed = _by_ends(keys, run, lo, hi, open_top=open_top, open_bottom=open_bottom)
    if placed is not None and placed.others:
        return _by_rewrite(keys, run, lo, hi) or placed
    if placed is None and open_top and open_bottom and hi - lo <= MAX_EDGE_DELETED:
        return Placement(lo, hi, Rung.EXACT, 0, 0)
    return placed


def _by_whole(
    head: End, size: int, lo: int, hi: int, *, open_top: bool, open_bottom: bool
) -> Placement:
    """A run that stands whole in the window (its head is all of it), at its one place,
    or at the place nearest the snippet's open edge (:func:`_nearest_the_edge`), or in
    doubt among its places."""
    whole = head.at(size)
    if len(whole) > 1 and open_top != open_bottom:
        edge = _nearest_the_edge(whole, size, lo, hi, open_top=open_top)
        if edge is not None:
            return Placement(edge, edge + size, head.rung, size, 0)
    placed = Placement(whole[0], whole[0] + size, head.rung, size, 0, len(whole) - 1)
    return placed.several([(w, w + size) for w in whole]) if placed.others else placed


def _nearest_the_edge(
    starts: Sequence[int], size: int, lo: int, hi: int, *, open_top: bool
) -> int | None:
    """Of the places a run stands whole, the one nearest the snippet's open edge (no
    marker above it: the top; none below: the bottom) that leaves file lines beyond it,
    when it leaves :data:`MAX_DELETED` lines at most; ``None`` otherwise.

    A run that changes nothing, at an open edge, is there to show that the lines beyond
    it go (the merge deletes them); where it stands in several places, the place nearest
    that edge deletes the fewest. A place at the very edge deletes nothing, so the run
    would say nothing there."""
    if open_top:
        beyond = [at for at in starts if at > lo]
        first = min(beyond, default=None)
        return first if first is not None and first - lo <= MAX_DELETED else None
    beyond = [at for at in starts if at + size < hi]
    last = max(beyond, default=None)
    return last if last is not None and hi - (last + size) <= MAX_DELETED else None


def _by_ends(
    keys: Keys,
    run: Sequence[str],
    lo: int,
    hi: int,
    *,
    open_top: bool,
    open_bottom: bool,
) -> Placement | None:
    """:func:`place_run` by the run's ends alone."""
    size = len(run)
    if all(is_blank(line) for line in run) and hi > lo:
        # blank lines say nothing about where they go
        spans = [(at, at) for at in range(lo, min(hi, lo + NAMED) + 1)]
        return Placement(lo, lo, Rung.EXACT, 0, 0, hi - lo).several(spans)
    head = find_end(keys, run, lo, hi, tail=False)
    if head.length == size:
        return _by_whole(head, size, lo, hi, open_top=open_top, open_bottom=open_bottom)
    tail = find_end(keys, run, lo, hi, tail=True)
    if head.length and tail.length:
        rung = _looser(head.rung, tail.rung)
        # the tail stands below the head: each starts and ends below the other's start
        # and end; they may share lines (new lines that repeat the context), each end
        # giving up what they share but keeping enough of its own (an end cut down to
        # a line or two places nothing). A tail further than the run's lines plus a
        # deletion the merge would accept is read only when no nearer one is (the merge
        # then refuses the deletion, showing it).
        near, far, far_pairs = _pairs(head, tail, run)
        if not near and far and (blanks := _blanks_slipped(keys, run, lo, hi, head, tail)):
            # only far readings as written: a blank end line may have lost its blanks
            head, tail = blanks
            rung = _looser(head.rung, tail.rung)
            near, far, far_pairs = _pairs(head, tail, run)
        # readings with an end cut down to its telling edge line (what it gives up
        # repeated by new lines)
        cut = _pairs(head, tail, run, cut=True)[0] if len(near) > 1 else []
        if near and not any(_score(keys, run, pair) == 0 for pair in near[:_MAX_PAIRS]):
            # every reading drops a line unshown: one may not, with an end cut down
            cut = cut or _pairs(head, tail, run, cut=True)[0]
            if any(_score(keys, run, pair) == 0 for pair in cut[:_MAX_PAIRS]):
                near = cut
        if near or far:
            one_sided = False
            if near:
                pinned = _alone(head) or _alone(tail)
                chosen, one_sided = _nearest(keys, run, near, rung, (lo, hi, cut), pinned=pinned)
            else:
                chosen, one_sided = _far(keys, run, (head, tail, rung), (lo, hi), far_pairs, far)
            # (a reading settled by one-sided evidence has already weighed the places
            # its short end stands in)
            short = min(chosen.head, chosen.tail) < ENOUGH and not one_sided
            if short and (by_edge := _by_short_end(keys, run, (head, tail), chosen, lo, hi)):
                return by_edge
            if _blind(keys, run, chosen):
                spans, more = _blind_readings(keys, run, head, tail, chosen)
                placed = chosen.several(spans, more=more)
                if placed.others:
                    return placed
                # its one place is in doubt: the places it may have are not all known
                return replace(placed, others=1, every=())
            return chosen
        # the two ends stand apart: the other end of a pinned one may be new lines that
        # repeat the file, but its edge line; else the shorter end is new lines that
        # happen to repeat lines of the file
        kept = _kept_short(keys, run, head, tail, (lo, hi))
        if kept is not None:
            return Placement(kept[0], kept[2], rung, kept[1], kept[3])
        if head.length >= tail.length:
            tail = End(0, tail.rung, ())
        else:
            head = End(0, head.rung, ())
    return _by_one_end(keys, run, head, tail, lo, hi, open_top=open_top, open_bottom=open_bottom)


def _from_the_edge(keys: Keys, run: Sequence[str], pairs: Sequence[Pair]) -> Pair | None:
    """The one reading of a run placed by one end, with no marker on its other side,
    that deletes no line unshown and drops only telling lines its new lines rewrite;
    ``None`` when there is not exactly one.

    With no marker above (below) it, a run whose first (last) lines are new reaches
    the window's edge: the edge pins that side, and its readings differ only in which
    place of the other end they stop at. Each farther one replaces more lines with the
    same new lines, and so deletes lines the snippet never shows (a copyright line
    rewritten at the top of a file: a farther "//" would take the license with it).
    Only an end that says nothing (a blank, a "//", a "}") is read so: an end that says
    something, standing in several places, is context the model chose, and each of its
    places may be the one meant (with the marker beyond the new lines dropped).
    """
    # a reading that deletes nothing unshown covers at most as many lines as the run
    # has (each line it covers is shown or replaced by one): the others need no diff
    kept = [
        pair
        for pair in pairs
        if pair[2] - pair[0] <= len(run)
        and _score(keys, run, pair) == 0
        and _rewritten_only(keys, run, pair) is not None
    ]
    return kept[0] if len(kept) == 1 else None


def _by_short_end(
    keys: Keys, run: Sequence[str], ends: tuple[End, End], chosen: Placement, lo: int, hi: int
) -> Placement | None:
    """A run whose ``chosen`` reading has an end of a line or two, read again by its end
    lines alone (:func:`_short_readings`): it may as well stand where only those lines
    do, the rest of what it shows being new lines. In doubt among those readings, or at
    the one that keeps the most at a pinned end (:func:`_keeps_most`); ``None`` when
    the chosen reading is the only one."""
    head, tail = ends
    readings, more = _short_readings(keys, run, head, tail, chosen, lo, hi)
    if len(readings) <= 1 and not more:
        return None
    by_edges: list[Pair] = [(start, 0, end, 0) for start, end in sorted(readings)]
    inserting = [pair for pair in by_edges if _inserts_only(keys, run, pair)]
    keeping = None if more else _keeps_most(keys, run, by_edges, (lo, hi), inserting)
    if keeping is not None:
        return _placed_at(keys, run, keeping, chosen.rung)
    return chosen.several(sorted(readings), more=more)


def _blanks_slipped(
    keys: Keys, run: Sequence[str], lo: int, hi: int, head: End, tail: End
) -> tuple[End, End] | None:
    """The run's ends found again with trailing blanks aside (each as far as it reached
    as written), when so found they give a near reading; ``None`` otherwise.

    Called when the ends as written give only far readings (around a deletion larger
    than the merge takes): an end line that lost its trailing blanks (a blank line's
    blanks, most often) stands as written only elsewhere, and its own place, near the
    other end, is found this way. Whether the dropped blanks are a slip or a change is
    then told as for any line (:class:`~.slips.Slips`)."""
    loose = (Rung.TRAILING_WHITESPACE,)
    new_head = (
        find_end(keys, run, lo, hi, tail=False, rungs=loose) if head.rung is Rung.EXACT else head
    )
    new_tail = (
        find_end(keys, run, lo, hi, tail=True, rungs=loose) if tail.rung is Rung.EXACT else tail
    )
    if (new_head, new_tail) == (head, tail) or not new_head.length or not new_tail.length:
        return None
    if new_head.length < head.length or new_tail.length < tail.length:
        return None
    near = _pairs(new_head, new_tail, run)[0]
    return (new_head, new_tail) if near else None


def _by_one_end(
    keys: Keys,
    run: Sequence[str],
    head: End,
    tail: End,
    lo: int,
    hi: int,
    *,
    open_top: bool,
    open_bottom: bool,
) -> Placement | None:
    """A run placed by its head alone (or its tail alone): the other end's lines are
    new, and the run reaches the window's edge on an open side. When that end stands
    in several places and says nothing, the edge may settle it
    (:func:`_from_the_edge`)."""
    if head.length:
        starts = head.at(head.length)

        def below(h: int) -> int:
            return max(hi if open_bottom else h + head.length, h + head.length)

        h = starts[0]
        if open_bottom and len(starts) > 1 and not _telling([run[0]]):
            one = _from_the_edge(keys, run, [(s, head.length, below(s), 0) for s in starts])
            if one is not None:
                return Placement(one[0], one[2], head.rung, head.length, 0)
        placed = Placement(h, below(h), head.rung, head.length, 0, len(starts) - 1)
        return placed.several([(s, below(s)) for s in starts]) if placed.others else placed
    if tail.length:
        ends = tail.at(tail.length)

        def above(t: int) -> int:
            return min(lo if open_top else t - tail.length, t - tail.length)

        t = ends[0]
        if open_top and len(ends) > 1 and not _telling([run[-1]]):
            one = _from_the_edge(keys, run, [(above(e), 0, e, tail.length) for e in ends])
            if one is not None:
                return Placement(one[0], one[2], tail.rung, 0, tail.length)
        placed = Placement(above(t), t, tail.rung, 0, tail.length, len(ends) - 1)
        return placed.several([(above(e), e) for e in ends]) if placed.others else placed
    return None


Pair = tuple[int, int, int, int]


def _pairs(
    head: End, tail: End, run: Sequence[str], *, cut: bool = False
) -> tuple[list[Pair], int, list[Pair]]:
    """The (head start, head length, tail end, tail length) readings of a run: those
    within its size plus :data:`MAX_DELETED` lines (near), how many further ones there
    are, and the first :data:`NAMED` of those. Tails are looked up by position, not tried one by one
    against every head (a "}" may stand hundreds of times).

    Where the ends overlap, each gives up what they share (new lines that repeat the
    context) but keeps :data:`ENOUGH` lines of its own, or all it had; with ``cut``,
    its edge line alone is enough when it is a telling line standing once, or when the
    end, two lines or more as read, stands in one place only (:func:`_alone`), and what
    the end gives up holds no telling line (a "}" or a blank, which new lines repeat)."""
    size = len(run)
    once_head = cut and (_once(run[0], head.anywhere) or _alone(head))
    once_tail = cut and (_once(run[-1], tail.anywhere) or _alone(tail))
    tails = sorted(zip(tail.starts, tail.lengths))
    ends = [t for t, _ in tails]
    near: list[Pair] = []
    far = 0
    far_pairs: list[Pair] = []
    for h, hk in zip(head.starts, head.lengths):
        reach = bisect_right(ends, h + size + MAX_DELETED)
        for t, tk in tails[bisect_right(ends, h + 1) : reach]:
            room = t - h - 1
            keeps_head = min(hk, room) >= min(hk, ENOUGH) or (
                once_head and _telling(run[min(hk, room) : hk]) == 0
            )
            keeps_tail = min(tk, room) >= min(tk, ENOUGH) or (
                once_tail and _telling(run[size - tk : size - min(tk, room)]) == 0
            )
            if keeps_head and keeps_tail:
                near.append((h, min(hk, room), t, min(tk, room)))
        if reach < len(tails):
            far_pairs.extend((h, hk, t, tk) for t, tk in tails[reach : reach + NAMED])
            far += len(tails) - reach
    return near, far, far_pairs[:NAMED]


def _blind(keys: Keys, run: Sequence[str], chosen: Placement) -> bool:
    """Whether a reading between ends that say nothing (a "}", a blank), one of them a
    single line, drops lines unshown, telling ones among them that no new line
    rewrites: such ends stand anywhere, and the lines they frame may as well be kept
    beside the new lines."""
    ends = [*run[: chosen.head], *run[len(run) - chosen.tail :]]
    pair = (chosen.start, 0, chosen.end, 0)
    return (
        min(chosen.head, chosen.tail) < 2
        and not _telling(ends)
        and _score(keys, run, pair) < 0
        and _rewritten_only(keys, run, pair) is None
    )


def _blind_readings(
    keys: Keys, run: Sequence[str], head: End, tail: End, chosen: Placement
) -> tuple[list[tuple[int, int]], bool]:
    """The spans a run between ends that say nothing (:func:`_blind`) may cover: its
    place, and every place its edge lines stand around as many lines or fewer (the
    lines it frames kept beside its new lines, at most the whole run); and whether
    there are more than were looked at."""
    reach = chosen.end - chosen.start
    found, more = _spans(keys, run, head.anywhere, tail.anywhere, 2, chosen.rung)
    return sorted(span for span in found if span[1] - span[0] <= max(reach, len(run))), more


def _far(
    keys: Keys,
    run: Sequence[str],
    ends: tuple[End, End, Rung],
    window: tuple[int, int],
    far_pairs: Sequence[Pair],
    far: int,
) -> tuple[Placement, bool]:
    """The placement of a run whose ends stand only too far apart (``far`` readings,
    the first of them ``far_pairs``), and whether it is settled: by the one reading
    that keeps what it says with the other end cut down to its edge line
    (:func:`_kept_short`), or else the first far reading, in doubt when there are more."""
    head, tail, rung = ends
    kept = _kept_short(keys, run, head, tail, window)
    if kept is not None:
        return Placement(kept[0], kept[2], rung, kept[1], kept[3]), True
    h, hk, t, tk = far_pairs[0]
    chosen = Placement(h, t, rung, hk, tk, far - 1)
    if far > 1:
        chosen = chosen.several([(p[0], p[2]) for p in far_pairs])
    return chosen, False


def _kept_short(
    keys: Keys, run: Sequence[str], head: End, tail: End, window: tuple[int, int]
) -> Pair | None:
    """For a run whose other end stands only too far from its pinned end (a telling
    edge line standing once, or an end standing once as a block), or only apart from
    it (above a head, below a tail): the one reading, that end with the other one's
    edge line alone wherever it stands as written within reach, that keeps what it
    says (:func:`_keeps_what_it_says`); ``None`` otherwise.

    The other end, as read, is then new lines that repeat the file ("}", a blank)
    followed by its edge line: read whole it stands only where the run would delete
    more than the merge takes unshown, or nowhere the run can be.
    """
    size, lines = len(run), keys.lines
    readings: list[Pair] = []
    # the edge line read alone stands where it is as written (its own indentation:
    # a "}" one level in closes another block)
    if _alone(head) or _once(run[0], head.anywhere):
        for h, hk in zip(head.starts, head.lengths):
            ends = tail.anywhere[bisect_right(tail.anywhere, h + 1) :]
            for t in ends[: bisect_right(ends, h + size + MAX_DELETED)]:
                if _as_written(run[-1], lines[t - 1]):
                    readings.append((h, max(1, min(hk, t - h - 1)), t, 1))
    elif _alone(tail) or _once(run[-1], tail.anywhere):
        for t, tk in zip(tail.starts, tail.lengths):
            starts = head.anywhere[: bisect_left(head.anywhere, t - 1)]
            for h in starts[bisect_left(starts, t - size - MAX_DELETED) :]:
                if _as_written(run[0], lines[h]):
                    readings.append((h, 1, t, max(1, min(tk, t - h - 1))))
    readings = list(dict.fromkeys(readings))[:_MAX_PAIRS]
    inserting = [pair for pair in readings if _inserts_only(keys, run, pair)]
    return _keeps_what_it_says(keys, run, readings, window, inserting, pinned=True)


def _alone(end: End) -> bool:
    """Whether an end, two lines or more as read, stands in one place only: together
    its lines say where the run is, though each alone (a "}", a blank) stands anywhere."""
    return len(end.starts) == 1 and end.lengths[0] >= 2


def _telling(lines: Sequence[str]) -> int:
    """How many of ``lines`` say something: four characters or more, a letter or digit
    among them (not a "})" or a blank, which stand anywhere)."""
    return sum(1 for line in lines if len(line.strip()) >= 4 and any(c.isalnum() for c in line))


def _once(line: str, places: Sequence[int]) -> bool:
    """Whether a telling line stands at one place only."""
    return len(places) == 1 and _telling([line]) == 1


def _pinned_edges(keys: Keys, run: Sequence[str], lo: int, hi: int) -> tuple[bool, bool]:
    """Whether the run's first line, and its last line, is a telling line standing once
    in the window ``[lo, hi)`` (that end is pinned there)."""
    first, last = run[0], run[-1]
    return _once(first, keys.positions(first, lo, hi)), _once(last, keys.positions(last, lo, hi))


def _short_readings(
    keys: Keys, run: Sequence[str], head: End, tail: End, chosen: Placement, lo: int, hi: int
) -> tuple[set[tuple[int, int]], bool]:
    """The (start, end) spans a run could cover when an end of fewer than
    :data:`ENOUGH` lines is taken by its edge line alone, wherever that line stands. An
    end of two telling lines or more keeps its own places, unless the other end has one
    telling line at most (then this one may have been read too long, over new lines
    that repeat the file). When the reading drops no line unshown, or the end reaches
    :data:`ENOUGH` lines, an end holding a telling line that stands once in the window
    ``[lo, hi)`` stands where it was read or further out (around a deletion): further
    in, that line would be a new copy of a line the file has once, right beside copies
    of its neighbours. Capped at :data:`_MAX_READINGS` spans (the flag returned says
    the cap was reached): many is many.

    An end whose edge line is a telling line standing once fixes the run there, and
    the other end, if :data:`ENOUGH` lines long, keeps its own places when the reading
    drops no line unshown, or when that end holds a telling line standing once too
    (both ends are then where they read, and what the run leaves out between them is
    a deletion it spells out). The edge lines of a run read at a rung that keeps
    indentation stand at their own indentation, and so does an edge line of a run
    read loosely that stands where it was read as written (tabs written as spaces
    aside)."""
    size = len(run)
    lone = min(_telling(run[: chosen.head]), _telling(run[size - chosen.tail :])) < 2
    # A telling edge line that stands once is where the run is; then the other end, if
    # long enough and the reading drops no line unshown, keeps its own places (it was
    # not read too long over new lines: they would leave the file's copy beside them).
    settled = _score(keys, run, (chosen.start, 0, chosen.end, 0)) == 0
    head_pinned = _pinned(keys, run[: chosen.head], lo, hi)
    tail_pinned = _pinned(keys, run[size - chosen.tail :], lo, hi)
    fixed_head = chosen.tail >= ENOUGH and _once(run[0], head.anywhere) and (settled or tail_pinned)
    fixed_tail = (
        chosen.head >= ENOUGH and _once(run[-1], tail.anywhere) and (settled or head_pinned)
    )
    own_heads = chosen.head >= 2 and (not lone or fixed_tail)
    own_tails = chosen.tail >= 2 and (not lone or fixed_head)
    heads = head.at(chosen.head) if own_heads else head.anywhere
    tails = tail.at(chosen.tail) if own_tails else tail.anywhere
    if (settled or chosen.head >= ENOUGH) and head_pinned:
        # not below: its telling line would be new there; above, the lines between
        # its edge line and the telling one may be deleted
        heads = tuple(h for h in heads if h <= chosen.start)
    if (settled or chosen.tail >= ENOUGH) and tail_pinned:
        tails = tuple(t for t in tails if t >= chosen.end)
    if chosen.rung in _STRICT:
        # the run's context stands at its own indentation: an edge line read alone
        # stands at that indentation too (a "}" one level out closes another block)
        n = len(keys.lines)
        heads = tuple(h for h in heads if _extent(keys, run, chosen.rung, h, 0, n, 1))
        tails = tuple(t for t in tails if t and _extent(keys, run, chosen.rung, t - 1, 0, n, -1))
    else:
        # context read loosely (slipped lines elsewhere in it): an edge line that stands
        # where it was read as written, or with its tabs written as spaces, stands so
        # wherever it is read alone
        lines = keys.lines
        if chosen.head and _as_written(run[0], lines[chosen.start]):
            heads = tuple(h for h in heads if _as_written(run[0], lines[h]))
        if chosen.tail and _as_written(run[-1], lines[chosen.end - 1]):
            tails = tuple(t for t in tails if t and _as_written(run[-1], lines[t - 1]))
    need = 2 if lone else max(2, chosen.head, chosen.tail)
    spans, more = _spans(keys, run, heads, tails, need, chosen.rung)
    return spans, more or len(heads) * len(tails) > _MAX_READINGS**2


def _spans(
    keys: Keys,
    run: Sequence[str],
    heads: Sequence[int],
    tails: Sequence[int],
    need: int,
    rung: Rung,
) -> tuple[set[tuple[int, int]], bool]:
    """The (start, end) spans of a run from its heads' starts and tails' ends (both
    sorted), covering ``need`` lines to its size plus :data:`MAX_DELETED`, where
    reading it cuts no telling end (:func:`_cuts_telling`); at most
    :data:`_MAX_READINGS` of them, and whether there are more."""
    size = len(run)
    found: set[tuple[int, int]] = set()
    for h in heads:
        for t in tails[bisect_left(tails, h + need) : bisect_right(tails, h + size + MAX_DELETED)]:
            if not _cuts_telling(keys, run, h, t, rung):
                if len(found) == _MAX_READINGS:
                    return found, True
                found.add((h, t))
    return found, False


def _pinned(keys: Keys, end: Sequence[str], lo: int, hi: int) -> bool:
    """Whether a run's end, as read, holds a telling line that stands once in the
    window (read there, exactly, beside the end's other lines)."""
    return any(_telling([line]) and len(keys.positions(line, lo, hi)) == 1 for line in end)


def _cuts_telling(keys: Keys, run: Sequence[str], h: int, t: int, rung: Rung) -> bool:
    """Whether reading a run at file lines ``[h, t)`` by its edge lines alone cuts off
    an end that goes on matching the file there with a telling line: its head, read on
    from ``h``, runs over the place of its last line (or its tail, read up from ``t``,
    over the place of its first line), so that reading would add, as new lines, copies
    of the very lines it stands before (a "next();" right above the file's "next();").
    New lines that repeat the file that way are a "}" or a blank, not a telling line."""
    size, room = len(run), t - h - 1
    n = len(keys.lines)
    a = _extent(keys, run, rung, h, 0, n, 1)
    if a > room and _telling(run[room : min(a, size - 1)]):
        return True
    b = _extent(keys, run, rung, t - 1, 0, n, -1)
    return b > room and bool(_telling(run[max(size - b, 1) : size - room]))


def _nearest(
    keys: Keys,
    run: Sequence[str],
    pairs: list[tuple[int, int, int, int]],
    rung: Rung,
    window: tuple[int, int, Sequence[Pair]],
    *,
    pinned: bool = False,
) -> tuple[Placement, bool]:
    """The reading of a run among (head start, head length, tail end, tail length)
    pairs: when one end stands in one place, the one reading that deletes no original
    line without showing what takes its place, when every other one does (nothing is
    deleted that the snippet does not spell out); several otherwise.

    An end of one line ("}", a blank), or both ends standing in several places (then a
    reading that only inserts is found almost anywhere), settles it only on one-sided
    evidence (:func:`_one_sided`) or by the one reading that deletes nothing at all
    when an end is a telling line standing once (:func:`_pinned_insert`), looked for
    among ``pairs`` and the readings with an end cut down (``window``: the original
    lines ``[lo, hi)`` searched and those readings); the flag returned says the reading
    was settled so; so is the one reading that keeps every telling line and deletes
    none, at such an end (``pinned``: an end standing once as a block counts as one)
    or at none, when its new lines are lines the window lacks
    (:func:`_keeps_what_it_says`), and the nearest reading when it deletes one line
    unshown at most and every other deletes more (:func:`_deletes_one_shown_line`). Of
    several readings that delete
    nothing, those putting the new lines
    between two blank lines of the file are out (:func:`_splits_blanks`); a reading
    settled otherwise while another one that deletes nothing stays is in doubt.
    Ends of :data:`ENOUGH` lines or more also settle it by the one reading that drops
    no telling line its new lines do not rewrite (the others replace text, a section or
    a function, with lines that have nothing to do with it). A reading that adds
    re-indented copies of lines it keeps beside it is out (:func:`_copies_beside`).
    """
    one_end = len({p[0] for p in pairs}) == 1 or len({p[2] for p in pairs}) == 1
    spans = [(p[0], p[2]) for p in pairs]
    if len(pairs) == 1 or len(pairs) > _MAX_PAIRS:
        h, hk, t, tk = pairs[0]
        placed = Placement(h, t, rung, hk, tk, len(pairs) - 1)
        return (placed.several(spans) if placed.others else placed), False
    scored = sorted(((_score(keys, run, p), p) for p in pairs), reverse=True)
    (best, (h, hk, t, tk)), (second, _) = scored[0], scored[1]
    # only one reading shows every line it drops, and it is anchored by more than a
    # line at each end (a lone line, "}" or a blank, stands anywhere) or the evidence
    # for it is one-sided
    settled = one_end and best == 0 and second < 0 and min(hk, tk) >= 2
    one_sided = (
        not settled
        and best == 0
        and second < 0
        and _one_sided(keys, run, (h, hk, t, tk), [p for _, p in scored[1:]])
    )
    left = [p for p in pairs if not _copies_beside(keys, run, p, pairs)]
    if one_end and len(left) < len(pairs):
        # a reading that adds, as new lines, re-indented copies of lines that another
        # reading covers as the run's own is out: the model re-indented those lines
        settled = (
            len(left) == 1
            and min(left[0][1], left[0][3]) >= 2
            and _rewritten_only(keys, run, left[0]) is not None
        )
        one_sided = False
        if settled:
            h, hk, t, tk = left[0]
    if not settled and not one_sided and one_end:
        # ends of three lines or more each: the one reading that drops no telling line
        # its new lines do not rewrite (the others drop text the snippet never shows)
        kept = [p for p in pairs if _rewritten_only(keys, run, p) is not None]
        if len(kept) == 1 and min(kept[0][1], kept[0][3]) >= ENOUGH:
            h, hk, t, tk = kept[0]
            settled = True
    lo, hi, cut = window
    readings = list(dict.fromkeys([*pairs, *cut[:_MAX_PAIRS]]))
    every = [p for p in readings if _inserts_only(keys, run, p)]
    bare = every
    if len(every) > 1:
        whole = [p for p in every if not _splits_blanks(keys, run, p)]
        if len(whole) == 1:
            # the others put new lines between two blank lines of the file
            bare = whole
    if (settled or one_sided) and (h, hk, t, tk) in every and bare != [(h, hk, t, tk)]:
        # another reading only inserts as well (the run's edge blank line is new or
        # the file's): where the new lines go is in doubt
        settled = one_sided = False
    if (
        not settled
        and not one_sided
        and len(bare) == 1
        and _pinned_insert(keys, run, bare[0], readings, lo, hi)
    ):
        (h, hk, t, tk), one_sided = bare[0], True
    if not settled and not one_sided:
        keeping = _keeps_most(keys, run, readings, (lo, hi), every, pinned=pinned)
        if keeping is not None:
            (h, hk, t, tk), one_sided = keeping, True
    if not settled and not one_sided and (taken := _by_its_lines(keys, run, pairs, bare, lo, hi)):
        (h, hk, t, tk), one_sided = taken, True
    placed = Placement(h, t, rung, hk, tk)
    return (placed if settled or one_sided else placed.several(spans)), one_sided


def _keeps_most(
    keys: Keys,
    run: Sequence[str],
    readings: Sequence[Pair],
    window: tuple[int, int],
    inserting: Sequence[Pair],
    *,
    pinned: bool = False,
) -> Pair | None:
    """The reading of a run that deletes the least the snippet does not show, when the
    others all delete more: :func:`_keeps_what_it_says` (``inserting``: the readings
    that only insert; ``pinned``: an end known to stand in one place), else, at a
    pinned end, :func:`_deletes_one_shown_line`; ``None`` when neither settles it."""
    keeping = _keeps_what_it_says(keys, run, readings, window, inserting, pinned=pinned)
    if keeping is not None:
        return keeping
    return _deletes_one_shown_line(keys, run, readings, *window)


def _placed_at(keys: Keys, run: Sequence[str], pair: Pair, rung: Rung) -> Placement:
    """A run placed at the span of a reading found by its edge lines alone (as
    :func:`_short_readings` reads it): its head and tail are those edge lines where
    they stand there (as :class:`Keys` finds them), the lines between diffed against
    the span; ``rung`` is the run's context's."""
    h, _, t, _ = pair
    head = 1 if t > h and keys.positions(run[0], h, h + 1) else 0
    room = len(run) > 1 and t - h > head
    tail = 1 if room and keys.positions(run[-1], t - 1, t) else 0
    return Placement(h, t, rung, head, tail)


def _by_its_lines(
    keys: Keys, run: Sequence[str], pairs: Sequence[Pair], bare: Sequence[Pair], lo: int, hi: int
) -> Pair | None:
    """The reading of a run its own lines settle, when no other rule did: the nearest,
    when it alone deletes nothing (:func:`_inserts_nearest`), or, unless a reading
    between ends of :data:`ENOUGH` lines only inserts, the one holding every line the
    run shares with the file once (:func:`_covers_its_lines`)."""
    if _inserts_nearest(pairs, bare):
        return bare[0]
    if any(min(p[1], p[3]) >= ENOUGH for p in bare):
        # a reading that only inserts, between ends that say where: its new lines may
        # copy a neighbour's (a sibling added beside it)
        return None
    return _covers_its_lines(keys, run, pairs, lo, hi)


def _covers_its_lines(
    keys: Keys, run: Sequence[str], pairs: Sequence[Pair], lo: int, hi: int
) -> Pair | None:
    """The one reading of ``pairs`` whose span holds every telling line of the run that
    stands once in the window ``[lo, hi)``, when it drops fewer than
    :data:`MAX_DELETED` lines unshown in all; ``None`` otherwise.

    A reading that leaves such a line outside its span writes the run's copy of it as
    a new line and keeps the file's: the one line the file has would stand twice, and
    the lines the run shows around it would be read as new beside their own originals
    (a long run ending on a "}" that stands all over the window). The run's lines are
    where the file has them.
    """
    once: list[int] = []
    for line in run:
        if _telling([line]):
            places = keys.positions(line, lo, hi)
            if len(places) == 1:
                once.append(places[0])
    if not once:
        return None
    covering = [p for p in pairs if all(p[0] <= at < p[2] for at in once)]
    if len(covering) != 1 or _score(keys, run, covering[0]) <= -MAX_DELETED:
        return None
    return covering[0]


def _inserts_nearest(pairs: Sequence[Pair], bare: Sequence[Pair]) -> bool:
    """Whether the one reading of a run that deletes no file line (``bare``, of every
    reading looked at) is also the nearest of ``pairs`` and holds :data:`ENOUGH` lines
    or more at each end.

    Its ends, three lines each, stand as one stretch of the file around the new lines;
    every other reading stretches an end to a copy of its lines further off and
    replaces the file lines between with some of the new ones (a neighbour function
    rewritten into the one added). The snippet shows none of those lines, so nothing
    says they go: the reading that deletes nothing is taken. With ends of a line or two
    the copies are too common to tell the neighbour from the run's own context, and
    the run stays in doubt (snippet_sibling_copy_added_or_rewritten_refused).
    """
    if len(bare) != 1 or bare[0] not in pairs or min(bare[0][1], bare[0][3]) < ENOUGH:
        return False
    h, _, t, _ = bare[0]
    return t - h == min(p[2] - p[0] for p in pairs)


def _keeps_what_it_says(
    keys: Keys,
    run: Sequence[str],
    readings: Sequence[Pair],
    window: tuple[int, int],
    inserting: Sequence[Pair],
    *,
    pinned: bool = False,
) -> Pair | None:
    """The one reading of a run, at a pinned end, that deletes no file line (the one of
    ``inserting``, the readings that only insert), when every other reading deletes a
    telling file line that no new line of the run rewrites; ``None`` otherwise.

    One end is a telling line standing once in the ``window`` (original lines
    ``[lo, hi)``), or is known to stand in one place (``pinned``: an end of two lines
    or more standing once as a block, :func:`_alone`), so the readings differ in how
    far the other end (a "}", a blank) reaches. The reading
    taken only inserts the run's new lines; each other one would delete text the
    snippet neither shows nor rewrites. New lines that repeat lines of the window (a
    test copied from its neighbour) do not stop it, unlike :func:`_pinned_insert`:
    a reading that replaces the neighbour with its copy rewrites what it drops, so it
    is among the readings kept and the run stays in doubt.

    With no end pinned (both end lines stand in several places, or say nothing), the
    readings are those of every place in the window, and the one reading is taken
    only when, besides, its telling new lines stand nowhere in the window (a block
    that copies lines of the file may go beside any of its copies) and the run does
    not read as a block added elsewhere (:func:`_inserts_elsewhere`).
    """
    # a reading that only inserts drops nothing, so it is among those kept: the one
    # kept is the one of ``inserting`` (the readings that only insert), or none is
    if len(inserting) != 1:
        return None
    (only,) = inserting
    lo, hi = window
    # no end pinned: only a block of lines the window lacks, that does not read as
    # added elsewhere as well, is where it says
    if (
        not pinned
        and not any(_pinned_edges(keys, run, lo, hi))
        and (not _only_new(keys, run, only, lo, hi) or _inserts_elsewhere(keys, run, lo, hi, only))
    ):
        return None
    if any(pair != only and _rewritten_only(keys, run, pair) is not None for pair in readings):
        return None
    return only


def _deletes_one_shown_line(
    keys: Keys, run: Sequence[str], readings: Sequence[Pair], lo: int, hi: int
) -> Pair | None:
    """The nearest reading of a run at a pinned end, when it deletes a telling file line
    that no new line rewrites, at most one line more than the new lines it puts in their
    place, and every other reading reaches further and deletes more; ``None`` otherwise.

    One end is a telling line standing once in the window ``[lo, hi)``; the other (a
    "}", a blank) stands in several places. The nearest reading is a line deleted (or
    lines replaced) between the two lines the snippet shows on either side of it, as
    one line of context around a deleted line reads; every farther one deletes that
    line and more the snippet never shows, a copy of the run's own end line among them.
    Taking the nearest never deletes more than the snippet spells out. A nearest
    reading whose new lines rewrite the lines it drops is not taken here: a commit may
    rewrite a line and delete the block beside it, and the rewrite stands in both
    readings alike. Nor one whose new lines stand elsewhere in the window: they may be
    lines the run shows as they stand, further on, where a farther reading keeps them.
    """
    first, last = run[0], run[-1]
    pinned_first, pinned_last = _pinned_edges(keys, run, lo, hi)
    if not (pinned_first or pinned_last) or _telling([last if pinned_first else first]):
        return None  # the other end is a telling line: it may begin a farther stretch
    by_reach = sorted(readings, key=lambda pair: pair[2] - pair[0])
    nearest = by_reach[0]
    reach = nearest[2] - nearest[0]
    if len(by_reach) > 1 and by_reach[1][2] - by_reach[1][0] == reach:
        return None
    score = _score(keys, run, nearest)
    if score < -1 or _rewritten_only(keys, run, nearest) is not None:
        return None
    h, _, t, _ = nearest
    shown = {line.strip() for line in keys.lines[h:t]}
    if any(
        _telling([line]) and line.strip() not in shown and keys.positions(line, lo, hi)
        for line in run
    ):
        return None  # a new line stands in the window: the run may reach further
    if any(_score(keys, run, pair) >= score for pair in by_reach[1:]):
        return None
    return nearest


def _inserts_only(keys: Keys, run: Sequence[str], pair: Pair) -> bool:
    """Whether a reading of a run deletes no file line at all: every line of its span
    is a line of the run, the run's other lines are inserted between them."""
    h, _, t, _ = pair
    span = [line.strip() for line in keys.lines[h:t]]
    ops = matcher_opcodes(span, [line.strip() for line in run])
    return all(i1 == i2 for tag, i1, i2, _, _ in ops if tag != "equal")


def _splits_blanks(keys: Keys, run: Sequence[str], pair: Pair) -> bool:
    """Whether a reading of a run that only inserts, its head and tail side by side in
    the file, puts its new lines between two blank lines of the file (splitting a run
    of blank lines, which a model adding a block before or after them leaves whole)."""
    h, hk, t, tk = pair
    at = h + hk  # the new lines go right before this file line
    if t - h != hk + tk or len(run) == hk + tk or not 0 < at < len(keys.lines):
        return False
    return is_blank(keys.lines[at - 1]) and is_blank(keys.lines[at])


def _pinned_insert(
    keys: Keys, run: Sequence[str], pair: Pair, others: Sequence[Pair], lo: int, hi: int
) -> bool:
    """Whether ``pair``, the one reading of a run that deletes no file line, is what
    the run says: one of its end lines is a telling line standing once in the window
    (so every reading shares that end and they differ only in how far the other end,
    a line standing in several places, reaches), its telling new lines stand nowhere
    in the window (none is context read at the wrong place), none of the ``others``
    readings rewrites what it drops (it drops nothing unshown and only telling lines
    its new lines are versions of: the run may as well replace a sibling block it is a
    near copy of), and the run does not read as well as a block added elsewhere
    (:func:`_inserts_elsewhere`).

    Every other reading reaches further and deletes file lines the snippet never
    shows; this one deletes nothing. Taking it never deletes a line silently: at
    worst it keeps lines a model meant to delete without showing them, which the
    snippet did not spell out.
    """
    if not any(_pinned_edges(keys, run, lo, hi)):
        return False
    if not _only_new(keys, run, pair, lo, hi):
        return False
    if any(
        other != pair
        and _score(keys, run, other) == 0
        and not _inserts_only(keys, run, other)
        and _rewritten_only(keys, run, other) is not None
        for other in others
    ):
        return False
    return not _inserts_elsewhere(keys, run, lo, hi, pair)


#: Telling new lines of a reading that must be re-indented copies of lines another
#: reading covers for the reading to be read as a copy beside them.
_COPIES = 2


def _copies_beside(keys: Keys, run: Sequence[str], pair: Pair, pairs: Sequence[Pair]) -> bool:
    """Whether a reading of a run adds, as new lines, telling lines that differ only in
    whitespace from file lines it keeps right beside its span and that another reading
    covers (:data:`_COPIES` or more): it would leave the old version of a re-indented
    block next to the new one, where the other reading re-indents it."""
    h, _, t, _ = pair
    span = [line.strip() for line in keys.lines[h:t]]
    added: dict[str, set[str]] = {}
    for tag, _, _, j1, j2 in matcher_opcodes(span, [line.strip() for line in run]):
        if tag != "equal":
            for line in run[j1:j2]:
                if _telling([line]):
                    added.setdefault(line.strip(), set()).add(line)
    if len(added) < _COPIES:
        return False
    for oh, _, ot, _ in pairs:
        if (oh, ot) == (h, t) or oh > h or ot < t:
            continue
        beside = [*keys.lines[oh:h], *keys.lines[t:ot]]
        copies = {
            line.strip()
            for line in beside
            if line.strip() in added and line not in added[line.strip()]
        }
        if len(copies) >= _COPIES:
            return True
    return False


# Readings of a run compared line by line at most (more: the run is refused as placed
# in several ways).
_MAX_READINGS = 16

# Readings of a run scored at most when its ends both stand in several places (each
# score is a diff of the run against a span of at most its size plus MAX_DELETED).
_MAX_PAIRS = 64


# Words of a line, for telling a rewritten line from an unrelated one.
_WORD = re.compile(r"\w{3,}")


def _similar(a: str, b: str) -> bool:
    """Whether two lines look like versions of one line: three words in common (or two
    among few), or half their characters alike."""
    a, b = a.strip(), b.strip()
    wa, wb = set(_WORD.findall(a)), set(_WORD.findall(b))
    shared = len(wa & wb)
    if shared >= 3 or (shared >= 2 and shared * 5 >= len(wa | wb)):
        return True
    m = SequenceMatcher(None, a, b, autojunk=False)
    return m.real_quick_ratio() >= 0.5 and m.quick_ratio() >= 0.5 and m.ratio() >= 0.5


def _one_sided(keys: Keys, run: Sequence[str], best: Pair, others: Sequence[Pair]) -> bool:
    """Whether everything speaks for ``best``, the one reading of a run that drops no
    line unshown, over the ``others`` (farther places of its one-line end): every
    telling file line it drops is rewritten by a new line of the run, and no telling
    line that only the others would drop looks like a new line of the run (had the
    model meant a farther place, the new lines would be rewrites of those lines, and
    the nearest reading would keep the old version beside the new one)."""
    h, _, t, _ = best
    new = _rewritten_only(keys, run, best)
    if new is None or _inserts_elsewhere(keys, run, 0, len(keys.lines), best):
        return False
    for oh, _, ot, _ in others:
        beyond = [*keys.lines[min(oh, h) : h], *keys.lines[t : max(ot, t)]]
        if any(_telling([line]) and any(_similar(line, n) for n in new) for line in beyond):
            return False
    return True


def _rewritten_only(keys: Keys, run: Sequence[str], pair: Pair) -> list[str] | None:
    """The telling new lines of a reading of a run, when every telling file line it
    drops is rewritten by one of the new lines that take its place; ``None`` when it
    drops a line that says something and is not rewritten there."""
    h, _, t, _ = pair
    span = [line.strip() for line in keys.lines[h:t]]
    new: list[str] = []
    for tag, i1, i2, j1, j2 in matcher_opcodes(span, [line.strip() for line in run]):
        if tag == "equal":
            continue
        added = [line for line in run[j1:j2] if _telling([line])]
        if any(_telling([gone]) and not any(_similar(gone, n) for n in added)
               for gone in span[i1:i2]):  # fmt: skip
            return None
        new.extend(added)
    return new


#: How alike (rapidfuzz's ratio, 0-100) a new line of a run and a file line must be for
#: the new line to read as that line rewritten (a version bumped, a word corrected).
REWRITTEN = 80.0

#: How much less alike than the closest one another file line must be not to count as
#: what the new line may rewrite as well (lines as alike are all candidates).
MARGIN = 20.0

# New lines of a run looked up as rewrites at most (each is compared with the window).
_MAX_REWRITES = 8


def _rewrites(
    keys: Keys, run: Sequence[str], lo: int, hi: int
) -> list[tuple[int, tuple[int, ...]]]:
    """For the telling lines of the run that stand nowhere in the window but read as a
    line of it rewritten: the run line, and every window line it may rewrite (as alike
    as the closest one, give or take :data:`MARGIN`)."""
    from rapidfuzz import fuzz, process  # only for runs in doubt: slow to import

    window: list[str] | None = None
    found: list[tuple[int, tuple[int, ...]]] = []
    looked = 0
    for j, line in enumerate(run):
        if looked >= _MAX_REWRITES:
            break
        if not _telling([line]) or keys.positions(line, lo, hi):
            continue
        looked += 1
        if window is None:
            window = [text.strip() for text in keys.lines[lo:hi]]
        hits = process.extract(
            line.strip(), window, scorer=fuzz.ratio, score_cutoff=REWRITTEN - MARGIN, limit=None
        )
        best = max((score for _, score, _ in hits), default=0.0)
        if best >= REWRITTEN:
            found.append(
                (j, tuple(sorted(lo + i for _, score, i in hits if score >= best - MARGIN)))
            )
    return found


def _by_rewrite(keys: Keys, run: Sequence[str], lo: int, hi: int) -> Placement | None:
    """The one reading of a run whose ends fit several places that its inner lines
    settle: new lines that read as window lines rewritten point at the lines the run
    replaces. Taken only when exactly one reading replaces, for each such new line, a
    line it may rewrite, drops no line unshown, drops only telling lines its new lines
    rewrite, and shows as new no line that stands in the window; ``None`` otherwise
    (the run stays in doubt).

    A model that meant to add those new lines elsewhere would leave, beside them, a
    line they are near copies of; one that meant to rewrite the line shows it here.
    """
    size = len(run)
    head = find_end(keys, run, lo, hi, tail=False)
    tail = find_end(keys, run, lo, hi, tail=True)
    if not head.length or not tail.length or head.length == size:
        return None
    anchors = _rewrites(keys, run, lo, hi)
    if not anchors:
        return None
    near, _, _ = _pairs(head, tail, run)
    around = [
        (h, hk, t, tk)
        for h, hk, t, tk in near
        if all(
            hk <= j < size - tk and any(h + hk <= i < t - tk for i in lines) for j, lines in anchors
        )
    ]
    fits = [p for p in around if _score(keys, run, p) == 0 and _only_new(keys, run, p, lo, hi)]
    if len(fits) != 1:
        return None
    if _inserts_elsewhere(keys, run, lo, hi, fits[0]):
        return None
    if len(around) > 1 and not _all_rewrites(keys, run, fits[0]):
        # a wider reading around the same lines drops more: the new lines it reads as
        # added here may as well replace the lines it drops (the old text left beside)
        return None
    h, hk, t, tk = fits[0]
    return Placement(h, t, _looser(head.rung, tail.rung), hk, tk)


def _only_new(keys: Keys, run: Sequence[str], pair: Pair, lo: int, hi: int) -> bool:
    """Whether a reading of a run drops only telling lines its new lines rewrite, and
    its telling new lines stand nowhere in the window (one that does may be context
    read at the wrong place: the reading would then be too short)."""
    new = _rewritten_only(keys, run, pair)
    return new is not None and not any(keys.positions(line, lo, hi) for line in new)


def _all_rewrites(keys: Keys, run: Sequence[str], pair: Pair) -> bool:
    """Whether every telling new line of a reading takes the place of a file line it
    reads as a version of (no line is only added)."""
    h, _, t, _ = pair
    span = [line.strip() for line in keys.lines[h:t]]
    for tag, i1, i2, j1, j2 in matcher_opcodes(span, [line.strip() for line in run]):
        if tag != "equal" and any(
            _telling([line]) and not any(_similar(line, gone) for gone in span[i1:i2])
            for line in run[j1:j2]
        ):
            return False
    return True


def _inserts_elsewhere(keys: Keys, run: Sequence[str], lo: int, hi: int, pair: Pair) -> bool:
    """Whether the run, read at ``pair`` as rewriting lines of the file, also reads as
    only adding lines elsewhere in ``[lo, hi)``: its first lines and its last lines
    (a telling one among them) stand right next to each other there, its lines between
    new. A block added beside a near copy of itself (a sibling function) reads both
    ways; its new lines may end in lines ("}", a blank) that repeat the file's."""
    h, _, t, _ = pair
    span = [line.strip() for line in keys.lines[h:t]]
    ops = matcher_opcodes(span, [line.strip() for line in run])
    if not any(tag != "equal" and _telling(span[i1:i2]) for tag, i1, i2, _, _ in ops):
        return False  # it drops no telling line: it adds lines there as well
    lines, size = keys.lines, len(run)
    for x in keys.positions(run[0], lo, hi):
        a = _extent(keys, run, Rung.EXACT, x, lo, hi, 1)
        for b in range(1, min(ENOUGH, size - a - 1) + 1):
            end = x + a + b
            if end > hi or (x, end) == (h, t) or not _telling([*run[:a], *run[size - b :]]):
                continue
            if all(lines[x + a + k].strip() == run[size - b + k].strip() for k in range(b)):
                return True
    return False


def _score(keys: Keys, run: Sequence[str], pair: tuple[int, int, int, int]) -> int:
    """Minus the file lines a reading deletes without showing anything in their place
    (a deleted stretch beyond the new lines that replace it)."""
    h, _, t, _ = pair
    span = [line.strip() for line in keys.lines[h:t]]
    ops = matcher_opcodes(span, [line.strip() for line in run])
    return -sum(max(0, (i2 - i1) - (j2 - j1)) for tag, i1, i2, j1, j2 in ops if tag != "equal")


def _solid(lines: Sequence[str]) -> bool:
    """Whether a block says enough to stand for a place: two non-blank lines."""
    return sum(1 for line in lines if not is_blank(line)) >= 2


def split_reading(
    keys: Keys, run: Sequence[str], lo: int, hi: int, chosen: Placement
) -> list[Placement]:
    """The readings of ``run`` as its head at one place and its tail further down, the
    original lines between them deleted, other than ``chosen``: a solid head (two
    non-blank lines or more) and a solid tail, or any head and tail when the run changes
    nothing where it stands (then it is there only to show a deletion). At most
    :data:`MAX_SPLITS` + 1 (more: many).

    A run shown next to a marker may have been written around a deletion (its head
    above the deleted lines, its tail below) or be the unchanged copy standing whole
    further down; the snippet does not tell which the marker hides. A run that changes
    lines where it stands is not read around a deletion of more than
    :data:`MAX_DELETED` lines it does not show (such a reading is refused, never
    merged); a run that changes nothing is (it may be there only to show that one).
    """
    size = len(run)
    rung = chosen.rung
    pure = chosen.head == size and chosen.end - chosen.start == size
    found: list[Placement] = []
    for h in keys.positions(run[0], lo, hi):
        reach = _extent(keys, run, rung, h, lo, hi, 1)
        for k in range(min(reach, size - 1), 0, -1):
            head, tail = run[:k], run[k:]
            if not pure and (not _solid(head) or not _solid(tail)):
                continue
            for m in keyed_matches(keys.index, tail, rung, h + k + 1):
                end = m.start + len(tail)
                if not pure and end - h - size > MAX_DELETED:
                    # a run that changes lines where it stands, read around a deletion
                    # larger than the merge takes unshown: that reading is never merged
                    continue
                if end <= hi and (h, end) != (chosen.start, chosen.end):
                    found.append(Placement(h, end, rung, k, size - k))
                    if len(found) > MAX_SPLITS:
                        return found
    return found


# Split readings of a run compared with the reading taken at most (more: in doubt).
MAX_SPLITS = 4
