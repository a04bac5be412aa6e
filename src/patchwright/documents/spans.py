"""Character spans: what an edit changed, and how offsets move across it.

Offsets are Python string indices (code points) into the document text, end exclusive.
A :class:`Span` pairs a region of the text before an edit (``old_*``) with the region
that replaced it in the text after the edit (``new_*``). Spans of one edit are sorted and
never overlap. A patch's spans are as small as the change allows (characters equal at
both ends of a hunk are trimmed off), so a selection hint lands on what really changed;
``insert`` and ``replace`` report the range they were given and its new text.

Line offsets follow the editor convention: one entry per line start, the first being
0, and a final newline opens one more (empty) line, so ``"a\\n"`` has ``[0, 2]``.
``\\n``, ``\\r\\n`` and a lone ``\\r`` all end a line, as in the text model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from patchwright._records import record
from patchwright.model import split_lines

_CHUNK = 4096


@record(frozen=True)
class Span:
    """``[old_start, old_end)`` before the edit became ``[new_start, new_end)`` after it."""

    old_start: int
    old_end: int
    new_start: int
    new_end: int

    @property
    def delta(self) -> int:
        """Characters gained (negative when lost)."""
        return (self.new_end - self.new_start) - (self.old_end - self.old_start)

    def to_dict(self) -> dict[str, Any]:
        """``{"old": [start, end], "new": [start, end]}``."""
        return {"old": [self.old_start, self.old_end], "new": [self.new_start, self.new_end]}


def line_offsets(text: str) -> list[int]:
    """The offset at which each line of ``text`` starts (see the module docstring)."""
    offsets = [0]
    position = 0
    lines, endings = split_lines(text)
    for line, ending in zip(lines, endings, strict=True):
        position += len(line) + len(ending)
        if ending:
            offsets.append(position)
    return offsets


def line_range_offsets(
    offsets: Sequence[int], length: int, first: int, last: int
) -> tuple[int, int]:
    """Character offsets ``[start, end)`` of 1-based inclusive lines ``first..last``.

    ``last == first - 1`` is the empty range before line ``first``. Lines past the end are
    clamped to ``length``; the end includes the last line's ending.
    """
    start = offsets[first - 1] if 0 < first <= len(offsets) else length
    end = offsets[last] if 0 <= last < len(offsets) else length
    return start, max(start, end)


def trimmed_span(
    old: str, new: str, old_window: tuple[int, int], new_window: tuple[int, int]
) -> Span:
    """The smallest span that turns ``old[old_window]`` into ``new[new_window]``.

    Characters equal at the start and at the end of both windows are left out.
    """
    old_lo, old_hi = old_window
    new_lo, new_hi = new_window
    head = _common_prefix(old[old_lo:old_hi], new[new_lo:new_hi])
    old_lo += head
    new_lo += head
    tail = _common_prefix(old[old_lo:old_hi][::-1], new[new_lo:new_hi][::-1])
    return Span(old_lo, old_hi - tail, new_lo, new_hi - tail)


def whole_text_span(old: str, new: str) -> Span | None:
    """The one span covering every difference between ``old`` and ``new`` (``None`` if equal)."""
    if old == new:
        return None
    return trimmed_span(old, new, (0, len(old)), (0, len(new)))


def map_offset(spans: Sequence[Span], position: int, *, side: Literal["start", "end"]) -> int:
    """Where ``position`` of the old text lands in the new text.

    ``side`` says which end of a range ``position`` is: text inserted exactly at a range's
    start or end stays outside the range, and a range edge that fell inside a replaced
    region moves to the edge of its replacement, so the range covers the new text.
    """
    mapped = position
    for span in spans:
        if side == "start":
            before = span.old_end <= position
        else:
            before = span.old_end < position or span.old_start < span.old_end == position
        if before:
            mapped = position + span.new_end - span.old_end
        elif span.old_start < position:
            return span.new_start if side == "start" else span.new_end
        else:
            break
    return mapped


def _common_prefix(a: str, b: str) -> int:
    limit = min(len(a), len(b))
    i = 0
    # Whole chunks first: slice comparison runs in C, a character loop does not.
    while i + _CHUNK <= limit and a[i : i + _CHUNK] == b[i : i + _CHUNK]:
        i += _CHUNK
    while i < limit and a[i] == b[i]:
        i += 1
    return i
