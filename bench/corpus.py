"""Score patch appliers on the real-patch corpus: applied / refused / WRONG per kind.

Appliers: ``git`` (``git apply``) and ``patch`` (GNU patch) read unified diffs only;
``patchwright`` (``patchwright.api.apply_patch_text``, called in-process) reads all
three formats. Every patch runs in a fresh temporary directory; see ``_scoring.py``
for the verdict rules and ``_common.py`` for the exact tool command lines.

    python bench/corpus.py                         # everything, all available appliers
    python bench/corpus.py --quick                 # every 10th case (~1,300 patches)
    python bench/corpus.py --appliers patchwright --format v4a --kind indent_off
    python bench/corpus.py --case 'flask-*' --json out.json
    python bench/corpus.py --appliers patchwright --mode tolerant --sample 2000

Exit status 1 when patchwright ran and returned a WRONG result, raised, or did not
apply a ``clean`` patch.
"""

from __future__ import annotations

import argparse
import fnmatch
import functools
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import _scoring
from _common import REPO_ROOT, load_api, render_table
from _scoring import (
    APPLIED,
    APPLIER_FORMATS,
    VERDICTS,
    WRONG,
    Entry,
    Result,
    load_manifest,
    results_json,
    score_job,
)

DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "corpus"
FORMATS = ("udiff", "v4a", "sr")
KIND_ORDER = (
    "clean", "shift", "nonum", "counts", "trailing_ws", "blank_ctx_empty", "tabs2spaces",
    "indent_off", "outdent_all", "ctx_dropped", "ctx_elided", "crlf", "no_eol_marker",
    "hunks_reversed",
)  # fmt: skip


def select(entries: Iterable[Entry], args: argparse.Namespace) -> list[Entry]:
    """Apply the --format / --kind / --case / --quick / --sample filters, in that order."""
    chosen = list(entries)
    if args.format:
        chosen = [e for e in chosen if e.format in args.format.split(",")]
    if args.kind:
        chosen = [e for e in chosen if e.kind in args.kind.split(",")]
    if args.case:
        pats = args.case.split(",")
        chosen = [e for e in chosen if any(fnmatch.fnmatchcase(e.case, p) for p in pats)]
    if args.quick:
        # Whole cases, so every kind of a kept case stays and the tables keep their shape.
        cases = sorted({e.case for e in chosen})
        keep = set(cases[::10])
        chosen = [e for e in chosen if e.case in keep]
    if args.sample and args.sample < len(chosen):
        chosen = sorted(random.Random(args.seed).sample(chosen, args.sample), key=lambda e: e.id)
    return chosen


def pick_appliers(requested: str) -> tuple[list[str], list[str]]:
    """The appliers to run and notes on any left out."""
    names = [n for n in requested.split(",") if n]
    unknown = [n for n in names if n not in APPLIER_FORMATS]
    if unknown:
        raise SystemExit(f"unknown appliers {unknown}; choose from {', '.join(APPLIER_FORMATS)}")
    notes = []
    if "patchwright" in names:
        _, why = load_api()
        if why:
            notes.append(f"patchwright skipped: {why}")
            names.remove("patchwright")
    return names, notes


def use_mode(mode: str) -> None:
    """Make this process's patchwright applier match in ``mode`` (strict/tolerant/fuzzy)."""
    api, _ = load_api()
    _scoring._API[:] = [functools.partial(api, mode=mode)] if api is not None else [None]


def run_jobs(
    jobs: list[tuple[str, Entry, str, float]], workers: int, mode: str = "fuzzy"
) -> list[Result]:
    """Score every job, in a pool of ``workers`` processes (inline when 1)."""
    results: list[Result] = []
    step = max(1, len(jobs) // 20)
    if workers <= 1:
        use_mode(mode)
        mapped: Iterable[Result] = map(score_job, jobs)
        return _collect(mapped, len(jobs), step, results)
    with ProcessPoolExecutor(max_workers=workers, initializer=use_mode, initargs=(mode,)) as pool:
        return _collect(pool.map(score_job, jobs, chunksize=8), len(jobs), step, results)


def _collect(mapped: Iterable[Result], total: int, step: int, out: list[Result]) -> list[Result]:
    tty = sys.stderr.isatty()
    for i, result in enumerate(mapped, 1):
        out.append(result)
        if tty and (i % step == 0 or i == total):
            print(f"\r  {i:,}/{total:,} runs scored", end="", file=sys.stderr, flush=True)
    if tty:
        print(file=sys.stderr)
    return out


def _ordered_kinds(kinds: Iterable[str]) -> list[str]:
    present = set(kinds)
    return [k for k in KIND_ORDER if k in present] + sorted(present - set(KIND_ORDER))


def format_table(fmt: str, results: Sequence[Result], appliers: Sequence[str]) -> str:
    """One format's table: a row per kind, applied / refused / WRONG per applier."""
    cols = [a for a in appliers if fmt in APPLIER_FORMATS[a]]
    counts: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    patches: dict[str, set[str]] = defaultdict(set)
    for r in results:
        counts[(r.kind, r.applier)][r.verdict] += 1
        patches[r.kind].add(r.id)
    kinds = _ordered_kinds(patches)
    rows: list[list[object]] = []
    for kind in kinds:
        row: list[object] = [kind, len(patches[kind])]
        for a in cols:
            row.extend(counts[(kind, a)][v] for v in VERDICTS)
        rows.append(row)
    total: list[object] = ["total", sum(len(patches[k]) for k in kinds)]
    share: list[object] = ["share", ""]
    for a in cols:
        sums = Counter[str]()
        for kind in kinds:
            sums.update(counts[(kind, a)])
        n = sum(sums.values()) or 1
        total.extend(sums[v] for v in VERDICTS)
        share.extend(f"{100 * sums[v] / n:.1f}%" for v in VERDICTS)
    rows += [total, share]
    headers = ["kind", "n", *(v for _ in cols for v in VERDICTS)]
    groups = [("", 2), *((a, 3) for a in cols)]
    return render_table(headers, rows, groups=groups)


def report(results: Sequence[Result], appliers: Sequence[str], wall: float) -> str:
    """All tables, timing per applier and the first WRONG / raising patches."""
    out = []
    for fmt in FORMATS:
        part = [r for r in results if r.format == fmt]
        if not part:
            continue
        readers = [a for a in appliers if fmt in APPLIER_FORMATS[a]]
        out.append(f"\n{fmt} ({len({r.id for r in part}):,} patches)")
        out.append(format_table(fmt, part, readers))
    out.append("")
    for a in appliers:
        mine = [r for r in results if r.applier == a]
        if mine:
            mean = 1000 * sum(r.seconds for r in mine) / len(mine)
            out.append(f"{a}: {len(mine):,} patches, mean {mean:.1f} ms per patch")
            wrong = [r for r in mine if r.verdict == WRONG]
            if wrong:
                ok = sum(r.success for r in wrong)
                out.append(
                    f"  WRONG: {ok} reported success with other bytes, "
                    f"{len(wrong) - ok} failed after changing the file"
                )
            bad = [r for r in mine if r.verdict == WRONG or r.raised]
            for r in bad[:10]:
                out.append(f"  {r.verdict:7} {r.id}  {r.note}")
            if len(bad) > 10:
                out.append(f"  ... {len(bad) - 10} more (use --json)")
    out.append(f"wall time {wall:.1f} s")
    return "\n".join(out)


def failed(results: Iterable[Result]) -> bool:
    """patchwright gave a WRONG result, raised, or did not apply a clean patch."""
    return any(
        r.applier == "patchwright"
        and (r.verdict == WRONG or r.raised or (r.kind == "clean" and r.verdict != APPLIED))
        for r in results
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options (see the module docstring)."""
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="corpus folder")
    p.add_argument("--appliers", default="git,patch,patchwright", help="comma list")
    p.add_argument("--format", help="comma list of udiff,v4a,sr")
    p.add_argument("--kind", help="comma list of kinds (clean, shift, ...)")
    p.add_argument("--case", help="comma list of case names or globs (flask-*)")
    p.add_argument("--quick", action="store_true", help="only every 10th case")
    p.add_argument("--sample", type=int, default=0, metavar="N", help="N random patches")
    p.add_argument("--seed", type=int, default=0, help="seed for --sample (default 0)")
    p.add_argument(
        "--mode",
        choices=("strict", "tolerant", "fuzzy"),
        default="fuzzy",
        help="patchwright's matching mode (default fuzzy)",
    )
    p.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per patch (default 60)")
    p.add_argument("--json", type=Path, metavar="OUT", help="write per-patch results to OUT")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    args = parse_args(argv)
    if not (args.corpus / "manifest.jsonl").is_file():
        print(f"no manifest.jsonl in {args.corpus} (use --corpus)", file=sys.stderr)
        return 2
    appliers, notes = pick_appliers(args.appliers)
    for note in notes:
        print(note)
    readable = {f for a in appliers for f in APPLIER_FORMATS[a]}
    unread = sorted({e.format for e in load_manifest(args.corpus)} - readable)
    if unread:
        print(f"formats {', '.join(unread)} left out: no selected applier reads them")
    entries = [e for e in select(load_manifest(args.corpus), args) if e.format in readable]
    corpus = str(args.corpus.resolve())
    jobs = [
        (a, e, corpus, args.timeout)
        for e in entries
        for a in appliers
        if e.format in APPLIER_FORMATS[a]
    ]
    print(
        f"{len(entries):,} patches, {len(jobs):,} runs; appliers: {', '.join(appliers) or 'none'}"
        f"; patchwright mode {args.mode}"
    )
    started = time.perf_counter()
    results = run_jobs(jobs, args.workers, args.mode)
    wall = time.perf_counter() - started
    print(report(results, appliers, wall))
    if args.json:
        meta = {
            "corpus": corpus,
            "mode": args.mode,
            "appliers": appliers,
            "wall_seconds": round(wall, 2),
        }
        args.json.write_text(results_json(results, meta), encoding="utf-8")
        print(f"per-patch results written to {args.json}")
    return 1 if failed(results) else 0


if __name__ == "__main__":
    sys.exit(main())
