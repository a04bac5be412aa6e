"""Which side of a left-out context line a diff hunk's inserted lines go, by the
format's context rule.

Unified diffs and ``*** Begin Patch`` hunks show as many context lines after the
change as before it (three by default), except where the file begins or ends. When a
hunk that inserts lines lost one context line next to the insertion, the side that
is one line short is the side that lost it: the line left out belongs there, and the
insertion goes on the other side of it. A side that reaches the file's start or end
may be short by nature, so there only the other side's shortness tells. Anything else
(a longer gap, a hunk that reaches both ends, counts that differ by more than one, a
line left out between two changes) says nothing, and the caller refuses as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from patchwright.model.edits import HunkLine

Side = Literal["before", "after"]


def side_by_context(
    body: Sequence[HunkLine], index: int, gap: Sequence[int], start: int, end: int, size: int
) -> Side | None:
    """Where the added lines right before ``body[index]`` go relative to the left-out
    file lines ``gap``: ``"before"`` them, ``"after"`` them, or ``None`` when the
    context counts do not tell.

    Args:
        body: the hunk's lines; ``body[index]`` is the old line right after the gap.
        gap: the file lines the hunk's context left out (0-based).
        start / end: the file lines ``[start, end)`` the hunk matched.
        size: the number of lines in the file.
    """
    # At the file's start the context before may be short by nature, at its end the
    # context after: only the other side's shortness tells there.
    at_start, at_end = start <= 0, end >= size
    if len(gap) != 1 or (at_start and at_end) or body[index].op != " ":
        return None
    lo = index
    while lo > 0 and body[lo - 1].op == "+":
        lo -= 1
    if lo == index:
        return None
    ops = [hl.op for hl in body]
    changes = [i for i, op in enumerate(ops) if op != " "]
    leading, trailing = changes[0], len(ops) - 1 - changes[-1]
    if index - 1 == changes[-1] and trailing + 1 == leading and not at_end:
        return "before"  # the context after the last change is the short side
    # The context before the first change is: the line left out stood right before the
    # change, which only borders the added lines when nothing is removed there.
    if lo == changes[0] and leading + 1 == trailing and not at_start:
        return "after"
    return None
