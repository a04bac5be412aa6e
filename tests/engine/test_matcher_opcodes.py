"""Opcodes told without difflib's matcher are the matcher's own.

:func:`patchwright.engine.diff.matcher_opcodes` skips the matcher when two texts differ
in one place (past their common ends, neither middle has a line of the other text). It
must give exactly ``SequenceMatcher(None, a, b, autojunk=False).get_opcodes()``: on
texts drawn from a few lines (so that ends, middles and repeats collide often) and on
texts built to differ in one place, with the same line at both ends.
"""

from __future__ import annotations

import random
from difflib import SequenceMatcher

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patchwright.engine.diff import matcher_opcodes

LINES = st.sampled_from(["a", "b", "c", "", "x = 1", "}"])


def _reference(a: list[str], b: list[str]) -> list[tuple[str, int, int, int, int]]:
    return SequenceMatcher(None, a, b, autojunk=False).get_opcodes()


@settings(max_examples=500)
@given(st.lists(LINES, max_size=10), st.lists(LINES, max_size=10))
def test_the_matcher_opcodes_of_any_two_texts(a: list[str], b: list[str]) -> None:
    assert matcher_opcodes(a, b) == _reference(a, b)


@settings(max_examples=500)
@given(
    st.lists(LINES, max_size=6),
    st.lists(st.sampled_from(["p", "q", "r"]), max_size=4),
    st.lists(st.sampled_from(["s", "t", "u"]), max_size=4),
    st.lists(LINES, max_size=6),
)
def test_texts_that_differ_in_one_place(
    head: list[str], old: list[str], new: list[str], tail: list[str]
) -> None:
    a, b = head + old + tail, head + new + tail
    assert matcher_opcodes(a, b) == _reference(a, b)


@pytest.mark.parametrize("seed", range(30))
def test_blocks_with_equal_ends(seed: int) -> None:
    # ends of one length and the same lines: the matcher takes the first end first
    rng = random.Random(seed)
    end = [rng.choice("xyz") for _ in range(rng.randrange(0, 5))]
    a = end + [f"old {k}" for k in range(rng.randrange(0, 3))] + end
    b = end + [f"new {k}" for k in range(rng.randrange(0, 3))] + end
    assert matcher_opcodes(a, b) == _reference(a, b)
