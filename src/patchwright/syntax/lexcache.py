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

A diff's steps (see :mod:`.steps`) read the lexed lines of the text before the edit only
from its top to a little past each change: :class:`Lexed` lexes that text from its top
as far as its lines are read, and each step's text is the step before it with one span
of lines replaced (:class:`Spliced`), so the lines past the last change are never lexed.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections.abc import Callable, Sequence

from patchwright.syntax.shared import LineSequence

#: Starts every cleaned line that continues a string or a backslash-continued line.
MARK = "\x01"
# A code line appended to a lexed middle: it stays itself only if the lexer ends the
# middle in code.
_SENTINEL = "x"
_KEEP = 4
# Texts above this size are not kept (four of them would hold too much memory).
_KEEP_MAX_CHARS = 1_000_000

Lexer = Callable[[str], "list[str] | None"]
#: ``(text, pos, stop)`` -> the lexed text of ``text[pos:cut]`` (line breaks kept, each
#: line continued with a backslash already marked) and ``cut``: the first line start at
#: or after ``stop`` where the lexer is in code (or the end of the text); ``None`` when a
#: quote is left open at a line end. ``pos`` must be such a line start.
ChunkLexer = Callable[[str, int, int], "tuple[str, int] | None"]
_MISSING = object()
# Characters lexed at least per chunk of a lazily lexed text.
_CHUNK = 512
# A text kept lazily after this many edits on top of it is lexed whole (each edit adds a
# level of indirection to every line read).
_MAX_LEVELS = 8


class NotLexed(Exception):
    """A quote is left open at a line end in the part of the text lexed for a read."""


class Lexed(LineSequence):
    """The lexed lines of ``text`` (``lex(text)`` split), lexed from its top as far as
    they are read.

    ``count`` is the text's line count. Each chunk lexed starts and ends at a line start
    where the lexer is in code, so the lines are those of the whole-text lex. A read
    past a quote left open at a line end raises :class:`NotLexed`, which the whole-text
    lex reports as ``None``.
    """

    level = 0

    def __init__(self, text: str, count: int, lex: ChunkLexer) -> None:
        self._text, self._count, self._lex = text, count, lex
        self._lines: list[str] = []
        self._pos = 0  # where the next chunk starts: a line start, the lexer in code
        self._marked = False  # the next line continues a line ending in a backslash
        self._failed = False

    def _line(self, index: int) -> str:
        if len(self._lines) <= index:
            self._extend(index + 1)
        return self._lines[index]

    def _run(self, start: int, stop: int) -> list[str]:
        if len(self._lines) < stop:
            self._extend(stop)
        return self._lines[start:stop]

    def _extend(self, needed: int) -> None:
        """Lex on until ``needed`` lines are known (or all of them)."""
        text, lines = self._text, self._lines
        while len(lines) < needed and self._pos < len(text):
            if self._failed:
                raise NotLexed
            span = max(_CHUNK, (needed - len(lines)) * (len(text) // self._count + 1))
            found = self._lex(text, self._pos, self._pos + span)
            if found is None:
                self._failed = True
                raise NotLexed
            lexed, cut = found
            pieces = lexed.split("\n")
            if self._marked:
                pieces[0] = MARK + pieces[0]
            if cut < len(text):
                # the piece after the chunk's last line break starts the next chunk
                self._marked = pieces.pop() == MARK
            lines += pieces
            self._pos = cut
        if self._pos >= len(text) and not text and not lines:
            lines.append("")  # the empty text has one empty line


class Spliced(LineSequence):
    """The lines of ``base`` with ``base[first:base_end]`` replaced by ``middle``.

    A step's lexed lines derived from the step before it without copying the lines it
    shares with it (see :func:`cleaned_step`). A splice of a splice is flattened: its
    lines are pieces of the first base and of each step's middle, found by bisection,
    so a read costs the same after the sixty-fourth step of a diff as after the first
    (nested splices made every read pass through every step before it).
    """

    def __init__(self, base: Sequence[str], first: int, base_end: int, middle: list[str]):
        self._base = base  # the step before: what shares_tail compares with
        self._after = first + len(middle)  # where the base's tail starts here
        self._shift = base_end - self._after
        self._count = len(base) - self._shift
        self.level = getattr(base, "level", 0) + 1
        pieces = [*_pieces(base, 0, first), (middle, 0, len(middle))]
        pieces += _pieces(base, base_end, len(base))
        # (where the piece starts here, its source, where it starts in the source)
        self._starts: list[int] = []
        self._pieces: list[tuple[Sequence[str], int, int]] = []
        at = 0
        for source, offset, length in pieces:
            if length:
                self._starts.append(at)
                self._pieces.append((source, offset, length))
                at += length

    def _line(self, index: int) -> str:
        k = bisect_right(self._starts, index) - 1
        source, offset, _ = self._pieces[k]
        return source[offset + index - self._starts[k]]

    def _run(self, start: int, stop: int) -> list[str]:
        out: list[str] = []
        for source, offset, length in _pieces(self, start, stop):
            out += source[offset : offset + length]
        return out

    def shares_tail(self, base: Sequence[str], base_end: int, end: int) -> bool:
        """True when ``self[end:]`` are the very lines ``base[base_end:]``."""
        return self._base is base and end >= self._after and end + self._shift == base_end


def _pieces(lines: Sequence[str], start: int, stop: int) -> list[tuple[Sequence[str], int, int]]:
    """``lines[start:stop]`` as pieces (source, where in it, how many): those of a
    :class:`Spliced`, cut to the range, or one piece of ``lines`` itself."""
    if start >= stop:
        return []
    if not isinstance(lines, Spliced):
        return [(lines, start, stop - start)]
    out = []
    starts, pieces = lines._starts, lines._pieces
    k = bisect_right(starts, start) - 1
    while start < stop:
        source, offset, length = pieces[k]
        at = start - starts[k]
        take = min(length - at, stop - start)
        out.append((source, offset + at, take))
        start += take
        k += 1
    return out


def whole(lines: Sequence[str] | None) -> list[str] | None:
    """``lines`` as a new list: every line of a lazily lexed text lexed (``None`` when a
    quote is left open at a line end in the part read now)."""
    if lines is None:
        return None
    out: list[str] = []
    try:
        out += lines[:]  # a lazily lexed text's slice is a new list already
    except NotLexed:
        return None
    return out


class _Recent:
    """The cleaned lines of the last few texts lexed, thread-safe.

    Looked up by comparing texts, not by hashing them: hashing a large text costs more
    than comparing it with four others (texts of another length differ at once, and
    the text before an edit is usually the very object the previous check kept).
    """

    def __init__(self) -> None:
        self._found: list[tuple[str, Sequence[str] | None]] = []
        self._lock = threading.Lock()

    def get(self, text: str) -> object:
        with self._lock:
            for index, (kept, lines) in enumerate(self._found):
                if kept is text or kept == text:
                    if index:
                        self._found.insert(0, self._found.pop(index))
                    return lines
            return _MISSING

    def put(self, text: str, lines: Sequence[str] | None) -> None:
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
        return whole(found)  # type: ignore[arg-type]
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
        return old, whole(found)  # type: ignore[arg-type]
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


def lexed_lazily(text: str, count: int, lex: ChunkLexer) -> Sequence[str] | None:
    """The lexed lines of ``text`` (``count`` lines), kept or lexed as far as they are read
    (:class:`Lexed`); ``None`` when they are known to be ``None``."""
    found = _RECENT.get(text)
    if found is not _MISSING:
        return found  # type: ignore[return-value]
    lines = Lexed(text, count, lex)
    _RECENT.put(text, lines)
    return lines


def cleaned_step(
    old: Sequence[str], lines: Sequence[str], shared: tuple[int, int], lex: Lexer
) -> Sequence[str] | None:
    """``lex("\\n".join(lines))``, derived from ``old``, the lexed lines of a text that
    shares its first and last lines with it (``shared``: their counts), where it can be.

    Derived from lines lexed lazily (:class:`Lexed`, :class:`Spliced`), the result is a
    :class:`Spliced` of them. Not kept: a chain of steps (see :mod:`.steps`) keeps only
    the text at its end.
    """
    new = _derived(old, len(old) - 1, lines, shared, lex)
    return lex("\n".join(lines)) if new is None else new


def remember(text: str, lines: Sequence[str] | None) -> None:
    """Keep ``lines``, the lexed lines of ``text``, for a later check of ``text``."""
    if lines is not None and getattr(lines, "level", 0) > _MAX_LEVELS:
        lines = whole(lines)
    _RECENT.put(text, lines)


def _derived(
    old: Sequence[str],
    before_breaks: int,
    lines: Sequence[str],
    shared: tuple[int, int],
    lex: Lexer,
) -> Sequence[str] | None:
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
    if not isinstance(old, list):
        return Spliced(old, first, old_tail, lexed)
    return old[:first] + lexed + old[old_tail:]
