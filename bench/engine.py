"""In-process engine benchmark: locate and apply one edit in files of growing size.

Measures, for files of 10k, 100k and 1M lines (plus 200k for the fuzzy target):

* exact: apply an exact 20-line string replacement (locate + splice + result);
* fuzzy locate: find a 20-line block whose indentation and trailing whitespace were
  damaged line by line (inconsistently, so only the fuzzy rung can place it);
* damaged apply: apply an edit whose search block carries that damage (whatever rung
  takes it), the whole engine path a tool call pays.

Prints medians and the per-line cost, which must stay flat (linear growth). Run:
``python bench/engine.py [--sizes 10000,100000,1000000] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from patchwright.engine import MatchOptions, apply_edits
from patchwright.engine.matching.index import LineIndex
from patchwright.engine.matching.locate import locate_block
from patchwright.model import Edit, OldText, PatchwrightError, TextFile


def make_file(n: int, seed: int = 7) -> list[str]:
    """A deterministic Python-looking file of ``n`` lines (each line distinct)."""
    rng = random.Random(seed)
    words = ["load", "save", "parse", "render", "merge", "split", "check", "build"]
    lines: list[str] = []
    i = 0
    while len(lines) < n:
        name = f"{rng.choice(words)}_{i}"
        lines.append(f"def {name}(value, limit={i % 17}):")
        for k in range(rng.randint(3, 12)):
            lines.append(f"    step_{k} = {rng.choice(words)}(value, {i}, {k})  # {name}")
        lines.append(f"    return step_0 + {i}")
        lines.append("")
        i += 1
    return lines[:n]


def damage(block: list[str], seed: int = 11) -> list[str]:
    """Indentation changed by different amounts per line, trailing blanks added."""
    rng = random.Random(seed)
    out = []
    for line in block:
        stripped = line.strip()
        if not stripped:
            out.append(line)
            continue
        indent = " " * max(0, len(line) - len(line.lstrip()) + rng.choice([-2, -1, 1, 2, 3]))
        out.append(indent + stripped + rng.choice(["", " ", "  ", "\t"]))
    return out


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def bench_size(n: int, repeat: int) -> dict[str, float]:
    lines = make_file(n)
    text = "\n".join(lines) + "\n"
    file = TextFile.from_text(text)
    mid = n // 2
    block = lines[mid : mid + 20]
    old = "\n".join(block) + "\n"
    new = old.replace("step_1 =", "step_one =", 1)
    broken = damage(block)
    options = MatchOptions()

    def exact() -> None:
        apply_edits(file, [Edit(OldText(old), new)])

    def fuzzy_locate() -> None:
        match = locate_block(LineIndex(file.lines), broken, options, rungs=("fuzzy",))
        assert match is not None and match.start == mid, match

    def damaged_apply() -> None:
        apply_edits(file, [Edit(OldText("\n".join(broken) + "\n"), new)])

    return {
        "exact": median_ms(exact, repeat),
        "fuzzy_locate": median_ms(fuzzy_locate, repeat),
        "damaged_apply": median_ms(damaged_apply, repeat),
    }


def absent_refusal_ms(repeat: int) -> float:
    """Time refusing a block that is not in a 60,000-line file (with the hint search)."""
    lines = make_file(60000)
    file = TextFile.from_text("\n".join(lines) + "\n")
    absent = "\n".join(line.replace("step_", "stage_") for line in lines[30000:30020]) + "\n"

    def refuse() -> None:
        try:
            apply_edits(file, [Edit(OldText(absent), "x\n")])
        except PatchwrightError as err:
            assert err.details["closest"]["start"] == 30001, err.details
            return
        raise AssertionError("an absent block was applied")

    return median_ms(refuse, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,200000,1000000")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(
        f"{'lines':>9} {'exact ms':>9} {'fuzzy ms':>9} {'damaged ms':>11}"
        f" {'exact ns/line':>14} {'fuzzy ns/line':>14}"
    )
    per_line: dict[int, float] = {}
    for n in sizes:
        r = bench_size(n, args.repeat)
        per_line[n] = r["fuzzy_locate"] * 1e6 / n
        print(
            f"{n:>9} {r['exact']:>9.2f} {r['fuzzy_locate']:>9.2f} {r['damaged_apply']:>11.2f}"
            f" {r['exact'] * 1e6 / n:>14.1f} {per_line[n]:>14.1f}"
        )
    if 200000 in per_line:
        ms = per_line[200000] * 200000 / 1e6
        verdict = "ok" if ms < 50 else "MISSED"
        print(f"fuzzy locate, 200k lines: {ms:.1f} ms (target < 50 ms: {verdict})")
    ms = absent_refusal_ms(args.repeat)
    verdict = "ok" if ms < 200 else "MISSED"
    print(
        f"absent 20-line block refused with its nearest region, 60k lines: {ms:.1f} ms "
        f"(target < 200 ms: {verdict})"
    )
    if len(sizes) > 1:
        lo, hi = sizes[0], sizes[-1]
        growth = per_line[hi] / per_line[lo]
        verdict = "ok" if growth <= 1.5 else "MISSED"
        print(f"fuzzy per-line cost {lo} -> {hi} lines: x{growth:.2f} (target <= 1.5: {verdict})")


if __name__ == "__main__":
    main()
