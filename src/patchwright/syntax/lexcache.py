"""Lexing each Python text once: recent results, and the text after an edit derived
from the text before it.

The region check of :mod:`.pyregion` needs both texts of an edit with strings and
comments blanked out (its ``clean_lines``), which means running its lexer over two whole
files per edit. Two facts make most of that work unnecessary:

* an agent edits the same file call after call, so the text *before* an edit is usually
  the text *after* the previous one: the last few results are kept, by text;
* the two texts of an edit share their first and last lines. Where the lexer is in code
  (not inside a string, not after a backslash) at the start of the first changed line,
  and again where the shared end begins, the cleaned shared lines are the same in both
  texts, so only the changed middle of the new text is lexed.

Where the lexer could be inside a string at either edge, the whole text is lexed, as
before; the result is the same either way (a test compares them on random edits).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

#: Starts every cleaned line that continues a string or a backslash-continued line.
MARK = "\x01"
# A code line appended to a lexed middle: it stays itself only if the lexer ends the
# middle in code.
_SENTINEL = "x"
_KEEP = 4
# Texts above this size are not kept (four of them would hold too much memory).
_KEEP_MAX_CHARS = 1_000_000

Lexer = Callable[[str], "list[str] | None"]
_MISSING = object()


class _Recent:
    """The cleaned lines of the last few texts lexed, thread-safe.

    Looked up by comparing texts, not by hashing them: hashing a large text costs more
    than comparing it with four others (texts of another length differ at once, and
    the text before an edit is usually the very object the previous check kept).
    """

    def __init__(self) -> None:
        self._found: list[tuple[str, list[str] | None]] = []
        self._lock = threading.Lock()

    def get(self, text: str) -> object:
        with self._lock:
            for index, (kept, lines) in enumerate(self._found):
                if kept is text or kept == text:
                    if index:
                        self._found.insert(0, self._found.pop(index))
                    return lines
            return _MISSING

    def put(self, text: str, lines: list[str] | None) -> None:
        if len(text) > _KEEP_MAX_CHARS:
            return
        with self._lock:
            self._found = [(kept, found) for kept, found in self._found if kept != text]
            self._found.insert(0, (text, lines))
            del self._found[_KEEP:]

    def clear(self) -> None:
        with self._lock:
            self._found.clear()


_RECENT = _Recent()


def forget_lexed() -> None:
    """Forget the kept results (benchmarks time the cold path)."""
    _RECENT.clear()


def cleaned_text(text: str, lex: Lexer) -> list[str] | None:
    """``lex(text)``, kept or computed now."""
    found = _RECENT.get(text)
    if found is not _MISSING:
        return list(found) if isinstance(found, list) else None
    lines = lex(text)
    _RECENT.put(text, lines)
    return None if lines is None else list(lines)


def cleaned_pair(
    before: str,
    after: str,
    shared: tuple[int, int],
    lex: Lexer,
    after_lines: Sequence[str] | None = None,
    before_breaks: int | None = None,
) -> tuple[list[str] | None, list[str] | None]:
    """``lex(before)`` and ``lex(after)``, lexing as little as the module docstring says.

    ``shared`` holds the counts of lines the texts share at their start and end;
    ``after_lines`` is ``after`` split at ``\\n`` and ``before_breaks`` is
    ``before.count("\\n")``, when the caller has them.
    """
    old = cleaned_text(before, lex)
    found = _RECENT.get(after)
    if found is not _MISSING:
        return old, list(found) if isinstance(found, list) else None
    new = None
    if old is not None:
        if before_breaks is None:
            before_breaks = before.count("\n")
        lines = after.split("\n") if after_lines is None else after_lines
        new = _derived(old, before_breaks, lines, shared, lex)
    if new is None:
        new = lex(after)
    _RECENT.put(after, new)
    return old, None if new is None else list(new)


def cleaned_step(
    old: list[str], lines: list[str], shared: tuple[int, int], lex: Lexer
) -> list[str] | None:
    """``lex("\\n".join(lines))``, derived from ``old``, the lexed lines of a text that
    shares its first and last lines with it (``shared``: their counts), where it can be.

    Not kept: a chain of steps (see :mod:`.steps`) keeps only the text at its end.
    """
    new = _derived(old, len(old) - 1, lines, shared, lex)
    return lex("\n".join(lines)) if new is None else new


def remember(text: str, lines: list[str] | None) -> None:
    """Keep ``lines``, the lexed lines of ``text``, for a later check of ``text``."""
    _RECENT.put(text, lines)


def _derived(
    old: list[str], before_breaks: int, lines: Sequence[str], shared: tuple[int, int], lex: Lexer
) -> list[str] | None:
    """``lex(after)`` from ``old = lex(before)`` (``before_breaks``: the line breaks of
    the text before; ``lines``: the text after, split), or ``None`` when it cannot be
    derived."""
    first, suffix = shared
    old_tail = len(old) - suffix
    if len(old) != before_breaks + 1 or not 0 <= first <= old_tail:
        return None
    if any(index < len(old) and old[index][:1] == MARK for index in (first, old_tail)):
        return None  # a string or a continued line crosses an edge of the change
    tail = len(lines) - suffix
    if tail < first:
        return None
    middle = "\n".join(lines[first:tail])
    if suffix:
        lexed = lex(middle + ("\n" if tail > first else "") + _SENTINEL)
        if lexed is None or lexed[-1] != _SENTINEL:
            return None  # the middle leaves the lexer inside a string or a continuation
        lexed.pop()
    elif tail > first:
        lexed = lex(middle)
        if lexed is None:
            return None
    else:
        lexed = []
    return old[:first] + lexed + old[old_tail:]
