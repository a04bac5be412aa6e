"""The fuzzy rung's cost grows linearly with block and file length, and its fast
alignment decides as the exact (quadratic) programme does.

Work is counted (alignment cells, windows aligned), never timed.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from patchwright.engine import MatchOptions, apply_edits
from patchwright.engine.matching import fuzzy
from patchwright.engine.matching.fuzzy import align as align_mod
from patchwright.engine.matching.fuzzy.align import STATS, align_dp, align_lines
from patchwright.engine.matching.index import LineIndex
from patchwright.engine.matching.normalize import unicode_key
from patchwright.engine.matching.rungs import Match
from patchwright.model import Edit, ErrorCode, OldText, PatchwrightError, TextFile

_COMMON = ("", "        return result", "    else:", "        total += 1", "    }")


def source(n: int, seed: int = 3) -> list[str]:
    """Code-like lines: numbered (distinct) statements among lines that repeat."""
    rng = random.Random(seed)
    out: list[str] = []
    for i in range(n):
        if rng.random() < 0.25:
            out.append(rng.choice(_COMMON))
        else:
            out.append(f"    value_{i} = compute_{rng.randrange(50)}(item_{i}, limit={i % 97})")
    return out


def damaged(lines: list[str], rate: float, seed: int = 4) -> list[str]:
    """A copy with ``rate`` of the telling lines changed by one character."""
    rng = random.Random(seed)
    out = list(lines)
    telling = [i for i, line in enumerate(out) if len(line.strip()) > 20]
    for i in rng.sample(telling, max(1, int(len(out) * rate))):
        out[i] = out[i].replace("limit=", "limt=", 1)
    return out


def regions_work(file_lines: list[str], block: list[str]) -> tuple[list[Match], int, int]:
    """Regions for ``block`` and the work spent: (regions, cells, windows)."""
    STATS.reset()
    regions = fuzzy.best_regions(LineIndex(file_lines), block)
    return regions, STATS.cells, STATS.windows


@pytest.mark.parametrize("rate", [0.02, 0.2])
def test_alignment_work_grows_linearly_with_block_length(rate: float) -> None:
    lines = source(30_000)
    per_line = []
    for size in (200, 800, 3_200):
        start = 10_000
        block = damaged(lines[start : start + size], rate)
        regions, cells, windows = regions_work(lines, block)
        assert (regions[0].start, regions[0].end) == (start, start + size)
        assert fuzzy.trustworthy(LineIndex(lines), block, regions[0])
        # The exact programme fills size x (1.5 size) cells per window.
        per_line.append(cells / (size * windows))
    # Linear: the work per block line does not grow with the block (quadratic work
    # would grow 16-fold from the first size to the last).
    assert max(per_line) <= 2 * per_line[0] + 1, per_line
    assert per_line[-1] < 8


def test_fuzzy_work_does_not_grow_with_file_length() -> None:
    work = []
    for n in (5_000, 50_000, 200_000):
        lines = source(n)
        block = damaged(lines[2_000:2_300], 0.05)
        regions, cells, windows = regions_work(lines, block)
        assert (regions[0].start, regions[0].end) == (2_000, 2_300)
        work.append((cells, windows))
    assert len(set(work)) == 1, work


def test_fast_alignment_of_a_large_block_matches_the_reference_pairs() -> None:
    lines = source(3_000)
    block = damaged(lines[1_000:1_400], 0.05)
    window = lines[900:1_500]
    pkeys = [unicode_key(p) for p in block]
    wkeys = [unicode_key(w) for w in window]
    STATS.reset()
    fast = align_lines(pkeys, wkeys, block, window, offset=100)
    fast_cells = STATS.cells
    STATS.reset()
    reference = align_dp(pkeys, wkeys, block, window)
    assert fast == reference
    assert STATS.cells == len(block) * (len(window) + 1)  # columns 0..n per row
    assert fast_cells * 50 < STATS.cells


def test_a_window_with_nothing_in_common_costs_one_pass() -> None:
    lines = source(4_000)
    unrelated = [f"    other_{i} = unrelated({i})" for i in range(2_000)]
    pkeys = [unicode_key(p) for p in unrelated]
    wkeys = [unicode_key(w) for w in lines[:3_000]]
    STATS.reset()
    pairs = align_lines(pkeys, wkeys, unrelated, lines[:3_000], offset=500)
    assert STATS.cells <= len(unrelated)
    assert all(b == a + 500 for a, b in pairs)


def test_a_large_unique_block_is_applied_byte_for_byte() -> None:
    lines = source(60_000)
    start, size = 30_000, 2_500
    block = damaged(lines[start : start + size], 0.02)
    new = list(block)
    new[1_000] = new[1_000] + "  # changed"
    text = "\n".join(lines) + "\n"
    STATS.reset()
    result = apply_edits(
        TextFile.from_text(text), [Edit(OldText("\n".join(block) + "\n"), "\n".join(new) + "\n")]
    )
    expected = list(lines)
    expected[start + 1_000] = block[1_000] + "  # changed"
    assert result.reports[0].rung == "fuzzy"
    assert result.file.text == "\n".join(expected) + "\n"
    assert STATS.cells < 10 * size


def test_a_refusal_reuses_the_regions_instead_of_aligning_again() -> None:
    lines = source(2_000)
    block = damaged(lines[500:540], 0.6)  # too damaged to trust
    regions, _, windows = regions_work(lines, block)
    assert regions
    STATS.reset()
    with pytest.raises(PatchwrightError) as info:
        apply_edits(
            TextFile.from_text("\n".join(lines) + "\n"),
            [Edit(OldText("\n".join(block) + "\n"), "x = 1\n")],
        )
    assert info.value.code == ErrorCode.NOT_FOUND
    assert "closest" in info.value.details
    assert STATS.windows == windows


def test_near_duplicates_are_refused_naming_the_candidates() -> None:
    copy = [
        "def handler(request):",
        "    result = []",
        "    for item in request.items:",
        "        value = item.load(strict=True)",
        "        result.append(render(value))",
        "    return result",
        "",
    ]
    lines = copy * 2_000
    block = list(copy[:6])
    block[3] = "        value = item.laod(strict=True)"
    STATS.reset()
    with pytest.raises(PatchwrightError) as info:
        apply_edits(
            TextFile.from_text("\n".join(lines) + "\n"),
            [Edit(OldText("\n".join(block) + "\n"), "pass\n")],
        )
    assert info.value.code == ErrorCode.AMBIGUOUS
    assert info.value.details["rung"] == "fuzzy"
    assert len(info.value.details["lines"]) >= 2  # type: ignore[arg-type]
    assert STATS.windows <= 6


# ------------------------------------------------------------ fast path = reference

_POOL = (
    "",
    "}",
    "    return x",
    "    x += 1",
    "    if x > limit:",
    "def alpha(x):",
    "def beta(x):",
    "    total = alpha(x) + beta(x)",
    "    log.debug('value %s', x)",
    "    data = load(path, strict=True)",
)


@st.composite
def edits(draw: st.DrawFn) -> tuple[list[str], list[str], list[str]]:
    """A small file from a pool of repeating lines, a damaged block taken from it and a
    replacement that changes one of the block's lines."""
    numbered = draw(st.booleans())
    n = draw(st.integers(12, 60))
    picks = draw(st.lists(st.integers(0, len(_POOL) - 1), min_size=n, max_size=n))
    lines = [
        _POOL[k] + (f"  # {i}" if numbered and _POOL[k] and i % 3 else "")
        for i, k in enumerate(picks)
    ]
    size = draw(st.integers(4, min(30, n)))
    start = draw(st.integers(0, n - size))
    block = list(lines[start : start + size])
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(block) - 1))
        how = draw(st.sampled_from(("typo", "extra", "drop", "indent")))
        if how == "typo" and len(block[i]) > 3:
            block[i] = block[i][:-2] + "q" + block[i][-1]
        elif how == "extra":
            block.insert(i, "    pass")
        elif how == "drop" and len(block) > 4:
            del block[i]
        elif how == "indent":
            block[i] = "  " + block[i]
    new = list(block)
    k = draw(st.integers(0, len(new) - 1))
    new[k] = new[k] + " # edited"
    return lines, block, new


def _decision(lines: list[str], block: list[str], new: list[str]) -> str:
    """The engine's decision: the new text when applied, ``refused`` otherwise (the
    refusal's wording may differ: the reference sometimes pairs two look-alike lines
    where the fast path keeps an exact pair, and explains its refusal otherwise)."""
    try:
        result = apply_edits(
            TextFile.from_text("\n".join(lines) + "\n"),
            [Edit(OldText("\n".join(block) + "\n"), "\n".join(new) + "\n")],
            options=MatchOptions(mode="fuzzy"),
        )
    except PatchwrightError:
        return "refused"
    return result.file.text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits())
# A lone telling line ("return x") in the slack after the real region once pulled the
# fast path's second window into a look-alike region that made the edit ambiguous.
@example(
    (
        ["    return x", "}", *[""] * 6, "    return x", "", "", "", "}", *[""] * 6],
        ["    pass", "    return x", "}", *[""] * 6],
        ["    pass", "    return x # edited", "}", *[""] * 6],
    )
)
def test_fast_alignment_decides_as_the_reference(
    case: tuple[list[str], list[str], list[str]],
) -> None:
    lines, block, new = case
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(align_mod, "SMALL_CELLS", 10**9)  # every window: the reference
        reference = _decision(lines, block, new)
        patch.setattr(align_mod, "SMALL_CELLS", 0)  # every window: runs and gaps
        fast = _decision(lines, block, new)
    assert fast == reference
