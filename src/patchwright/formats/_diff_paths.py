"""File names in unified / git diff headers.

``---``/``+++`` lines carry a path, optionally followed by a timestamp after a tab (GNU
diff) or after spaces (models imitate GNU diff). git quotes paths that contain special
characters, C style: ``"a/foo\\tbar"`` with ``\\t``, ``\\n``, ``\\"``, ``\\\\`` and octal
byte escapes of the UTF-8 encoding. ``/dev/null`` stands for "no file".
"""

from __future__ import annotations

import re

from patchwright.formats._common import parse_error

DEV_NULL = "/dev/null"

_SIMPLE_ESCAPES = {
    "a": 7,
    "b": 8,
    "t": 9,
    "n": 10,
    "v": 11,
    "f": 12,
    "r": 13,
    '"': 34,
    "\\": 92,
}
# "2024-01-31 12:00:00.123456789 +0100" or "2024-01-31T12:00:00Z" after spaces.
# Both start with a lookbehind so that a run of blanks is tried from its start only:
# without it every position of a long run would be a new attempt (quadratic time).
_ISO_STAMP = re.compile(
    r"(?<=\S)\s+\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d(?:\.\d+)?)?"
    r"(?:\s*(?:[+-]\d{4}|Z|UTC))?\s*$"
)
# "Mon Jan  1 12:00:00 2024" (the old diff -c style some tools still print).
_CTIME_STAMP = re.compile(r"(?<=\S)\s+[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\s*$")
_PAIR_PREFIXES = (("a/", "b/"),)


def unquote_c(text: str, start: int, line_no: int) -> tuple[str, int]:
    """Decode the git-quoted string whose opening quote is at ``text[start]``.

    Returns the decoded path and the index just after the closing quote.

    Raises:
        PatchwrightError: ``PARSE_ERROR`` for an unterminated quote, an unknown escape
            or bytes that are not UTF-8.
    """
    out = bytearray()
    i = start + 1
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            try:
                return out.decode("utf-8"), i + 1
            except UnicodeDecodeError:
                raise _bad_quote(line_no, "its octal escapes are not UTF-8") from None
        if ch != "\\":
            out += ch.encode("utf-8")
            i += 1
            continue
        if i + 1 >= n:
            break
        esc = text[i + 1]
        if esc in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[esc])
            i += 2
        elif text[i + 1 : i + 4].isdigit() and all(c in "01234567" for c in text[i + 1 : i + 4]):
            out.append(int(text[i + 1 : i + 4], 8) & 0xFF)
            i += 4
        else:
            raise _bad_quote(line_no, f"it contains the unknown escape '\\{esc}'")
    raise _bad_quote(line_no, "the closing quote is missing")


def _bad_quote(line_no: int, why: str) -> Exception:
    return parse_error(
        line_no,
        f"The quoted file name cannot be read: {why}.",
        'Write the path without quotes, or quote it the way git does ("a/my\\tfile").',
    )


def header_path(raw: str, line_no: int) -> str | None:
    """The path of a ``---``/``+++`` line (``raw`` is what follows ``"--- "``).

    Returns ``None`` for ``/dev/null``. Timestamps and trailing blanks are removed
    (models leave trailing spaces after paths).

    Raises:
        PatchwrightError: ``PARSE_ERROR`` when no path is left.
    """
    raw = raw.lstrip(" ")
    if raw.startswith('"'):
        path, _ = unquote_c(raw, 0, line_no)
    else:
        path = raw.split("\t", 1)[0]
        path = _CTIME_STAMP.sub("", _ISO_STAMP.sub("", path)).strip()
    if not path:
        raise parse_error(
            line_no,
            "The file header names no file.",
            "Write '--- a/<path>' and '+++ b/<path>' before the first @@ hunk header.",
        )
    return None if path == DEV_NULL else path


def strip_prefixes(
    old: str | None, new: str | None, *, git_prefixed: bool
) -> tuple[str | None, str | None]:
    """Remove git's ``a/`` / ``b/`` prefixes when the header uses them.

    They are removed when the section starts with ``diff --git a/... b/...``, when both
    sides carry them, or when one side is ``/dev/null`` and the other carries its own
    prefix (models write ``+++ b/new.py`` for a new file without the git line). A real
    top-level directory named ``a`` or ``b`` is otherwise left alone.
    """
    for old_prefix, new_prefix in _PAIR_PREFIXES:
        old_has = old is not None and old.startswith(old_prefix)
        new_has = new is not None and new.startswith(new_prefix)
        both = old_has and new_has
        lone = (old is None and new_has) or (new is None and old_has)
        if git_prefixed or both or lone:
            if old_has and old is not None:
                old = old[len(old_prefix) :]
            if new_has and new is not None:
                new = new[len(new_prefix) :]
            break
    return old, new


def git_line_paths(rest: str, line_no: int) -> tuple[str, str] | None:
    """The two paths of ``diff --git <rest>``, prefixes kept; ``None`` if unreadable.

    Unquoted paths may contain spaces, so the split is found where both halves name the
    same file (the common case: no rename); otherwise at the first ``" b/"``.
    """
    rest = rest.strip()
    if rest.startswith('"'):
        old, end = unquote_c(rest, 0, line_no)
        tail = rest[end:].strip()
        if not tail:
            return None
        new = unquote_c(tail, 0, line_no)[0] if tail.startswith('"') else tail
        return old, new
    if rest.endswith('"') and ' "' in rest:
        cut = rest.index(' "')
        return rest[:cut], unquote_c(rest, cut + 1, line_no)[0]
    mid = (len(rest) - 1) // 2
    if len(rest) % 2 == 1 and rest[mid] == " " and rest[2:mid] == rest[mid + 3 :]:
        return rest[:mid], rest[mid + 1 :]
    cut = rest.find(" b/")
    if cut > 0:
        return rest[:cut], rest[cut + 1 :]
    return None


def binary_line_paths(line: str) -> tuple[str | None, str | None] | None:
    """The paths of ``Binary files X and Y differ`` (``None`` for ``/dev/null``)."""
    body = line[len("Binary files ") : -len(" differ")]
    if " and " not in body:
        return None
    old, new = body.split(" and ", 1)
    old, new = old.strip(), new.strip()
    return (None if old == DEV_NULL else old), (None if new == DEV_NULL else new)
