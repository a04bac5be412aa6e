"""The ``*** ...`` marker lines of the OpenAI patch format."""

from __future__ import annotations

import re

_KINDS = (
    "begin patch",
    "end patch",
    "add file",
    "delete file",
    "update file",
    "move to",
    "end of file",
)
# Case and spacing are not checked: models write "***Update File:path" and "*** update file:".
_MARKER = re.compile(
    r"\*\*\*[ \t]*("
    + "|".join(kind.replace(" ", r"[ \t]+") for kind in _KINDS)
    + r")[ \t]*:?[ \t]*(.*)$",
    re.IGNORECASE,
)
FILE_OPS = ("add file", "delete file", "update file")


def marker(line: str) -> tuple[str, str] | None:
    """``(kind, argument)`` of a ``*** ...`` marker line (kind lower case), else ``None``.

    Blanks before the marker are allowed (models indent a patch they quote), except a
    single space: that is the prefix of a context line whose text starts with ``***``."""
    if "***" not in line:
        return None  # most lines: no marker can start anywhere in them
    if not line.startswith("***"):
        bare = line.lstrip(" \t")
        if not bare.startswith("***") or line[: len(line) - len(bare)] == " ":
            return None
        line = bare
    match = _MARKER.match(line)
    if match is None:
        return None
    return " ".join(match.group(1).lower().split()), match.group(2).strip()
