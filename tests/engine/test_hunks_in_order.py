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
from engine_helpers import random_file

from patchwright.engine.apply import _against_original, _sequential
from patchwright.engine.policy import MatchOptions
from patchwright.model import Edit, Hunk, HunkLine, TextFile


def _file(rng: random.Random, n: int, style: str) -> TextFile:
    return random_file(rng, [f"line {k} {rng.randrange(10**6)}" for k in range(n)], style)


def _hunks(rng: random.Random, file: TextFile) -> list[Edit]:
    edits: list[Edit] = []
    n = len(file.lines)
    at, done = rng.randrange(0, 3), 0
    while at < n:
        ctx = rng.randrange(0, 3)
        start = max(done, at - ctx)  # hunks of one diff never share lines
        removed = rng.randrange(0, 3)
        stop = min(n, at + removed + ctx)
        body = [HunkLine(" ", t) for t in file.lines[start:at]]
        body += [HunkLine("-", t) for t in file.lines[at : min(n, at + removed)]]
        body += [HunkLine("+", f"new {at} {k}") for k in range(rng.randrange(0, 3))]
        body += [HunkLine(" ", t) for t in file.lines[min(n, at + removed) : stop]]
        if any(op != " " for op, _ in body) and any(op != "+" for op, _ in body):
            hunk = Hunk(tuple(body), old_start=start + 1)
            edits.append(Edit(hunk, label=f"hunk {len(edits) + 1}"))
        done, at = stop, stop + rng.randrange(1, 6)
    return edits


@pytest.mark.parametrize("seed", range(40))
def test_one_pass_gives_what_sequential_replay_gives(seed: int) -> None:
    rng = random.Random(seed)
    file = _file(rng, rng.randrange(5, 120), rng.choice(["lf", "crlf", "mixed"]))
    edits = _hunks(rng, file)
    assert len(edits) > 1
    opts = MatchOptions()
    one_pass = _against_original(file, edits, opts)
    replayed = _sequential(file, edits, opts)
    assert one_pass.file.lines == replayed.file.lines
    assert one_pass.file.endings == replayed.file.endings
    assert one_pass.reports == replayed.reports
