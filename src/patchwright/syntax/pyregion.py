"""Judging a Python edit by compiling only the statements it touched.

CPython needs tens of milliseconds to compile a 5,000-line module, too slow to run after
every edit. Most edits change a few lines inside one block, so this module finds the
smallest run of whole statements of one block that contains the change, in the text both
before and after the edit, and compiles that run alone, below stand-ins for the headers
of the blocks that hold it (``def _():``, ``class _:``, ``while _:``, ``if _:`` at the
headers' own indentation), so the compiler's scope checks (``'return' outside function``,
``'break' outside loop``) judge it as they judge it in the module.

Why that is enough: the file is the same before ``start`` and after ``end``; both ends are
statement boundaries of the same block in both texts (same bracket depth 0, same
indentation stack, outside any string); so the parser reads the unchanged parts exactly
as it did before the edit, and the only text it reads differently is the run itself. If
the run compiles on its own, the edit introduced no syntax error. If it does not, while
the same run before the edit did, the edit introduced that error, and it is reported
where the run puts it, unless it lies at the run's end (a body deleted, a decorator left
dangling): then the run takes in the next statement or two, and if the error still
depends on what follows, the whole file decides. When the edited block cannot be
delimited (an edit breaking a method's indentation blurs its block, the last statement
of a loop's body is deleted), the runs of the blocks enclosing it are tried from the
inside out, the module's top-level statements last. An edit that changes only
comments and blank lines is proven before any of this, from the lexed lines alone
(:mod:`.comments`): a comment added to a ``class`` line would otherwise compile the class.

Statement boundaries come from a small lexer (strings, comments, brackets, backslash
continuations) run over both texts. Whenever a premise does not hold -- an unbalanced
closing bracket, a quote left open at a line end (a Python 3.12 f-string field spanning
lines looks like that), mixed tab/space indentation, a ``from __future__`` import below
the top -- the answer is "not proven" and the caller compiles the whole file, so a wrong
guess costs time, never a missed error. Random line edits of standard-library modules
check in the tests that a clean verdict is never wrong and that reported errors are the
ones the whole file has. Blind spots kept: checks that need the enclosing function's
other statements (``nonlocal`` finds no binding in a stand-in, so such runs go to the
whole file; ``global`` of a parameter passes).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from patchwright.syntax.comments import only_comments
from patchwright.syntax.lexcache import (
    MARK,
    NotLexed,
    Spliced,
    cleaned_pair,
    cleaned_step,
    cleaned_text,
    lexed_lazily,
    remember,
)
from patchwright.syntax.shared import KeptByText, TextLines, shared
from patchwright.syntax.stdlib_parsers import ParseError, compile_python, future_flags
from patchwright.syntax.steps import SPREAD_LINES, Block, Split, Step, max_steps, stepwise

# The string forms of the lexer, tried in this order at a quote. A string is kept as a
# placeholder: a line holding only a string is a statement, and its indentation counts.
# Unrolled loops keep every pattern linear.
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
_STRING = re.compile("|".join(_ONE_LINE_STRINGS + _LONG_STRINGS), re.S)
_CONTINUATION = re.compile(r"\\\r?\n")
# Starts every line that continues a string or a backslash-continued line: such a line
# never begins a statement. The character cannot appear in valid Python code.
_MARK = MARK
_WORD = re.compile(r"@|[^\W\d]\w*")
# A statement starting with one of these continues the compound statement above it.
_CONTINUES = frozenset({"else", "elif", "except", "finally"})


def clean_lines(text: str) -> list[str] | None:
    """``text`` split at ``\\n`` with strings and comments blanked out, or ``None``.

    A string becomes ``S`` and the following lines of a multi-line one start with a
    marker, as do lines continued with a backslash; comments disappear. The line
    count is preserved, brackets left are code brackets. ``None`` when a string is left
    open at the end of a line: the lexer cannot tell where it ends (a syntax error, or
    an f-string whose replacement field spans lines, Python 3.12+, which this lexer
    cannot follow).

    Code runs to the next ``#`` or quote, found with ``str.find`` (a regular expression
    matching the code runs costs some 60 machine instructions a character in CPython's
    engine, most of a module's lexing): only the comments and strings are matched, at
    the place they start.
    """
    found = _lexed_run(text, 0, len(text) + 1)
    return None if found is None else _continued("".join(found[0])).split("\n")


def lex_chunk(text: str, pos: int, stop: int) -> tuple[str, int] | None:
    """The lexed text of ``text[pos:cut]``, ``cut`` the first line start at or after
    ``stop`` where the lexer is in code (or the end of the text), and ``cut``; ``None``
    when a quote is left open at a line end before ``cut``.

    ``pos`` must be a line start where the lexer is in code. The lexed text has the line
    breaks of the part, each line continued with a backslash marked, as in
    :func:`clean_lines` (see :class:`.lexcache.Lexed`).
    """
    found = _lexed_run(text, pos, stop)
    if found is None:
        return None
    pieces, cut = found
    return _continued("".join(pieces)), cut


def _lexed_run(text: str, pos: int, stop: int) -> tuple[list[str], int] | None:
    """The lexed pieces of ``text`` from ``pos`` to the first line start at or after
    ``stop`` where the lexer is in code (a cut never falls inside a comment or a string,
    so the pieces are those the whole text's lex has there), and that line start."""
    out: list[str] = []
    append, find, string_at = out.append, text.find, _STRING.match
    end = len(text)
    limit = end + 1  # ``find(...) % limit`` is ``end`` where ``find`` finds nothing (-1)
    # where the next "#", '"' and "'" are; ``end`` when there is none
    comment, double, single = find("#", pos) % limit, find('"', pos) % limit, find("'", pos) % limit
    while True:
        at = comment if comment < double else double
        if single < at:
            at = single
        if at >= stop:
            # the code run reaches the place asked for: cut it after a line break there
            cut = find("\n", max(pos, stop - 1), at) + 1
            if cut:
                append(text[pos:cut])
                return out, cut
        append(text[pos:at])
        if at == end:
            break
        if at == comment:
            pos = find("\n", at)  # the comment is dropped, its line break kept
            if pos < 0:
                break
        else:
            found = string_at(text, at)
            if found is None:
                return None  # a quote left open at the end of its line
            pos = found.end()
            append("S" if find("\n", at, pos) < 0 else _placeholder(found.group()))
        # only a mark the token ran over is looked for again
        if comment < pos:
            comment = find("#", pos) % limit
        if double < pos:
            double = find('"', pos) % limit
        if single < pos:
            single = find("'", pos) % limit
    return out, end


def _continued(lexed: str) -> str:
    """``lexed`` with each line that continues a line ending in a backslash marked."""
    if "\\" not in lexed:
        return lexed  # the usual case: spares a regular expression's scan of the text
    return _CONTINUATION.sub("\\\\\n" + _MARK, lexed)


def _placeholder(string: str) -> str:
    """What a string spanning lines leaves: ``S``, then a marker on each line it continues."""
    return "S" + ("\n" + _MARK) * string.count("\n")


def _delta(line: str) -> int:
    opened = line.count("(") + line.count("[") + line.count("{")
    return opened - line.count(")") - line.count("]") - line.count("}")


# every byte but the brackets, deleted at C speed before counting (see _delta_of_text)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"()[]{}")


def _delta_of_text(text: str) -> int:
    """:func:`_delta` of a long text: its brackets picked out first, so the six counts
    run over them alone (three times faster on the half of a module above an edit)."""
    found = text.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS)
    opened = found.count(b"(") + found.count(b"[") + found.count(b"{")
    return opened - found.count(b")") - found.count(b"]") - found.count(b"}")


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

    def __init__(self, lines: Sequence[str], first_changed: int, depth: int | None = None) -> None:
        self.lines = lines
        # both texts of an edit share the lines above it, and so this depth
        if depth is None:
            depth = _delta_of_text("\n".join(lines[:first_changed]))
        self.depth_at_change = depth


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
        if self._next >= stop:
            return
        for line in self._lines[self._next : stop]:
            if self._depth == 0 and _is_start(line):
                indent = _indent(line)
                if indent == self._indent:
                    self._previous = _word(line)
                elif not indent.startswith(self._indent):
                    self._nested = False
            self._depth += _delta(line)
            if self._depth < 0:
                self._nested = False
        self._next = max(self._next, min(stop, len(self._lines)))

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
    return region_verdict(before, after) == []


# Above this many lines between the first and the last change, whole-text compiles win.
_MAX_REGION_LINES = 2_000


def region_verdict(
    before: str,
    after: str,
    changed: Sequence[Block] | None = None,
    split: Split | None = None,
) -> list[ParseError] | None:
    """Judge a Python edit by compiling only the statements it touched, in both texts.

    Returns ``[]`` when the edited statements compile (the edit kept the syntax), one
    :class:`ParseError` located in ``after`` when they do not compile after the edit but
    did before it (the edit introduced that error), and ``None`` when nothing is proven:
    the caller must then compile the whole texts.

    The run is looked for first in the innermost block holding the change, then, when
    that block cannot be delimited (an edit that breaks the indentation of a method
    usually makes its block ambiguous), in the blocks enclosing it from the inside out,
    the module's top-level statements last.

    Changes far apart (the hunks of a diff) are judged one at a time (:mod:`.steps`),
    each by its own run, rather than as one run spanning everything between them;
    ``changed`` may name those changes (see :func:`.check.check_edit`). ``split`` holds
    both texts' lines as split at ``\\n`` when the caller has them.
    """
    if changed is not None and len(changed) > max_steps(before.count("\n") + 1):
        # Too many changes to judge one at a time (a diff of hundreds of hunks): one run
        # around all of them spans most of the file, and delimiting it costs more than
        # the whole compile the caller falls back to.
        return None
    stepped_already = changed is not None and len(changed) > 1
    if stepped_already:
        # the caller's blocks (a diff's hunks) are judged in turn before anything else:
        # the shared ends of the two whole texts are then not needed
        stepped = _stepped(before, after, split, changed, (0, 0))
        if stepped is not None:
            return stepped
    found = shared(before, after)
    first, suffix = found.prefix, found.suffix
    span = found.before_breaks - suffix - first
    if span > SPREAD_LINES and not stepped_already:
        stepped = _stepped(before, after, split, changed, (first, suffix))
        if stepped is not None:
            return stepped
    if span > _MAX_REGION_LINES:
        # Changes spread over much of the file (a diff of hundreds of hunks): the region
        # would be most of the file, and delimiting it costs more than one whole compile.
        return None
    if split is None:
        # the run's lines are read where the edit is, not split out of the whole texts
        split = (
            TextLines(before, found.before_breaks, found.anchor),
            TextLines(after, found.after_breaks, found.anchor),
        )
    return _one_region(before, after, (first, suffix), split)


def _stepped(
    before: str,
    after: str,
    split: Split | None,
    changed: Sequence[Block] | None,
    shared: tuple[int, int],
) -> list[ParseError] | None:
    """:func:`.steps.stepwise` with each step judged by the region check.

    The texts of the steps in between are never joined when the premises of
    :class:`_Chain` hold: each step is then lexed from the one before it, on lines.
    """
    if split is None:
        split = (before.split("\n"), after.split("\n"))
    if _Chain.holds(before):
        chain = _Chain(before, after)
        try:
            verdict = stepwise(split, chain.judge, changed, shared)
        except _WrittenMark:
            pass  # a step wrote a line the chain cannot judge: judged on texts instead
        else:
            if verdict == []:
                chain.keep()  # the last step's text was the text after the edit
            return verdict
    return stepwise(split, _TextSteps(before, after).judge, changed, shared)


# What no text a chain judges may hold (see _Chain).
_CHAIN_MARKS = (_MARK, "\0", "__future__")


class _WrittenMark(Exception):
    """A step of a chain wrote a line holding the lexer's marker, a NUL or
    ``__future__``."""


class _TextSteps:
    """Judges each step of a chain on its joined texts (the general path)."""

    def __init__(self, before: str, after: str) -> None:
        self._text = before  # the text before the next step
        self._after = after

    def judge(self, step: Step) -> list[ParseError] | None:
        """:func:`_one_region` of the step."""
        text = "\n".join(step.lines[1])
        if step.last and text == self._after:
            text = self._after  # the very object: what is learnt of it is kept by identity
        verdict = _one_region(self._text, text, step.shared, step.lines)
        self._text = text
        return verdict


class _Chain:
    """Judges the steps of a chain on their lines, each lexed from the step before it.

    The region check reads a step's two texts for four facts only: that neither holds
    the lexer's marker nor a NUL, their lexed lines, the bracket depth above the change
    and their ``__future__`` flags. When the text before the edit and the lines each
    step writes hold no marker, no NUL and not the word ``__future__``, no step text
    does either (each of its lines is a line of one of them, and none of these holds a
    line break): the flags are 0, and the lexed
    lines and the depth are carried from step to step, as :func:`_one_region` would find
    them from the joined texts. Only the whole texts' facts are kept for later checks.
    """

    def __init__(self, before: str, after: str) -> None:
        self._before, self._after = before, after
        # lexed lines of the text before the next step
        self._old: Sequence[str] | None = None
        # a line of that text above the next change, and the bracket depth there
        self._depth: tuple[int, int] | None = None

    @staticmethod
    def holds(text: str) -> bool:
        """True when ``text`` holds none of the marks the class docstring names."""
        return not any(mark in text for mark in _CHAIN_MARKS)

    def judge(self, step: Step) -> list[ParseError] | None:
        """:func:`_one_region` of the step, without its texts."""
        try:
            return self._judged(step)
        except NotLexed:
            return None  # a quote left open at a line end: the whole text's lex is None

    def _judged(self, step: Step) -> list[ParseError] | None:
        current, following = step.lines
        first, suffix = step.shared
        written = following[first : len(following) - suffix]
        if any(mark in line for line in written for mark in _CHAIN_MARKS):
            raise _WrittenMark
        starting = self._old is None
        if self._old is None:
            # the text before the edit, lexed from its top only as far as it is read
            old = lexed_lazily(self._before, len(current), lex_chunk)
        else:
            old = self._old
        if old is None or len(old) != len(current):
            return None
        new = cleaned_step(old, following, step.shared, clean_lines)
        if new is None or len(new) != len(following):
            return None
        self._old = new
        ends = (len(old) - suffix, len(new) - suffix)
        same_tail = isinstance(new, Spliced) and new.shares_tail(old, *ends)
        if only_comments(old, new, step.lines, first, ends, same_tail=same_tail):
            return []
        if self._depth is not None:
            at, known = self._depth
            depth = known + _delta_of_text("\n".join(old[at:first]))
        elif starting:
            depth = _depth_at(self._before, old, first)  # a depth kept from an earlier check
        else:
            depth = _delta_of_text("\n".join(old[:first]))
        self._depth = (first, depth)
        return _verdict(_Edit(step.lines, old, new, step.shared, depth, 0))

    def keep(self) -> None:
        """Keep what the chain learnt of the text after the edit (its last step's text)."""
        if self._old is not None:
            remember(self._after, self._old)
        if self._depth is not None:
            _remember_depth(self._after, *self._depth)
        _NO_FUTURE.put(self._after, True)


def _one_region(
    before: str, after: str, shared: tuple[int, int], split: Split | None = None
) -> list[ParseError] | None:
    """:func:`region_verdict` for the one region between the shared start and end.

    ``split`` holds both texts' lines (as split at ``\\n``) when the caller has them.
    """
    lexed = _lexed(before, after, shared, split)
    if lexed is None:
        return None
    split, old, new = lexed
    first, suffix = shared
    new_end = len(new) - suffix
    if only_comments(old, new, split, first, (len(old) - suffix, new_end)):
        return []  # the same tokens in both texts: nothing to compile
    depth = _depth_at(before, old, first)
    _remember_depth(after, first, depth)
    written = "\n".join(split[1][first:new_end])
    future = _future_of(before, after, written)
    return _verdict(_Edit(split, old, new, shared, depth, future))


def _verdict(edit: _Edit) -> list[ParseError] | None:
    """The verdict of the innermost block's run, else of the enclosing blocks' runs from
    the inside out, the module level's last.

    A run that cannot be delimited in its own block (the last statement of a loop's
    body deleted) is usually delimited one block out, and a run of that block is a few
    statements where the module level's is the whole function or class holding them.
    """
    indent = edit.block_indent()
    verdict, final = edit.judge(indent) if indent is not None else (None, False)
    if final or indent == "":
        return verdict
    for outer in edit.outer_indents(indent):
        verdict, final = edit.judge(outer)
        if final:
            break
    return verdict


def old_span_compiles(before: str, first: int, end: int) -> bool:
    """True when the top-level statements of ``before`` around lines ``first:end`` compile.

    ``first:end`` (0-based, half open) are the lines an edit replaced. The span runs from
    the top-level statement holding ``first`` to the one starting at or after ``end``; it
    is a sequence of whole statements, so when it compiles alone, ``before`` has no syntax
    error located inside it. False means "not proven".
    """
    if _MARK in before or "\0" in before:
        return False
    lines = cleaned_text(before, clean_lines)
    if lines is None or len(lines) != before.count("\n") + 1:
        return False
    view = _View(lines, first)
    found = _run_start(view, first, "")
    if found is None:
        return False
    start = found[0]
    walker = _Walker(view, start, "")
    stop = next(
        (index for index in range(max(end, start + 1), len(lines)) if walker.ends_at(index)),
        None,
    )
    if stop is None:
        if not walker.ends_at_eof():
            return False
        stop = len(lines)
    raw = before.split("\n")
    return _compile_run(raw[start:stop], [], start, future_flags(before)) is None


def _future_of(before: str, after: str, written: str) -> int:
    """:func:`future_flags` of ``after``, the text ``before`` with ``written`` (its changed
    lines) in place of some of its lines.

    A module checked edit after edit is usually the text the previous check kept (see
    :mod:`.lexcache`): when it had no ``__future__`` anywhere and the written lines have
    none, neither has ``after`` (the word holds no line break, so it lies in a line
    of ``before`` or in a written one), and the scan of ``after`` is spared.
    """
    known = _NO_FUTURE.get(before) is not None
    if not (known and "__future__" not in written) and "__future__" in after:
        return future_flags(after)
    _NO_FUTURE.put(after, True)
    return 0


# The last few texts seen without ``__future__``.
_NO_FUTURE: KeptByText[bool] = KeptByText()


def _depth_at(text: str, lines: Sequence[str], index: int) -> int:
    """The bracket depth where line ``index`` of ``lines`` (``text``, cleaned) starts.

    Counted from the depth a previous check found in this very text when there is one
    (the text after one edit is the text before the next, usually edited nearby), else
    from the top.
    """
    known = _DEPTHS.get(text)
    if known is None:
        return _delta_of_text("\n".join(lines[:index]))
    at, depth = known
    if index >= at:
        return depth + _delta_of_text("\n".join(lines[at:index]))
    return depth - _delta_of_text("\n".join(lines[index:at]))


def _remember_depth(text: str, index: int, depth: int) -> None:
    """Keep the bracket depth at line ``index`` of ``text`` for :func:`_depth_at`."""
    _DEPTHS.put(text, (index, depth))


# A bracket depth known in each of the last few texts: (line index, depth there).
_DEPTHS: KeptByText[tuple[int, int]] = KeptByText()


def _lexed(
    before: str, after: str, shared: tuple[int, int], split: Split | None = None
) -> tuple[Split, list[str], list[str]] | None:
    """Both texts' lines and lexed lines, or ``None`` when the lexer cannot follow either.

    ``shared`` holds the counts of lines the texts share at their start and end.
    """
    if _MARK in before or _MARK in after or "\0" in after:
        return None
    if split is None:
        split = (before.split("\n"), after.split("\n"))
    old, new = cleaned_pair(before, after, shared, clean_lines, split[1], len(split[0]) - 1)
    if old is None or new is None:
        return None
    if len(old) != len(split[0]) or len(new) != len(split[1]):
        return None
    return split, old, new


class _Edit:
    """Both texts of one edit, lexed, and where they differ."""

    def __init__(
        self,
        split: Split,
        old: Sequence[str],
        new: Sequence[str],
        shared: tuple[int, int],
        depth: int,
        future: int,
    ) -> None:
        """``depth``: the bracket depth above the change; ``future``: the compiler flags
        of the text after the edit's ``__future__`` imports."""
        self.before_lines, self.after_lines = split
        self.old, self.new = old, new
        self.first, suffix = shared
        self.old_view = _View(old, self.first, depth)
        self.new_view = _View(new, self.first, depth)
        self.new_end, self.old_end = len(new) - suffix, len(old) - suffix
        self.future = future

    def block_indent(self) -> str | None:
        """The indentation of the innermost block holding every changed statement."""
        return _block_indent(
            (self.new_view, self.new_end), (self.old_view, self.old_end), self.first
        )

    def outer_indents(self, indent: str | None) -> list[str]:
        """The indentations of the blocks enclosing the change from the inside out, out
        of ``indent`` (``None``: unknown) and ending with the module level's ``""``.

        Those of the headers above the change in the text after the edit, when the change
        starts outside brackets; only ``""`` otherwise.
        """
        found: list[str] = []
        if indent and self.new_view.depth_at_change == 0:
            headers = _context(self.new_view, self.first, indent)
            found = [_indent(header) for header in reversed(headers or ())]
        return [own for own in found if own and len(own) < len(indent or "")] + [""]

    def judge(self, indent: str) -> tuple[list[ParseError] | None, bool]:
        """The verdict of the run of statements at ``indent`` around the change.

        The flag is True when the verdict is final: the run was compiled, and a run of
        the outer block, holding this one, would not tell more at a higher cost.
        """
        first = self.first
        found = _run_start(self.new_view, first, indent)
        if (
            found
            and found[0] == first
            and not _starts_alike(self.old_view, first, indent, found[1])
        ):
            # The changed line starts a statement only after the edit (a line moved out
            # of its block): start at the statement above, a boundary in both texts.
            found = _run_start(self.new_view, first, indent, above_first=True)
        if found is None:
            return None, False
        start = found[0]
        walker = _Walker(self.old_view, start, indent)
        shift = self.new_end - self.old_end
        end = _run_end(self.new_view, walker, start, self.new_end, shift, indent)
        context = _context(self.new_view, start, indent)
        if end is None or end <= start or context is None:
            return None, False
        if any(line.strip() == "\\" for line in self.new[start:end]):
            return None, False  # CPython reads a line of only a backslash by its column
        for _ in range(_GROWTHS + 1):
            run = self.after_lines[start:end]
            error = _compile_run(run, context, start, self.future)
            if error is None:
                return [], True
            if error is _UNSURE:
                return None, False
            located = _located(error, run, context, start)
            if located is not None and self._inside(run, context, (start, end), indent, error):
                break
            if end == len(self.after_lines):
                return None, True
            # The error depends on what follows the run (a body deleted, a decorator left
            # dangling): take in the next statement too, so the error lies inside the run.
            end = _run_end(self.new_view, walker, start, end + 1, shift, indent)
            if end is None:
                return None, True
        else:
            return None, True
        old_run = self.before_lines[start : end - shift]
        if _compile_run(old_run, context, start, self.future) is not None:
            return None, True  # broken before the edit too: only the whole texts can tell
        return [located], True

    def _inside(
        self,
        run: Sequence[str],
        context: Sequence[str],
        span: tuple[int, int],
        indent: str,
        error: ParseError,
    ) -> bool:
        """True when the run's error does not depend on what follows the run.

        The run is compiled again followed by a statement at its level (as the module
        has one there, unless the run ends it): an error that moves or changes was found
        at the run's end, and the module may report it differently.
        """
        start, end = span
        if end == len(self.after_lines):
            return True
        return _compile_run([*run, indent + "pass"], context, start, self.future) == error


# How many times a run whose error lies at its end is extended by one statement.
_GROWTHS = 2


# Returned by _compile_run when the run must not be judged alone.
_UNSURE = ParseError(0, 0, "")
_ASYNC = re.compile(r"\s*async\s+(\w+)")
# What stands in for the header of a block holding the run: the compiler checks
# ``return``, ``yield``, ``await``, ``break`` and ``continue`` against these.
_STAND_INS = {
    "def": "def _():",
    "async def": "async def _():",
    "class": "class _:",
    "for": "while _:",
    "async for": "while _:",
    "while": "while _:",
}


def _context(view: _View, start: int, indent: str) -> list[str] | None:
    """Stand-ins for the headers of the blocks holding line ``start``, outermost first.

    Each keeps its header's indentation, so the run compiles below them with its own
    columns, and has its kind (function, class, loop, other): the compiler's scope checks
    then judge the run as they judge it in the module. ``None`` when the headers cannot
    be told (indentation that is not a prefix of the run's).
    """
    headers: list[str] = []
    lines, depth, current = view.lines[:start], 0, indent
    counted = start  # the bracket depth counts the lines from here to ``start``
    for index in range(start - 1, -1, -1):
        if not current:
            break
        line = lines[index]
        # Only a line indented less than the run can hold a header: the brackets of
        # the lines skipped on the way are counted in one go when one is reached.
        if not line or len(line) - len(line.lstrip(" \t\f")) >= len(current):
            continue
        depth -= _delta_of_text("\n".join(lines[index:counted]))
        counted = index
        if depth != 0 or not _is_start(line):
            continue
        own = _indent(line)
        if not current.startswith(own):
            return None
        word = _word(line)
        if word == "async":
            found = _ASYNC.match(line)
            word = f"async {found.group(1)}" if found else word
        headers.append(own + _STAND_INS.get(word, "if _:"))
        current = own
    if current:
        return None
    headers.reverse()
    return headers


def _compile_run(
    lines: Sequence[str], context: Sequence[str], start: int, future: int
) -> ParseError | None:
    """Compile a run of statements below ``context``: ``None`` if it compiles, else its error.

    The error's line counts the context lines too; ``_UNSURE`` when the run cannot stand
    for the same text inside the module.
    """
    text = "\n".join([*context, *lines])
    if "__future__" in text and (start > 0 or context):
        return _UNSURE  # only legal at the top of the module: let the whole file decide
    try:
        compile_python(text, ast_only=False, future=future)
    except SyntaxError as exc:
        return ParseError(exc.lineno or 0, exc.offset or 1, exc.msg or "invalid syntax")
    except (ValueError, RecursionError, MemoryError):
        return _UNSURE
    return None


_LINE_NUMBER = re.compile(r"\bline (\d+)")


def _located(
    error: ParseError, run: Sequence[str], context: Sequence[str], start: int
) -> ParseError | None:
    """``error`` of a run compiled below ``context``, moved to its place in the module.

    ``None`` when the error lies outside the run's statements (at its end: a header left
    without a body) or names a stand-in header: the module would report it elsewhere.
    """
    skip = len(context)
    content = max((n for n, line in enumerate(run, 1) if line.strip()), default=0)
    if not skip < error.line <= skip + content:
        return None
    if any(int(n) <= skip for n in _LINE_NUMBER.findall(error.message)):
        return None
    shift = start - skip
    message = _LINE_NUMBER.sub(lambda m: f"line {int(m.group(1)) + shift}", error.message)
    return ParseError(error.line + shift, max(1, error.column), message)


def _block_indent(new: tuple[_View, int], old: tuple[_View, int], first: int) -> str | None:
    """The indentation of the innermost block holding every changed statement."""
    indents: list[str] = []
    for view, end in (new, old):
        lines, depth = view.lines, view.depth_at_change
        if depth < 0:
            return None
        if first < len(lines) and (depth != 0 or lines[first][:1] == _MARK):
            indents.append(_enclosing_indent(view, first))
        for line in lines[first:end]:
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
    lines, depth = view.lines[:first], view.depth_at_change
    for index in range(first - 1, -1, -1):
        depth -= _delta(lines[index])
        if depth == 0 and _is_start(lines[index]):
            return _indent(lines[index])
    return ""


def _run_start(
    view: _View, first: int, indent: str, *, above_first: bool = False
) -> tuple[int, bool] | None:
    """The first line of the run, and whether it is the first statement of its block.

    The run starts at a statement of the block at or above ``first`` (strictly above with
    ``above_first``) whose predecessor is complete: no decorator right above it, no header
    waiting for its body, and the run's first statement does not continue the one before
    (``else``...). When the run starts the block, the line above must open a block and no
    deeper statement may sit between.
    """
    top = min(first, len(view.lines) - 1)
    lines, depth = view.lines[: top + 1], view.depth_at_change
    start: int | None = None
    above = ""  # first word of the statement right above ``start``
    deeper_above = False  # a deeper statement between the block's header and ``start``
    for index in range(top, -1, -1):
        if index < first:
            depth -= _delta(lines[index])
        line = lines[index]
        if depth != 0 or not _is_start(line) or (above_first and index == first):
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
    depth = view.depth_at_change
    for line in _forward(view.lines, first):
        if depth == 0 and _is_start(line):
            return _indent(line), _word(line)
        depth += _delta(line)
    return None


def _forward(lines: Sequence[str], start: int) -> Iterator[str]:
    """``lines[start:]``, read a growing slice at a time: a walk that stops early reads
    (and a lazily lexed text lexes) little past where it stops."""
    count, size = len(lines), 16
    while start < count:
        yield from lines[start : start + size]
        start, size = start + size, size * 2


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
    for index, line in enumerate(_forward(lines, start), start):
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
