"""Score the deterministic snippet merge on the corpus's lazy edit snippets.

Every snippet of ``../shared/corpus/snippets.jsonl`` (1,920, kinds ``clean``, ``k1``,
``scope``, ``no_edge``, ``ctx_ws``) is merged in process into its file's ``before``
(``patchwright.engine.replacing.snippet.merge_snippet_file``) and judged against ``expected``:
**merged** (byte for byte), **refused** (a ``PatchwrightError``), or **WRONG** (a result
that differs). A refusal must name the original lines it could not decide. Then the
time of one merge against the file's size: the median per size band, and a synthetic
file grown from 1,000 to 100,000 lines (linear growth).

    python bench/snippets.py                 # every snippet, then the timings
    python bench/snippets.py --quick         # every 5th case
    python bench/snippets.py --kind k1 --show 5   # the first refusals and WRONGs

Exit status 1 when a merge was WRONG, raised anything but a refusal, or refused
without naming file lines.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from statistics import median

from _common import REPO_ROOT, render_table

DEFAULT_CORPUS = Path(os.environ.get("PATCHWRIGHT_CORPUS", REPO_ROOT.parent / "shared" / "corpus"))
KINDS = ("clean", "scope", "ctx_ws", "no_edge", "k1")
# merged-exactly floors per kind (issue 28's targets)
FLOORS = {"clean": 95.0, "scope": 95.0, "ctx_ws": 95.0, "no_edge": 90.0, "k1": 80.0}
BANDS = ((0, 250), (250, 500), (500, 1000), (1000, 2000), (2000, 10**9))
# a refusal names the original lines it could not decide ("original lines 4-37")
_NAMES_LINES = re.compile(r"original lines? \d+")


def load(corpus: Path, kinds: set[str], every: int) -> list[dict[str, str]]:
    """The snippet entries to score (every ``every``-th case)."""
    entries = [json.loads(line) for line in (corpus / "snippets.jsonl").open()]
    cases = sorted({e["case"] for e in entries})
    keep = set(cases[::every])
    return [e for e in entries if e["kind"] in kinds and e["case"] in keep]


def score(corpus: Path, entries: list[dict[str, str]], show: int) -> tuple[dict, list]:
    """Per kind: merged / refused / WRONG counts, refusal reasons; and per merge the
    file's line count and the seconds it took."""
    sys.path.insert(0, str(REPO_ROOT / "src"))
    from patchwright.engine.replacing.snippet import merge_snippet_file
    from patchwright.model import PatchwrightError, TextFile

    counts: dict[str, Counter[str]] = defaultdict(Counter)
    timings: list[tuple[int, float]] = []
    shown = 0
    for e in entries:
        before = (corpus / e["before"]).read_bytes()
        want = (corpus / e["expected"]).read_bytes()
        snippet = (corpus / e["patch"]).read_text(encoding="utf-8")
        file = TextFile.decode(before)
        start = time.perf_counter()
        try:
            got = merge_snippet_file(file, snippet, path=e["path"]).file.encode()
        except PatchwrightError as err:
            timings.append((len(file.lines), time.perf_counter() - start))
            counts[e["kind"]]["refused"] += 1
            doubts = err.details.get("doubts") or [{"kind": err.code.value}]
            counts[e["kind"]]["why:" + doubts[0]["kind"]] += 1
            if not _NAMES_LINES.search(err.message):
                counts[e["kind"]]["unnamed"] += 1
            if shown < show:
                print(f"refused {e['id']}: {err.message.splitlines()[1][:160]}")
                shown += 1
            continue
        timings.append((len(file.lines), time.perf_counter() - start))
        verdict = "merged" if got == want else "WRONG"
        counts[e["kind"]][verdict] += 1
        if verdict == "WRONG" and shown < show:
            print(f"WRONG {e['id']}")
            shown += 1
    return counts, timings


def kind_table(counts: dict) -> str:
    rows = []
    for kind in KINDS:
        c = counts.get(kind)
        if not c:
            continue
        total = c["merged"] + c["refused"] + c["WRONG"]
        reasons = ", ".join(
            f"{k[4:]} {v}" for k, v in sorted(c.items(), key=lambda kv: -kv[1]) if k[:4] == "why:"
        )
        rows.append([
            kind, total, c["merged"], f"{100 * c['merged'] / total:.1f} %", c["refused"],
            c["WRONG"], f"{FLOORS[kind]:.0f} %", reasons or "-",
        ])  # fmt: skip
    headers = ["kind", "snippets", "merged", "merged %", "refused", "WRONG", "target", "refusals"]
    return render_table(headers, rows)


def band_table(timings: list[tuple[int, float]]) -> str:
    rows = []
    for lo, hi in BANDS:
        inside = [t for n, t in timings if lo <= n < hi]
        if inside:
            label = f"{lo}-{hi - 1}" if hi < 10**9 else f"{lo}+"
            rows.append(
                [label, len(inside), f"{median(inside) * 1000:.2f}", f"{max(inside) * 1000:.1f}"]
            )
    return render_table(["file lines", "merges", "median ms", "max ms"], rows)


def growth_table(repeats: int) -> str:
    """One snippet (two runs, three markers) merged into synthetic files of growing size."""
    from patchwright.engine.replacing.snippet import merge_snippet_file
    from patchwright.model import TextFile

    rows = []
    for size in (1_000, 10_000, 100_000):
        lines = [f"def f{i}(x):\n    return x + {i}\n\n" for i in range(size // 3)]
        text = "".join(lines)
        middle = size // 6
        snippet = (
            "# ... existing code ...\n"
            f"def f{middle}(x):\n    y = x * 2\n    return y + {middle}\n\n"
            f"def f{middle + 1}(x):\n"
            "# ... existing code ...\n"
            f"def f{middle + 7}(x):\n    return x - {middle + 7}\n\n"
            f"def f{middle + 8}(x):\n"
            "# ... existing code ...\n"
        )
        file = TextFile.from_text(text)
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            merge_snippet_file(file, snippet)
            times.append(time.perf_counter() - start)
        rows.append([f"{len(file.lines):,}", f"{median(times) * 1000:.2f}"])
    return render_table(["file lines", "median ms"], rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--kind", default=",".join(KINDS), help="comma-separated kinds")
    parser.add_argument("--quick", action="store_true", help="every 5th case")
    parser.add_argument("--show", type=int, default=0, help="print the first N refusals/WRONGs")
    parser.add_argument("--repeats", type=int, default=21, help="runs per synthetic size")
    args = parser.parse_args(argv)
    entries = load(args.corpus, set(args.kind.split(",")), 5 if args.quick else 1)
    counts, timings = score(args.corpus, entries, args.show)
    print(kind_table(counts))
    print()
    print(band_table(timings))
    print()
    print(growth_table(args.repeats))
    wrong = sum(c["WRONG"] for c in counts.values())
    unnamed = sum(c["unnamed"] for c in counts.values())
    if unnamed:
        print(f"{unnamed} refusal(s) did not name the original lines")
    return 1 if wrong or unnamed else 0


if __name__ == "__main__":
    sys.exit(main())
