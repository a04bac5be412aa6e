"""Lines of a unified diff by kind, and git-style diffstats.

:func:`classify` walks a diff the way a patch program does: inside a hunk it counts the
old and new lines the ``@@`` header announced, so a removed line that itself starts
with ``--`` (shown as ``--- ...``) is still a removed line, not a file header. The
terminal output of ``patchwright apply`` and the review page both count and colour
lines through it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from patchwright._lazy import lazy_literals
from patchwright.model.text import diff_rows

#: ``get_args(LineKind)``, kept as a constant so that no run-time use of the alias imports
#: ``typing`` (start-up time of ``patchwright apply -R``).
LINE_KINDS = ("header", "hunk", "context", "del", "add", "note")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    LineKind = Literal["header", "hunk", "context", "del", "add", "note"]
else:
    __getattr__ = lazy_literals(__name__, {"LineKind": LINE_KINDS}, globals())

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def classify(diff: str) -> Iterator[tuple[LineKind, str]]:
    """Each line of ``diff`` (without its line ending) with its kind."""
    old_left = new_left = 0
    in_hunk = False  # the previous line was a hunk line (so "\ No newline" is a note)
    for line in diff_rows(diff):
        if in_hunk and line.startswith("\\"):
            yield "note", line
            continue
        match = _HUNK.match(line)
        if old_left <= 0 and new_left <= 0:
            if match is None:
                in_hunk = False
                yield "header", line
                continue
            old_left = int(match.group(2) if match.group(2) is not None else 1)
            new_left = int(match.group(4) if match.group(4) is not None else 1)
            in_hunk = True
            yield "hunk", line
        elif line.startswith("-"):
            old_left -= 1
            yield "del", line
        elif line.startswith("+"):
            new_left -= 1
            yield "add", line
        else:
            old_left, new_left = old_left - 1, new_left - 1
            yield "context", line


def hunk_start(line: str) -> tuple[int, int]:
    """The old and new first line numbers of a ``@@`` header line."""
    match = _HUNK.match(line)
    if match is None:
        raise ValueError(f"not a hunk header: {line!r}")
    return int(match.group(1)), int(match.group(3))


def count(diff: str) -> tuple[int, int]:
    """Lines added and removed by ``diff``."""
    added = removed = 0
    for kind, _ in classify(diff):
        added += kind == "add"
        removed += kind == "del"
    return added, removed


def stat_lines(entries: list[tuple[str, int, int]], width: int = 80) -> list[tuple[str, int, int]]:
    """git's diffstat rows for ``(path, added, removed)``: each row's text before its
    bar and the bar's ``+`` and ``-`` counts, then the summary row (bar counts 0)."""
    if not entries:
        return [(" 0 files changed", 0, 0)]
    name_width = max(len(p) for p, _, _ in entries)
    totals = [a + r for _, a, r in entries]
    number_width = len(str(max(totals)))
    room = max(width - name_width - number_width - 5, 10)
    biggest = max(totals)
    rows: list[tuple[str, int, int]] = []
    for (path, added, removed), total in zip(entries, totals, strict=True):
        plus, minus = added, removed
        if biggest > room:  # scale like git, keeping a change visible
            plus = -(-added * room // biggest) if added else 0
            minus = -(-removed * room // biggest) if removed else 0
        rows.append((f" {path:<{name_width}} | {total:>{number_width}} ", plus, minus))
    added_all = sum(a for _, a, _ in entries)
    removed_all = sum(r for _, _, r in entries)
    summary = f" {len(entries)} file{'s' if len(entries) != 1 else ''} changed"
    if added_all or not removed_all:
        summary += f", {added_all} insertion{'s' if added_all != 1 else ''}(+)"
    if removed_all:
        summary += f", {removed_all} deletion{'s' if removed_all != 1 else ''}(-)"
    rows.append((summary, 0, 0))
    return rows
