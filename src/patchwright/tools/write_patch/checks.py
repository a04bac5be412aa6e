"""Every validation of ``workspace_write_patch`` (spec 001 sections 4 to 6).

Structural checks need no file: SHA256 format, non-empty ``changes``, the fields each
operation requires or forbids (``newLines`` must be absent on ``delete``), full lines
only (no line break inside a line string), ranges that make sense, changes ordered top
to bottom and not overlapping. File checks run on the text read from disk: ranges
inside the file and ``expectedOriginalLines`` equal, character for character, to the
lines there. Problems are collected, not stopped at, so one answer lists them all.

Positions: a replace/delete of lines ``s..e`` occupies the gaps ``s-1..e``; an insert
after line ``k`` is the point ``k``. Changes overlap when a range's interior contains
another range or an insertion point; two inserts at the same point are kept in order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from patchwright._records import record
from patchwright.model import ErrorCode, PatchwrightError, TextFile
from patchwright.tools.files import Loaded
from patchwright.tools.write_patch.models import ChangeObject, FilePatchObject

_SHA = re.compile(r"[0-9a-fA-F]{64}")


def _problem(
    field: str, message: str, hint: str = "", code: ErrorCode = ErrorCode.INVALID_REQUEST
) -> PatchwrightError:
    return PatchwrightError(code, f"{field}: {message}", hint, field=field)


@record(frozen=True)
class Placed:
    """A change with its position in gap coordinates (see the module docstring)."""

    index: int
    change: ChangeObject
    low: int
    high: int

    def describe(self) -> str:
        """``replace lines 10-12`` / ``insert after line 5``."""
        c = self.change
        if c.operation == "insert":
            return f"insert after line {c.afterLine}"
        span = (
            f"line {c.startLine}"
            if c.startLine == c.endLine
            else f"lines {c.startLine}-{c.endLine}"
        )
        return f"{c.operation} {span}"


def check_file_shape(i: int, fp: FilePatchObject) -> tuple[list[Placed], list[PatchwrightError]]:
    """Structural checks of ``files[i]``; returns the well-formed changes and problems."""
    name = f"files[{i}]"
    problems: list[PatchwrightError] = []
    if not _SHA.fullmatch(fp.originalSha256.strip()):
        problems.append(
            _problem(
                f"{name}.originalSha256",
                f"must be a hex SHA256 (64 characters 0-9a-f), got {fp.originalSha256!r}.",
                "Copy the sha256 returned when the file was read; do not invent or shorten it.",
            )
        )
    if not fp.changes:
        problems.append(
            _problem(f"{name}.changes", "must not be empty.", "List at least one change.")
        )
    placed: list[Placed] = []
    for j, change in enumerate(fp.changes):
        found = check_change(f"{name}.changes[{j}]", change)
        if found:
            problems.extend(found)
        else:
            placed.append(_place(j, change))
    problems.extend(check_order(name, placed))
    return placed, problems


def check_change(field: str, c: ChangeObject) -> list[PatchwrightError]:
    """The problems of one change object on its own."""
    out: list[PatchwrightError] = []
    needs = {
        "insert": ("afterLine", "newLines"),
        "replace": ("startLine", "endLine", "expectedOriginalLines", "newLines"),
        "delete": ("startLine", "endLine", "expectedOriginalLines"),
    }[c.operation]
    forbidden = {
        "insert": ("startLine", "endLine", "expectedOriginalLines"),
        "replace": ("afterLine",),
        "delete": ("afterLine", "newLines"),
    }[c.operation]
    for key in needs:
        if getattr(c, key) is None:
            out.append(_problem(f"{field}.{key}", f"is required for operation {c.operation}.",
                                f"Add {key}."))  # fmt: skip
    for key in forbidden:
        if getattr(c, key) is not None:
            message = f"must not be present for operation {c.operation}."
            out.append(_problem(f"{field}.{key}", message, f"Remove {key}."))
    if out:
        return out
    if c.operation == "insert":
        assert c.afterLine is not None and c.newLines is not None
        if c.afterLine < 0:
            out.append(_problem(f"{field}.afterLine", f"must be >= 0, got {c.afterLine}.",
                                "0 inserts at the top of the file."))  # fmt: skip
        if not c.newLines:
            out.append(_problem(f"{field}.newLines", "must hold at least one line for insert."))
    else:
        out.extend(_check_range(field, c))
    for key in ("newLines", "expectedOriginalLines"):
        out.extend(_full_lines(f"{field}.{key}", getattr(c, key)))
    return out


def _check_range(field: str, c: ChangeObject) -> list[PatchwrightError]:
    assert c.startLine is not None and c.endLine is not None
    assert c.expectedOriginalLines is not None
    if c.startLine < 1:
        return [
            _problem(f"{field}.startLine", f"must be >= 1 (lines are 1-based), got {c.startLine}.")
        ]
    if c.endLine < c.startLine:
        return [_problem(f"{field}.endLine", f"({c.endLine}) is before startLine ({c.startLine}).",
                         "endLine is inclusive: equal to startLine for one line.")]  # fmt: skip
    count = c.endLine - c.startLine + 1
    if len(c.expectedOriginalLines) != count:
        return [
            _problem(
                f"{field}.expectedOriginalLines",
                f"has {len(c.expectedOriginalLines)} line(s), but lines {c.startLine}-{c.endLine} "
                f"are {count}.",
                "Copy exactly the lines of the range, one string per line.",
            )
        ]
    return []


def _full_lines(field: str, lines: Sequence[str] | None) -> list[PatchwrightError]:
    for k, line in enumerate(lines or ()):
        if "\n" in line or "\r" in line:
            return [
                _problem(
                    f"{field}[{k}]",
                    "contains a line break; each entry must be one complete line without its "
                    "newline (full-line rule).",
                    "Split the text into one string per line.",
                )
            ]
    return []


def _place(j: int, c: ChangeObject) -> Placed:
    if c.operation == "insert":
        assert c.afterLine is not None
        return Placed(j, c, c.afterLine, c.afterLine)
    assert c.startLine is not None and c.endLine is not None
    return Placed(j, c, c.startLine - 1, c.endLine)


def check_order(name: str, placed: list[Placed]) -> list[PatchwrightError]:
    """Changes must run top to bottom and must not overlap."""
    out = []
    for a, b in pairwise(placed):
        field = f"{name}.changes[{b.index}]"
        if _overlap(a, b):
            out.append(
                _problem(
                    field,
                    f"({b.describe()}) overlaps {name}.changes[{a.index}] ({a.describe()}).",
                    "Merge overlapping changes into one replace, or fix the line numbers.",
                    ErrorCode.OVERLAP,
                )
            )
        elif a.high > b.low:
            out.append(
                _problem(
                    field,
                    f"({b.describe()}) comes before {name}.changes[{a.index}] ({a.describe()}) in "
                    "the file.",
                    "Order changes top to bottom by afterLine / startLine.",
                )
            )
    return out


def _overlap(a: Placed, b: Placed) -> bool:
    """Whether the interiors meet: two ranges share a line, or a point lies inside a range."""
    if a.low == a.high and b.low == b.high:
        return False
    if a.low == a.high:
        return b.low < a.low < b.high
    if b.low == b.high:
        return a.low < b.low < a.high
    return max(a.low, b.low) < min(a.high, b.high)


def check_against_file(name: str, placed: list[Placed], text: TextFile) -> list[PatchwrightError]:
    """Ranges inside the file and expected lines equal to the file's lines."""
    n = len(text.lines)
    out: list[PatchwrightError] = []
    for p in placed:
        field = f"{name}.changes[{p.index}]"
        c = p.change
        if c.operation == "insert":
            if p.low > n:
                out.append(_out_of_range(f"{field}.afterLine", f"afterLine {c.afterLine}", n))
            continue
        if p.high > n:
            out.append(_out_of_range(f"{field}.endLine", f"lines {c.startLine}-{c.endLine}", n))
            continue
        current = text.lines[p.low : p.high]
        expected = list(c.expectedOriginalLines or ())
        if current != expected:
            out.append(_mismatch(f"{field}.expectedOriginalLines", p, expected, current))
    return out


def _out_of_range(field: str, what: str, n: int) -> PatchwrightError:
    return _problem(
        field,
        f"{what} is outside the file, which has {n} line{'s' if n != 1 else ''}.",
        "Re-read the file and take line numbers from its current content.",
        ErrorCode.OUT_OF_RANGE,
    )


def _mismatch(field: str, p: Placed, expected: list[str], current: list[str]) -> PatchwrightError:
    start = p.low + 1
    for k, (want, have) in enumerate(zip(expected, current)):
        if want != have:
            where = f"line {start + k}: expected {want!r}, found {have!r}"
            break
    else:
        where = "the line counts differ"
    err = _problem(
        field,
        f"does not match the file exactly ({where}).",
        "Copy the lines verbatim (whitespace included) from the file as read with this "
        "originalSha256.",
        ErrorCode.EXPECTED_MISMATCH,
    )
    err.details.update(expected=expected, found=current)
    return err


@record
class FilePlan:
    """One file of the batch once validated and read."""

    index: int
    patch: FilePatchObject
    placed: list[Placed]
    loaded: Loaded
