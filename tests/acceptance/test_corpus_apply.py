"""Acceptance: corpus patches through the code path of ``patchwright apply``.

Scoring (the corpus README's): *applied* means success and the file's bytes equal the
expected file; *refused* means failure and the file untouched; anything else is WRONG
and must never happen. Clean patches must all apply. The applied share per format is
held at or above a floor so that a change that makes patchwright refuse much more is
noticed too (figures: ``python bench/corpus.py``).

The everyday run takes a stratified sample (every format and kind, in every mode); the
whole corpus runs under the ``corpus_full`` marker (``pytest -m corpus_full``), which
``.ci/run`` selects.
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pytest
from corpus_support import Case, available, cases, place, stratified

from patchwright.api import apply_patch_text

pytestmark = pytest.mark.skipif(
    not available(), reason="../shared/corpus is not beside the checkout"
)

# Applied share floors over all kinds, a little under what is measured, per format.
FLOORS = {"udiff": 0.965, "v4a": 0.955, "sr": 0.965}
# Kinds whose patches are correct for the file: they must always apply.
CORRECT = ("clean", "crlf", "shift", "counts")
PER_GROUP = 6


def _verdict(root: Path, case: Case, mode: str = "fuzzy") -> str:
    target = place(root, case)
    report = apply_patch_text(case.patch, root, history=False, mode=mode)
    got = target.read_bytes() if target.exists() else b""
    if report.ok and got == case.expected:
        return "applied"
    if not report.ok and got == case.before:
        return "refused"
    return "WRONG"


def _score(picked: Iterable[Case], tmp_path: Path, mode: str = "fuzzy") -> Counter[str]:
    """Verdict counts; asserts no WRONG result and no correct patch refused."""
    wrong: list[str] = []
    correct_refused: list[str] = []
    tally: Counter[str] = Counter()
    for n, case in enumerate(picked):
        root = tmp_path / str(n)
        root.mkdir()
        verdict = _verdict(root, case, mode)
        shutil.rmtree(root)
        tally[verdict] += 1
        if verdict == "WRONG":
            wrong.append(case.id)
        elif verdict == "refused" and case.kind in CORRECT:
            correct_refused.append(case.id)
    assert wrong == [], f"WRONG results ({mode}): {wrong[:20]}"
    assert correct_refused == [], f"correct patches refused ({mode}): {correct_refused[:20]}"
    return tally


@pytest.mark.parametrize("mode", ["strict", "tolerant", "fuzzy"])
def test_corpus_sample_never_wrong(mode: str, tmp_path: Path) -> None:
    picked = stratified(per_group=PER_GROUP, seed={"strict": 1, "tolerant": 2, "fuzzy": 3}[mode])
    assert len(picked) >= 150
    tally = _score(picked, tmp_path, mode)
    assert tally["applied"] >= len(picked) // 2 or mode == "strict"


@pytest.mark.corpus_full
@pytest.mark.parametrize("fmt", ["udiff", "v4a", "sr"])
def test_corpus_never_wrong_and_clean_always_applies(fmt: str, tmp_path: Path) -> None:
    tally = _score(cases(fmt), tmp_path)
    share = tally["applied"] / sum(tally.values())
    assert share >= FLOORS[fmt], f"{fmt}: only {share:.1%} applied ({dict(tally)})"
