"""Telling the errors an edit introduced from the ones the file already had.

Line numbers shift when an edit adds or removes lines, so errors are matched through a
line map (which line of the text after the edit came from which line before it) and by
message, never by raw line number:

* an error on a line the edit did not touch matches an error with the same message on
  that line's original;
* an error inside an edited region matches an error with the same message inside the
  region it replaced (the edit touched broken code and left it broken);
* an error on a line whose text was moved matches an error with the same message on a
  removed line with the same text.

Inside an edited region the comparison uses the kind of error only (``invalid syntax``
rather than ``invalid syntax near "<%= x %>"``): the quoted text is the very text the edit
changed.

A file that already had several errors before the edit is usually not in the language its
name suggests (a template, a test DSL, another dialect): there, an error of a kind the file
already had is counted as already there, or every edit would be blamed for the dialect.

Parsers that stop at the first error (Python, JSON, TOML) hide every later error of a
broken file. So when the file was broken before the edit, an error on an untouched line
at or after the first original error counts as already there: it may have been hidden.
The converse blind spot is accepted here: a new error behind an old one is invisible to
whole-text parses (for Python, the region check of :mod:`.pyregion` often sees it).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from patchwright.syntax.stdlib_parsers import ParseError


@dataclass(frozen=True)
class Origin:
    """Where a line after the edit came from: 1-based inclusive lines of the text before.

    ``unchanged`` lines have ``first == last``; an edited line gets the whole region its
    hunk replaced (empty, ``first == last + 1``, for a pure insertion).
    """

    unchanged: bool
    first: int
    last: int


@dataclass(frozen=True)
class _Block:
    a_start: int  # 0-based, half open, lines after the edit
    a_end: int
    b_start: int  # 0-based, half open, lines before the edit
    b_end: int
    equal: bool


def common_ends(before: Sequence[str], after: Sequence[str]) -> tuple[int, int]:
    """Counts of leading and trailing lines the two texts share (never overlapping)."""
    limit = min(len(before), len(after))
    prefix = 0
    while prefix < limit and before[prefix] == after[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and before[-1 - suffix] == after[-1 - suffix]:
        suffix += 1
    return prefix, suffix


class LineMap:
    """Maps lines of the text after an edit to the lines they came from."""

    def __init__(self, before: Sequence[str], after: Sequence[str]) -> None:
        prefix, suffix = common_ends(before, after)
        blocks = [_Block(0, prefix, 0, prefix, True)]
        blocks.extend(
            _middle_blocks(
                before[prefix : len(before) - suffix], after[prefix : len(after) - suffix], prefix
            )
        )
        blocks.append(
            _Block(len(after) - suffix, len(after), len(before) - suffix, len(before), True)
        )
        self._blocks = [b for b in blocks if b.a_end > b.a_start or b.b_end > b.b_start]
        located = [b for b in self._blocks if b.a_end > b.a_start]
        self._by_after = located
        self._after_starts = [b.a_start for b in located]
        kept = [b for b in self._blocks if b.equal and b.b_end > b.b_start]
        self._kept = kept
        self._kept_starts = [b.b_start for b in kept]

    def origin(self, line: int) -> Origin:
        """The origin of 1-based ``line`` of the text after the edit."""
        index = line - 1
        at = bisect_right(self._after_starts, index) - 1
        if at < 0:
            return Origin(False, 1, 0)
        block = self._by_after[at]
        if block.equal and index < block.a_end:
            mapped = block.b_start + (index - block.a_start) + 1
            return Origin(True, mapped, mapped)
        return Origin(False, block.b_start + 1, block.b_end)

    def kept(self, before_line: int) -> bool:
        """True when 1-based ``before_line`` survives the edit unchanged."""
        index = before_line - 1
        at = bisect_right(self._kept_starts, index) - 1
        return at >= 0 and index < self._kept[at].b_end


def _middle_blocks(before: Sequence[str], after: Sequence[str], offset: int) -> list[_Block]:
    """Aligned blocks of the part between the common ends, in order.

    Lines that occur exactly once on each side anchor the alignment (the longest run of
    them in the same order on both sides, found in n log n), and only the gaps between
    anchors are compared line by line. A diff of thousands of hunks spreads its changes
    over the whole file; a plain ``SequenceMatcher`` over all of it would take seconds.
    """
    blocks: list[_Block] = []
    pi = pj = 0
    for i, j in [*_anchors(before, after), (len(before), len(after))]:
        blocks.extend(_gap_blocks(before[pi:i], after[pj:j], offset + pi, offset + pj))
        if i < len(before):
            blocks.append(_Block(offset + j, offset + j + 1, offset + i, offset + i + 1, True))
        pi, pj = i + 1, j + 1
    return blocks


def _anchors(before: Sequence[str], after: Sequence[str]) -> list[tuple[int, int]]:
    """Pairs ``(i, j)`` with ``before[i] == after[j]`` unique on both sides, increasing in
    both (patience alignment: the longest increasing run of ``j`` in ``i`` order)."""
    counts: dict[str, int] = {}
    for line in before:
        counts[line] = counts.get(line, 0) + 1
    where: dict[str, int] = {}
    for j, line in enumerate(after):
        if counts.get(line) == 1:
            where[line] = -1 if line in where else j
    pairs = [(i, where[line]) for i, line in enumerate(before) if where.get(line, -1) >= 0]
    tails: list[int] = []  # tails[k]: index in pairs ending the best run of length k + 1
    tail_js: list[int] = []  # their ``j``, kept sorted for bisect
    back: list[int] = []
    for k, (_, j) in enumerate(pairs):
        at = bisect_left(tail_js, j)
        back.append(tails[at - 1] if at else -1)
        if at == len(tails):
            tails.append(k)
            tail_js.append(j)
        else:
            tails[at] = k
            tail_js[at] = j
    out: list[tuple[int, int]] = []
    k = tails[-1] if tails else -1
    while k >= 0:
        out.append(pairs[k])
        k = back[k]
    return out[::-1]


# Gaps larger than this (lines before x lines after) are one changed block: comparing
# them line by line is quadratic, and the errors inside are matched by kind anyway.
_GAP_CELLS = 250_000


def _gap_blocks(before: Sequence[str], after: Sequence[str], b0: int, a0: int) -> list[_Block]:
    if not before and not after:
        return []
    if not before or not after or len(before) * len(after) > _GAP_CELLS:
        return [_Block(a0, a0 + len(after), b0, b0 + len(before), False)]
    if len(before) == len(after):
        # Lines replaced one for one (the usual small hunk): pair them in place.
        return [
            _Block(a0 + k, a0 + k + 1, b0 + k, b0 + k + 1, old == new)
            for k, (old, new) in enumerate(zip(before, after))
        ]
    import difflib  # only needed when both texts have errors; slow to import

    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return [
        _Block(a0 + j1, a0 + j2, b0 + i1, b0 + i2, tag == "equal")
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
    ]


_LINE_REFERENCE = re.compile(r"\bline \d+")
# From this many errors before the edit, the file is taken to be in another dialect.
DIALECT_ERRORS = 3


def _key(message: str) -> str:
    # Python names other lines in some messages ("... on line 12"); they shift too.
    return _LINE_REFERENCE.sub("line N", message)


def _kind(message: str) -> str:
    return _key(message).split(" near ", 1)[0]


def _text(lines: Sequence[str], line: int) -> str:
    return lines[line - 1].strip() if 1 <= line <= len(lines) else ""


def split_errors(
    before_errors: Sequence[ParseError],
    after_errors: Sequence[ParseError],
    before_lines: Sequence[str],
    after_lines: Sequence[str],
    *,
    first_error_only: bool,
    line_map: LineMap | None = None,
) -> tuple[list[ParseError], int]:
    """The errors of ``after_errors`` the edit introduced, and how many were already there.

    ``line_map`` is the map of these two texts when the caller already built one.
    """
    if not after_errors:
        return [], 0
    if not before_errors:
        return list(after_errors), 0
    lines = line_map or LineMap(before_lines, after_lines)
    unmatched = list(before_errors)
    first_broken = min(error.line for error in before_errors)
    dialect = (
        {_kind(error.message) for error in before_errors}
        if len(before_errors) >= DIALECT_ERRORS
        else set()
    )
    new: list[ParseError] = []
    preexisting = 0
    for error in after_errors:
        origin = lines.origin(error.line)
        twin = _twin(error, origin, unmatched, lines, before_lines, after_lines)
        if twin is not None:
            unmatched.remove(twin)
            preexisting += 1
            continue
        hidden = first_error_only and origin.unchanged and origin.first >= first_broken
        if hidden or _kind(error.message) in dialect:
            preexisting += 1
        else:
            new.append(error)
    return new, preexisting


def _twin(
    error: ParseError,
    origin: Origin,
    candidates: Sequence[ParseError],
    lines: LineMap,
    before_lines: Sequence[str],
    after_lines: Sequence[str],
) -> ParseError | None:
    kind = _kind(error.message)
    for candidate in candidates:
        if origin.first <= candidate.line <= origin.last and _kind(candidate.message) == kind:
            if origin.unchanged and _key(candidate.message) != _key(error.message):
                continue
            return candidate
    key = _key(error.message)
    same = [c for c in candidates if _key(c.message) == key]
    text = _text(after_lines, error.line)
    for candidate in same:
        moved = not lines.kept(candidate.line)
        if moved and text and _text(before_lines, candidate.line) == text:
            return candidate
    return None
