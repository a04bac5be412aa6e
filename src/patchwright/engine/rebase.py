"""Three-way rebase of an edit onto a file that changed since it was read.

An agent reads a file (``base``), computes its edit on that text (``mine``), and by the
time the edit arrives someone else changed the file (``current``): a formatter, the user,
another agent. :func:`rebase` puts the agent's changes onto ``current`` when they touch
lines nobody else touched, and otherwise names the lines where both changed the file.

Both sides are diffed against ``base`` line by line (a line with its ending). A change of
one side *overlaps* one of the other when their ranges of ``base`` lines share a line,
when an insertion falls strictly inside the other's range, or when both insert at the
same place (their order could not be told). Without overlap the merge takes every change
of both sides, in ``base`` order; it is pure: no file system, no history.
"""

from __future__ import annotations

from collections.abc import Sequence

from patchwright._records import record
from patchwright.engine.diff import line_opcodes
from patchwright.model import TextFile

__all__ = ["Rebased", "rebase"]

# one side's change: base lines [start, end) replaced by the side's lines [start, end)
_Change = tuple[int, int, int, int]


@record(frozen=True)
class Rebased:
    """What :func:`rebase` found.

    Attributes:
        file: ``current`` with the edit's changes, ``None`` when they overlap.
        changed: the lines of ``current`` (1-based, inclusive) the other writer changed
            since ``base``; ``(n, n - 1)`` marks lines removed before line ``n``.
        overlaps: the ranges of ``current`` (1-based, inclusive) where the other
            writer's changes overlap the edit's.
    """

    file: TextFile | None
    changed: tuple[tuple[int, int], ...]
    overlaps: tuple[tuple[int, int], ...]

    @property
    def clean(self) -> bool:
        """Whether the edit applies without overlap."""
        return self.file is not None


def _keys(file: TextFile) -> list[str]:
    return [line + end for line, end in zip(file.lines, file.endings)]


def _changes(a: list[str], b: list[str]) -> list[_Change]:
    return [(a0, a1, b0, b1) for tag, a0, a1, b0, b1 in line_opcodes(a, b) if tag != "equal"]


def _overlap(x: _Change, y: _Change) -> bool:
    xs, xe, ys, ye = x[0], x[1], y[0], y[1]
    if xs == xe and ys == ye:
        return xs == ys
    if xs == xe:
        return ys < xs < ye
    if ys == ye:
        return xs < ys < xe
    return xs < ye and ys < xe


def rebase(base: TextFile, current: TextFile, mine: TextFile) -> Rebased:
    """Put the changes ``base`` -> ``mine`` onto ``current`` (see the module docstring);
    the result keeps ``current``'s encoding and BOM."""
    b, theirs_lines, mine_lines = _keys(base), _keys(current), _keys(mine)
    theirs = _changes(b, theirs_lines)
    ours = _changes(b, mine_lines)
    changed = tuple((t[2] + 1, t[3]) for t in theirs)
    overlaps = [t for t in theirs if any(_overlap(t, o) for o in ours)]
    if overlaps:
        return Rebased(None, changed, tuple(_around(t) for t in overlaps))
    merged = _merge(b, theirs_lines, mine_lines, theirs, ours)
    lines = [_split(k) for k in merged]
    file = TextFile(
        [line for line, _ in lines],
        [end for _, end in lines],
        encoding=current.encoding,
        bom=current.bom,
    )
    return Rebased(file, changed, ())


def _around(change: _Change) -> tuple[int, int]:
    """The current lines of a change (a removal: the line after it and the one before)."""
    start, end = change[2] + 1, change[3]
    return (start, end) if end >= start else (max(1, start - 1), start)


def _merge(
    base: Sequence[str],
    theirs_lines: Sequence[str],
    mine_lines: Sequence[str],
    theirs: Sequence[_Change],
    ours: Sequence[_Change],
) -> list[str]:
    """Walk ``base``, taking each side's replacement where that side changed it."""
    steps = sorted(
        [(c[0], c[1], 0, theirs_lines[c[2] : c[3]]) for c in theirs]
        + [(c[0], c[1], 1, mine_lines[c[2] : c[3]]) for c in ours],
        key=lambda s: (s[0], s[1], s[2]),
    )
    out: list[str] = []
    at = 0
    for start, end, _side, lines in steps:
        out.extend(base[at:start])
        out.extend(lines)
        at = max(at, end)
    out.extend(base[at:])
    return out


def _split(key: str) -> tuple[str, str]:
    for end in ("\r\n", "\n", "\r"):
        if key.endswith(end):
            return key[: -len(end)], end
    return key, ""
