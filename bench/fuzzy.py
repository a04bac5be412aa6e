"""Fuzzy-rung benchmark: a damaged SEARCH block placed by similarity, at growing sizes.

Cases (in process, ``patchwright.engine.apply_edits``, default fuzzy mode):

* big block: a 5,000-line SEARCH block, 98 % like one region of a 100,000-line module
  (2 % of its lines damaged: characters changed, comments appended, lines added), with three
  lines edited in its REPLACE. It is unique and must be applied, byte for byte.
* near duplicates: a 20-line block among 100,000 lines made of 5,000 near-copies of
  one block. ``unique``: the block keeps its copy's numbered lines, one copy is best
  and is applied. ``ambiguous``: the copies differ only in lines the damage hit, the
  block is refused as ambiguous, naming the candidates.
* sweep: block length 20..5,000 in a 100,000-line file, file length 10k..1M for a
  200-line block; time, peak memory and the growth ratio per step (time ratio over
  size ratio: 1.0 is linear, 2.0 per doubling would be quadratic).
* alignment alone, against the reference: the linear alignment and the exact
  quadratic programme on the same window, for blocks up to ``--reference-max`` lines.

Every applied result is checked against the expected bytes. Times are medians of
``--repeat`` runs; peak memory is tracemalloc's peak in a separate run (tracing slows
the code down). Run ``python bench/fuzzy.py`` (``--quick``: smaller sweep).
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from _common import fmt_ms, fmt_ratio, peak_rss_kb, render_table
from _synth import generate_source

from patchwright.engine import MatchOptions, apply_edits
from patchwright.engine.matching.fuzzy.align import align_dp, align_lines
from patchwright.engine.matching.normalize import unicode_key
from patchwright.model import Edit, OldText, PatchwrightError, TextFile


@dataclass(frozen=True)
class Case:
    """One fuzzy edit: the file, the SEARCH and REPLACE blocks, the expected outcome."""

    name: str
    lines: list[str]
    search: list[str]
    replace: list[str]
    expected: list[str] | None  # None: must be refused
    refusal: str = ""  # the error code a refusal must carry

    @property
    def size(self) -> int:
        """Lines in the SEARCH block."""
        return len(self.search)


def damaged_block(
    lines: Sequence[str], start: int, size: int, rate: float, seed: int
) -> tuple[list[str], list[str], list[str]]:
    """A SEARCH block made from ``lines[start:start + size]`` with ``rate`` of its lines
    damaged, the REPLACE block (three undamaged lines edited) and the expected file.

    Damage: a character changed inside the line (most), a comment appended, a line
    added. (A line dropped from a SEARCH block is refused whatever the rung: the
    complete new text would delete it.)"""
    rng = random.Random(seed)
    region = list(lines[start : start + size])
    hit = set(rng.sample(range(1, size - 1), max(1, int(size * rate))))
    edits = rng.sample([i for i in range(1, size - 1) if i not in hit and region[i].strip()], 3)
    search: list[str] = []
    replace: list[str] = []
    for i, line in enumerate(region):
        if i in edits:
            search.append(line)
            replace.append(line + "  # edited")
            continue
        if i not in hit:
            search.append(line)
            replace.append(line)
            continue
        kind = rng.random()
        if kind < 0.7 and len(line.strip()) > 8:
            cut = rng.randrange(len(line) // 2, len(line))
            changed = line[:cut] + "x" + line[cut + 1 :]
            search.append(changed)
            replace.append(changed)
        elif kind < 0.85 and line.strip():
            search.append(line.rstrip() + "  # " + "noted")
            replace.append(search[-1])
        else:
            search.extend((line, "    pass  # stray"))
            replace.extend((line, "    pass  # stray"))
    expected = list(lines)
    for i in edits:
        expected[start + i] = region[i] + "  # edited"
    return search, replace, expected


def big_case(n_lines: int, size: int, rate: float = 0.02, seed: int = 11) -> Case:
    """A ``size``-line block, ``1 - rate`` alike, from the middle of an ``n_lines`` file."""
    lines = generate_source(n_lines, seed=seed)
    start = (n_lines - size) // 2
    search, replace, expected = damaged_block(lines, start, size, rate, seed)
    return Case(f"{size:,} of {n_lines:,}", lines, search, replace, expected)


def near_duplicates(n_lines: int, unique: bool, seed: int = 5) -> Case:
    """``n_lines`` of 20-line near-copies of one block; the SEARCH block is copy 1/3 in
    with one line damaged. Copies carry their number in two lines; ``unique`` keeps
    those lines in the SEARCH block, otherwise the damage hides them."""
    copies = n_lines // 20
    lines: list[str] = []
    for k in range(copies):
        lines += [
            f"def handler_{k:05d}(request, limit=None):",
            f'    """Serve request kind {k:05d}."""',
            "    result = []",
            "    total = 0",
            "    for item in request.items[:limit]:",
            "        if item is None or item.count > 100:",
            "            continue",
            "        value = item.load(strict=True)",
            "        result.append(render_value(value, source=request.name))",
            "        total += value.size * 3 + request.offset",
            '    logger.debug("served %s items", len(result))',
            "    if total > request.limit:",
            "        raise OverflowError(total)",
            "    cache[request.key] = result",
            "    return result",
            "",
            "",
            "# ----------------------------------------------------------------------",
            "",
            "",
        ]
    k = copies // 3
    block = lines[20 * k : 20 * k + 15]
    search = list(block)
    search[7] = "        value = item.laod(strict=True)"  # damage: no rung before fuzzy
    if not unique:
        search[0] = "def handler_XXXXX(request, limit=None):"
        search[1] = '    """Serve request kind XXXXX."""'
    replace = list(search)
    replace[13] = "    cache[request.key] = list(result)"
    expected = None
    if unique:
        expected = list(lines)
        expected[20 * k + 13] = "    cache[request.key] = list(result)"
    name = "20 lines, near-duplicates, " + ("unique" if unique else "ambiguous")
    return Case(name, lines, search, replace, expected, "" if unique else "ambiguous")


def run_case(case: Case) -> str:
    """Apply the case once; the outcome checked against the expectation ("ok" or why not)."""
    text = TextFile.from_text("\n".join(case.lines) + "\n")
    edit = Edit(OldText("\n".join(case.search) + "\n"), "\n".join(case.replace) + "\n")
    try:
        result = apply_edits(text, [edit], options=MatchOptions())
    except PatchwrightError as err:
        if case.expected is None and err.code.value == case.refusal:
            return "ok"
        return f"refused: {err.code.value}: {err.message[:120]}"
    if case.expected is None:
        return "applied, expected a refusal"
    if result.file.text != "\n".join(case.expected) + "\n":
        return "WRONG bytes"
    return "ok"


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn`` over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def peak_mb(fn: Callable[[], object]) -> float:
    """tracemalloc's peak during ``fn``, in MB."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def measure(case: Case, repeat: int) -> tuple[str, float, float]:
    """Outcome, median seconds and peak MB of one case."""
    outcome = run_case(case)
    return outcome, timed(lambda: run_case(case), repeat), peak_mb(lambda: run_case(case))


def child_rss_mb(which: str) -> tuple[float, float]:
    """Peak RSS (MB, GNU ``time``) of a fresh process that builds one target case, and
    of one that builds and applies it (0 when GNU ``time`` is missing)."""
    here = Path(__file__).parent
    runs = [
        peak_rss_kb([sys.executable, __file__, "--child", which, step], here)
        for step in ("build", "apply")
    ]
    return runs[0] / 1024, runs[1] / 1024


def _child(which: str, step: str) -> None:
    case = big_case(100_000, 5_000) if which == "big" else near_duplicates(100_000, True)
    if step == "apply" and run_case(case) != "ok":
        raise SystemExit(1)


def targets(repeat: int) -> list[tuple[object, ...]]:
    """The three target cases: rows of the first table."""
    rows: list[tuple[object, ...]] = []
    goals = ((big_case(100_000, 5_000), 1.0, 300.0),)
    goals += ((near_duplicates(100_000, True), 0.3, 300.0),)
    goals += ((near_duplicates(100_000, False), 0.3, 300.0),)
    for case, secs, mb in goals:
        outcome, t, peak = measure(case, repeat)
        verdict = "PASS" if outcome == "ok" and t < secs and peak < mb else "FAIL"
        rows.append((case.name, outcome, fmt_ms(t), f"{peak:.0f}", f"< {secs * 1000:.0f}", verdict))
    return rows


def sweep(sizes: Sequence[tuple[int, int]], repeat: int) -> list[tuple[object, ...]]:
    """Time and memory per (file lines, block lines), with the growth ratio per step."""
    rows: list[tuple[object, ...]] = []
    prev: tuple[int, int, float] | None = None
    for n_lines, size in sizes:
        case = big_case(n_lines, size)
        outcome, t, peak = measure(case, repeat)
        growth = "-"
        if prev is not None and (n_lines == prev[0]) != (size == prev[1]):
            # One dimension grew: its ratio is the step.
            step = size / prev[1] if n_lines == prev[0] else n_lines / prev[0]
            growth = f"{(t / prev[2]) / step:.2f}"
        rows.append((f"{n_lines:,}", f"{size:,}", outcome, fmt_ms(t), f"{peak:.1f}", growth))
        prev = (n_lines, size, t)
    return rows


def against_reference(sizes: Sequence[int], repeat: int) -> list[tuple[object, ...]]:
    """The linear alignment against the reference programme on the same window."""
    rows: list[tuple[object, ...]] = []
    for size in sizes:
        case = big_case(20_000, size)
        start = (20_000 - size) // 2
        slack = max(3, size // 4)
        window = case.lines[start - slack : start + size + slack]
        args = (
            [unicode_key(p) for p in case.search],
            [unicode_key(w) for w in window],
            case.search,
            window,
        )
        linear = partial(align_lines, *args, offset=slack)
        reference = partial(align_dp, *args)
        fast_pairs, ref_pairs = linear(), reference()
        fast, ref = timed(linear, repeat), timed(reference, 1)
        same = "yes" if fast_pairs == ref_pairs else f"no ({len(set(fast_pairs) ^ set(ref_pairs))})"
        rows.append((f"{size:,}", fmt_ms(fast), fmt_ms(ref), fmt_ratio(ref, fast), same))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; exit status 1 when a target case fails."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sweep, fewer runs")
    parser.add_argument("--repeat", type=int, default=0, help="runs per figure (median)")
    parser.add_argument(
        "--reference-max", type=int, default=0, help="largest block the reference aligns"
    )
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(*args.child)
        return 0
    repeat = args.repeat or (3 if args.quick else 5)
    ref_max = args.reference_max or (400 if args.quick else 800)
    rows = targets(repeat)
    print("Targets (in process, apply_edits)")
    print(render_table(("case", "outcome", "median ms", "peak MB", "goal ms", "verdict"), rows))
    built, applied = child_rss_mb("big")
    print(
        "peak MB: tracemalloc's peak during the call. Whole process for the 5,000-line "
        f"block: {applied:.0f} MB RSS (building the case alone: {built:.0f} MB)"
    )
    blocks = (20, 100, 500, 1_000, 2_000, 5_000) if not args.quick else (20, 200, 1_000, 5_000)
    files = (10_000, 100_000, 1_000_000) if not args.quick else (10_000, 100_000)
    sizes = [(100_000, b) for b in blocks] + [(n, 200) for n in files]
    print("\nSweep: growth = time ratio / size ratio per step (1.0 linear, 2.0 quadratic)")
    print(
        render_table(
            ("file lines", "block lines", "outcome", "median ms", "peak MB", "growth"),
            sweep(sizes, repeat),
            left=0,
        )
    )
    ref_sizes = [s for s in (20, 50, 100, 200, 400, 800, 1_600) if s <= ref_max]
    print("\nAlignment alone: linear vs the reference programme (same window)")
    print(
        render_table(
            ("block lines", "linear ms", "reference ms", "reference/linear", "same pairs"),
            against_reference(ref_sizes, repeat),
            left=0,
        )
    )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\nprocess peak RSS {rss:.0f} MB (all cases, generators included)")
    return 0 if all(r[-1] == "PASS" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
