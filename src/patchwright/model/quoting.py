"""Text shown to a person or a model, with every control character made visible.

One home for the quoting of names and the display of diff and message text, in git's
C style (``quote_c_style``): ``\\a \\b \\t \\n \\v \\f \\r`` by name, any other control
character as the octal of its UTF-8 bytes (``\\033`` for ESC, ``\\302\\205`` for NEL).
Beyond git, which quotes bytes only, the Unicode characters that move or break text
(the C1 controls, U+2028/U+2029, the bidirectional controls of "trojan source") are
quoted too; other non-ASCII characters stay readable.

* :func:`quote_name` for a file name or a label inside a line: quoted and wrapped in
  ``"..."`` (git's form, which the diff parsers read back) when it holds anything to
  quote, so a name can never end a line, move the cursor or erase what was printed.
* :func:`visible` for one line of content (tabs kept).
* :func:`visible_lines` for text of many lines (a diff, a message): each row ends where
  :func:`~patchwright.model.text.diff_rows` ends it and everything else is visible.
"""

from __future__ import annotations

import re

# C0 controls but TAB, LF and CR; DEL; C1 controls; line and paragraph separators; the
# bidirectional marks, embeddings, overrides and isolates; the BOM.
_CONTROLS = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff"
_IN_LINE = re.compile(f"[{_CONTROLS}\t\n\r]")
_IN_LINE_KEEP_TAB = re.compile(f"[{_CONTROLS}\n\r]")
# in text of many lines: a LF (and the CR just before it) ends a row and stays
_IN_TEXT = re.compile(f"[{_CONTROLS}]|\r(?!\n)")
_NAME_SPECIAL = re.compile(f'[{_CONTROLS}\t\n\r"\\\\]')
_NAMED = {
    "\a": "\\a",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\v": "\\v",
    "\f": "\\f",
    "\r": "\\r",
    '"': '\\"',
    "\\": "\\\\",
}


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    named = _NAMED.get(ch)
    if named is not None:
        return named
    return "".join(f"\\{byte:03o}" for byte in ch.encode("utf-8"))


def quote_name(name: str) -> str:
    """``name`` as git shows a path: unchanged when plain, else ``"..."`` with its
    control characters, quotes and backslashes escaped (``"a\\nb"``, ``"\\033[2J"``)."""
    if _NAME_SPECIAL.search(name) is None:
        return name
    return '"' + _NAME_SPECIAL.sub(_escape, name) + '"'


def visible(text: str, *, keep_tabs: bool = True) -> str:
    """One line of content with every control character (and LF, CR) escaped; a
    backslash already in the text is left as it is."""
    pattern = _IN_LINE_KEEP_TAB if keep_tabs else _IN_LINE
    if pattern.search(text) is None:
        return text
    return pattern.sub(_escape, text)


def visible_lines(text: str) -> str:
    """Text of many lines with its rows kept (``"\\n"``, ``"\\r\\n"``) and every other
    control character escaped (a lone CR, a form feed, ESC, NEL, U+2028...)."""
    if _IN_TEXT.search(text) is None:
        return text
    return _IN_TEXT.sub(_escape, text)
