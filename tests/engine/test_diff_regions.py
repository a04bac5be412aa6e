"""The report's diff from the engine's known blocks: the opcodes of merging each block's
own diff, built in one pass.

The reference is the plain reading of a block list: the equal lines before each block,
the block's :func:`_diff_range`, the equal lines after the last one, then
:func:`_merge`. Generated texts and blocks (hunks with context, pure insertions and
deletions, blocks that change nothing, blocks that need the line matcher) must give the
same opcodes, and wrong blocks must still be told apart (``None``).
"""

from __future__ import annotations

import copy
import difflib
import pickle
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from patchwright.engine import MatchOptions, apply_edits
from patchwright.engine.diff import _diff_range, _from_regions, _merge, unified_diff
from patchwright.formats import parse_patch
from patchwright.model import PatchwrightError, TextFile

Region = tuple[int, int, int, int]


def _reference(
    a: list[str], b: list[str], regions: list[Region]
) -> list[tuple[str, int, int, int, int]] | None:
    ops: list[tuple[str, int, int, int, int]] = []
    pa = pb = 0
    for a0, a1, b0, b1 in sorted(regions):
        if a0 < pa or b0 < pb or a0 - pa != b0 - pb or a1 < a0 or b1 < b0:
            return None
        if a1 > len(a) or b1 > len(b) or a[pa:a0] != b[pb:b0]:
            return None
        ops.append(("equal", pa, a0, pb, b0))
        ops.extend(_diff_range(a, b, a0, a1, b0, b1))
        pa, pb = a1, b1
    if len(a) - pa != len(b) - pb or a[pa:] != b[pb:]:
        return None
    ops.append(("equal", pa, len(a), pb, len(b)))
    return _merge(ops)


def _case(rng: random.Random) -> tuple[list[str], list[str], list[Region]]:
    a = [
        f"l{rng.randrange(6)}" if rng.random() < 0.3 else f"u{k}"
        for k in range(rng.randrange(1, 80))
    ]
    b: list[str] = []
    regions: list[Region] = []
    i = 0
    while i < len(a):
        step = rng.randrange(0, 6)
        b.extend(a[i : i + step])
        i += step
        if i >= len(a) and rng.random() < 0.5:
            break
        ctx = rng.randrange(0, 3)
        a0, b0 = max(0, i - ctx), len(b) - min(ctx, i, step)
        removed = rng.randrange(0, 4)
        added = [
            rng.choice([f"n{i}", f"l{rng.randrange(6)}", *a[i : i + removed]])
            for _ in range(rng.randrange(0, 4))
        ]
        b.extend(added)
        i += removed
        after = a[i : i + ctx]
        b.extend(after)
        i += len(after)
        regions.append((a0, min(i, len(a)), b0, len(b)))
    return a, b, regions


@pytest.mark.parametrize("seed", range(300))
def test_one_pass_opcodes_are_the_merged_block_diffs(seed: int) -> None:
    a, b, regions = _case(random.Random(seed))
    assert _from_regions(a, b, regions) == _reference(a, b, regions)
    # the same with the blocks' ends moved by a line: mostly blocks that do not fit
    moved = [(a0, a1 + 1, b0, b1 + 1) for a0, a1, b0, b1 in regions]
    assert _from_regions(a, b, moved) == _reference(a, b, moved)


def test_blocks_that_do_not_fit_are_refused() -> None:
    a = ["x", "y", "z", "w"]
    b = ["x", "Y", "z", "w"]
    assert _from_regions(a, b, [(1, 2, 1, 2)]) == [
        ("equal", 0, 1, 0, 1),
        ("replace", 1, 2, 1, 2),
        ("equal", 2, 4, 2, 4),
    ]
    assert _from_regions(a, b, [(2, 3, 2, 3)]) is None  # the change lies outside the block
    assert _from_regions(a, b, [(0, 2, 0, 1)]) is None  # the ends do not line up


LINE = st.sampled_from(["a", "b", "c", "", "x = 1", "}", "def f():"])


@settings(max_examples=300, deadline=None)
@given(st.lists(LINE, min_size=1, max_size=30), st.lists(LINE, max_size=30), st.integers(1, 3))
def test_blocks_the_engine_reports_give_the_recomputed_opcodes(
    old: list[str], new: list[str], context: int
) -> None:
    # a diff of two random texts, applied by the engine: its reports' blocks are the
    # regions the report's diff is derived from (as apply_patch_text passes them)
    rows = list(difflib.unified_diff([f"{x}\n" for x in old], [f"{x}\n" for x in new], n=context))
    if not rows:
        return
    patch = parse_patch("--- a/f\n+++ b/f\n" + "".join(rows[2:]))
    file = TextFile.from_text("".join(f"{x}\n" for x in old))
    try:
        result = apply_edits(file, patch.files[0].edits, options=MatchOptions(mode="strict"))
    except PatchwrightError:
        assume(False)  # a hunk too short to be placed once (repeated lines): refused
    regions = [(r.orig_start - 1, r.orig_end, r.new_start - 1, r.new_end) for r in result.reports]
    a, b = file.lines, result.file.lines
    assert b == new
    assert _from_regions(a, b, regions) == _reference(a, b, regions)
    # told from the engine's splices (no line between the blocks compared), as compared
    known = unified_diff(file, result.file, regions=regions)
    assert known == unified_diff(file, result.file.copy(), regions=regions)


def _spliced_case() -> tuple[TextFile, TextFile, list[Region]]:
    old = "".join(f"line {k}\n" for k in range(40))
    new = old.replace("line 5\n", "line 5\nadded\n").replace("line 30\n", "changed 30\n")
    rows = list(difflib.unified_diff(old.splitlines(True), new.splitlines(True), n=3))
    patch = parse_patch("--- a/f\n+++ b/f\n" + "".join(rows[2:]))
    file = TextFile.from_text(old)
    result = apply_edits(file, patch.files[0].edits)
    regions = [(r.orig_start - 1, r.orig_end, r.new_start - 1, r.new_end) for r in result.reports]
    return file, result.file, regions


def test_a_spliced_text_is_known_so_only_for_its_source_and_blocks() -> None:
    file, new, regions = _spliced_case()
    assert new.spliced_from(file, regions)
    assert not new.spliced_from(file.copy(), regions)  # another text with the same lines
    assert not new.spliced_from(file, regions[:1])  # not the blocks the engine replaced
    # the diff told without comparing the lines between the blocks is the compared one
    assert unified_diff(file, new, regions=regions) == unified_diff(
        file, new.copy(), regions=regions
    )
    assert unified_diff(file, new, regions=regions) == unified_diff(file, new)


def test_a_text_whose_endings_were_settled_is_not_marked() -> None:
    # the file's last line has no ending and the hunk adds lines after it: the old last
    # line gains one, outside what the hunk replaced
    file = TextFile.from_text("a\nb\nc")
    patch = parse_patch(
        "--- a/f\n+++ b/f\n@@ -2,2 +2,3 @@\n b\n-c\n\\ No newline at end of file\n+c\n+d\n"
    )
    result = apply_edits(file, patch.files[0].edits)
    regions = [(r.orig_start - 1, r.orig_end, r.new_start - 1, r.new_end) for r in result.reports]
    assert result.file.text == "a\nb\nc\nd\n"
    assert not result.file.spliced_from(file, regions)
    assert unified_diff(file, result.file, regions=regions) == unified_diff(file, result.file)


def test_a_spliced_text_pickles_and_copies_without_its_mark() -> None:
    file, new, regions = _spliced_case()
    for other in (pickle.loads(pickle.dumps(new)), copy.deepcopy(new), copy.copy(new)):
        assert other == new
        assert not other.spliced_from(file, regions)
