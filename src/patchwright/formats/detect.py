"""Telling the three patch formats apart by their markers.

The first marker line decides, so a patch whose content quotes another format's
markers (a SEARCH block that edits a diff file) is still read as what it starts as.
Prose and fences are skipped: they carry no markers.
"""

from __future__ import annotations

from patchwright.formats._common import (
    SEARCH_MARKER,
    parse_error,
    require_text,
    split_patch_lines,
    unsupported,
)
from patchwright.formats._hunks import HUNK_HEADER

UNIFIED = "unified"
V4A = "v4a"
SEARCH_REPLACE = "search-replace"
_V4A_STARTS = ("begin patch", "update file", "add file", "delete file")
_CONTEXT_DIFF_RULE = "*" * 15
# Characters looked at first for a format's markers (see detect_format).
_HEAD = 1 << 16


def detect_format(text: str) -> str:
    """Name the format of a patch text: ``"unified"``, ``"v4a"`` or ``"search-replace"``.

    Raises:
        PatchwrightError: ``PARSE_ERROR`` when no format's markers are present;
            ``UNSUPPORTED`` for a context diff (``diff -c``).
    """
    text = require_text(text)
    cut = text.find("\n", _HEAD)
    if cut != -1:
        # the markers are almost always near the top: a large patch is split whole
        # only when its first lines name no format (the parser splits it anyway)
        head = split_patch_lines(text[: cut + 1])
        for i in range(len(head) - 1):  # the last line's successor is not in the head
            found = _classify(head, i)
            if found is not None:
                return found
    lines = split_patch_lines(text)
    bare_hunk = False
    for i, line in enumerate(lines):
        found = _classify(lines, i)
        if found is not None:
            return found
        bare_hunk = bare_hunk or line.startswith("@@")
    if bare_hunk:
        return UNIFIED
    raise parse_error(
        None,
        "The patch format is not recognised: no 'diff --git', '--- a/...' / '+++ b/...' "
        "or '@@' line, no '*** Begin Patch' and no '<<<<<<< SEARCH'.",
        "Send a unified diff, an OpenAI patch ('*** Begin Patch' ... '*** End Patch') or "
        "SEARCH/REPLACE blocks (path line, '<<<<<<< SEARCH', old lines, '=======', new "
        "lines, '>>>>>>> REPLACE').",
    )


def _marker(line: str) -> tuple[str, str] | None:
    # asked of '***' lines only: the OpenAI format's markers stay off a diff's start-up path
    from patchwright.formats._v4a_markers import marker

    return marker(line)


def _classify(lines: list[str], i: int) -> str | None:
    line = lines[i]
    if line.lstrip(" \t").startswith("***") and _marker(line) is not None:
        found = _marker(line)
        return V4A if found is not None and found[0] in _V4A_STARTS else None
    if line.startswith("***"):
        if line.rstrip() == _CONTEXT_DIFF_RULE:
            raise unsupported(
                i + 1,
                "This is a context diff (diff -c), which patchwright does not read.",
                "Send a unified diff (diff -u or git diff) instead.",
            )
        found = _marker(line)
        return V4A if found is not None and found[0] in _V4A_STARTS else None
    if line.startswith("<") or line[:1] in (" ", "\t"):
        return SEARCH_REPLACE if SEARCH_MARKER.match(line) else None
    if line.startswith("diff --git ") or line.startswith(("diff --cc ", "diff --combined ")):
        return UNIFIED
    if line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
        return UNIFIED
    if HUNK_HEADER.match(line):
        return UNIFIED
    return None
