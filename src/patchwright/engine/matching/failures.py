"""Spec 002's "Patch failed on ..." block: one failed hunk, told once for every caller.

:func:`hunk_failure` turns the engine's refusal of one hunk into a :class:`HunkFailure`
(the reason in the spec's words and, for a hunk not found, the first line that differs
from the closest region); :func:`failure_block` renders the block::

    Patch failed on foo.py:
      Hunks 1-2: would have applied; nothing was written
      Hunk 3 failed: context mismatch at line 45
        Expected: "    return None"
        Found:    "    return result"
    No changes made (atomic rollback).

In the matching room beside :mod:`.diagnose`, whose reasons it words: a failed hunk is
one whose place was not found.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from patchwright._records import record
from patchwright.engine.matching.diagnose import HUNK_FAILURE_REASONS, first_difference, quote_line
from patchwright.engine.matching.normalize import is_elision
from patchwright.model import FilePatch, Hunk, PatchwrightError
from patchwright.model.errors import ErrorCode
from patchwright.model.quoting import quote_name
from patchwright.model.text import diff_rows


@record
class HunkFailure:
    """The hunk of a file that could not be applied, and why.

    Attributes:
        number: 1-based position of the hunk (edit) in its file's section.
        code: the engine's error code.
        reason: a few words (``context mismatch``, ``ambiguous context``...).
        line: the line of the file the failure is about, when known.
        similarity: for a hunk not found, how similar the closest region is.
        closest: the closest region's first and last line, when one was found.
        expected / found: the first hunk line that differs from the closest region,
            and the file's line there (``found`` is ``None`` past the end of the file).
        message: the engine's full explanation.
    """

    number: int
    code: ErrorCode
    reason: str
    line: int | None = None
    similarity: float | None = None
    closest: tuple[int, int] | None = None
    expected: str | None = None
    found: str | None = None
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (one entry of a file's ``hunks``)."""
        return {
            "hunk": self.number,
            "status": "failed",
            "code": self.code.value,
            "reason": self.reason,
            "line": self.line,
            "similarity": None if self.similarity is None else round(self.similarity, 4),
            "closest_lines": list(self.closest) if self.closest else None,
            "expected": self.expected,
            "found": self.found,
            "message": self.message,
        }

    def lines(self, mode: str) -> list[str]:
        """The spec 002 lines for this hunk (indented for the failure report)."""
        at = f" at line {self.line}" if self.line is not None else ""
        out = [f"  Hunk {self.number} failed: {self.reason}{at}"]
        if self.expected is not None:
            out.append(f"    Expected: {quote_line(self.expected)}")
            out.append(f"    Found:    {quote_line(self.found)}")
            if self.closest is not None and self.similarity is not None:
                first, last = self.closest
                out.append(
                    f"    (mode {mode}; closest region lines {first}-{last}, "
                    f"{self.similarity:.0%} similar)"
                )
        else:
            out.extend(f"    {text}" for text in diff_rows(self.message))
        return out


def hunk_failure(
    err: PatchwrightError, fp: FilePatch, index: int, current: Sequence[str] | None
) -> HunkFailure:
    """The failure of hunk ``index`` of ``fp`` from the engine's error: the reason in spec
    002's words and, for a hunk not found, the first line that differs from the closest
    region of ``current``."""
    number = index + 1
    message = err.message
    for prefix in (f"{fp.path}: ", f"hunk {number}: ", f"{fp.edits[index].label}: "):
        message = message.removeprefix(prefix)
    line = err.line if err.line is not None else err.details.get("line")
    reason = HUNK_FAILURE_REASONS.get(err.code, "failed")
    failure = HunkFailure(number, err.code, reason, line, None, None)
    failure.message = message
    closest = err.details.get("closest")
    if isinstance(closest, dict) and "start" in closest:
        start = int(closest["start"])
        end = int(closest.get("end") or start)
        failure.closest = (start, end)
        failure.similarity = float(closest.get("similarity", 0.0))
        failure.line = start
        anchor = fp.edits[index].anchor
        # a hunk with "..." does not stand line for line: comparing it so from the
        # region's first line would quote a "..." as the line expected there
        elided = isinstance(anchor, Hunk) and any(is_elision(t) for t in anchor.old_lines)
        if isinstance(anchor, Hunk) and current is not None and not elided:
            found = first_difference(anchor.old_lines, current, start)
            if found is not None:
                failure.line, failure.expected, failure.found = found
    return failure


def failure_block(
    path: str | None, failure: HunkFailure | None, mode: str, message: str = "", hint: str = ""
) -> str:
    """The whole block for a patch refused on ``path``: the hunks before the failed one
    (placed, never written), the failed one's lines (or ``message`` when no hunk is to blame), the
    ``hint`` when given, and the rollback line."""
    lines = [f"Patch failed on {quote_name(path)}:" if path else "Patch failed:"]
    if failure is not None:
        # the patch is refused whole: the hunks before the failed one were placed,
        # never written
        if failure.number == 2:
            lines.append("  Hunk 1: would have applied; nothing was written")
        elif failure.number > 2:
            lines.append(f"  Hunks 1-{failure.number - 1}: would have applied; nothing was written")
        lines.extend(failure.lines(mode))
    else:
        lines.extend(f"  {text}" for text in diff_rows(message))
    if hint:
        lines.append("  Hint: " + hint.replace("\n", "\n    "))
    lines.append("No changes made (atomic rollback).")
    return "\n".join(lines)
