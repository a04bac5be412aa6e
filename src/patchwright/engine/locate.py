"""The matching ladder for blocks of whole lines.

:func:`locate_block` tries each allowed rung in order and returns the first rung's
*unique* match. A rung with several candidates is an error listing their lines (unless a
position hint singles one out beyond doubt); later rungs are not tried then, because a
looser rung can only find more candidates.

Rungs (each includes the tolerance of the ones before it):

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
``fuzzy``
    Line-by-line alignment with similarity at or above the threshold (see
    :mod:`patchwright.engine.fuzzy`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from patchwright.engine.index import MAX_ANCHOR_HITS, LineIndex, choose_anchors
from patchwright.engine.normalize import (
    is_blank,
    is_elision,
    rstrip_key,
    strip_key,
    unicode_key,
)
from patchwright.engine.policy import MatchOptions
from patchwright.engine.reindent import detect_shift
from patchwright.model.errors import ErrorCode, PatchwrightError

Span = tuple[int, int]


@dataclass(frozen=True)
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
    rung: str
    similarity: float
    spans: tuple[Span, ...]


@dataclass(frozen=True)
class Hint:
    """A position hint (0-based line where the block is expected to start)."""

    line: int


def identity(start: int, size: int) -> tuple[Span, ...]:
    """Spans of a block matched line for line."""
    return tuple((start + i, start + i + 1) for i in range(size))


Comparator = Callable[[str], str]

_KEYS: dict[str, Comparator] = {
    "exact": lambda s: s,
    "trailing_whitespace": rstrip_key,
    "indentation": strip_key,
    "unicode": unicode_key,
}


def locate_block(
    index: LineIndex,
    pattern: Sequence[str],
    options: MatchOptions,
    hint: Hint | None = None,
    *,
    label: str = "",
    at_eof: bool = False,
    lo: int = 0,
    rungs: Sequence[str] | None = None,
) -> Match | None:
    """Find ``pattern`` in the file through the ladder; ``None`` when no rung matches.

    ``rungs`` restricts the ladder further (still in ladder order, still within
    ``options``).

    Raises:
        PatchwrightError: ``ambiguous`` when the first rung that matches matches more than
            once and no hint settles it.
    """
    if hint is not None and options.use_hints and (rungs is None or "exact" in rungs):
        # An exact match right at the hinted line, with no other exact match close
        # enough to compete (the hint rule needs the runner-up 4+ lines away), is the
        # answer without searching the whole file.
        at = hint.line
        if exact_at(index, pattern, at) and (not at_eof or at + len(pattern) == len(index.lines)):
            near = range(max(lo, at - 3), at + 4)
            if at >= lo and not any(k != at and exact_at(index, pattern, k) for k in near):
                return Match(at, at + len(pattern), "exact", 1.0, identity(at, len(pattern)))
    for rung in options.rungs:
        if rungs is not None and rung not in rungs:
            continue
        if rung == "newline":
            continue  # lines carry no endings: the exact rung already ignores them
        candidates = _candidates(index, pattern, rung, options, lo)
        if at_eof:
            candidates = [m for m in candidates if m.end == len(index.lines)]
        if candidates:
            return _pick(candidates, hint, options, label, rung)
    return None


def _candidates(
    index: LineIndex, pattern: Sequence[str], rung: str, options: MatchOptions, lo: int
) -> list[Match]:
    if rung in _KEYS:
        return keyed_matches(index, pattern, rung, lo)
    if rung == "trimmed_edges":
        return _trimmed(index, pattern, lo)
    if rung == "elision":
        return _elided(index, pattern, lo)
    if rung == "fuzzy":
        from patchwright.engine import fuzzy  # with rapidfuzz: slow to import, rarely needed

        return [
            Match(r.start, r.end, "fuzzy", r.similarity, r.spans)
            for r in fuzzy.best_regions(index, pattern, lo)
            if r.similarity >= options.fuzzy_threshold and fuzzy.trustworthy(index, pattern, r)
        ]
    return []


def locate_or_refuse(
    index: LineIndex,
    pattern: Sequence[str],
    new_lines: Sequence[str],
    options: MatchOptions,
    hint: Hint | None = None,
    *,
    label: str = "",
    at_eof: bool = False,
    lo: int = 0,
) -> Match:
    """:func:`locate_block`, but a fuzzy match where the edit's new text already stands
    is refused (it would apply the edit a second time), and a miss raises the
    explanatory ``not_found`` (or ``already_applied``) error."""
    from patchwright.engine.diagnose import already_applied_error, not_found

    loose = [r for r in options.rungs if r != "fuzzy"]
    for start in dict.fromkeys((lo, 0)):
        match = locate_block(
            index, pattern, options, hint, label=label, at_eof=at_eof, lo=start, rungs=loose
        )
        if match is not None:
            return match
    if options.allows("fuzzy"):
        try:
            match = locate_block(
                index, pattern, options, hint, label=label, at_eof=at_eof, lo=lo, rungs=("fuzzy",)
            )
        except PatchwrightError:
            applied = already_applied_error(index, pattern, new_lines, label)
            if applied is not None:
                raise applied from None
            raise
        if match is not None:
            near = (match.start, match.end)
            applied = already_applied_error(index, pattern, new_lines, label, near=near)
            if applied is not None:
                raise applied
            return match
    raise not_found(index, pattern, new_lines, label, options)


def keyed_matches(index: LineIndex, pattern: Sequence[str], rung: str, lo: int) -> list[Match]:
    """Every place where ``pattern`` matches under one keyed rung's comparison."""
    key = _KEYS[rung]
    pkeys = [key(p) for p in pattern]
    if rung == "exact":
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
            if rung in ("indentation", "unicode") and (
                detect_shift(pattern, lines[start : start + size]) is None
            ):
                continue
            found.append(Match(start, start + size, rung, 1.0, identity(start, size)))
    return found


def _exact_by_unique_line(index: LineIndex, pattern: Sequence[str], lo: int) -> list[Match] | None:
    """Exact matches through the line dictionaries: a pattern line that occurs once in
    the file pins the only possible start; a line that does not occur rules all out.
    ``None`` when every pattern line is repeated in the file (use the general search)."""
    size = len(pattern)
    for i in sorted(range(size), key=lambda k: -len(pattern[k])):
        where = index.unique_line(pattern[i])
        if where is False:
            return []
        if where is None or where is True:
            continue
        start = where - i
        if start < lo or start + size > len(index.lines):
            return []
        if index.lines[start : start + size] == list(pattern):
            return [Match(start, start + size, "exact", 1.0, identity(start, size))]
        return []
    return None


def exact_at(index: LineIndex, pattern: Sequence[str], start: int) -> bool:
    """Whether ``pattern`` stands exactly at 0-based line ``start``."""
    size = len(pattern)
    lines = index.lines
    if start < 0 or start + size > len(lines) or (size and lines[start] != pattern[0]):
        return False
    return lines[start : start + size] == list(pattern)


def _anchor_starts(index: LineIndex, pkeys: list[str], rung: str, lo: int) -> list[int]:
    """Candidate start lines: where an anchor key occurs, minus its offset in the pattern."""
    text = index.folded if rung == "unicode" else index.joined
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


def _trimmed(index: LineIndex, pattern: Sequence[str], lo: int) -> list[Match]:
    size = len(pattern)
    found: dict[int, Match] = {}
    for head, tail in ((1, 0), (0, 1), (1, 1)):
        inner = pattern[head : size - tail]
        if len(inner) < 2 or all(is_blank(p) for p in inner):
            continue
        for m in keyed_matches(index, inner, "indentation", lo) + keyed_matches(
            index, inner, "unicode", lo
        ):
            start, end = m.start - head, m.end + tail
            if start < 0 or end > len(index.lines) or start in found:
                continue
            if head and not _loose_edge(pattern[0], index.lines[start]):
                continue
            if tail and not _loose_edge(pattern[-1], index.lines[end - 1]):
                continue
            found[start] = Match(start, end, "trimmed_edges", 1.0, identity(start, size))
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


def _elided(index: LineIndex, pattern: Sequence[str], lo: int) -> list[Match]:
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
    for m in keyed_matches(index, segments[0], "unicode", lo):
        _extend(index, keyed, [m.start], placements)
        if len(placements) > 10:
            break
    matches = [_elided_match(pattern, keyed, spots) for spots in placements]
    return [m for m in matches if _consistent(index, pattern, m)]


def _consistent(index: LineIndex, pattern: Sequence[str], m: Match) -> bool:
    """Whether the one-to-one lines of a match share one indentation shift."""
    pairs = [(p, index.lines[a]) for p, (a, b) in zip(pattern, m.spans) if b == a + 1]
    return detect_shift([p for p, _ in pairs], [f for _, f in pairs]) is not None


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
    for q in range(pos + 1, stop + 1):
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
    return Match(spots[0], end, "elision", 1.0, tuple(spans))


def _pick(
    candidates: list[Match],
    hint: Hint | None,
    options: MatchOptions,
    label: str,
    rung: str,
) -> Match:
    unique = {m.start: m for m in candidates}
    if len(unique) == 1:
        return next(iter(unique.values()))
    ordered = sorted(unique.values(), key=lambda m: m.start)
    if hint is not None and options.use_hints:
        by_distance = sorted(ordered, key=lambda m: abs(m.start - hint.line))
        d1 = abs(by_distance[0].start - hint.line)
        d2 = abs(by_distance[1].start - hint.line)
        # Only a hint that is clearly closer to one candidate decides; the numbers models
        # write are often a little off, never by a large factor of the distance.
        if d1 <= 100 and d2 >= 2 * d1 + 4:
            return by_distance[0]
    where = ", ".join(str(m.start + 1) for m in ordered[:10])
    more = f" and {len(ordered) - 10} more" if len(ordered) > 10 else ""
    name = f"{label}: " if label else ""
    raise PatchwrightError(
        ErrorCode.AMBIGUOUS,
        f"{name}the text matches {len(ordered)} places (at lines {where}{more}; "
        f"rung: {rung}). No change was made.",
        "Include more surrounding lines so the text occurs exactly once, or use "
        "replace_all / a line range when every occurrence is meant.",
        details={"lines": [m.start + 1 for m in ordered], "rung": rung},
    )
