"""A diff's hunks placed in one pass give what replaying them one at a time gives.

Hunks in file order are spliced in one pass (one splice per hunk, reported as it is
placed). Sequential replay, one hunk at a time on the evolving text, is the defining
semantics: for generated files (LF, CRLF, mixed endings, with and without a final
newline) and diffs of many hunks (insertions, deletions, replacements, edits at both
ends of the file), both must give the same text, endings and reports.
"""

from __future__ import annotations

import random

import pytest
from engine_helpers import random_file, random_hunks

from patchwright.engine.apply import _against_original, _sequential
from patchwright.engine.matching.policy import MatchOptions
from patchwright.model import TextFile


def _file(rng: random.Random, n: int, style: str) -> TextFile:
    return random_file(rng, [f"line {k} {rng.randrange(10**6)}" for k in range(n)], style)


@pytest.mark.parametrize("seed", range(40))
def test_one_pass_gives_what_sequential_replay_gives(seed: int) -> None:
    rng = random.Random(seed)
    file = _file(rng, rng.randrange(5, 120), rng.choice(["lf", "crlf", "mixed"]))
    edits = random_hunks(rng, file, range(0, 3), numbered=True)
    assert len(edits) > 1
    opts = MatchOptions()
    one_pass = _against_original(file, edits, opts)
    replayed = _sequential(file, edits, opts)
    assert one_pass.file.lines == replayed.file.lines
    assert one_pass.file.endings == replayed.file.endings
    assert one_pass.reports == replayed.reports
