"""The shortcut for hunks shaped as ``diff -u`` writes them reads what the full reader
reads.

:func:`read_counted` takes a hunk whose body is one run of prefixed lines matching its
header's counts in one step; every hunk header of the unified fixtures, and of texts
built around the shapes where the two could part (counts off by one, a ``\\`` marker,
an empty line, a ``--- x`` line, prose or a new file after the hunk), is read both ways
and must give the same hunk and the same end.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from patchwright.formats._common import split_patch_lines
from patchwright.formats._hunks import build_hunk, parse_hunk_header, read_body, read_counted
from patchwright.formats.detect import detect_format

FIXTURES = Path(__file__).parent.parent / "fixtures" / "formats" / "unified"

_HUNK = "@@ -1,4 +1,4 @@\n a\n-b\n+B\n c\n d\n"
EDGES = {
    "plain": _HUNK,
    "two hunks": _HUNK + "@@ -9,2 +9,3 @@\n x\n+y\n z\n",
    "counts high": "@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n",
    "counts low": "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n d\n",
    "no newline": "@@ -1,2 +1,2 @@\n a\n-b\n+B\n\\ No newline at end of file\n",
    "empty context": "@@ -1,4 +1,4 @@\n a\n-b\n+B\n\n d\n",
    "empty after": _HUNK + "\n",
    "empty then hunk line": _HUNK + "\n e\n",
    "prose after": _HUNK + "and then\n",
    "next file": _HUNK + "--- a/y\n+++ b/y\n@@ -1 +1 @@\n-q\n+r\n",
    "removed dashes": "@@ -1,3 +1,3 @@\n a\n--- x\n+++ y\n c\n",
    "removed dashes, counts done": "@@ -1,1 +1,1 @@\n--- x\n+++ y\n@@ -5 +5 @@\n-q\n+r\n",
    "git after": _HUNK + "diff --git a/y b/y\n",
    "fence after": _HUNK + "```\n",
    "one-sided": "@@ -0,0 +1,2 @@\n+a\n+b\n",
    "bare header": "@@\n a\n-b\n+B\n",
}


def _texts() -> list[tuple[str, str]]:
    found = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.glob("*.patch"))]
    return found + sorted(EDGES.items())


@pytest.mark.parametrize(("name", "text"), _texts(), ids=[n for n, _ in _texts()])
def test_counted_hunks_read_as_the_full_reader_reads_them(name: str, text: str) -> None:
    lines = split_patch_lines(text)
    for i, line in enumerate(lines):
        if not line.startswith("@@"):
            continue
        try:
            header = parse_hunk_header(line, i + 1, [])
        except Exception:  # a combined diff header: not a hunk either way
            continue
        counted = read_counted(lines, i + 1, header, i + 1)
        warnings: list[str] = []
        body, end = read_body(lines, i + 1, header, warnings)
        if counted is None:
            continue
        assert counted[1] == end, (name, i)
        assert counted[0] == build_hunk(header, body, i + 1, "hunk", warnings), (name, i)
        assert not warnings, (name, i)


def test_the_shortcut_takes_the_hunks_diff_writes() -> None:
    lines = split_patch_lines(EDGES["two hunks"])
    first = read_counted(lines, 1, parse_hunk_header(lines[0], 1, []), 1)
    assert first is not None and first[1] == 6  # the second header
    for name in ("counts high", "counts low", "no newline", "empty context", "prose after"):
        lines = split_patch_lines(EDGES[name])
        assert read_counted(lines, 1, parse_hunk_header(lines[0], 1, []), 1) is None, name


@pytest.mark.parametrize(
    ("head", "want"),
    [
        ("--- a/x\n+++ b/x\n", "unified"),
        ("*** Begin Patch\n*** Update File: x\n", "v4a"),
        ("x.py\n<<<<<<< SEARCH\n", "search-replace"),
    ],
)
def test_a_large_patch_is_told_by_its_first_lines(head: str, want: str) -> None:
    filler = "prose line\n" * 20_000  # far past the part looked at first
    assert detect_format(head + filler) == want
    # the markers found only far down are found all the same
    assert detect_format(filler + head + "more\n") == want
