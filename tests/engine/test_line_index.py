"""The line index's unique-line lookup: where a line stands when it occurs once.

Every line of generated files (many repeats, none, one line repeated everywhere) and
lines absent from them are looked up and checked against a plain count.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from patchwright.engine.matching.index import LineIndex


def _lines(rng: random.Random, n: int, kinds: int) -> list[str]:
    return [f"line {rng.randrange(kinds)}" for _ in range(n)]


@pytest.mark.parametrize(
    ("n", "kinds"), [(0, 1), (1, 1), (5, 1), (50, 1000), (200, 60), (500, 400), (2000, 2500)]
)
def test_unique_line_agrees_with_a_count(n: int, kinds: int) -> None:
    lines = _lines(random.Random(n * 7 + kinds), n, kinds)
    _answers_agree(LineIndex(lines), lines, [*set(lines), "absent", "line -1"])


@pytest.mark.parametrize(
    ("n", "kinds"), [(0, 1), (5, 1), (50, 1000), (200, 60), (500, 400), (2000, 2500)]
)
def test_lines_named_in_advance_agree_with_a_count(n: int, kinds: int) -> None:
    # named lines are answered from the file lines among them; a line not named (asked
    # in between) still gets its answer from every line
    rng = random.Random(n * 11 + kinds)
    lines = _lines(rng, n, kinds)
    asked = [*set(lines), "absent", "line -1"]
    rng.shuffle(asked)
    named = {line for line in asked if rng.random() < 0.7}
    index = LineIndex(lines)
    index.expect(named)
    _answers_agree(index, lines, asked)


def _answers_agree(index: LineIndex, lines: list[str], asked: list[str]) -> None:
    # unique_line: False when a line is absent, None when it repeats, else its position
    counts = Counter(lines)
    for line in asked:
        found = index.unique_line(line)
        if counts[line] == 0:
            assert found is False
        elif counts[line] > 1:
            assert found is None
        else:
            assert found == lines.index(line)
