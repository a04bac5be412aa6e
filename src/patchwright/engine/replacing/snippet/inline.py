"""Expand the placeholder lines of one splice from the original lines it replaces
(see :mod:`patchwright.engine.replacing.placeholders`, which calls it for every splice)."""

from __future__ import annotations

from patchwright._records import replace
from patchwright.engine.replacing.snippet.markers import (
    marker_body,
    new_file_placeholders,
    placeholder_lines,
)
from patchwright.engine.replacing.snippet.merge import merge_snippet_file
from patchwright.engine.replacing.snippet.refuse import lines_text
from patchwright.engine.replacing.splice import Splice
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.text import TextFile


def expand_splice(file: TextFile, splice: Splice, label: str) -> Splice:
    """``splice`` with its placeholder lines replaced by the original lines they stand
    for; ``splice`` itself when it has none (a marker-shaped line that is a line of the
    file is text, not a placeholder).

    Raises:
        PatchwrightError: the placeholders cannot be expanded beyond doubt (the merge's
            refusal, told as this edit's).
    """
    # marker-shaped lines first (the scan's words are common in code); the file is
    # searched only for those
    shaped = {line.strip() for line in splice.lines if marker_body(line) is not None}
    if not shaped:
        return splice
    present = {text for text in map(str.strip, file.lines) if text in shaped}
    lines = list(splice.lines)
    found = placeholder_lines(lines, present) if file.lines else new_file_placeholders(lines)
    markers = [lines[i] for i in found]
    if not markers:
        return splice
    old = file.with_lines(
        file.lines[splice.start : splice.end], file.endings[splice.start : splice.end]
    )
    snippet = "\n".join(splice.lines)
    if not old.lines:
        where = "the file has no lines yet" if not file.lines else "the edit replaces no lines"
        raise PatchwrightError(
            ErrorCode.NOT_FOUND,
            f"{label}: the new text holds the placeholder line {markers[0].strip()!r}, but "
            f"{where}, so the placeholder stands for no existing lines. A placeholder is "
            "never written into the file. No change was made.",
            "Write every line of the new text in full, without placeholder lines.",
            details={"placeholder": markers[0]},
        )
    try:
        merged = merge_snippet_file(old, snippet)
    except PatchwrightError as err:
        raise PatchwrightError(
            err.code,
            f"{label}: the new text holds the placeholder line {markers[0].strip()!r}, which "
            "stands for lines of the old text it replaces "
            f"({lines_text('file', splice.start + 1, splice.end)}), and which lines cannot "
            "be told beyond doubt. A placeholder is "
            "never written into the file. No change was made.\n" + err.message,
            "Write the new text in full (every line that must stand there, copied from the "
            "file), or keep the placeholder and show an unchanged line on each side of "
            "every change. " + err.hint,
            details={"placeholder": markers[0], **err.details},
        ) from None
    note = (
        f"{label}: {len(markers)} placeholder line(s) such as {markers[0].strip()!r} kept the "
        "original lines they stand for"
    )
    ends = merged.file.endings
    if splice.endings and ends and not splice.endings[-1]:
        ends = [*ends[:-1], ""]
    return replace(
        splice,
        lines=merged.file.lines,
        endings=ends,
        warnings=(*splice.warnings, note, *merged.report.warnings),
    )
