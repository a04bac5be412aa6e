"""Helpers shared by the patch-text parsers: line splitting, errors, fences."""

from __future__ import annotations

from patchwright.model import ErrorCode, PatchwrightError

_BOM = "\ufeff"


def split_patch_lines(text: str) -> list[str]:
    """Split patch text into lines without their endings.

    Only ``"\\n"`` ends a line (``str.splitlines`` would also split on form feeds and
    Unicode separators that belong to file content). The ``"\\r"`` of a CRLF ending is
    removed because models and editors save patches with CRLF; a ``"\\r"`` elsewhere in
    a line is content and kept. A leading BOM is dropped: editors on Windows add one.
    """
    if text.startswith(_BOM):
        text = text[1:]
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if "\r" in text:
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    return lines


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


def is_fence(line: str) -> bool:
    """Whether ``line`` opens or closes a Markdown code fence (models wrap patches in them)."""
    stripped = line.lstrip()
    return stripped.startswith("```") or stripped.startswith("~~~")


def shorten(line: str, limit: int = 60) -> str:
    """``line`` cut to ``limit`` characters for quoting in a message."""
    return line if len(line) <= limit else line[: limit - 3] + "..."
