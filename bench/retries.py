"""Retries: what the second of two identical calls does, per tool variant and edit shape.

    python bench/retries.py                 # 30 sites per shape, every variant, with a history
    python bench/retries.py --no-history    # the same from the files' own evidence alone
    python bench/retries.py --quick         # 6 sites per shape
    python bench/retries.py --corpus        # the corpus's patches (a few minutes)

The measurement of tests/tools/test_retries.py (tests/tools/retry_support.py): real lines
of the corpus's Python files, five edit shapes (append, wrap, rewrite, delete, insert),
each edit made through one tool variant (a preset's tool, a patch format) and then sent
again as an agent does after a time-out. The second answer is counted as "already
applied" (a success that changed nothing), "refused" (the file untouched), "applied
twice" (the file changed again) or "other" (untouched, another answer). The test asserts
the floors; this script prints the counts behind them. Nothing is timed.

``--corpus`` sends every clean patch of the corpus again instead: applied in a workspace
and sent again there (the history tells the retry), and, without a history, sent to the
file it produced (the files' own evidence). It also applies every patch of the corpus
(fuzzy and strict) to the file before and counts the answers that say "already applied",
none of which can be true there (each patch changes its file).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

from _common import REPO_ROOT, render_table

sys.path.insert(0, str(REPO_ROOT / "tests" / "tools"))
sys.path.insert(0, str(REPO_ROOT / "tests" / "acceptance"))
from corpus_support import Case, cases, place
from retry_support import OUTCOMES, SHAPES, VARIANTS, available, measure, sites_for

from patchwright.api import apply_patch_text
from patchwright.workspace import Workspace

#: The variants measured without a history (the test's floors are for these).
WITHOUT_HISTORY = ("edit_file", "apply_patch v4a", "apply_patch unified",
                   "apply_patch search-replace", "Edit")  # fmt: skip


def _cell(counts: Counter[str]) -> str:
    """``already/refused`` and any doubled or other answer, for one shape."""
    text = f"{counts['already applied']}/{counts['refused']}"
    extra = [f"{counts[o]} {o}" for o in OUTCOMES[2:] if counts[o]]
    return text + (f" ({', '.join(extra)})" if extra else "")


def _second(target: Path, first: bytes, ok: bool, summary: str) -> str:
    """What a patch sent again did to ``target``, which held ``first`` before."""
    if target.read_bytes() != first:
        return "applied twice"
    if ok:
        return "already applied" if summary.startswith("Already applied") else "other"
    return "refused"


def _corpus_retry(case: Case, tmp: Path) -> tuple[str, str]:
    """A clean patch sent again: in its workspace (a history), and without a history on
    the file it produced."""
    root = tmp / "with"
    target = place(root, case)
    workspace = Workspace(root, state_dir=tmp / "state")
    first = apply_patch_text(case.patch, workspace=workspace)
    assert first.ok and target.read_bytes() == case.expected, case.id
    again = apply_patch_text(case.patch, workspace=workspace)
    with_history = _second(target, case.expected, again.ok, again.summary())
    root = tmp / "without"
    target = root / case.path
    target.parent.mkdir(parents=True)
    target.write_bytes(case.expected)
    alone = apply_patch_text(case.patch, root, history=False)
    return with_history, _second(target, case.expected, alone.ok, alone.summary())


def _corpus() -> None:
    """The corpus runs of ``--corpus``."""
    with_history: Counter[str] = Counter()
    without: Counter[str] = Counter()
    claims: Counter[str] = Counter()
    everything = cases()
    for case in (c for c in everything if c.kind == "clean"):
        with tempfile.TemporaryDirectory() as tmp:
            one, two = _corpus_retry(case, Path(tmp))
        with_history[one] += 1
        without[two] += 1
    print(f"clean patches sent again, with a history: {dict(with_history)}")
    print(f"clean patches sent again, without a history: {dict(without)}")
    for mode in ("fuzzy", "strict"):
        for case in everything:
            with tempfile.TemporaryDirectory() as tmp:
                place(Path(tmp), case)
                report = apply_patch_text(case.patch, Path(tmp), history=False, mode=mode)
            said = "already applied" in report.summary().lower()
            claims[f"{mode} {'applied' if report.ok else 'refused'}"] += 1
            claims[f"{mode} saying already applied"] += said
    print(f"every patch on the file before: {dict(claims)}")


def main() -> None:
    """Measure every variant and print one row each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="6 sites per shape")
    parser.add_argument("--no-history", action="store_true", help="workspaces without history")
    parser.add_argument("--corpus", action="store_true", help="the corpus's patches instead")
    args = parser.parse_args()
    if not available():
        sys.exit("the shared corpus is not there (set PATCHWRIGHT_CORPUS)")
    if args.corpus:
        _corpus()
        return
    per_shape = 6 if args.quick else 30
    history = not args.no_history
    rows = []
    totals: Counter[str] = Counter()
    for preset, variant in VARIANTS:
        if not history and variant not in WITHOUT_HISTORY:
            continue
        chosen = sites_for(variant, per_shape * len(SHAPES))
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "root"
            root.mkdir()
            outcomes = measure(root, Path(tmp) / "state", preset, variant, chosen,
                               history=history)  # fmt: skip
        by_shape = {shape: Counter[str]() for shape in SHAPES}
        for (shape, outcome), count in outcomes.items():
            by_shape[shape][outcome] += count
            totals[outcome] += count
        row_total: Counter[str] = sum(by_shape.values(), Counter())
        rows.append([f"{preset} {variant}", *(_cell(by_shape[s]) for s in SHAPES),
                     _cell(row_total)])  # fmt: skip
        print(f"{preset} {variant}: done", file=sys.stderr, flush=True)
    print(f"second call of each edit, already applied/refused ({per_shape} sites per shape, "
          f"{'with' if history else 'without'} a history)")  # fmt: skip
    print(render_table(("variant", *SHAPES, "all"), rows))
    answered = sum(totals.values())
    print(
        f"all variants: {answered} retries, {totals['already applied']} already applied, "
        f"{totals['refused']} refused, {totals['applied twice']} applied twice, "
        f"{totals['other']} other"
    )


if __name__ == "__main__":
    main()
