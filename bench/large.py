"""Large-patch benchmark: one big file, thousands of hunks, every tool, every format.

A deterministic generator writes a ~9 MB, 200,000-line module and 2,000 known edits,
rendered as a unified diff (3 lines of context), an OpenAI ``*** Begin Patch`` text and
SEARCH/REPLACE blocks (v4a and SR carry more context where needed to be unique).
Each tool applies each patch it reads to a fresh copy of the file, whole process timed
(median of ``--runs``); every result is checked byte for byte against the expected file.
In the same run, the in-process floor (``_measure.durable_rewrite``) does only what any
apply holding the file as lines and writing it durably must: read and hash, decode and
split, replace the edited lines at places given, join, encode and hash, write, fsync and
rename. It shows how much of the in-process target is left to patchwright's own work.

    python bench/large.py                  # 200k lines, 2k hunks, 5 runs
    python bench/large.py --quick          # 20k lines, 200 hunks, 3 runs
    python bench/large.py --sizes          # 10k / 100k / 1M lines, time vs size
    python bench/large.py --sizes --plot size.png
    python bench/large.py --phases         # also: in-process time per step of an apply
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from _common import (
    fmt_ms,
    fmt_ratio,
    render_table,
)
from _measure import (
    FORMATS,
    TOOLS,
    Measurement,
    Tools,
    discover,
    interpreter_rss_kb,
    measure_case,
)
from _synth import SynthCase, synth_case


def _find(ms: Sequence[Measurement], tool: str, fmt: str = "udiff") -> float:
    for m in ms:
        if m.tool == tool and m.fmt == fmt and m.ok:
            return m.median
    return float("nan")


def results_table(ms: Sequence[Measurement], file_size: int, base_kb: int) -> str:
    """One row per (tool, format): median and min time, runs, peak memory, ratio to GNU patch."""
    gnu = _find(ms, "GNU patch")
    rows = []
    for m in ms:
        peak_mb = m.peak_kb / 1024
        status = "ok" if m.ok else (m.skipped or m.error)
        rows.append(
            (
                m.tool,
                m.fmt,
                fmt_ms(m.median),
                fmt_ms(min(m.times)) if m.times else "-",
                len(m.times),
                f"{peak_mb:.0f} {m.peak_note}" if m.peak_kb else "-",
                f"{m.peak_kb * 1024 / file_size:.1f}x" if m.peak_kb else "-",
                fmt_ratio(m.median, gnu),
                status,
            )
        )
    headers = (
        "tool",
        "format",
        "median ms",
        "min ms",
        "runs",
        "peak MB",
        "peak/file",
        "vs patch",
        "output",
    )
    note = (
        f"file {file_size / 1e6:.1f} MB; RSS is the whole process "
        f"(`python -c pass` alone: {base_kb / 1024:.0f} MB); 'traced' is tracemalloc's peak"
    )
    return render_table(headers, rows, left=2) + "\n" + note


def _verdict(value: float, goal: float, upper: bool = True) -> str:
    if value != value:
        return "skip"
    return "PASS" if (value <= goal if upper else value < goal) else "FAIL"


#: The in-process floor's row (``_measure.durable_rewrite``).
FLOOR = "floor: durable rewrite"
#: The targets: the command within 5x GNU patch, the API within 120 ms, memory within 5x.
CLI_VS_PATCH = 5.0
API_SECONDS = 0.120
PEAK_VS_FILE = 5.0


def targets_table(ms: Sequence[Measurement], file_size: int) -> tuple[str, bool]:
    """The targets measured in this run; also whether every measured one passed."""
    gnu, git = _find(ms, "GNU patch"), _find(ms, "git apply")
    cli = {f: _find(ms, "patchwright CLI", f) for f in FORMATS}
    api = {f: _find(ms, "patchwright API", f) for f in FORMATS}
    cli_rss = max((m.peak_kb for m in ms if m.tool == "patchwright CLI" and m.ok), default=0)
    api_peak = max((m.peak_kb for m in ms if m.tool == "patchwright API" and m.ok), default=0)
    rows: list[tuple[str, str, str, str]] = [
        ("git apply / GNU patch (reference)", fmt_ratio(git, gnu), "-", "info"),
        (
            "CLI udiff / GNU patch",
            fmt_ratio(cli["udiff"], gnu),
            f"<= {CLI_VS_PATCH:g}",
            _verdict(cli["udiff"] / gnu, CLI_VS_PATCH),
        ),
        ("CLI udiff / git apply", fmt_ratio(cli["udiff"], git), "far below 1", "info"),
    ]
    for fmt in ("v4a", "sr"):
        rows.append(
            (
                f"CLI {fmt} / CLI udiff",
                fmt_ratio(cli[fmt], cli["udiff"]),
                "<= 1.5",
                _verdict(cli[fmt] / cli["udiff"], 1.5),
            )
        )
    rows.append(
        (
            "API udiff, in-process",
            f"{fmt_ms(api['udiff'])} ms",
            f"<= {API_SECONDS * 1000:g} ms",
            _verdict(api["udiff"], API_SECONDS),
        )
    )
    floor = _find(ms, FLOOR, "edits")
    rows.append(("in-process floor (durable rewrite)", f"{fmt_ms(floor)} ms", "-", "info"))
    rows.append(("API udiff / in-process floor", fmt_ratio(api["udiff"], floor), "-", "info"))
    for fmt in ("v4a", "sr"):
        rows.append(
            (
                f"API {fmt} / API udiff",
                fmt_ratio(api[fmt], api["udiff"]),
                "<= 1.5",
                _verdict(api[fmt] / api["udiff"], 1.5),
            )
        )
    for label, kb in (
        ("CLI peak RSS / file size", cli_rss),
        ("API traced peak / file size", api_peak),
    ):
        ratio = kb * 1024 / file_size if kb else float("nan")
        rows.append(
            (
                label,
                f"{ratio:.1f}x" if kb else "-",
                f"<= {PEAK_VS_FILE:g}",
                _verdict(ratio, PEAK_VS_FILE),
            )
        )
    passed = all(r[3] != "FAIL" for r in rows)
    return render_table(("target", "measured", "goal", "status"), rows), passed


def run_single(args: argparse.Namespace, tools: Tools) -> int:
    """The default mode: one large case, a results table and the targets."""
    started = time.perf_counter()
    case = synth_case(args.lines, args.hunks, seed=args.seed)
    size = len(case.before_bytes)
    print(
        f"generated {args.lines:,} lines ({size / 1e6:.1f} MB), {args.hunks:,} edits "
        f"in {time.perf_counter() - started:.1f} s; patches: udiff {len(case.udiff) / 1e3:.0f} kB, "
        f"v4a {len(case.v4a) / 1e3:.0f} kB, sr {len(case.sr) / 1e3:.0f} kB"
    )
    if args.keep:
        keep_case(case, Path(args.keep))
    ms = measure_case(case, tools, FORMATS, args.runs, args.slow_cutoff, floor=True)
    print()
    print(results_table(ms, size, interpreter_rss_kb()))
    table, passed = targets_table(ms, size)
    print()
    print(table)
    if args.phases:
        from _phases import phase_table

        texts = {"udiff": case.udiff, "v4a": case.v4a, "sr": case.sr}
        for fmt in FORMATS:
            print()
            print(phase_table(case, fmt, texts[fmt], args.runs))
    wrong = [m for m in ms if m.error]
    return 1 if wrong or (args.check and not passed) else 0


def keep_case(case: SynthCase, folder: Path) -> None:
    """Write the generated file, the expected result and the three patches to ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "before").write_bytes(case.before_bytes)
    (folder / "after").write_bytes(case.after_bytes)
    for name, text in (("udiff.patch", case.udiff), ("v4a.patch", case.v4a), ("sr.patch", case.sr)):
        (folder / name).write_bytes(text.encode("utf-8"))
    print(
        f"wrote before, after, udiff.patch, v4a.patch, sr.patch to {folder} "
        f"(the file's path in a patch root: {case.path})"
    )


def run_sizes(args: argparse.Namespace, tools: Tools) -> int:
    """Time against file size (udiff everywhere, plus v4a/SR in-process)."""
    from _sizes import plot_sizes, sizes_table, sweep

    sizes = [int(s) for s in args.sizes.split(",")]
    points = sweep(sizes, tools, args.runs, args.slow_cutoff, args.seed, args.budget)
    print(sizes_table(points))
    if args.plot:
        print(plot_sizes(points, Path(args.plot)))
    return 1 if any(m.error for _, ms in points for m in ms) else 0


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options (see the module docstring)."""
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--lines", type=int, default=200_000, help="lines in the file (default 200000)")
    p.add_argument("--hunks", type=int, default=0, help="edits (default: one per 100 lines)")
    p.add_argument(
        "--runs", type=int, default=5, help="runs per measurement, median reported (default 5)"
    )
    p.add_argument("--seed", type=int, default=0, help="generator seed (default 0)")
    p.add_argument(
        "--tools", default=",".join(TOOLS), help="comma list of patch,git,cli,api (default all)"
    )
    p.add_argument("--quick", action="store_true", help="20k lines, 3 runs; with --sizes: 10k,100k")
    p.add_argument(
        "--sizes",
        nargs="?",
        const="10000,100000,1000000",
        default=None,
        metavar="N,N,...",
        help="time-vs-size mode; default sizes 10k,100k,1M lines",
    )
    p.add_argument(
        "--plot", metavar="PNG", help="with --sizes: draw time against size (needs matplotlib)"
    )
    p.add_argument(
        "--slow-cutoff",
        type=float,
        default=10.0,
        metavar="S",
        help="stop repeating a measurement after a run slower than S seconds (default 10)",
    )
    p.add_argument(
        "--budget",
        type=float,
        default=20.0,
        metavar="S",
        help="with --sizes: drop a tool once its predicted time exceeds S seconds (default 20)",
    )
    p.add_argument("--keep", metavar="DIR", help="also write the generated file and patches to DIR")
    p.add_argument("--check", action="store_true", help="exit 1 when a measured target fails")
    p.add_argument(
        "--phases",
        action="store_true",
        help="also time each step of an in-process apply (parse, decode, locate, diff, commit...)",
    )
    args = p.parse_args(argv)
    if args.quick:
        args.lines, args.runs = 20_000, min(args.runs, 3)
        if args.sizes == "10000,100000,1000000":
            args.sizes = "10000,100000"
    if not args.hunks:
        args.hunks = max(1, args.lines // 100)
    unknown = set(args.tools.split(",")) - set(TOOLS)
    if unknown:
        p.error(f"unknown tools {sorted(unknown)}; choose from {', '.join(TOOLS)}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (1 when any tool wrote a wrong result)."""
    args = parse_args(argv)
    tools = discover(frozenset(args.tools.split(",")))
    for note in tools.notes:
        print(note)
    return run_sizes(args, tools) if args.sizes else run_single(args, tools)


if __name__ == "__main__":
    sys.exit(main())
