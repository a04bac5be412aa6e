"""Lexing a text from its top as far as it is read: the same lines as the whole-text lex.

:class:`~patchwright.syntax.lexcache.Lexed` lexes chunk by chunk, each cut at a line
start where the lexer is in code; random texts built from the lexer's traps (quotes,
triple quotes, backslashes before line breaks, comments, CRLF) and standard-library
modules, whole, with CRLF endings and cut in two, are read in random order with chunks
down to one character and compared with :func:`~patchwright.syntax.pyregion.clean_lines`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from test_syntax_pyregion import _stdlib_modules

from patchwright.syntax import lexcache
from patchwright.syntax.lexcache import Lexed, NotLexed, Spliced, whole
from patchwright.syntax.pyregion import clean_lines, lex_chunk

PIECES = ['"""', "'''", '"', "'", "\\", "\\\n", "\\\r\n", "#", "#'", "\n", "\r\n", "x", "(",
          ")", "[", " ", "'a'", '"b"', "\n    ", "def f():\n"]  # fmt: skip


def _lazy(text: str) -> Lexed:
    return Lexed(text, text.count("\n") + 1, lex_chunk)


def _check(text: str, rng: random.Random) -> None:
    """Every read of the lazily lexed lines gives the whole-text lex's lines.

    A text the whole-text lex refuses (a quote left open at a line end) may be read up
    to the place of the quote; reading it all then fails too.
    """
    expected = clean_lines(text)
    lines = _lazy(text)
    count = len(lines)
    assert count == text.count("\n") + 1
    if expected is None:
        assert whole(lines) is None, repr(text)
        return
    for _ in range(6):
        index = rng.randrange(count)
        if rng.random() < 0.5:
            stop = rng.randrange(index, count + 1)
            assert lines[index:stop] == expected[index:stop], repr(text)
        else:
            assert lines[index] == expected[index], repr(text)
    assert whole(lines) == expected, repr(text)


@pytest.mark.parametrize("chunk", [1, 5, 64, 2048])
def test_lines_lexed_as_read_are_the_whole_texts_lines(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexcache, "_CHUNK", chunk)
    rng = random.Random(chunk)
    for _ in range(3_000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 24)))
        _check(text, rng)


def test_standard_library_modules_lexed_as_read(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    sources = [path.read_text(encoding="utf-8") for path in _stdlib_modules()]
    assert sources
    for chunk in (7, 300, 2048):
        monkeypatch.setattr(lexcache, "_CHUNK", chunk)
        for source in sources:
            cut = rng.randrange(len(source))
            for text in (source, source.replace("\n", "\r\n"), source[:cut], source[cut:]):
                _check(text, rng)


def test_a_quote_left_open_is_found_only_when_read_up_to() -> None:
    text = "x = 1\n" * 400 + "y = 'open\n" + "z = 2\n" * 10
    lines = _lazy(text)
    assert lines[10] == "x = 1" and lines[:3] == ["x = 1"] * 3
    with pytest.raises(NotLexed):
        lines[len(lines) - 1]
    with pytest.raises(NotLexed):
        lines[5:500]  # the failure is kept
    assert whole(lines) is None and clean_lines(text) is None


def test_spliced_lines_read_like_the_spliced_list() -> None:
    rng = random.Random(5)
    for _ in range(2_000):
        base = [f"b{i}" for i in range(rng.randrange(0, 12))]
        first = rng.randrange(len(base) + 1)
        end = rng.randrange(first, len(base) + 1)
        middle = [f"m{i}" for i in range(rng.randrange(0, 4))]
        spliced = Spliced(base, first, end, middle)
        expected = base[:first] + middle + base[end:]
        assert len(spliced) == len(expected)
        assert [spliced[i] for i in range(len(expected))] == expected
        assert [spliced[-i] for i in range(1, len(expected) + 1)] == expected[::-1]
        lo = rng.randrange(len(expected) + 1)
        hi = rng.randrange(lo, len(expected) + 2)
        assert spliced[lo:hi] == expected[lo:hi]
        tail = first + len(middle)
        assert spliced.shares_tail(base, end, tail)
        assert not spliced.shares_tail(list(base), end, tail)
        with pytest.raises(IndexError):
            spliced[len(expected)]


def test_splices_of_splices_read_like_the_lists_they_stand_for() -> None:
    rng = random.Random(7)
    for _ in range(300):
        expected = [f"b{i}" for i in range(rng.randrange(0, 30))]
        lines: Sequence[str] = list(expected)
        for step in range(rng.randrange(1, 12)):
            first = rng.randrange(len(expected) + 1)
            end = rng.randrange(first, len(expected) + 1)
            middle = [f"s{step}.{i}" for i in range(rng.randrange(0, 4))]
            spliced = Spliced(lines, first, end, middle)
            expected = expected[:first] + middle + expected[end:]
            assert spliced.shares_tail(lines, end, first + len(middle))
            lines = spliced
        assert len(lines) == len(expected)
        assert [lines[i] for i in range(len(expected))] == expected
        lo = rng.randrange(len(expected) + 1)
        hi = rng.randrange(lo, len(expected) + 2)
        assert lines[lo:hi] == expected[lo:hi]


def test_a_splice_of_splices_reads_without_going_through_each_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines: Sequence[str] = [f"b{i}" for i in range(1000)]
    for step in range(64):  # a diff's steps, top down, each one line replaced
        lines = Spliced(lines, step * 15, step * 15 + 1, [f"changed {step}"])
    runs: list[int] = []
    inner = Spliced._run

    def counted(self: Spliced, start: int, stop: int) -> list[str]:
        runs.append(stop - start)
        return inner(self, start, stop)

    monkeypatch.setattr(Spliced, "_run", counted)
    assert lines[0:1000][945] == "changed 63"
    assert runs == [1000]  # the last step's splice alone: no step before it is read
