"""Hunks without line numbers found at once by a line that occurs once give what the
whole ladder gives.

A batch of many hunks without numbers (an OpenAI patch) places each one whose old
lines stand exactly once through the line dictionary, skipping the ladder. For
generated files (LF, CRLF, mixed endings, with and without a final newline, lines
that repeat) and hunks of every shape (context at both ends or open at one, at the end
of the file, repeated and absent old lines), the text, endings, reports and errors must
be what the ladder alone gives.
"""

from __future__ import annotations

import random

import pytest
from engine_helpers import random_file, random_hunks

from patchwright.engine import apply as engine_apply
from patchwright.engine.matching.policy import MatchOptions
from patchwright.model import Edit, PatchwrightError, TextFile


def _file(rng: random.Random, n: int, style: str, repeats: float) -> TextFile:
    # repeated lines: some hunks have no unique line, some two copies
    lines = [
        rng.choice(["", "}", "pass"]) if rng.random() < repeats else f"line {k}" for k in range(n)
    ]
    return random_file(rng, lines, style)


def _outcome(file: TextFile, edits: list[Edit]) -> tuple[str, object]:
    try:
        result = engine_apply.apply_edits(file, edits, options=MatchOptions())
    except PatchwrightError as err:
        return "refused", (err.code, err.message, err.details)
    return "applied", (result.file.lines, result.file.endings, result.reports)


@pytest.mark.parametrize("seed", range(60))
def test_unique_hunks_placed_at_once_as_the_ladder_places_them(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    rough = seed % 3 == 0  # refusals (absent lines, open edges) as well
    style = rng.choice(["lf", "crlf", "mixed"])
    file = _file(rng, rng.randrange(80, 200), style, 0.33 if rough else 0.1)
    edits = random_hunks(rng, file, range(0 if rough else 1, 4), numbered=False, rough=rough)
    assert len(edits) > engine_apply.HOT_AFTER
    placed: list[object] = []
    at_once = engine_apply._exact_unique

    def counted(*args: object) -> object:
        splice = at_once(*args)  # type: ignore[arg-type]
        placed.append(splice)
        return splice

    monkeypatch.setattr(engine_apply, "_exact_unique", counted)
    fast = _outcome(file, edits)
    monkeypatch.setattr(engine_apply, "_exact_unique", lambda *args: None)
    assert _outcome(file, edits) == fast
    if fast[0] == "applied":
        assert any(s is not None for s in placed)  # the fast path did place hunks
