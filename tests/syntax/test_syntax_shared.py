"""Shared starts and ends of two texts, in characters and in whole lines."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from patchwright.syntax.compare import common_ends
from patchwright.syntax.shared import TextLines, shared, shared_length, shared_lines

pieces = st.lists(st.sampled_from(["a", "b", "\n", "é", "ab\n"]), max_size=12).map("".join)


@given(pieces, pieces, pieces)
def test_shared_lines_agree_with_comparing_line_lists(head: str, a: str, b: str) -> None:
    before, after = head + a + head, head + b
    assert shared_lines(before, after) == common_ends(before.split("\n"), after.split("\n"))


def test_long_texts_differing_across_block_boundaries() -> None:
    base = "".join(f"line {n}\n" for n in range(3000))
    for at in (0, 4095, 4096, 4097, 10000, len(base) - 1):
        edited = base[:at] + "X" + base[at:]
        assert shared_length(base, edited, from_end=False) == at
        assert shared_length(base, edited, from_end=True) == len(base) - at
        assert shared_lines(base, edited) == common_ends(base.split("\n"), edited.split("\n"))


@given(pieces, pieces, pieces)
def test_text_lines_read_as_the_split_text(head: str, a: str, b: str) -> None:
    before, after = head + a + head, head + b
    found = shared(before, after)
    assert (found.before_breaks, found.after_breaks) == (before.count("\n"), after.count("\n"))
    for text, breaks in ((before, found.before_breaks), (after, found.after_breaks)):
        lines, split = TextLines(text, breaks, found.anchor), text.split("\n")
        assert len(lines) == len(split)
        assert [lines[i] for i in range(len(split))] == split
        assert [lines[-i] for i in range(1, len(split) + 1)] == [
            split[-i] for i in range(1, len(split) + 1)
        ]
        for start in range(-1, len(split) + 2):
            for stop in range(-1, len(split) + 2):
                assert lines[start:stop] == split[start:stop]


@given(pieces, pieces, pieces, pieces)
def test_breaks_counted_from_a_known_total_equal_breaks_counted_whole(
    head: str, a: str, b: str, c: str
) -> None:
    # the first call keeps the line breaks of its text after; the second, given that
    # very text as its text before, counts only its shorter edge and middle
    first, second, third = head + a + head, head + b + head, head + c
    shared(first, second)
    copy = (second + ".")[:-1]  # equal, but another object: counted whole
    assert shared(second, third) == shared(copy, third)
    assert shared(second, third).before_breaks == second.count("\n")
