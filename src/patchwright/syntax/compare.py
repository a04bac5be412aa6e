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
from bisect import bisect_right
from collections.abc import Sequence

from patchwright._records import record
from patchwright.syntax.stdlib_parsers import ParseError


@record(frozen=True)
class Origin:
    """Where a line after the edit came from: 1-based inclusive lines of the text before.

    ``unchanged`` lines have ``first == last``; an edited line gets the whole region its
    hunk replaced (empty, ``first == last + 1``, for a pure insertion).
    """

    unchanged: bool
    first: int
    last: int


@record(frozen=True)
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
    """Maps lines of the text after an edit to the lines they came from.

    ``changed`` may name the changed blocks when the caller knows them (a diff's hunks,
    as :func:`.check.check_edit` takes them): only they are diffed then, the lines
    between them checked equal. Blocks that do not fit the texts are ignored.
    """

    def __init__(
        self,
        before: Sequence[str],
        after: Sequence[str],
        changed: Sequence[tuple[int, int, int, int]] | None = None,
    ) -> None:
        blocks = _known_blocks(before, after, changed) if changed else None
        if blocks is None:
            prefix, suffix = common_ends(before, after)
            blocks = [_Block(0, prefix, 0, prefix, True)]
            blocks.extend(
                _middle_blocks(
                    before[prefix : len(before) - suffix],
                    after[prefix : len(after) - suffix],
                    prefix,
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
    """Aligned blocks of the part between the common ends, in order (the engine's line
    diff: linear even when a diff of thousands of hunks spreads over the whole file)."""
    # Imported here: only edits whose texts both have errors need it, and the engine
    # (with difflib) is not worth loading for a check that passes.
    from patchwright.engine.diff import line_opcodes

    return [
        _Block(offset + j1, offset + j2, offset + i1, offset + i2, tag == "equal")
        for tag, i1, i2, j1, j2 in line_opcodes(list(before), list(after))
    ]


def _known_blocks(
    before: Sequence[str], after: Sequence[str], changed: Sequence[tuple[int, int, int, int]]
) -> list[_Block] | None:
    """The aligned blocks of the whole texts from the caller's changed blocks, or ``None``
    when those do not fit the texts. A diff of hundreds of hunks spread over a large
    file is then diffed hunk by hunk, not as one range (see :func:`_middle_blocks`)."""
    from patchwright.engine.diff import block_opcodes  # as in _middle_blocks

    ops = block_opcodes(list(before), list(after), changed)
    if ops is None:
        return None
    return [_Block(j1, j2, i1, i2, tag == "equal") for tag, i1, i2, j1, j2 in ops]


#: A line a parser's message names ("... after 'if' statement on line 12").
LINE_REFERENCE = re.compile(r"\bline (\d+)")
# From this many errors before the edit, the file is taken to be in another dialect.
DIALECT_ERRORS = 3


def _key(message: str) -> str:
    # Python names other lines in some messages ("... on line 12"); they shift too.
    return LINE_REFERENCE.sub("line N", message)


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
