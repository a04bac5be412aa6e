"""Time against file size for ``large.py --sizes``: the sweep, its table and its plot."""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Sequence
from pathlib import Path

from _common import fmt_ms, fmt_ratio, render_table
from _measure import Measurement, Tools, measure_case
from _synth import SynthCase, synth_case

Point = tuple[SynthCase, list[Measurement]]

_TOOL_KEYS = {
    "GNU patch": "patch",
    "git apply": "git",
    "patchwright CLI": "cli",
    "patchwright API": "api",
}
_COLUMNS = ("GNU patch", "git apply", "patchwright CLI", "patchwright API")


def _predict(history: list[tuple[int, float]], size: int) -> float:
    """Expected seconds at ``size`` from the growth seen so far (at least linear)."""
    (n1, t1) = history[-1]
    exponent = 1.0
    if len(history) >= 2:
        (n0, t0) = history[-2]
        if t0 > 0 and n1 != n0:
            exponent = max(1.0, math.log(t1 / t0) / math.log(n1 / n0))
    return float(t1 * (size / n1) ** exponent)


def sweep(
    sizes: Sequence[int],
    tools: Tools,
    runs: int,
    cutoff: float,
    seed: int,
    budget: float = 20.0,
) -> list[Point]:
    """Measure every tool on a generated case per size (one edit per 100 lines, udiff).

    A tool whose predicted time at the next size exceeds ``budget`` seconds is left out
    from there on (its growth so far, at least linear, predicts the next figure), so one
    quadratic tool cannot stall the sweep.
    """
    points: list[Point] = []
    history: dict[str, list[tuple[int, float]]] = {}
    for size in sorted(sizes):
        started = time.perf_counter()
        case = synth_case(size, max(1, size // 100), seed=seed)
        print(f"{size:>9,} lines: generated in {time.perf_counter() - started:.1f} s", flush=True)
        skip = {
            name: f"skipped, predicted {_predict(h, size):.0f} s (over --budget)"
            for name, h in history.items()
            if _predict(h, size) > budget
        }
        keep = {_TOOL_KEYS[name] for name in skip}
        active = dataclasses.replace(
            tools,
            wanted=tools.wanted - keep,
            cli=None if "patchwright CLI" in skip else tools.cli,
            api=None if "patchwright API" in skip else tools.api,
        )
        ms = measure_case(case, active, ("udiff",), runs, cutoff)
        ms += [Measurement(name, "udiff", skipped=why) for name, why in skip.items()]
        for m in ms:
            if m.ok:
                history.setdefault(m.tool, []).append((size, m.median))
        points.append((case, ms))
    return points


def _cell(ms: Sequence[Measurement], tool: str) -> tuple[str, float]:
    for m in ms:
        if m.tool == tool:
            if m.ok:
                return fmt_ms(m.median), m.median
            return ("skip" if m.skipped else "FAILED"), float("nan")
    return "-", float("nan")


def sizes_table(points: Sequence[Point]) -> str:
    """Median milliseconds per tool and size, and each tool's ratio to GNU patch."""
    rows = []
    for case, ms in points:
        cells = [_cell(ms, tool) for tool in _COLUMNS]
        gnu = cells[0][1]
        rows.append(
            (
                f"{len(case.before):,}",
                f"{len(case.before_bytes) / 1e6:.1f}",
                f"{len(case.edits):,}",
                *(c[0] for c in cells),
                *(fmt_ratio(c[1], gnu) for c in cells[1:]),
            )
        )
    headers = (
        "lines",
        "MB",
        "hunks",
        "patch",
        "git",
        "pw CLI",
        "pw API",
        "git",
        "pw CLI",
        "pw API",
    )
    groups = (("", 3), ("median ms (udiff)", 4), ("vs GNU patch", 3))
    notes = [
        f"{m.tool} at {len(c.before):,} lines: {m.error or m.skipped}"
        for c, ms in points
        for m in ms
        if m.error or m.skipped
    ]
    return "\n".join([render_table(headers, rows, groups=groups), *notes])


def plot_sizes(points: Sequence[Point], out: Path) -> str:
    """Draw time against size on log-log axes; returns a line saying what happened."""
    try:
        import matplotlib  # type: ignore[import-not-found, unused-ignore]

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return "matplotlib is not installed (pip install -e .[bench]); no plot drawn"
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for tool in _COLUMNS:
        xs = [len(c.before) for c, ms in points for m in ms if m.tool == tool and m.ok]
        ys = [m.median * 1000 for _, ms in points for m in ms if m.tool == tool and m.ok]
        if xs:
            ax.plot(xs, ys, marker="o", label=tool)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("file size (lines; one hunk per 100 lines)")
    ax.set_ylabel("median time (ms)")
    ax.set_title("Applying a large unified diff")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return f"plot written to {out}"
