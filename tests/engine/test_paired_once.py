"""Blocks whose shared lines stand once on each side: opcodes told without the matcher.

:func:`patchwright.engine.diff._paired_once` answers for a block (the report's diff of a
hunk) when every line the two sides share stands once on each side and the pairs do not
cross; its opcodes must be ``SequenceMatcher(None, a, b, autojunk=False).get_opcodes()``
of the block, and it must decline (``None``) every block where that does not hold.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from hypothesis import given, settings
from hypothesis import strategies as st

from patchwright.engine.diff import _paired_once

LINES = st.sampled_from(["a", "b", "c", "d", "", "x = 1", "}"])
Opcode = tuple[str, int, int, int, int]


def _reference(a: list[str], b: list[str], a0: int, b0: int) -> list[Opcode]:
    ops = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    return [(tag, i1 + a0, i2 + a0, j1 + b0, j2 + b0) for tag, i1, i2, j1, j2 in ops]


def _paired_uniquely(a: list[str], b: list[str]) -> bool:
    """The condition the shortcut must recognise, read off the lines directly."""
    shared = set(a) & set(b)
    if any(a.count(line) > 1 or b.count(line) > 1 for line in shared):
        return False
    order_a = [line for line in a if line in shared]
    order_b = [line for line in b if line in shared]
    return order_a == order_b


@settings(max_examples=1500)
@given(
    st.lists(LINES, max_size=9),
    st.lists(LINES, max_size=9),
    st.integers(0, 3),
    st.integers(0, 3),
)
def test_the_matcher_opcodes_or_nothing(a: list[str], b: list[str], pad_a: int, pad_b: int) -> None:
    # the block sits inside longer lists, as a hunk does inside a file
    full_a = ["before"] * pad_a + a + ["after"]
    full_b = ["before"] * pad_b + b + ["after"]
    got = _paired_once(full_a, full_b, pad_a, pad_a + len(a), pad_b, pad_b + len(b))
    if _paired_uniquely(a, b):
        assert got == _reference(a, b, pad_a, pad_b)
    else:
        assert got is None


@settings(max_examples=500)
@given(
    st.lists(st.sampled_from(["p", "q", "r", "s"]), max_size=5, unique=True),
    st.lists(st.sampled_from(["1", "2", "", "}"]), max_size=4),
    st.lists(st.sampled_from(["5", "6", "", "}"]), max_size=4),
)
def test_hunks_with_changes_between_kept_lines(
    kept: list[str], removed: list[str], added: list[str]
) -> None:
    # kept lines in order, changes around and between them (repeats only on one side)
    a = [x for k in kept for x in (k, *removed)]
    b = [x for k in kept for x in (*added, k)]
    got = _paired_once(a, b, 0, len(a), 0, len(b))
    if _paired_uniquely(a, b):
        assert got == _reference(a, b, 0, 0)
    else:
        assert got is None


def test_the_usual_hunk_an_added_line_and_a_changed_one() -> None:
    a = ["", "    def f(self):"]
    b = ["    # step 1", "", "    def f(self):  # kept"]
    assert _paired_once(a, b, 0, 2, 0, 3) == [
        ("insert", 0, 0, 0, 1),
        ("equal", 0, 1, 1, 2),
        ("replace", 1, 2, 2, 3),
    ]
    assert _paired_once(["x", "y"], ["y", "x"], 0, 2, 0, 2) is None  # crossing pairs
