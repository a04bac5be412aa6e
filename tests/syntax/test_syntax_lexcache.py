"""Lexing each text once: derived and remembered results equal a fresh lex.

Random line edits of standard-library modules (the region check's own mutations, which
open and close strings, brackets and continuations) are lexed through the cache and
compared with ``clean_lines`` run on the whole text.
"""

from __future__ import annotations

import random

from test_syntax_pyregion import _mutate, _stdlib_modules

from patchwright.syntax.lexcache import cleaned_pair, cleaned_text, forget_lexed
from patchwright.syntax.pyregion import clean_lines
from patchwright.syntax.shared import shared_lines


def test_derived_lexing_equals_lexing_the_whole_text() -> None:
    rng = random.Random(7)
    sources = [path.read_text(encoding="utf-8") for path in _stdlib_modules()]
    assert sources
    derived = 0
    for _ in range(300):
        forget_lexed()
        before = rng.choice(sources)
        lines = before.split("\n")
        for _ in range(rng.choice([1, 1, 2, 3])):
            lines = _mutate(rng, lines)
        after = "\n".join(lines)
        calls: list[str] = []

        def lex(text: str, calls: list[str] = calls) -> list[str] | None:
            calls.append(text)
            return clean_lines(text)

        old, new = cleaned_pair(before, after, shared_lines(before, after), lex)
        assert old == clean_lines(before)
        assert new == clean_lines(after), "derived lex differs from the whole-text lex"
        derived += calls[-1] != after
    assert derived > 200, "the middle of an edit should usually be lexed alone"


def test_the_text_after_an_edit_is_not_lexed_again_as_the_next_text_before() -> None:
    forget_lexed()
    first = "def f():\n    return 1\n" * 50
    second = first.replace("return 1", "return 2", 1)
    third = second.replace("return 1", "return 3", 1)
    seen: list[str] = []

    def lex(text: str) -> list[str] | None:
        seen.append(text)
        return clean_lines(text)

    cleaned_pair(first, second, shared_lines(first, second), lex)
    cleaned_pair(second, third, shared_lines(second, third), lex)
    assert seen[0] == first  # the first text is lexed whole, once
    assert all(len(text) < 40 for text in seen[1:])  # then only the changed middles
    assert cleaned_text(third, lex) == clean_lines(third) and len(seen) == 3
