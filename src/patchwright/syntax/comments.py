"""Edits that change only comments and blank lines keep the syntax, proven without compiling.

A diff often touches comments only (a ``# noqa`` appended to a ``class`` line, a comment
line added above a method). The region check of :mod:`.pyregion` would compile the whole
statement such a line belongs to, which for a ``class`` or ``def`` header is the whole
class or function. When the lexer shows that the two texts read the same apart from
comments and blank lines, Python reads the same tokens from both (comments and blank
lines produce none that the parser sees), so the edit cannot bring an error.

The premises, each checked on the lexed lines of both texts (strings blanked to ``S``,
comments removed, continued lines marked; see :func:`.pyregion.clean_lines`):

* the lines after the change read the same in both texts (the lexer enters them in the
  same state; the lines before the change are the same text, so they read the same);
* the changed lines that are not blank once lexed are the same, in the same order, but
  for spaces and a carriage return at their end (spaces before a comment, say, or the
  ``\r`` of a CRLF line whose comment now holds it);
* each such line whose raw text differs has no quote and no line continuation before its
  comment, and its code before the ``#`` is its lexed line exactly: only the comment
  differs;
* the written lines hold no backslash (``x = 1 \\# c`` lexes like a continuation and is
  an error), no carriage return but at a line end (one inside a comment ends the line for
  Python), no form feed or vertical tab, and no lone surrogate (a text that cannot be
  encoded does not compile).

Whenever one does not hold the answer is "not proven" and the region check runs as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

# characters a written line must not hold for the proof (see the module docstring)
_RISKY = re.compile("[\\\\\x0b\x0c\ud800-\udfff]|\r(?!\\Z)")


def only_comments(
    old: Sequence[str],
    new: Sequence[str],
    raw: tuple[Sequence[str], Sequence[str]],
    first: int,
    ends: tuple[int, int],
    *,
    same_tail: bool = False,
) -> bool:
    """True when the edit changed only comments and blank lines.

    ``old`` and ``new`` are the lexed lines of the texts before and after the edit, ``raw``
    their lines as split at ``\\n``; the texts share their lines above ``first`` and from
    ``ends`` (old end, new end) on. ``same_tail`` says the caller knows the lexed lines
    from ``ends`` on are the same (the lexed lines after the edit derived from those
    before it): they are then not compared (nor lexed, when lexed lazily).
    """
    old_end, new_end = ends
    raw_old, raw_new = raw
    if old_end >= len(old) or new_end >= len(new):
        return False  # a change at the end
    if not same_tail and old[old_end:] != new[new_end:]:
        return False  # the lexer enters the shared end differently
    if old_end < first or new_end < first:
        return False
    # sliced once: the raw lines may be read lazily from the text (shared.TextLines),
    # where each line read alone is found by walking from a known one
    replaced, written = raw_old[first:old_end], raw_new[first:new_end]
    if any(_RISKY.search(line) for line in written):
        return False
    kept_old = _significant(old[first:old_end], replaced)
    kept_new = _significant(new[first:new_end], written)
    if len(kept_old) != len(kept_new):
        return False
    for (lexed_old, line_old), (lexed_new, line_new) in zip(kept_old, kept_new, strict=True):
        if lexed_old.rstrip(" \t\r") != lexed_new.rstrip(" \t\r"):
            # spaces before a comment or a line end are no token, nor is the carriage
            # return of a CRLF ending (the written lines have none but at their end)
            return False
        if line_old != line_new and not (
            _only_comment_after(lexed_old, line_old) and _only_comment_after(lexed_new, line_new)
        ):
            return False
    return True


def _significant(lexed: Sequence[str], raw: Sequence[str]) -> list[tuple[str, str]]:
    """The pairs of lexed and raw lines that are not blank once lexed."""
    return [pair for pair in zip(lexed, raw, strict=True) if pair[0].strip(" \t\r")]


def _only_comment_after(lexed: str, line: str) -> bool:
    """True when ``line`` is its code (exactly ``lexed``) followed by a comment or nothing,
    with no quote or backslash in the code: its ``#`` then starts a comment."""
    cut = line.find("#")
    code = line if cut < 0 else line[:cut]
    return code == lexed and not any(mark in code for mark in ("'", '"', "\\"))
