"""The rungs of the matching ladder: the match record and each rung's finder.

Each finder returns every place where a block of pattern lines matches under its rung;
:mod:`patchwright.engine.matching.locate` runs them in ladder order and insists on a unique
answer. Rungs (each includes the tolerance of the ones before it):

``exact``
    Line contents equal (line endings are not part of a pattern line).
``trailing_whitespace``
    Equal once trailing blanks are removed: models drop them.
``indentation``
    Equal once all outer blanks are removed, provided every line is shifted by one
    consistent indentation change (spaces or tabs): models re-indent whole blocks.
``trimmed_edges``
    The inner lines match as above and the first and/or last line still match
    loosely: models truncate or paraphrase the outermost context line.
``unicode``
    Typographic quotes, dashes and special spaces folded: models "smarten" punctuation.
``elision``
    A pattern line ``...`` stands for one or more omitted lines: models elide context.
``omitted_line``
    One file line inside the block is missing from the pattern (no ``...`` said so):
    models drop a context line. The other lines match as under ``unicode``.
``fuzzy``
    Line-by-line alignment with similarity at or above the threshold (see
    :mod:`patchwright.engine.matching.fuzzy`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from patchwright._records import record
from patchwright.engine.matching.index import MAX_ANCHOR_HITS, LineIndex, choose_anchors
from patchwright.engine.matching.normalize import (
    is_blank,
    is_elision,
    rstrip_key,
    strip_key,
    unicode_key,
)
from patchwright.model.reports import Rung

Span = tuple[int, int]


@record(frozen=True)
class Match:
    """Where a block of pattern lines stands in the file.

    Attributes:
        start / end: 0-based file lines ``[start, end)`` covered by the match.
        spans: for each pattern line, the file lines ``[a, b)`` it stands for (one line
            normally, a run for an elision, empty when a fuzzy match left it unaligned).
        rung: the rung that found it; similarity: 1.0 unless fuzzy.
    """

    start: int
    end: int
    rung: Rung
    similarity: float
    spans: tuple[Span, ...]


@record(frozen=True)
class Hint:
    """A position hint (0-based line where the block is expected to start)."""

    line: int


def identity(start: int, size: int) -> tuple[Span, ...]:
    """Spans of a block matched line for line."""
    return tuple((start + i, start + i + 1) for i in range(size))


# A block placed by similarity needs this many non-blank lines: fewer match anywhere.
MIN_FUZZY_LINES = 3

Comparator = Callable[[str], str]

#: The rungs that compare lines through a key function, and their keys.
KEYED: dict[Rung, Comparator] = {
    Rung.EXACT: lambda s: s,
    Rung.TRAILING_WHITESPACE: rstrip_key,
    Rung.INDENTATION: strip_key,
    Rung.UNICODE: unicode_key,
}


def keyed_matches(index: LineIndex, pattern: Sequence[str], rung: Rung, lo: int) -> list[Match]:
    """Every place where ``pattern`` matches under one keyed rung's comparison."""
    key = KEYED[rung]
    pkeys = [key(p) for p in pattern]
    if rung == Rung.EXACT:
        index.searches += 1
        if index.hot:
            fast = _exact_by_unique_line(index, pattern, lo)
            if fast is not None:
                return fast
    starts = _anchor_starts(index, pkeys, rung, lo)
    lines = index.lines
    size = len(pattern)
    found: list[Match] = []
    for start in starts:
        if start < lo or start + size > len(lines):
            continue
        if all(key(lines[start + i]) == pkeys[i] for i in range(size)):
            # Loose rungs ignore indentation only when the whole block moved alike;
            # otherwise a line with the same words at another depth could stand in.
            if rung in (Rung.INDENTATION, Rung.UNICODE) and not _shifted_alike(
                pattern, lines[start : start + size]
            ):
                continue
            found.append(Match(start, start + size, rung, 1.0, identity(start, size)))
    return found


def _exact_by_unique_line(index: LineIndex, pattern: Sequence[str], lo: int) -> list[Match] | None:
    """Exact matches through the line dictionaries: a pattern line that occurs once in
    the file pins the only possible start; a line that does not occur rules all out.
    ``None`` when every pattern line is repeated in the file (use the general search)."""
    start = unique_exact_start(index, pattern, lo)
    if start is None:
        return None
    if start is False:
        return []
    size = len(pattern)
    return [Match(start, start + size, Rung.EXACT, 1.0, identity(start, size))]


def unique_exact_start(index: LineIndex, pattern: Sequence[str], lo: int = 0) -> int | bool | None:
    """Where ``pattern`` stands exactly, as told by its longest line that occurs once in
    the file (:meth:`LineIndex.unique_line`): the 0-based start of the only exact match
    at or after ``lo``, ``False`` when there is none, ``None`` when every line of the
    pattern is repeated in the file (the general search must decide)."""
    size = len(pattern)
    for i in sorted(range(size), key=lambda k: -len(pattern[k])):
        where = index.unique_line(pattern[i])
        if where is False:
            return False
        if where is None or where is True:
            continue
        start = where - i
        if start < lo or start + size > len(index.lines):
            return False
        if index.lines[start : start + size] == list(pattern):
            return start
        return False
    return None


def exact_at(index: LineIndex, pattern: Sequence[str], start: int) -> bool:
    """Whether ``pattern`` stands exactly at 0-based line ``start``."""
    size = len(pattern)
    lines = index.lines
    if start < 0 or start + size > len(lines) or (size and lines[start] != pattern[0]):
        return False
    return lines[start : start + size] == list(pattern)


def _anchor_starts(index: LineIndex, pkeys: list[str], rung: Rung, lo: int) -> list[int]:
    """Candidate start lines: where an anchor key occurs, minus its offset in the pattern."""
    text = index.collapsed if rung == Rung.UNICODE else index.joined
    anchors = choose_anchors(pkeys, text.count)
    if not anchors:
        # Only blank lines: every position is a candidate (patterns like this are tiny).
        return list(range(lo, len(index.lines) - len(pkeys) + 1))
    best: list[int] | None = None
    for offset, key in anchors:
        hits = index.line_starts(key, text, limit=MAX_ANCHOR_HITS)
        starts = [h - offset for h in hits]
        if len(hits) <= MAX_ANCHOR_HITS:
            return starts
        if best is None or len(starts) < len(best):
            best = starts
    # Every anchor is very common: verify them all (still linear, rarely needed).
    offset, key = anchors[0]
    return [h - offset for h in index.line_starts(key, text)]


def trimmed_matches(index: LineIndex, pattern: Sequence[str], lo: int) -> list[Match]:
    size = len(pattern)
    found: dict[int, Match] = {}
    for head, tail in ((1, 0), (0, 1), (1, 1)):
        inner = pattern[head : size - tail]
        if len(inner) < 2 or all(is_blank(p) for p in inner):
            continue
        for m in keyed_matches(index, inner, Rung.INDENTATION, lo) + keyed_matches(
            index, inner, Rung.UNICODE, lo
        ):
            start, end = m.start - head, m.end + tail
            if start < 0 or end > len(index.lines) or start in found:
                continue
            if head and not _loose_edge(pattern[0], index.lines[start]):
                continue
            if tail and not _loose_edge(pattern[-1], index.lines[end - 1]):
                continue
            found[start] = Match(start, end, Rung.TRIMMED_EDGES, 1.0, identity(start, size))
    return list(found.values())


def _loose_edge(want: str, have: str) -> bool:
    """A trimmed edge must differ in content yet resemble the file line. An edge equal
    once whitespace is ignored but still refused by the indentation rung is indented
    against the rest of the block: most likely another line altogether."""
    return unicode_key(want) != unicode_key(have) and loosely_equal(want, have)


def loosely_equal(want: str, have: str) -> bool:
    """Edge-line test of the trimmed-edges rung: a fragment of, or very like, the file line."""
    a, b = unicode_key(want), unicode_key(have)
    if not a or not b:
        return a == b
    # The model's line may be a fragment of the file's line, never the reverse: a short
    # file line inside a long pattern line says nothing.
    if len(a) >= 4 and a in b and len(a) * 3 >= len(b):
        return True
    from rapidfuzz.fuzz import ratio  # only past the cheap tests: slow to import

    return ratio(a, b) >= 75.0


def elided_matches(index: LineIndex, pattern: Sequence[str], lo: int) -> list[Match]:
    if not any(is_elision(p) for p in pattern):
        return []
    segments: list[list[str]] = [[]]
    for p in pattern:
        if is_elision(p):
            segments.append([])
        else:
            segments[-1].append(p)
    if not segments[0] or not segments[-1]:
        return []  # an elision must sit between two runs of real lines
    segments = [seg for seg in segments if seg]
    keyed = [[unicode_key(p) for p in seg] for seg in segments]
    placements: list[list[int]] = []
    for m in keyed_matches(index, segments[0], Rung.UNICODE, lo):
        _extend(index, keyed, [m.start], placements)
        if len(placements) > 10:
            break
    matches = [_elided_match(pattern, keyed, spots) for spots in placements]
    return [m for m in matches if _consistent(index, pattern, m)]


def _consistent(index: LineIndex, pattern: Sequence[str], m: Match) -> bool:
    """Whether the one-to-one lines of a match share one indentation shift."""
    pairs = [(p, index.lines[a]) for p, (a, b) in zip(pattern, m.spans) if b == a + 1]
    return _shifted_alike([p for p, _ in pairs], [f for _, f in pairs])


def _shifted_alike(pattern: Sequence[str], found: Sequence[str]) -> bool:
    """Whether every line of ``found`` is its ``pattern`` line shifted by one indentation."""
    # only loose rungs ask: the indentation module stays off a clean apply's start-up path
    from patchwright.engine.matching.reindent import detect_shift

    return detect_shift(pattern, found) is not None


_MAX_ELIDED = 400


def _extend(
    index: LineIndex, keyed: list[list[str]], spots: list[int], out: list[list[int]]
) -> None:
    """Place the next segment after the last placed one (at least one line skipped)."""
    k = len(spots)
    if k == len(keyed):
        out.append(spots)
        return
    seg = keyed[k]
    lines = index.lines
    pos = spots[-1] + len(keyed[k - 1])
    stop = min(len(lines) - len(seg), pos + _MAX_ELIDED)
    # A "..." stands for lines of one block: once the lines it skips repeat half of the
    # (telling) lines just before it, it has run into a look-alike block.
    telling = {key for key in keyed[k - 1] if len(key) >= 4 and any(c.isalnum() for c in key)}
    repeated: set[str] = set()
    for q in range(pos + 1, stop + 1):
        skipped = unicode_key(lines[q - 1])
        if skipped in telling:
            repeated.add(skipped)
            if 2 * len(repeated) >= len(telling):
                return
        if unicode_key(lines[q]) == seg[0] and all(
            unicode_key(lines[q + i]) == seg[i] for i in range(1, len(seg))
        ):
            _extend(index, keyed, [*spots, q], out)
            if len(out) > 10:
                return


def _elided_match(pattern: Sequence[str], keyed: list[list[str]], spots: list[int]) -> Match:
    """Per-line spans of an elided match from where each segment was placed."""
    spans: list[Span] = []
    seg = 0
    pos = spots[0]
    in_seg = 0
    for i, p in enumerate(pattern):
        if not is_elision(p):
            spans.append((pos, pos + 1))
            pos += 1
            in_seg += 1
            continue
        if in_seg:
            seg += 1
            in_seg = 0
        nxt = spots[seg] if i + 1 < len(pattern) and not is_elision(pattern[i + 1]) else pos
        spans.append((pos, nxt))
        pos = nxt
    end = spots[-1] + len(keyed[-1])
    return Match(spots[0], end, Rung.ELISION, 1.0, tuple(spans))


# Enough real lines on each side of a left-out line to place the block by them alone.
_MIN_OMITTED_SOLID = 3


def omitted_matches(index: LineIndex, pattern: Sequence[str], lo: int) -> list[Match]:
    """Places where ``pattern`` matches with exactly one file line left out between two
    of its lines (each start once: a start reachable by leaving out different lines is
    no placement at all).

    Linear in the block's length: a placement starting at line ``s`` that leaves out
    the line after the block's first ``k`` lines has its head (lines ``:k``) at ``s`` and
    its tail one line further down, so the rarest line of the block pins ``s`` to one of
    two lines per occurrence; at each such ``s`` the longest head matching there and the
    longest tail matching one line down give every ``k`` at once."""
    size = len(pattern)
    if size < 2 or sum(1 for p in pattern if not is_blank(p)) < _MIN_OMITTED_SOLID:
        return []
    if any(is_elision(p) for p in pattern):
        return []
    keys = [unicode_key(p) for p in pattern]
    lines = index.lines
    anchored = _anchor_starts(index, keys, Rung.UNICODE, lo)
    starts = sorted({s - shift for s in anchored for shift in (0, 1)})
    # (first k, start, placements): a start with two placements is no placement at all
    by_start: list[tuple[int, int, list[Match]]] = []
    for s in starts:
        if s < lo or s + size + 1 > len(lines):
            continue
        placements = _omitted_at(index, pattern, keys, s)
        if placements:
            by_start.append((placements[0][0], s, [m for _, m in placements]))
    # in the order a search by growing head meets them
    by_start.sort(key=lambda item: (item[0], item[1]))
    return [found[0] for _, _, found in by_start if len(found) == 1]


def _omitted_at(
    index: LineIndex, pattern: Sequence[str], keys: list[str], s: int
) -> list[tuple[int, Match]]:
    """Every placement at start ``s`` leaving out one file line, with the number ``k`` of
    block lines above the line left out."""
    size = len(pattern)
    lines = index.lines
    fkeys = index.keys_between("unicode", unicode_key, s, s + size + 1)
    head = 0  # pattern[:head] matches at s
    while head < size - 1 and fkeys[head] == keys[head]:
        head += 1
    tail = size  # pattern[tail:] matches one line down
    while tail > 1 and fkeys[tail] == keys[tail - 1]:
        tail -= 1
    out: list[tuple[int, Match]] = []
    for k in range(max(1, tail), head + 1):
        if all(is_blank(p) for p in pattern[:k]) or all(not t for t in keys[k:]):
            continue
        if not _shifted_alike(pattern[:k], lines[s : s + k]):
            continue
        spans = identity(s, k) + identity(s + k + 1, size - k)
        found = Match(s, s + size + 1, Rung.OMITTED, 1.0, spans)
        if _consistent(index, pattern, found):
            out.append((k, found))
    return out
