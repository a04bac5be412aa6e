"""Line alignment for the fuzzy rung, linear in block and window length.

The reference is a semi-global dynamic programme (:func:`align_dp`): every pattern line
is paired with a similar window line or left out, window lines are free before and
after the block and cost a gap inside it. It is exact but quadratic: a 5,000-line block
against a 7,500-line window is 37 million cells in Python.

:func:`align_lines` aims at the same decisions in linear time. Lines equal on both sides
(by key) are found first with the engine's linear line diff
(:func:`~patchwright.engine.diff.line_opcodes`); its equal blocks that hold a telling
line occurring once on each side (patience-style) are kept as fixed pairs, and only
the gaps between them go through the programme: small gaps whole, large ones within a
diagonal band, the free ends cut to the window lines that could still pair. Small
problems go to the reference whole. A large window with little in common with the
block (gaps costing more than ``CELLS_PER_LINE`` per line) is measured along the voted
diagonal only (see :func:`_diagonal`).

What can differ from the reference: where the programme would pair two look-alike
lines to save a gap next to a line equal on both sides, the fast path keeps the equal
pair (a window fixed by one run alone is checked against the programme when it is
small enough to align exactly). A property test checks that the engine's decision
(applied, to the same bytes, or refused) is the same either way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rapidfuzz.fuzz import ratio

from patchwright._records import record
from patchwright.engine.diff import line_opcodes

Pair = tuple[int, int]

# Lines less similar than this are never paired.
MIN_PAIR = 0.5
# Score of a pair equal only when whitespace is ignored (exact pairs score 1.0).
LOOSE_EQUAL = 0.9
# Score of a pattern line left out, or of a window line skipped inside the block.
GAP = -0.6
# Problems up to this many cells go to the reference programme whole.
SMALL_CELLS = 4_000
# A gap larger than this many cells is aligned within a diagonal band only.
BAND_CELLS = 20_000
_BAND = 16
# A window whose gaps would cost more cells than this per block line has little in
# common with the block (see _diagonal).
CELLS_PER_LINE = 16
_NEG = float("-inf")


@record
class AlignStats:
    """Work counters, for tests that check growth (never timing): ``cells`` evaluated by
    the programme, ``calls`` to it, ``windows`` aligned."""

    cells: int = 0
    calls: int = 0
    windows: int = 0

    def reset(self) -> None:
        """Zero every counter."""
        self.cells = self.calls = self.windows = 0


#: Counters of the alignment work done in this process.
STATS = AlignStats()


def similarity(a: str, b: str) -> float:
    """Similarity of two line keys, 0 to 1 (empty lines are equal only to each other)."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    return ratio(a, b) / 100.0


def pair_score(s: float) -> float:
    """Alignment score of a line pair: 1 for equal lines, falling steeply with
    similarity, so that a gap (a line the model dropped) is preferred to pairing every
    line with a neighbour that merely looks alike."""
    if s >= 1.0:
        return 1.0
    return 4.0 * s - 3.0


def align_lines(
    pkeys: Sequence[str],
    wkeys: Sequence[str],
    raw_p: Sequence[str],
    raw_w: Sequence[str],
    *,
    offset: int | None = None,
    small: int | None = None,
) -> list[Pair]:
    """Semi-global alignment of pattern keys against window keys, as
    :func:`align_dp` scores it, in time linear in both lengths on real text.

    Returns ``(pattern_index, window_index)`` pairs in order. ``offset``: the window
    line where the first pattern line is expected (default: centred). ``small``:
    problems of at most this many cells go to :func:`align_dp` whole (default
    ``SMALL_CELLS``).
    """
    m, n = len(pkeys), len(wkeys)
    small = SMALL_CELLS if small is None else small
    if m * n <= small:
        return align_dp(pkeys, wkeys, raw_p, raw_w)
    runs = _plausible(_runs(pkeys, wkeys))
    gaps = _gaps(runs, m, n)
    if sum(_cells(g) for g in gaps) > CELLS_PER_LINE * m + BAND_CELLS:
        return _diagonal(pkeys, wkeys, (n - m) // 2 if offset is None else offset)
    pairs: list[Pair] = []
    for gap, (a0, a1, b0) in zip(gaps, [*runs, (m, m, n)]):
        pairs += _gap(pkeys, wkeys, raw_p, raw_w, gap)
        pairs += [(a0 + k, b0 + k) for k in range(a1 - a0)]
    pairs = _skips_first(pairs, raw_w)
    if len(runs) == 1 and m * n <= BAND_CELLS:
        # A lone run has no neighbour to weigh the skips it forces against (see
        # _plausible): a look-alike line in the slack can pull the block's other lines
        # past window lines they should not skip. The programme decides, when the whole
        # problem is small enough to align exactly.
        exact = align_dp(pkeys, wkeys, raw_p, raw_w)
        if _score(exact, pkeys, wkeys, raw_p, raw_w) > _score(pairs, pkeys, wkeys, raw_p, raw_w):
            return exact
    return pairs


def _score(
    pairs: list[Pair],
    pkeys: Sequence[str],
    wkeys: Sequence[str],
    raw_p: Sequence[str],
    raw_w: Sequence[str],
) -> float:
    """An alignment's score as :func:`align_dp` counts it: each pair's gain, a gap for
    each pattern line left out and each window line skipped between the first pair and
    the last (window lines before and after them are free)."""
    total = GAP * (len(pkeys) - len(pairs))
    for i, j in pairs:
        s = similarity(pkeys[i], wkeys[j])
        total += LOOSE_EQUAL if s == 1.0 and raw_p[i] != raw_w[j] else pair_score(s)
    if pairs:
        total += GAP * (pairs[-1][1] - pairs[0][1] + 1 - len(pairs))
    return total


def _skips_first(pairs: list[Pair], raw_w: Sequence[str]) -> list[Pair]:
    """Put a window line skipped inside a run of identical lines at the run's start, as
    :func:`align_dp` does. Which copy of a repeated line (a blank, a ``}``) the block left
    out scores the same either way, but the edit's checks read where the gap stands, so
    both paths must leave it at the same place."""
    out = list(pairs)
    for t in range(len(out) - 2, -1, -1):
        i, j = out[t]
        limit = out[t + 1][1]
        while j + 1 < limit and raw_w[j + 1] == raw_w[j]:
            j += 1
        out[t] = (i, j)
    return out


def _diagonal(pkeys: Sequence[str], wkeys: Sequence[str], offset: int) -> list[Pair]:
    """Pairs along one diagonal, each similar enough: the alignment of a large window
    that has little in common with the block (gaps between runs of equal lines that
    would cost the programme more than ``CELLS_PER_LINE`` per line; a window holding
    the block costs one or two). Such a region is hardly ever trustworthy: half of its
    lines must match exactly, and a pair that slid off its exact twin is refused. The
    trust checks still judge it; the programme's cost would buy nothing."""
    STATS.cells += len(pkeys)
    return [
        (i, i + offset)
        for i in range(len(pkeys))
        if 0 <= i + offset < len(wkeys) and similarity(pkeys[i], wkeys[i + offset]) >= MIN_PAIR
    ]


@record(frozen=True)
class _Gap:
    """Pattern lines ``a0:a1`` to align with window lines ``b0:b1``; ``head`` / ``tail``:
    the gap opens / closes the block (window lines outside it are free); ``band``:
    too large for the whole programme."""

    a0: int
    a1: int
    b0: int
    b1: int
    head: bool
    tail: bool
    band: bool


def _gaps(runs: list[tuple[int, int, int]], m: int, n: int) -> list[_Gap]:
    """The gaps before, between and after the runs, window ends cut to what can pair."""
    out: list[_Gap] = []
    pa = pb = 0
    for a0, a1, b0 in [*runs, (m, m, n)]:
        head, tail = pa == 0, a0 == m
        la, b_lo, b_hi = a0 - pa, pb, b0
        # Pairing k lines gains at most k, every window line skipped costs -GAP: past
        # this many window lines from the run, pairing cannot beat leaving lines out.
        reach = la + int(la * (1 - GAP) / -GAP) + 2
        if head and not tail:
            b_lo = max(b_lo, b_hi - reach)
        elif tail and not head:
            b_hi = min(b_hi, b_lo + reach)
        out.append(_Gap(pa, a0, b_lo, b_hi, head, tail, la * (b_hi - b_lo) > BAND_CELLS))
        pa, pb = a1, b0 + (a1 - a0)
    return out


def _cells(gap: _Gap) -> int:
    """Cells the programme fills for ``gap``."""
    la, lb = gap.a1 - gap.a0, gap.b1 - gap.b0
    if not gap.band:
        return la * lb
    return (la + 1) * (2 * (_BAND + lb // max(la, 1)) + 1)


def _runs(pkeys: Sequence[str], wkeys: Sequence[str]) -> list[tuple[int, int, int]]:
    """Runs of equal lines ``(a0, a1, b0)`` the programme is sure to take: the linear
    diff's equal blocks that hold a line that says something and occurs once on each
    side (patience-style). A line with a twin nearby could as well pair with the twin
    (the diff binds the common ends of the two sides first), so blocks without such a
    line are left to the programme."""
    once_p = _once(pkeys)
    once_w = _once(wkeys)
    out: list[tuple[int, int, int]] = []
    for tag, a0, a1, b0, _b1 in line_opcodes(list(pkeys), list(wkeys)):
        if tag == "equal" and any(
            k in once_p and k in once_w and _telling(k) for k in pkeys[a0:a1]
        ):
            out.append((a0, a1, b0))
    return out


def _once(keys: Sequence[str]) -> set[str]:
    """The keys that occur exactly once."""
    return {k for k, c in Counter(keys).items() if c == 1}


def _telling(key: str) -> bool:
    """Whether a line says enough to stand for itself (not a brace, blank or keyword)."""
    return sum(ch.isalnum() for ch in key) >= 4


def _plausible(runs: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Drop runs at the block's ends that the programme would not take: a run worth less
    than the window lines it forces to skip between it and the next run (a look-alike
    in the slack before or after the real region)."""

    def forced_skips(first: tuple[int, int, int], second: tuple[int, int, int]) -> int:
        a0, a1, b0 = first
        return max(0, (second[2] - (b0 + a1 - a0)) - (second[0] - a1))

    first, last = 0, len(runs) - 1
    while first < last and runs[first][1] - runs[first][0] < -GAP * forced_skips(
        runs[first], runs[first + 1]
    ):
        first += 1
    while first < last and runs[last][1] - runs[last][0] < -GAP * forced_skips(
        runs[last - 1], runs[last]
    ):
        last -= 1
    return runs[first : last + 1]


def _gap(
    pkeys: Sequence[str],
    wkeys: Sequence[str],
    raw_p: Sequence[str],
    raw_w: Sequence[str],
    gap: _Gap,
) -> list[Pair]:
    """Align one gap, as indices into the whole pattern and window."""
    if gap.a1 == gap.a0 or gap.b1 == gap.b0:
        return []
    sub = align_dp(
        pkeys[gap.a0 : gap.a1],
        wkeys[gap.b0 : gap.b1],
        raw_p[gap.a0 : gap.a1],
        raw_w[gap.b0 : gap.b1],
        free_head=gap.head,
        free_tail=gap.tail,
        band=gap.band,
    )
    return [(gap.a0 + i, gap.b0 + j) for i, j in sub]


def _columns(i: int, m: int, n: int, band: bool, head: bool, tail: bool) -> tuple[int, int]:
    """Window columns ``[lo, hi]`` the programme fills in row ``i``: all of them, or a
    band around the diagonal (leaning on the end that is fixed; centred in the window
    when both ends are free)."""
    if not band:
        return 0, n
    if head and not tail:
        centre = n - (m - i)
    elif tail and not head:
        centre = i
    elif head and tail:
        centre = i + (n - m) // 2
    else:
        centre = (i * n) // m if m else 0
    # Wide enough that the bands of two rows in a row overlap, however steep the line.
    width = _BAND + n // max(m, 1)
    centre = min(n, max(0, centre))
    return max(0, centre - width), min(n, centre + width)


def align_dp(
    pkeys: Sequence[str],
    wkeys: Sequence[str],
    raw_p: Sequence[str],
    raw_w: Sequence[str],
    *,
    free_head: bool = True,
    free_tail: bool = True,
    band: bool = False,
) -> list[Pair]:
    """The reference programme. ``free_head`` / ``free_tail``: window lines before the
    first / after the last pair cost nothing (otherwise each costs a gap, as inside the
    block); ``band`` fills only a diagonal band (for large gaps between fixed runs).

    Lines equal byte for byte score a little higher than lines equal only once
    whitespace is ignored, so among several ``}`` lines the one with the same
    indentation is paired."""
    m, n = len(pkeys), len(wkeys)
    STATS.calls += 1
    # Rows are stored from their first column: (offset, scores, moves).
    rows: list[tuple[int, list[float], list[int]]] = []
    lo, hi = _columns(0, m, n, band, free_head, free_tail)
    rows.append(
        (lo, [0.0 if free_head else GAP * j for j in range(lo, hi + 1)], [3] * (hi - lo + 1))
    )
    for i in range(1, m + 1):
        rows.append(
            _row(i, rows[i - 1], pkeys, wkeys, raw_p, raw_w, (m, n, band), free_head, free_tail)
        )
    last_lo, last, _ = rows[m]
    if free_tail:
        best = max(range(len(last)), key=last.__getitem__)
    elif last_lo + len(last) - 1 == n:
        best = len(last) - 1
    else:
        return []
    return _trace(rows, m, last_lo + best)


def _row(
    i: int,
    prev_row: tuple[int, list[float], list[int]],
    pkeys: Sequence[str],
    wkeys: Sequence[str],
    raw_p: Sequence[str],
    raw_w: Sequence[str],
    shape: tuple[int, int, bool],
    free_head: bool,
    free_tail: bool,
) -> tuple[int, list[float], list[int]]:
    """Row ``i`` of the programme (``i`` pattern lines consumed) from row ``i - 1``."""
    m, n, band = shape
    lo, hi = _columns(i, m, n, band, free_head, free_tail)
    plo, prev, _ = prev_row
    pend = plo + len(prev)
    pk, rp = pkeys[i - 1], raw_p[i - 1]
    skip = 0.0 if i == m and free_tail else GAP
    score: list[float] = []
    move: list[int] = []
    STATS.cells += hi - lo + 1
    left = _NEG
    for j in range(lo, hi + 1):
        best = prev[j - plo] + GAP if plo <= j < pend else _NEG
        how = 1  # pattern line left out
        if j and plo <= j - 1 < pend:
            s = similarity(pk, wkeys[j - 1])
            if s >= MIN_PAIR:
                gain = LOOSE_EQUAL if s == 1.0 and rp != raw_w[j - 1] else pair_score(s)
                cand = prev[j - 1 - plo] + gain
                if cand > best:
                    best, how = cand, 2
        if j > lo:  # window line skipped (free only after the block's last line)
            cand = left + skip
            if cand > best:
                best, how = cand, 3
        score.append(best)
        move.append(how)
        left = best
    return lo, score, move


def _trace(rows: list[tuple[int, list[float], list[int]]], i: int, j: int) -> list[Pair]:
    """Follow the moves back from row ``i``, column ``j``."""
    pairs: list[Pair] = []
    while i > 0 and j >= 0:
        lo, _, move = rows[i]
        if not lo <= j < lo + len(move):
            break  # outside the band: no path (cannot happen from a finite score)
        how = move[j - lo]
        if how == 2:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif how == 1:
            i -= 1
        else:
            j -= 1
    pairs.reverse()
    return pairs
