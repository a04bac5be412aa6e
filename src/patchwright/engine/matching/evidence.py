"""A search text that left lines out, read with its replacement as evidence.

Models shorten the text to replace: they elide lines with ``...`` (also at its start
or end) or simply drop one. The replacement of a SEARCH/REPLACE pair is the *complete*
new text of the region, so it still holds the lines the search text left out, at their
place. That tells what the search text meant:

* lines the file has right above (below) the match that the replacement starts (ends)
  with belong to the region: the search text lost them at its edge;
* lines inside the match that no pattern line stands for (under a ``...``, or skipped
  by a similarity match) must be kept by the replacement where they stand; then the
  region is the file's lines, and the edit is theirs turned into the replacement.

Lines the replacement does not keep are refused with that cause (they would be
deleted without being shown).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from patchwright.engine.diff import matcher_opcodes
from patchwright.engine.matching.normalize import is_elision, strip_key
from patchwright.engine.matching.reindent import detect_shift
from patchwright.engine.matching.rungs import Match, Span, identity
from patchwright.model.errors import ErrorCode, PatchwrightError


def without_edge_elisions(pattern: list[str]) -> tuple[list[str], bool, bool]:
    """``pattern`` without ``...`` lines at its start and end ("more lines here"), and
    whether it had them there: the replacement shows which lines they stood for (see
    :func:`extend_edges`)."""
    lo, hi = 0, len(pattern)
    while lo < hi and is_elision(pattern[lo]):
        lo += 1
    while hi > lo and is_elision(pattern[hi - 1]):
        hi -= 1
    if hi == lo:
        return pattern, False, False
    return pattern[lo:hi], lo > 0, hi < len(pattern)


def _keys(lines: Sequence[str]) -> list[str]:
    return [strip_key(line) for line in lines]


def _kept_blocks(old: Sequence[str], new: Sequence[str]) -> list[tuple[int, int, int]]:
    """``(old_start, new_start, size)`` of the runs both texts share, whitespace aside."""
    ops = matcher_opcodes(_keys(old), _keys(new))
    return [(i1, j1, i2 - i1) for tag, i1, i2, j1, _ in ops if tag == "equal"]


# How far an edge ``...`` may reach (lines): it stands for a few lines of context.
_MAX_EDGE_ELIDED = 40


def extend_edges(
    file_lines: Sequence[str],
    match: Match,
    pattern: list[str],
    new: list[str],
    elided: tuple[bool, bool] = (False, False),
    kept: Sequence[tuple[int, int, int]] | None = None,
) -> tuple[Match, list[str]]:
    """Widen ``match`` over file lines right above and below it that belong to the region.

    The replacement starts (ends) with lines the file has right there: the search text
    lost them. Without an edge ``...`` only lines before (after) everything the
    replacement shares with the search text count; after one (``elided``: at the start,
    at the end) the replacement's own first (last) lines do, as many as match.
    ``kept``, when the caller has them, are the runs ``pattern`` and ``new`` share,
    whitespace aside, as :func:`_kept_blocks` finds them."""
    blocks = _kept_blocks(pattern, new) if kept is None else kept
    first_kept = blocks[0][1] if blocks else len(new)
    last_kept = blocks[-1][1] + blocks[-1][2] if blocks else len(new)
    head, tail = new[:first_kept], new[last_kept:]
    start, end = match.start, match.end
    # After an edge "...", the new text may start (end) with the lines it stood for
    # even where it shares lines with the search text further on.
    up = _longest_prefix_above(file_lines, start, new[:_MAX_EDGE_ELIDED] if elided[0] else head)
    down = _longest_suffix_below(file_lines, end, new[-_MAX_EDGE_ELIDED:] if elided[1] else tail)
    if up or down:
        # Equal words are not enough: a line the edit adds (a new closing "  }") would
        # pass for the file's next line ("}"). A left-out line stands in the new text as
        # the file has it, in the file's frame or in the frame of the matched lines.
        same = same_as_file(file_lines, match, pattern)
        up = next((k for k in range(up, 0, -1) if same(new[:k], file_lines[start - k : start])), 0)
        down = next(
            (k for k in range(down, 0, -1) if same(new[len(new) - k :], file_lines[end : end + k])),
            0,
        )
    if up + down > len(new):
        up = down = 0  # the new text would be spent twice: no reading is sure
    above = new[:up]
    below = new[len(new) - down :] if down else []
    widened = [*above, *pattern, *below]
    if not (up or down) or (_keys(widened) == _keys(new) and not any(elided)):
        # Taking the lines in would leave nothing to change: the new text repeats them,
        # which the repeated-edge check reports truthfully.
        return match, pattern
    spans: tuple[Span, ...] = identity(start - up, up) + match.spans + identity(end, down)
    return Match(start - up, end + down, match.rung, match.similarity, spans), widened


def same_as_file(
    file_lines: Sequence[str], match: Match, pattern: Sequence[str]
) -> Callable[[Sequence[str], Sequence[str]], bool]:
    """A test of new lines against file lines: equal as written (trailing blanks aside)
    or once moved by the indentation shift that takes the matched pattern lines to the
    file's lines."""
    pairs = [(p, file_lines[a]) for p, (a, b) in zip(pattern, match.spans) if b == a + 1]
    shift = detect_shift([p for p, _ in pairs], [f for _, f in pairs])

    def same(new: Sequence[str], found: Sequence[str]) -> bool:
        for n, f in zip(new, found, strict=True):
            if n.rstrip() == f.rstrip():
                continue
            if shift is None or shift.apply(n).rstrip() != f.rstrip():
                return False
        return True

    return same


def _longest_prefix_above(file_lines: Sequence[str], start: int, head: list[str]) -> int:
    """The largest ``k`` with ``head[:k]`` equal (whitespace aside) to the ``k`` file lines
    right above ``start``."""
    for k in range(min(len(head), start), 0, -1):
        if _keys(head[:k]) == _keys(file_lines[start - k : start]):
            return k
    return 0


def _longest_suffix_below(file_lines: Sequence[str], end: int, tail: list[str]) -> int:
    """The largest ``k`` with ``tail[-k:]`` equal to the ``k`` file lines from ``end``."""
    for k in range(min(len(tail), len(file_lines) - end), 0, -1):
        if _keys(tail[len(tail) - k :]) == _keys(file_lines[end : end + k]):
            return k
    return 0


def _run_kept(keys: list[str], gap: int, kept: set[int]) -> bool:
    """Whether the left-out line ``gap`` is kept, judged on its whole run of identical
    lines (two ``}``, blank lines): which copy of a run the replacement keeps cannot
    be told, so the left-out one counts as kept only when every copy is. Where the
    left-out copy sits in its run then makes no difference."""
    lo = hi = gap
    while lo > 0 and keys[lo - 1] == keys[gap]:
        lo -= 1
    while hi + 1 < len(keys) and keys[hi + 1] == keys[gap]:
        hi += 1
    return all(i in kept for i in range(lo, hi + 1))


def fill_gaps(
    file_lines: Sequence[str],
    match: Match,
    pattern: list[str],
    new: list[str],
    label: str,
) -> tuple[Match, list[str]]:
    """The pattern with the file lines it left out inside ``match`` put back, and the
    match line for line; unchanged when nothing was left out.

    Raises:
        PatchwrightError: ``ambiguous`` when the replacement does not keep a left-out
            line where it stands (it would vanish without having been shown).
    """
    if any(is_elision(line) for line in new):
        return match, pattern  # "..." in the new text too: it keeps what it stands for
    spans = match.spans
    solid = [(p, s) for p, s in zip(pattern, spans) if not is_elision(p)]
    if any(b != a + 1 for _, (a, b) in solid):
        return match, pattern  # a pattern line stands for no file line: not a gap case
    covered = {a: p for p, (a, _) in solid}
    if len(covered) == match.end - match.start:
        return match, pattern
    filled = [covered.get(i, file_lines[i]) for i in range(match.start, match.end)]
    gaps = [i - match.start for i in range(match.start, match.end) if i not in covered]
    kept: set[int] = set()
    for a, _, n in _kept_blocks(filled, new):
        kept.update(range(a, a + n))
    lost = [g for g in gaps if not _run_kept(_keys(filled), g, kept)]
    if lost:
        first = match.start + lost[0] + 1
        raise PatchwrightError(
            ErrorCode.AMBIGUOUS,
            f"{label or 'The edit'}: your old text leaves out {len(lost)} line(s) of the "
            f"file (first: line {first}, {filled[lost[0]].strip()[:60]!r}) and your new "
            "text does not keep them where they stand, so it cannot be told whether they "
            "should go. No change was made.",
            "Copy the old lines exactly as they stand in the file (re-read it first), "
            "without '...', so every line the edit touches is shown.",
            details={"line": first},
        )
    size = match.end - match.start
    return Match(
        match.start, match.end, match.rung, match.similarity, identity(match.start, size)
    ), filled
