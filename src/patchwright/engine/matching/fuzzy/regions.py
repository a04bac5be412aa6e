"""The fuzzy rung: similarity-based location of a damaged block.

Linear in the file size: candidate positions come from *votes* (where distinctive
pattern lines occur, found by C-speed substring search), or, when every line is damaged,
from ``rapidfuzz``'s best-matching single lines. Each candidate window is then aligned
line by line (runs of equal lines fixed first, a small dynamic programme for the gaps
between them: see :mod:`patchwright.engine.matching.fuzzy.align`), so a dropped context line or an
extra one still lines up; the similarity of the alignment must reach the threshold.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rapidfuzz import process
from rapidfuzz.fuzz import ratio

from patchwright.engine.matching.fuzzy.align import STATS, align_lines
from patchwright.engine.matching.fuzzy.align import similarity as line_similarity
from patchwright.engine.matching.index import MAX_ANCHOR_HITS, LineIndex
from patchwright.engine.matching.normalize import PUNCT_TABLE, is_elision, unicode_key
from patchwright.engine.matching.rungs import MIN_FUZZY_LINES, Match, Span
from patchwright.model.reports import Rung

_MAX_CANDIDATES = 6
_MAX_VOTING_LINES = 12


def best_regions(index: LineIndex, pattern: Sequence[str], lo: int = 0) -> list[Match]:
    """Aligned candidate regions, best first, non-overlapping.

    Computed once per index, pattern and ``lo``: the refusal that explains a failed
    fuzzy search asks again, and gets the same regions without aligning twice."""
    if not pattern or not index.lines:
        return []
    key = ("fuzzy.best_regions", tuple(pattern), lo)
    return list(index.memo(key, lambda: _best_regions(index, pattern, lo)))


def _pattern_keys(index: LineIndex, pattern: Sequence[str]) -> list[str]:
    """The pattern's unicode keys, computed once per index (regions, then their checks)."""
    return index.memo(("fuzzy.keys", tuple(pattern)), lambda: [unicode_key(p) for p in pattern])


def _best_regions(index: LineIndex, pattern: Sequence[str], lo: int) -> list[Match]:
    pkeys = _pattern_keys(index, pattern)
    starts = _vote(index, pattern, lo) or _fallback_votes(index, pkeys, lo)
    regions: list[Match] = []
    for start in starts:
        region = align_window(index, pkeys, start, lo, list(pattern))
        if region is not None:
            regions.append(region)
    return _keep_best(regions)


def trustworthy(index: LineIndex, pattern: Sequence[str], region: Match) -> bool:
    """Whether a fuzzy region is safe to edit: enough lines, and at least half of the
    non-blank lines found as they are (whitespace and punctuation aside). Short or mostly
    rewritten text is too easy to match in the wrong place."""
    return distrust(index, pattern, region) is None


def distrust(index: LineIndex, pattern: Sequence[str], region: Match) -> str | None:
    """Why a fuzzy region is not safe to edit (see :func:`trustworthy`), as a clause a
    refusal can quote; ``None`` when it is safe."""
    pkeys = _pattern_keys(index, pattern)
    solid = [(p, k, s) for p, k, s in zip(pattern, pkeys, region.spans) if k and not is_elision(p)]
    if len(solid) < MIN_FUZZY_LINES:
        return (
            f"it has fewer than {MIN_FUZZY_LINES} non-blank lines, too few to place by similarity"
        )
    found = index.keys_between("unicode", unicode_key, region.start, region.end)
    exact = [p for p, k, (a, b) in solid if b == a + 1 and found[a - region.start] == k]
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
    # A "..." stands for lines left out: paired line for line with a file line that
    # is not such a marker, it was read as a real line, and the block placed by it may
    # stand lines off (the elision rung, which reads it as it is meant, declined).
    spans = region.spans
    for i, (p, (a, b)) in enumerate(zip(pattern, spans)):
        if not is_elision(p):
            continue
        if b == a + 1 and found[a - region.start] != unicode_key(p):
            return (
                f"its '...' line was paired with the file's line {a + 1} as if it were that "
                "line, while it stands for lines left out, which could not be placed as one "
                "block"
            )
        # nor may it stand for no line at all: the lines around it would then be read
        # as neighbours, which they are not
        before = max((y for x, y in spans[:i] if y > x), default=region.start)
        after = min((x for x, y in spans[i + 1 :] if y > x), default=region.end)
        if b == a and after <= before:
            return (
                f"its '...' line would stand for no line of the file (between lines "
                f"{before} and {after + 1}), while it says lines were left out there"
            )
    if _slid(index, pattern, region):
        return (
            "a line that matches only approximately has an exact twin close by, so the "
            "lines may be paired with the wrong neighbours"
        )
    return None


def _slid(index: LineIndex, pattern: Sequence[str], region: Match) -> bool:
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


def _keep_best(regions: list[Match]) -> list[Match]:
    regions.sort(key=lambda r: -r.similarity)
    kept: list[Match] = []
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
) -> Match | None:
    """Align ``pkeys`` against the file around ``start``; ``None`` when nothing pairs."""
    size = len(pkeys)
    slack = max(3, size // 4)
    w0 = max(lo, start - slack)
    w1 = min(len(index.lines), start + size + slack)
    if w1 <= w0:
        return None
    wkeys = index.keys_between("unicode", unicode_key, w0, w1)
    STATS.windows += 1
    pairs = align_lines(pkeys, wkeys, raw_pattern, index.lines[w0:w1], offset=start - w0)
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
            total += line_similarity(pkeys[i], wkeys[j])
    first = w0 + pairs[0][1]
    last = w0 + pairs[-1][1] + 1
    similarity = 2.0 * total / (size + (last - first))
    return Match(first, last, Rung.FUZZY, similarity, tuple(spans))


def align(
    pkeys: list[str], wkeys: list[str], raw_p: list[str], raw_w: list[str]
) -> list[tuple[int, int]]:
    """Semi-global line alignment: every pattern line paired or skipped, window lines free
    at both ends. Returns ``(pattern_index, window_index)`` pairs in order; linear in
    both lengths (see :mod:`patchwright.engine.matching.fuzzy.align`)."""
    return align_lines(pkeys, wkeys, raw_p, raw_w)
