"""Acceptance: every refusal of a corpus snippet names file lines, and what it says of
them is true of the file.

Each doubt of a refusal (``details["doubts"]``, one sentence of the message each) is
checked against the original file and the candidate result: the original lines it
names exist; a run said to fit several places has an end line standing at each place
named; a split reading's head and tail stand where it says; lines said to differ in
whitespace differ in whitespace only; the lines a stretch is said to lose unshown are
lost in the candidate (counted over the run's place: a diff may align its lines
otherwise); a line a marker is said to keep is kept, right beside the run; a run said
to stand nowhere has no end line in the window as written.

The everyday run takes every 8th case; every snippet runs under ``corpus_full``.
"""

from __future__ import annotations

import json
import re

import pytest
from corpus_support import CORPUS

from patchwright.engine.matching.normalize import unicode_key
from patchwright.engine.replacing.snippet import merge_snippet_file
from patchwright.model import PatchwrightError, TextFile

SNIPPETS = CORPUS / "snippets.jsonl"
pytestmark = pytest.mark.skipif(
    not SNIPPETS.is_file(), reason="../shared/corpus/snippets.jsonl is not beside the checkout"
)

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@")
_ORIGINAL = re.compile(r"original lines? (\d+)(?:-(\d+))?")


def _entries(every: int) -> list[dict[str, str]]:
    rows = [json.loads(line) for line in SNIPPETS.read_text(encoding="utf-8").splitlines()]
    cases = sorted({r["case"] for r in rows})
    keep = set(cases[::every])
    return [r for r in rows if r["case"] in keep]


def _removed(diff: str) -> set[int]:
    """The 1-based original lines a unified diff removes."""
    removed: set[int] = set()
    old = 0
    for line in diff.splitlines():
        hunk = _HUNK.match(line)
        if hunk:
            old = int(hunk.group(1)) if hunk.group(2) != "0" else int(hunk.group(1)) + 1
            continue
        if line.startswith(("---", "+++")) and not old:
            continue
        if line.startswith("-"):
            removed.add(old)
            old += 1
        elif line.startswith(" "):
            old += 1
    return removed


def _dropped(removed: set[int], lines: list[str], lo: int, hi: int) -> int:
    """How many of original lines ``lo``-``hi`` a diff removes, counting a removed copy
    of one of them within as many lines as the range holds."""
    size = hi - lo + 1
    outside = removed - set(range(lo, hi + 1))
    return sum(
        1
        for x in range(lo, hi + 1)
        if x in removed or any(abs(y - x) <= size and lines[y - 1] == lines[x - 1] for y in outside)
    )


def _same(a: str, b: str) -> bool:
    return unicode_key(a) == unicode_key(b)


def _check_place(doubt: dict, run: list[str], lines: list[str], where: str) -> None:
    """A place [a, b] a run is said to fit: an end line of the run stands there."""
    lo, hi = doubt["file_lines"]
    for a, b in doubt["places"]:
        assert lo <= a <= b + 1 <= hi + 1, f"{where}: place {a}-{b} outside {lo}-{hi}"
        if all(not line.strip() for line in run):
            assert b == a - 1, f"{where}: blank lines placed over lines {a}-{b}"
            continue
        assert b >= a, f"{where}: empty place {a}-{b} for a run with text"
        assert _same(lines[a - 1], run[0]) or _same(lines[b - 1], run[-1]), (
            f"{where}: neither end of the run stands at {a}-{b}"
        )


def check_refusal(err: PatchwrightError, file: TextFile, snippet: str, where: str) -> None:
    """Assert that every doubt of ``err`` names existing file lines and says what is true
    of ``file`` (and of the candidate result the refusal shows)."""
    lines = file.lines
    n = len(lines)
    snippet_lines = snippet.splitlines()
    doubts = err.details["doubts"]
    sentences = err.message.split("\nCandidate result")[0].splitlines()[1:]
    assert doubts and len(sentences) == len(doubts), f"{where}: {err.message}"
    removed = _removed(err.details["candidate_diff"])
    for doubt, sentence in zip(doubts, sentences):
        kind = doubt["kind"]
        at = f"{where} ({kind}): {sentence}"
        named = [(int(a), int(b or a)) for a, b in _ORIGINAL.findall(sentence)]
        assert named, f"{at}: names no original line"
        for a, b in named:
            assert 1 <= a <= b <= n, f"{at}: original lines {a}-{b} of {n}"
        first, last = doubt["snippet_lines"]
        assert 1 <= first <= last <= len(snippet_lines), at
        run = snippet_lines[first - 1 : last]
        lo, hi = doubt["file_lines"]
        assert 1 <= lo <= hi + 1 <= n + 1, at
        if kind == "several":
            assert doubt["place_count"] >= 2, at
            named = len({tuple(p) for p in doubt["places"]})
            if named == 1:  # one place, by ends that say nothing: it would drop lines
                a, b = doubt["candidate"]
                shown = {x.strip() for x in run}
                unshown = [x for x in lines[a - 1 : b] if x.strip() not in shown]
                assert "would drop" in sentence and unshown, at
            else:
                assert named == min(3, doubt["place_count"]), at
            _check_place(doubt, run, lines, at)
        elif kind == "split":
            a, b = doubt["candidate"]
            assert _same(lines[a - 1], run[0]) and _same(lines[b - 1], run[-1]), at
            for h1, h2, t1, t2 in doubt["readings"]:
                head, tail = run[: h2 - h1 + 1], run[len(run) - (t2 - t1 + 1) :]
                assert all(_same(x, y) for x, y in zip(lines[h1 - 1 : h2], head)), at
                assert all(_same(x, y) for x, y in zip(lines[t1 - 1 : t2], tail)), at
                assert t1 > h2 + 1, f"{at}: no lines between head and tail"
        elif kind == "whitespace":
            assert doubt["count"] >= len(doubt["lines"]) >= 1, at
            for j, i in doubt["lines"]:
                mine, theirs = snippet_lines[j - 1], lines[i - 1]
                assert mine != theirs and "".join(mine.split()) == "".join(theirs.split()), at
        elif kind == "deletion":
            assert doubt["deleted"] == hi - lo + 1 > doubt["new_lines"] >= 0, at
            # inside the run's place, the diff may align the run's lines with other old
            # lines than the merge did: the place loses as many lines either way; at
            # an edge, the stretch goes (a diff may show a line of it deleted as its
            # copy right beside it)
            a, b = doubt["candidate"]
            if a <= lo and hi <= b:
                lo, hi = a, b
            dropped = _dropped(removed, lines, lo, hi)
            assert dropped >= doubt["deleted"] - doubt["new_lines"], f"{at}: {dropped} deleted"
        elif kind == "beside":
            a, b = doubt["candidate"]
            assert lo == hi and lo not in removed and lo in (a - 1, b + 1), at
        elif kind == "edge":
            a, b = doubt["candidate"]
            assert [x.strip() for x in lines[a - 1 : b]] == [x.strip() for x in run], at
        elif kind == "nowhere":
            ends = [x for x in (run[0], run[-1]) if x.strip()]
            window = lines[lo - 1 : hi]
            assert not any(x.rstrip() == y.rstrip() for x in ends for y in window), at


def _refusals(every: int) -> int:
    checked = 0
    for row in _entries(every):
        file = TextFile.decode((CORPUS / row["before"]).read_bytes())
        snippet = (CORPUS / row["patch"]).read_text(encoding="utf-8")
        try:
            merge_snippet_file(file, snippet, path=row["path"])
        except PatchwrightError as err:
            check_refusal(err, file, snippet, row["id"])
            checked += 1
    return checked


# enough refusals checked to mean something (they fall as more snippets merge)
def test_sampled_refusals_name_true_file_lines() -> None:
    assert _refusals(8) >= 15


@pytest.mark.corpus_full
def test_every_refusal_names_true_file_lines() -> None:
    assert _refusals(1) >= 180
