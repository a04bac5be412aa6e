"""In-process cost of small edits: ``patchwright.engine.apply_edits`` on a 2,000-line file.

    python bench/api.py                    # 1,000 calls per scenario, median
    python bench/api.py --lines 200000     # the same edits in a bigger file

Each scenario is checked once against the expected text before it is timed. The target
is a single exact string replacement in a 2,000-line file under 1 ms median.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from _common import fmt_ms, median, render_table
from _synth import LineIndex, generate_source


@dataclass(frozen=True)
class Scenario:
    """Edits as (search, replacement) pairs, and the text they must produce."""

    name: str
    pairs: tuple[tuple[str, str], ...]
    expected: str


def _unique_blocks(lines: Sequence[str], size: int, count: int) -> list[int]:
    """Starts of ``count`` unique, non-blank ``size``-line blocks spread over the file."""
    index = LineIndex(lines)
    starts: list[int] = []
    step = max(1, len(lines) // (count + 1))
    for anchor in range(step, len(lines) - size, step):
        for s in range(anchor, min(anchor + step, len(lines) - size)):
            block = lines[s : s + size]
            if " = " in block[0] and all(b.strip() for b in block) and index.count(block) == 1:
                starts.append(s)
                break
        if len(starts) == count:
            break
    return starts


def _edit(lines: Sequence[str], start: int, size: int, shift: str = "") -> tuple[str, str]:
    old = "\n".join(shift + line for line in lines[start : start + size])
    new_lines = list(lines[start : start + size])
    new_lines[0] = new_lines[0].replace(" = ", " = patched(", 1) + ")"
    return old, "\n".join(shift + line for line in new_lines)


def scenarios(lines: list[str]) -> list[Scenario]:
    """Single line, five-line block, shifted indentation, and a batch of ten edits."""
    text = "\n".join(lines) + "\n"
    mid = _unique_blocks(lines, 5, 1)[0]
    spread = _unique_blocks(lines, 3, 10)
    out = []
    for name, size, shift in (
        ("one line, exact", 1, ""),
        ("5-line block, exact", 5, ""),
        ("5-line block, indented 4 too far", 5, "    "),
    ):
        old, new = _edit(lines, mid, size, shift)
        plain_old, plain_new = _edit(lines, mid, size)
        out.append(Scenario(name, ((old, new),), text.replace(plain_old, plain_new, 1)))
    pairs = tuple(_edit(lines, s, 3) for s in spread)
    expected = text
    for old, new in pairs:
        expected = expected.replace(old, new, 1)
    out.append(Scenario(f"{len(pairs)} edits of 3 lines, one batch", pairs, expected))
    return out


def time_calls(call: Callable[[], object], iterations: int) -> list[float]:
    """Wall time of each of ``iterations`` calls."""
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return times


def _round_trip(apply_edits: Callable[..., Any], data: bytes, edits: list[Any]) -> bytes:
    """What a caller holding bytes pays: decode, apply, encode."""
    from patchwright.model import TextFile

    result: bytes = apply_edits(TextFile.decode(data), edits).file.encode()
    return result


def run(lines: list[str], iterations: int) -> tuple[list[tuple[str, ...]], float]:
    """Check and time every scenario; returns table rows and the one-line median."""
    from patchwright.engine import apply_edits
    from patchwright.model import Edit, OldText, PatchwrightError, TextFile

    data = ("\n".join(lines) + "\n").encode("utf-8")
    file = TextFile.decode(data)
    rows: list[tuple[str, ...]] = []
    one_line = float("nan")
    for sc in scenarios(lines):
        edits = [Edit(OldText(old), new) for old, new in sc.pairs]
        try:
            got = apply_edits(file, edits).file.text
        except PatchwrightError as err:
            rows.append((sc.name, "-", "-", "-", f"refused: {err.code}"))
            continue
        status = "ok" if got == sc.expected else "WRONG output"
        times = time_calls(partial(apply_edits, file, edits), iterations)
        full = time_calls(partial(_round_trip, apply_edits, data, edits), iterations)
        rows.append(
            (sc.name, fmt_ms(median(times)), fmt_ms(min(times)), fmt_ms(median(full)), status)
        )
        if sc.name == "one line, exact" and status == "ok":
            one_line = median(times)
    return rows, one_line


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; exit 1 when a scenario wrote a wrong result (or, with --check, missed)."""
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--lines", type=int, default=2000, help="lines in the file (default 2000)")
    p.add_argument("--iterations", type=int, default=1000, help="calls per scenario (default 1000)")
    p.add_argument("--quick", action="store_true", help="200 calls per scenario")
    p.add_argument("--check", action="store_true", help="exit 1 when the 1 ms target is missed")
    args = p.parse_args(argv)
    iterations = min(args.iterations, 200) if args.quick else args.iterations
    try:
        import patchwright.engine  # noqa: F401
    except ImportError as exc:
        print(f"patchwright.engine is not available ({exc}); nothing to measure")
        return 0
    lines = generate_source(args.lines)
    rows, one_line = run(lines, iterations)
    size = len("\n".join(lines)) / 1e3
    print(f"file: {args.lines:,} lines ({size:.0f} kB), {iterations} calls per scenario")
    headers = ("scenario", "apply_edits median ms", "min ms", "decode+apply+encode ms", "output")
    print(render_table(headers, rows))
    verdict = "skip" if one_line != one_line else "PASS" if one_line < 0.001 else "FAIL"
    if args.lines == 2000:
        print(
            f"target: one exact replacement in 2,000 lines < 1 ms: {fmt_ms(one_line)} ms {verdict}"
        )
    wrong = any(r[-1] == "WRONG output" for r in rows)
    return 1 if wrong or (args.check and verdict == "FAIL") else 0


if __name__ == "__main__":
    sys.exit(main())
