"""Helpers shared by the patch-text parsers: line splitting, errors, fences, and the
SEARCH marker that format detection and the SEARCH/REPLACE parser both look for."""

from __future__ import annotations

import re

from patchwright._records import replace
from patchwright.model import ErrorCode, FilePatch, Hunk, PatchwrightError, diff_rows

_BOM = "\ufeff"

#: The line that opens a SEARCH/REPLACE block (kept here so that detecting the format
#: does not import the SEARCH/REPLACE parser).
SEARCH_MARKER = re.compile(r"[ \t]*<{5,9}[ \t]*(?:SEARCH|ORIGINAL)[ \t]*$", re.IGNORECASE)


def split_patch_lines(text: str) -> list[str]:
    """Split patch text into lines without their endings.

    Only ``"\\n"`` ends a line (``str.splitlines`` would also split on form feeds and
    Unicode separators that belong to file content). The ``"\\r"`` of a CRLF ending is
    removed because models and editors save patches with CRLF; a ``"\\r"`` elsewhere in
    a line is content and kept. A leading BOM is dropped: editors on Windows add one.
    """
    if text.startswith(_BOM):
        text = text[1:]
    return diff_rows(text)


def with_conversions(text: str, files: list[FilePatch]) -> list[FilePatch]:
    """Mark the hunks that convert line endings (``Hunk.newline``).

    :func:`split_patch_lines` drops the CR of every line (patches are saved with CRLF),
    which would make a hunk whose removed lines end in CR and whose added lines do not
    look like it changes nothing. The raw lines after each hunk's header tell: removed
    lines all with CR and added lines all without is a conversion to LF; the reverse
    one to CRLF.
    """
    if "\r" not in text:
        return files
    raw = text.split("\n")
    out = []
    for fp in files:
        edits = []
        for edit in fp.edits:
            anchor = edit.anchor
            if isinstance(anchor, Hunk) and anchor.source_line is not None:
                newline = _converted(raw, anchor.source_line)
                if newline:
                    edit = replace(edit, anchor=replace(anchor, newline=newline))
            edits.append(edit)
        out.append(replace(fp, edits=tuple(edits)))
    return out


def _converted(raw: list[str], header_line: int) -> str:
    """``"\n"`` / ``"\r\n"`` when the hunk body after 1-based ``header_line`` converts."""
    removed: set[bool] = set()
    added: set[bool] = set()
    for line in raw[header_line:]:
        if line.startswith(("@@", "diff ", "*** ", "--- ", "+++ ")):
            break
        if line[:1] == "-":
            removed.add(line.endswith("\r"))
        elif line[:1] == "+":
            added.add(line.endswith("\r"))
    if removed == {True} and added == {False}:
        return "\n"
    if removed == {False} and added == {True}:
        return "\r\n"
    return ""


def parse_error(line: int | None, message: str, hint: str) -> PatchwrightError:
    """A ``PARSE_ERROR`` naming the 1-based patch line (prefixed to the message)."""
    where = f"Line {line}: " if line is not None else ""
    return PatchwrightError(ErrorCode.PARSE_ERROR, where + message, hint, line=line)


def unsupported(line: int | None, message: str, hint: str) -> PatchwrightError:
    """An ``UNSUPPORTED`` error naming the 1-based patch line."""
    where = f"Line {line}: " if line is not None else ""
    return PatchwrightError(ErrorCode.UNSUPPORTED, where + message, hint, line=line)


def require_text(text: object) -> str:
    """Return ``text`` when it is a string, else raise ``PARSE_ERROR``."""
    if not isinstance(text, str):
        raise parse_error(
            None,
            f"The patch must be text, got {type(text).__name__}.",
            "Pass the patch as one string.",
        )
    return text


#: Most hunks (``@@`` headers and SEARCH blocks) one patch may hold. Planning costs a few
#: KB per hunk whatever its size: a million one-line hunks once took 4.8 GB and 59 s.
MAX_HUNKS = 50_000


def check_hunk_count(text: str) -> None:
    """Refuse patch text with more than :data:`MAX_HUNKS` hunks, from a count of their
    markers, before anything is parsed or built.

    Raises:
        PatchwrightError: ``too_large`` naming the count and the limit.
    """
    # a marker counted by mistake (an "@@" inside a line's text) can only count more
    hunks = text.count("\n@@") + text.startswith("@@") + text.count("<<<<<<<")
    if hunks > MAX_HUNKS:
        raise PatchwrightError(
            ErrorCode.TOO_LARGE,
            f"The patch holds {hunks:,} hunks, over the limit of {MAX_HUNKS:,} per patch. "
            "Nothing was changed.",
            "Split it into several patches of fewer hunks (for example one per file), or "
            "write the files whole.",
            field="patch",
            details={"hunks": hunks, "limit": MAX_HUNKS},
        )


def is_fence(line: str) -> bool:
    """Whether ``line`` opens or closes a Markdown code fence (models wrap patches in them)."""
    stripped = line.lstrip()
    return stripped.startswith("```") or stripped.startswith("~~~")


def shorten(line: str, limit: int = 60) -> str:
    """``line`` cut to ``limit`` characters for quoting in a message."""
    return line if len(line) <= limit else line[: limit - 3] + "..."
