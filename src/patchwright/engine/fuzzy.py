"""The fuzzy rung: similarity-based location of a damaged block.

Linear in the file size: candidate positions come from *votes* (where distinctive
pattern lines occur, found by C-speed substring search), or, when every line is damaged,
from ``rapidfuzz``'s best-matching single lines. Each candidate window is then aligned
line by line with a small dynamic programme, so a dropped context line or an extra
one still lines up; the similarity of the alignment must reach the threshold.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rapidfuzz import process
from rapidfuzz.fuzz import ratio

from patchwright.engine.index import MAX_ANCHOR_HITS, LineIndex
from patchwright.engine.normalize import PUNCT_TABLE, is_elision, unicode_key
from patchwright.engine.rungs import Match, Span
from patchwright.model.reports import Rung

_MAX_CANDIDATES = 6
_MAX_VOTING_LINES = 12
# Lines less similar than this are never paired by the alignment.
_MIN_PAIR = 0.5
_MIN_FUZZY_LINES = 3
# Score of a pair equal only when whitespace is ignored (exact pairs score 1.0).
_LOOSE_EQUAL = 0.9


# A scored alignment of a pattern against a file window: the ladder's match record.
Region = Match


def best_regions(index: LineIndex, pattern: Sequence[str], lo: int = 0) -> list[Region]:
    """Aligned candidate regions, best first, non-overlapping."""
    if not pattern or not index.lines:
        return []
    pkeys = [unicode_key(p) for p in pattern]
    starts = _vote(index, pattern, lo) or _fallback_votes(index, pkeys, lo)
    regions: list[Region] = []
    for start in starts:
        region = align_window(index, pkeys, start, lo, list(pattern))
        if region is not None:
            regions.append(region)
    return _keep_best(regions)


def trustworthy(index: LineIndex, pattern: Sequence[str], region: Region) -> bool:
    """Whether a fuzzy region is safe to edit: enough lines, and at least half of the
    non-blank lines found as they are (whitespace and punctuation aside). Short or mostly
    rewritten text is too easy to match in the wrong place."""
    return distrust(index, pattern, region) is None


def distrust(index: LineIndex, pattern: Sequence[str], region: Region) -> str | None:
    """Why a fuzzy region is not safe to edit (see :func:`trustworthy`), as a clause a
    refusal can quote; ``None`` when it is safe."""
    solid = [(p, s) for p, s in zip(pattern, region.spans) if unicode_key(p) and not is_elision(p)]
    if len(solid) < _MIN_FUZZY_LINES:
        return (
            f"it has fewer than {_MIN_FUZZY_LINES} non-blank lines, too few to place by similarity"
        )
    exact = [
        p for p, (a, b) in solid if b == a + 1 and unicode_key(index.lines[a]) == unicode_key(p)
    ]
    if len(exact) * 2 < len(solid):
        return (
            f"fewer than half of its lines match exactly ({len(exact)} of {len(solid)}), "
            "so the location is not certain"
        )
    # Braces and keywords match anywhere: at least one line that says something must be
    # found as it is.
    if not any(sum(ch.isalnum() for ch in p) >= 4 for p in exact):
        return (
            "only short lines such as braces or keywords match exactly, and they could "
            "stand anywhere"
        )
    if _slid(index, pattern, region):
        return (
            "a line that matches only approximately has an exact twin close by, so the "
            "lines may be paired with the wrong neighbours"
        )
    return None


def _slid(index: LineIndex, pattern: Sequence[str], region: Region) -> bool:
    """Whether a line paired only approximately has an exact twin among the nearby file
    lines left unpaired: the alignment slid past it (lists of near-identical lines)."""
    paired = {a for a, b in region.spans if b == a + 1}
    lines = index.lines
    for p, (a, b) in zip(pattern, region.spans):
        key = unicode_key(p)
        if b != a + 1 or not key or lines[a] == p:
            continue
        # An approximate pair (other words, or only other whitespace) with an unpaired
        # neighbour that matches better: the alignment took the wrong one of the two.
        loose = unicode_key(lines[a]) == key
        for j in range(max(0, a - 2), min(len(lines), a + 3)):
            if j in paired:
                continue
            if lines[j] == p or (not loose and unicode_key(lines[j]) == key):
                return True
    return False


def _keep_best(regions: list[Region]) -> list[Region]:
    regions.sort(key=lambda r: -r.similarity)
    kept: list[Region] = []
    for r in regions:
        if all(r.end <= k.start or r.start >= k.end for k in kept):
            kept.append(r)
    return kept


def _vote(index: LineIndex, pattern: Sequence[str], lo: int) -> list[int]:
    needles: dict[str, int] = {}
    for i, p in enumerate(pattern):
        key = p.translate(PUNCT_TABLE).strip()
        if key and key not in needles:
            needles[key] = i
    ranked = sorted(needles.items(), key=lambda kv: -len(kv[0]))[:_MAX_VOTING_LINES]
    hay = index.folded
    floor = lo - len(pattern)
    hits: list[tuple[int, int]] = []  # (character position, pattern offset)
    # Longest lines first, in two rounds: when the first few agree on one start, the
    # remaining lines would only confirm it.
    for batch in (ranked[:4], ranked[4:]):
        for needle, offset in batch:
            found = _positions(hay, needle)
            if found is not None:
                hits.extend((pos, offset) for pos in found)
        votes = _tally(hay, hits, floor)
        top = votes.most_common(2)
        if top and top[0][1] >= 3 and (len(top) == 1 or top[1][1] < top[0][1]):
            break
    return _top_starts(votes, len(pattern))


def _positions(hay: str, needle: str) -> list[int] | None:
    """Every position of ``needle``, or ``None`` when it is too common to be useful."""
    out: list[int] = []
    pos = hay.find(needle)
    while pos != -1:
        out.append(pos)
        if len(out) > MAX_ANCHOR_HITS:
            return None
        pos = hay.find(needle, pos + 1)
    return out


def _tally(hay: str, hits: list[tuple[int, int]], floor: int) -> Counter[int]:
    """Votes per start line, counting newlines once over the sorted hit positions."""
    votes: Counter[int] = Counter()
    line = last = 0
    for pos, offset in sorted(hits):
        line += hay.count("\n", last, pos)
        last = pos
        if line - offset >= floor:
            votes[line - offset] += 1
    return votes


def _fallback_votes(index: LineIndex, pkeys: list[str], lo: int) -> list[int]:
    """Every pattern line is damaged: ask rapidfuzz for the most similar single lines."""
    # ASCII text needs no folding: plain stripping is the same key, built at C speed.
    if index.folded is index.joined:
        keys = index.keys("strip", str.strip)
    else:
        keys = index.keys("unicode", unicode_key)
    ranked = sorted(
        ((i, k) for i, k in enumerate(pkeys) if len(k) >= 3), key=lambda ik: -len(ik[1])
    )[:3]
    votes: Counter[int] = Counter()
    for offset, key in ranked:
        for _choice, _score, line in process.extract(
            key, keys, scorer=ratio, limit=5, score_cutoff=60
        ):
            if int(line) - offset >= lo - len(pkeys):
                votes[int(line) - offset] += 1
    return _top_starts(votes, len(pkeys))


def _top_starts(votes: Counter[int], size: int) -> list[int]:
    """The best-voted starts, skipping ones that another better start already covers."""
    chosen: list[int] = []
    for start, _count in votes.most_common():
        if all(abs(start - c) > max(2, size // 4) for c in chosen):
            chosen.append(start)
            if len(chosen) >= _MAX_CANDIDATES:
                break
    return chosen


def align_window(
    index: LineIndex, pkeys: list[str], start: int, lo: int, raw_pattern: list[str]
) -> Region | None:
    """Align ``pkeys`` against the file around ``start``; ``None`` when nothing pairs."""
    size = len(pkeys)
    slack = max(3, size // 4)
    w0 = max(lo, start - slack)
    w1 = min(len(index.lines), start + size + slack)
    if w1 <= w0:
        return None
    wkeys = [unicode_key(line) for line in index.lines[w0:w1]]
    pairs = align(pkeys, wkeys, raw_pattern, index.lines[w0:w1])
    if not pairs:
        return None
    spans: list[Span] = []
    pos = w0 + pairs[0][1]
    aligned = dict(pairs)
    total = 0.0
    for i in range(size):
        j = aligned.get(i)
        if j is None:
            spans.append((pos, pos))
        else:
            spans.append((w0 + j, w0 + j + 1))
            pos = w0 + j + 1
            total += _sim(pkeys[i], wkeys[j])
    first = w0 + pairs[0][1]
    last = w0 + pairs[-1][1] + 1
    similarity = 2.0 * total / (size + (last - first))
    return Match(first, last, Rung.FUZZY, similarity, tuple(spans))


def _sim(a: str, b: str) -> float:
    if not a or not b:
        return 1.0 if a == b else 0.0
    return ratio(a, b) / 100.0


def _pair_score(s: float) -> float:
    """Alignment score of a line pair: 1 for equal lines, falling steeply with
    similarity, so that a gap (a line the model dropped) is preferred to pairing every
    line with a neighbour that merely looks alike."""
    if s >= 1.0:
        return 1.0
    return 4.0 * s - 3.0


def align(
    pkeys: list[str], wkeys: list[str], raw_p: list[str], raw_w: list[str]
) -> list[tuple[int, int]]:
    """Semi-global line alignment: every pattern line paired or skipped, window lines free
    at both ends. Returns ``(pattern_index, window_index)`` pairs in order.

    Lines equal byte for byte score a little higher than lines equal only once
    whitespace is ignored, so among several ``}`` lines the one with the same
    indentation is paired."""
    m, n = len(pkeys), len(wkeys)
    gap = -0.6
    neg = float("-inf")
    # score[i][j]: best score having consumed i pattern lines and j window lines
    score = [[neg] * (n + 1) for _ in range(m + 1)]
    move = [[0] * (n + 1) for _ in range(m + 1)]
    for j in range(n + 1):
        score[0][j] = 0.0  # free leading window lines
    for i in range(1, m + 1):
        pk = pkeys[i - 1]
        row, prev = score[i], score[i - 1]
        mrow = move[i]
        row[0] = prev[0] + gap
        mrow[0] = 1
        for j in range(1, n + 1):
            best, how = prev[j] + gap, 1  # pattern line unaligned
            s = _sim(pk, wkeys[j - 1])
            if s >= _MIN_PAIR:
                loose = s == 1.0 and raw_p[i - 1] != raw_w[j - 1]
                cand = prev[j - 1] + (_LOOSE_EQUAL if loose else _pair_score(s))
                if cand > best:
                    best, how = cand, 2
            if i < m:  # window line skipped inside the block (free only at the ends)
                cand = row[j - 1] + gap
                if cand > best:
                    best, how = cand, 3
            else:
                cand = row[j - 1]
                if cand > best:
                    best, how = cand, 3
            row[j], mrow[j] = best, how
    i, j = m, max(range(n + 1), key=lambda k: score[m][k])
    pairs: list[tuple[int, int]] = []
    while i > 0 and j >= 0:
        how = move[i][j]
        if how == 2:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif how == 1:
            i -= 1
        else:
            j -= 1
    pairs.reverse()
    return pairs
