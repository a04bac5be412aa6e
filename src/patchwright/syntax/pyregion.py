"""Proving a Python edit clean by compiling only the statements it touched.

CPython needs tens of milliseconds to compile a 5,000-line module, too slow to run after
every edit. Most edits change a few lines inside one block, so this module finds the
smallest run of whole statements of one block that contains the change, in the text both
before and after the edit, and compiles that run alone (dedented when it is nested).

Why that is enough: the file is the same before ``start`` and after ``end``; both ends are
statement boundaries of the same block in both texts (same bracket depth 0, same
indentation stack, outside any string); so the parser reads the unchanged parts exactly
as it did before the edit, and the only text it reads differently is the run itself. If
the run compiles on its own, the edit introduced no syntax error.

Statement boundaries come from a small lexer (strings, comments, brackets, backslash
continuations) run over both texts. Whenever a premise does not hold -- an unbalanced
closing bracket, a quote left open at a line end (a Python 3.12 f-string field spanning
lines looks like that), mixed tab/space indentation, a ``from __future__`` import, a run
that does not compile -- the answer is "not proven" and the caller compiles the whole
file, so a wrong guess costs time, never a missed error. Random line edits of standard
library modules check this property in the tests. Nested runs are only parsed (``ast``), so
the compiler's scope checks (``'return' outside function``) are left to whole-file
compiles.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from patchwright.syntax.shared import shared_lines
from patchwright.syntax.stdlib_parsers import compile_python

# Splits Python text into code (group c), dropped one-line strings and comments, and kept
# strings that may span lines (group k). Unrolled loops keep every pattern linear.
_ONE_LINE_STRINGS = (
    r'"(?!"")[^"\\\n]*(?:\\[^\n][^"\\\n]*)*"',
    r"'(?!'')[^'\\\n]*(?:\\[^\n][^'\\\n]*)*'",
)
_LONG_STRINGS = (
    r'"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*(?:"""|\Z)',
    r"'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*(?:'''|\Z)",
    r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"',
    r"'[^'\\\n]*(?:\\.[^'\\\n]*)*'",
)
_TOKENS = re.compile(
    "|".join(
        (
            r"""(?P<c>[^"'#]+)""",
            *_ONE_LINE_STRINGS,
            r"#[^\n]*",
            "(?P<k>" + "|".join(_LONG_STRINGS) + ")",
            # A quote left open at the end of its line: a syntax error, or an f-string whose
            # replacement field spans lines (Python 3.12+), which this lexer cannot follow.
            r"""(?P<u>["'])[^\n]*""",
        )
    ),
    re.S,
)
_CONTINUATION = re.compile(r"\\\r?\n")
# Starts every line that continues a string or a backslash-continued line: such a line
# never begins a statement. The character cannot appear in valid Python code.
_MARK = "\x01"
_WORD = re.compile(r"@|[^\W\d]\w*")
# A statement starting with one of these continues the compound statement above it.
_CONTINUES = frozenset({"else", "elif", "except", "finally"})


def clean_lines(text: str) -> list[str] | None:
    """``text`` split at ``\\n`` with strings and comments blanked out, or ``None``.

    A multi-line string becomes ``S`` and its following lines start with a marker, as do
    lines continued with a backslash; one-line strings and comments disappear. The line
    count is preserved, brackets left are code brackets. ``None`` when a string is left
    open at the end of a line: the lexer cannot tell where it ends.
    """
    parts = _TOKENS.split(text)
    # re.split yields [text before, c, k, u] per match; the text before is always empty.
    if any(parts[index] is not None for index in range(3, len(parts), 4)):
        return None
    for index in range(2, len(parts), 4):
        kept = parts[index]
        if kept is not None:
            parts[index] = "S" + ("\n" + _MARK) * kept.count("\n")
    joined = "".join(filter(None, parts))
    return _CONTINUATION.sub("\\\\\n" + _MARK, joined).split("\n")


def _delta(line: str) -> int:
    opened = line.count("(") + line.count("[") + line.count("{")
    return opened - line.count(")") - line.count("]") - line.count("}")


def _is_start(line: str) -> bool:
    """True for a line that begins a statement when it is at bracket depth 0."""
    return line[:1] != _MARK and not line.isspace() and line != ""


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t\f"))]


def _word(line: str) -> str:
    found = _WORD.match(line.lstrip())
    return found.group() if found else ""


class _View:
    """Cleaned lines of one text and the bracket depth where the edit starts."""

    def __init__(self, lines: list[str], first_changed: int) -> None:
        self.lines = lines
        prefix = "\n".join(lines[:first_changed])
        self.depth_at_change = _delta(prefix)


class _Walker:
    """Scans the text before the edit forward from ``start``, one candidate end at a time."""

    def __init__(self, view: _View, start: int, indent: str) -> None:
        self._lines = view.lines
        self._indent = indent
        self._next = start
        self._depth = 0
        self._nested = True  # every statement seen so far lies inside the block
        self._previous = ""  # first word of the last statement at the block's level

    def _advance(self, stop: int) -> None:
        while self._next < stop:
            line = self._lines[self._next]
            if self._depth == 0 and _is_start(line):
                indent = _indent(line)
                if indent == self._indent:
                    self._previous = _word(line)
                elif not indent.startswith(self._indent):
                    self._nested = False
            self._depth += _delta(line)
            if self._depth < 0:
                self._nested = False
            self._next += 1

    def ends_at(self, index: int) -> bool:
        """True when a statement that closes the run starts at ``index``."""
        self._advance(index)
        if not self._nested or self._depth != 0 or index >= len(self._lines):
            return False
        line = self._lines[index]
        return _is_start(line) and _closes(line, self._indent, self._previous)

    def ends_at_eof(self) -> bool:
        """True when the run may extend to the end of the text."""
        self._advance(len(self._lines))
        return self._nested


def _closes(line: str, indent: str, previous: str) -> bool:
    """True when ``line`` (a statement start) may follow the run instead of joining it."""
    own = _indent(line)
    if own == indent:
        return previous != "@" and _word(line) not in _CONTINUES
    return indent.startswith(own)


def edit_is_clean(before: str, after: str) -> bool:
    """True when compiling the edited statements alone proves the edit kept the syntax.

    False means "not proven": the caller must compile the whole text.
    """
    if _MARK in before or _MARK in after:
        return False
    old, new = clean_lines(before), clean_lines(after)
    if old is None or new is None:
        return False
    if len(old) != before.count("\n") + 1 or len(new) != after.count("\n") + 1:
        return False
    first, suffix = shared_lines(before, after)
    old_view, new_view = _View(old, first), _View(new, first)
    new_end, old_end = len(new) - suffix, len(old) - suffix
    indent = _block_indent((new_view, new_end), (old_view, old_end), first)
    if indent is None:
        return False
    found = _run_start(new_view, first, indent)
    if found is None:
        return False
    start, opens = found
    if start == first and not _starts_alike(old_view, first, indent, opens):
        return False
    walker = _Walker(old_view, start, indent)
    end = _run_end(new_view, walker, start, new_end, new_end - old_end, indent)
    if end is None or end <= start:
        return False
    if any(line.strip() == "\\" for line in new[start:end]):
        return False  # CPython reads a line of only a backslash by its column: no dedent
    return _compiles(after.split("\n")[start:end], indent, start)


def _block_indent(new: tuple[_View, int], old: tuple[_View, int], first: int) -> str | None:
    """The indentation of the innermost block holding every changed statement."""
    indents: list[str] = []
    for view, end in (new, old):
        lines, depth = view.lines, view.depth_at_change
        if depth < 0:
            return None
        if first < len(lines) and (depth != 0 or lines[first][:1] == _MARK):
            indents.append(_enclosing_indent(view, first))
        for index in range(first, end):
            line = lines[index]
            if depth == 0 and _is_start(line):
                indents.append(_indent(line))
            depth += _delta(line)
            if depth < 0:
                return None
    if not indents:
        indents.append(_enclosing_indent(new[0], first))
    indent = min(indents, key=len)
    if any(not found.startswith(indent) for found in indents):
        return None
    if indent.strip(" ") and indent.strip("\t"):
        return None  # mixed tabs and spaces: dedenting could change how Python reads it
    return indent


def _enclosing_indent(view: _View, first: int) -> str:
    """Indentation of the statement that line ``first`` belongs to or follows."""
    lines, depth = view.lines, view.depth_at_change
    for index in range(first - 1, -1, -1):
        depth -= _delta(lines[index])
        if depth == 0 and _is_start(lines[index]):
            return _indent(lines[index])
    return ""


def _run_start(view: _View, first: int, indent: str) -> tuple[int, bool] | None:
    """The first line of the run, and whether it is the first statement of its block.

    The run starts at a statement of the block at or above ``first`` whose predecessor is
    complete: no decorator right above it, no header waiting for its body, and the run's
    first statement does not continue the one before (``else``...). When the run starts
    the block, the line above must open a block and no deeper statement may sit between.
    """
    lines, depth = view.lines, view.depth_at_change
    start: int | None = None
    above = ""  # first word of the statement right above ``start``
    deeper_above = False  # a deeper statement between the block's header and ``start``
    for index in range(min(first, len(lines) - 1), -1, -1):
        if index < first:
            depth -= _delta(lines[index])
        line = lines[index]
        if depth != 0 or not _is_start(line):
            continue
        own = _indent(line)
        if start is not None and not above:
            above = _word(line) or "?"
        if own == indent:
            if start is not None and _boundary(lines, index, start, above):
                return start, False
            start, above, deeper_above = index, "", False
        elif own.startswith(indent):
            deeper_above = start is not None
        else:
            if start is None or deeper_above or _word(lines[start]) in _CONTINUES:
                return None
            return (start, True) if _after_header(lines, index, start) else None
    if start is None:
        return (0, True) if indent == "" else None
    if indent or deeper_above or _word(lines[start]) in _CONTINUES:
        return None
    return start, True


def _boundary(lines: Sequence[str], previous: int, start: int, above: str) -> bool:
    """True when a run may start at ``start``, ``previous`` being the block's statement
    before it and ``above`` the first word of the statement right above it."""
    return (
        above != "@"
        and _word(lines[start]) not in _CONTINUES
        and not _after_header(lines, previous, start)
    )


def _after_header(lines: Sequence[str], low: int, start: int) -> bool:
    """True when the logical line ending just before ``start`` ends with a colon."""
    for line in reversed(lines[low:start]):
        if line.strip(_MARK + " \t\f\r"):
            return line.rstrip().endswith(":")
    return False


def _first_statement(view: _View, first: int) -> tuple[str, str] | None:
    """Indentation and first word of the first statement at or after line ``first``."""
    lines, depth = view.lines, view.depth_at_change
    for index in range(first, len(lines)):
        if depth == 0 and _is_start(lines[index]):
            return _indent(lines[index]), _word(lines[index])
        depth += _delta(lines[index])
    return None


def _starts_alike(old: _View, first: int, indent: str, opens: bool) -> bool:
    """True when the text before the edit also had a block boundary at line ``first``.

    The run starts at a changed line there, so the prefix must end the same way in the
    old text: the block's first statement at the same level, and no ``else``/``except``
    that continued a statement of the prefix.
    """
    found = _first_statement(old, first)
    if found is None:
        return not opens
    own, word = found
    if opens:
        return own == indent
    return indent.startswith(own) and not (own == indent and word in _CONTINUES)


def _run_end(
    view: _View, before: _Walker, start: int, change_end: int, shift: int, indent: str
) -> int | None:
    """The line after the run: past the change, a boundary of the block in both texts.

    ``shift`` converts a line index after the edit to the same line before it (valid past
    the change, where the texts are equal).
    """
    lines = view.lines
    depth, previous = 0, ""
    for index in range(start, len(lines)):
        line = lines[index]
        at, depth = depth, depth + _delta(line)
        if at < 0:
            return None
        if at != 0 or not _is_start(line):
            continue
        own = _indent(line)
        if not own.startswith(indent) and not indent.startswith(own):
            return None
        if index > start and index >= change_end and _closes(line, indent, previous):
            if before.ends_at(index - shift):
                return index
            if own != indent:
                return None
        if own == indent:
            previous = _word(line)
    return len(lines) if before.ends_at_eof() else None


def _compiles(lines: Sequence[str], indent: str, start: int) -> bool:
    size = len(indent)
    if size % 8 and indent[:1] == " " and any("\t" in _indent(line) for line in lines):
        return False  # a tab after the removed spaces would expand to another column
    text = "\n".join(line[size:] if line.startswith(indent) else line for line in lines)
    if "__future__" in text and (start > 0 or indent):
        return False  # only legal at the top of the module: let the whole file decide
    try:
        compile_python(text, ast_only=bool(indent))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True
