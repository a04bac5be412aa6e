"""Acceptance: every corpus patch through the code path of ``patchwright apply``.

Scoring (the corpus README's): *applied* means success and the file's bytes equal the
expected file; *refused* means failure and the file untouched; anything else is WRONG
and must never happen. Clean patches must all apply. The applied share per format is
held at or above a floor so that a change that makes patchwright refuse much more is
noticed too (figures: ``python bench/corpus.py``).
"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from corpus_support import Case, available, cases, place

from patchwright.api import apply_patch_text

pytestmark = pytest.mark.skipif(
    not available(), reason="../shared/corpus is not beside the checkout"
)

# Applied share floors, a little under what is measured, per format.
FLOORS = {"udiff": 0.80, "v4a": 0.70, "sr": 0.66}


def _verdict(root: Path, case: Case) -> str:
    target = place(root, case)
    report = apply_patch_text(case.patch, root, history=False)
    got = target.read_bytes() if target.exists() else b""
    if report.ok and got == case.expected:
        return "applied"
    if not report.ok and got == case.before:
        return "refused"
    return "WRONG"


@pytest.mark.parametrize("fmt", ["udiff", "v4a", "sr"])
def test_corpus_never_wrong_and_clean_always_applies(fmt: str, tmp_path: Path) -> None:
    wrong: list[str] = []
    clean_refused: list[str] = []
    tally: Counter[str] = Counter()
    for n, case in enumerate(cases(fmt)):
        root = tmp_path / str(n)
        root.mkdir()
        verdict = _verdict(root, case)
        shutil.rmtree(root)
        tally[verdict] += 1
        if verdict == "WRONG":
            wrong.append(case.id)
        elif verdict == "refused" and case.kind in ("clean", "crlf", "shift", "counts"):
            clean_refused.append(case.id)
    assert wrong == [], f"WRONG results: {wrong[:20]}"
    assert clean_refused == [], f"correct patches refused: {clean_refused[:20]}"
    share = tally["applied"] / sum(tally.values())
    assert share >= FLOORS[fmt], f"{fmt}: only {share:.1%} applied ({dict(tally)})"
