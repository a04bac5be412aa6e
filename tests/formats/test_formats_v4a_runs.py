"""OpenAI patch hunks read as runs give what the line-by-line reading gives.

An ``@@`` line followed by lines that each start with ' ', '-' or '+' and hold no
``***`` is read in one step; every OpenAI patch among the format fixtures and the
shared corpus, and texts built around the shapes where the two could part (blank and
unprefixed lines, markers indented or not, ``\\`` lines, anchors on several ``@@``
lines, fences, hunks without ``@@``), is parsed both ways and must give the same
patch and warnings.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from patchwright.formats import _v4a_hunks
from patchwright.formats.v4a import parse_v4a
from patchwright.model import PatchwrightError

FIXTURES = Path(__file__).parent.parent / "fixtures" / "formats" / "v4a"
# the shared real-edit corpus beside the checkout, as tests/acceptance/corpus_support.py finds it
CORPUS = (
    Path(
        os.environ.get(
            "PATCHWRIGHT_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus"
        )
    )
    / "cases"
)

_HEAD = "*** Begin Patch\n*** Update File: a.py\n"
EDGES = {
    "plain": "@@\n a\n-b\n+B\n c\n",
    "two hunks": "@@\n a\n-b\n+B\n@@ def f\n x\n+y\n z\n",
    "anchors on two lines": "@@ class A\n@@ def f\n x\n-y\n+Y\n",
    "blank context": "@@\n a\n\n-b\n+B\n",
    "blank after": "@@\n a\n-b\n+B\n\n",
    "unprefixed": "@@\n a\nb\n-c\n+C\n",
    "marker inside": "@@\n a\n-b\n+B\n*** End of File\n",
    "indented marker": "@@\n a\n-b\n+B\n  *** End of File\n",
    "stars in text": "@@\n a ***\n-b\n+B\n",
    "no newline": "@@\n a\n-b\n+B\n\\ No newline at end of file\n",
    "fence": "@@\n a\n```\n-b\n+B\n",
    "no @@": " a\n-b\n+B\n",
    "numbers": "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
    "empty hunk": "@@\n@@\n a\n-b\n+B\n",
}


def _texts() -> list[tuple[str, str]]:
    found = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.glob("*"))]
    corpus = sorted(CORPUS.glob("*/v4a.*.patch"))[::7]
    found += [(p.parent.name + "/" + p.name, p.read_text(encoding="utf-8")) for p in corpus]
    edges = [(name, _HEAD + body + "*** End Patch\n") for name, body in EDGES.items()]
    return found + edges


def _parsed(text: str) -> object:
    try:
        return parse_v4a(text)
    except PatchwrightError as err:
        return (err.code, err.message, err.line)


@pytest.mark.parametrize(("name", "text"), _texts(), ids=[n for n, _ in _texts()])
def test_runs_read_as_line_by_line(name: str, text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[bool] = []
    at_once = _v4a_hunks._prefixed

    def counted(run: list[str]) -> bool:
        taken.append(at_once(run))
        return taken[-1]

    monkeypatch.setattr(_v4a_hunks, "_prefixed", counted)
    fast = _parsed(text)
    if name in ("plain", "two hunks", "numbers", "anchors on two lines"):
        assert any(taken), name  # read as a run
    monkeypatch.setattr(_v4a_hunks, "_prefixed", lambda run: False)
    assert _parsed(text) == fast, name


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not beside the checkout")
def test_the_corpus_is_read_both_ways() -> None:
    assert len(sorted(CORPUS.glob("*/v4a.*.patch"))[::7]) > 100
