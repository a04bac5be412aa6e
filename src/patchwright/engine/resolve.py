"""Resolve one edit against one text: where it applies and what replaces what.

Nothing is mutated here: each anchor kind becomes one or more :class:`Splice` values
(file lines ``[start, end)`` and the lines that take their place), which
:mod:`patchwright.engine.apply` checks for overlaps and splices in one pass.

Above both rooms, like :mod:`.hunk` and :mod:`.oldtext`: each anchor kind is found by
:mod:`.matching` and its replacement decided by :mod:`.replacing`.
"""

from __future__ import annotations

from patchwright.engine.hunk import resolve_hunk
from patchwright.engine.matching.index import LineIndex
from patchwright.engine.matching.policy import MatchOptions
from patchwright.engine.replacing.splice import Splice, line_splice, with_matched
from patchwright.model.edits import Edit, Hunk
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.reports import Rung
from patchwright.model.text import TextFile, split_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from patchwright.model.anchors import LineRange

__all__ = ["Splice", "resolve"]


def resolve(
    file: TextFile,
    index: LineIndex,
    edit: Edit,
    options: MatchOptions,
    *,
    hint_shift: int = 0,
    after: int = 0,
) -> list[Splice]:
    """Resolve ``edit`` against ``file`` (whose ``index`` is given).

    ``after`` is the line where the edit before it ended (diff hunks only).

    Raises:
        PatchwrightError: the anchor was not found, was ambiguous, or is invalid.
    """
    anchor = edit.anchor
    if isinstance(anchor, Hunk):
        return [resolve_hunk(file, index, anchor, edit.label, options, hint_shift, after)]
    # the other anchors come from tool calls and SEARCH/REPLACE blocks, never from a diff:
    # their module stays off the start-up path of ``patchwright apply``
    from patchwright.model.anchors import BeginningOfFile, EndOfFile, LineRange, OldText, WholeFile

    if isinstance(anchor, OldText):
        from patchwright.engine.oldtext import old_text  # not for diff hunks: start-up time

        return old_text(file, index, anchor, edit.replacement, edit.label, options)
    if isinstance(anchor, LineRange):
        return [_line_range(file, anchor, edit.replacement, edit.label)]
    if isinstance(anchor, BeginningOfFile):
        return [line_splice(file, 0, 0, _as_lines(edit.replacement), Rung.BOF)]
    if isinstance(anchor, EndOfFile):
        n = len(file.lines)
        return [line_splice(file, n, n, _as_lines(edit.replacement), Rung.EOF)]
    if isinstance(anchor, WholeFile):
        lines, endings = split_lines(edit.replacement)
        nl = file.newline if file.lines else _text_newline(edit.replacement)
        endings = [nl if e else "" for e in endings]
        return [Splice(0, len(file.lines), lines, endings, Rung.WHOLE_FILE)]
    raise PatchwrightError(ErrorCode.UNSUPPORTED, f"Unknown anchor {anchor!r}.")


def _text_newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _as_lines(text: str) -> str:
    """Inserted blocks are whole lines: a missing final newline is supplied."""
    return text if not text or text.endswith(("\n", "\r")) else text + "\n"


def _line_range(file: TextFile, rng: LineRange, text: str, label: str) -> Splice:
    n = len(file.lines)
    name = label or "edit"
    if rng.start < 1 or rng.start > n + 1:
        raise PatchwrightError(
            ErrorCode.OUT_OF_RANGE,
            f"{name}: start line {rng.start} is outside the file (it has {n} lines).",
            f"Use a start line between 1 and {n + 1} ({n + 1} appends).",
        )
    if rng.end < rng.start - 1 or rng.end > n:
        raise PatchwrightError(
            ErrorCode.OUT_OF_RANGE,
            f"{name}: end line {rng.end} is invalid for start line {rng.start} "
            f"(the file has {n} lines).",
            "end must be at least start - 1 (an empty range inserts) and at most the "
            "number of lines.",
        )
    current = file.lines[rng.start - 1 : rng.end]
    if rng.expected is not None and list(rng.expected) != current:
        raise PatchwrightError(
            ErrorCode.EXPECTED_MISMATCH,
            f"{name}: lines {rng.start}-{rng.end} do not hold the expected lines.\n"
            + _expected_vs_found(list(rng.expected), current, rng.start),
            "Re-read the file and copy the current lines exactly, or fix the line numbers.",
            details={"expected": list(rng.expected), "found": current},
        )
    splice = line_splice(file, rng.start - 1, rng.end, _as_lines(text), Rung.LINE_RANGE)
    return with_matched(splice, file)


def _expected_vs_found(expected: list[str], found: list[str], start: int) -> str:
    rows = []
    for i in range(max(len(expected), len(found))):
        e = expected[i] if i < len(expected) else "<none>"
        f = found[i] if i < len(found) else "<none>"
        mark = "  " if e == f else "! "
        rows.append(f"{mark}line {start + i}: expected {e!r}, found {f!r}")
    return "\n".join(rows[:12])
