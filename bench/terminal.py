"""Cost of coloured output: ``patchwright apply --check`` plain against coloured.

    python bench/terminal.py               # 15 runs each, median
    python bench/terminal.py --runs 30 --files 300

Applies (as a dry run) a patch of ``--files`` small files to a generated tree, in turn
(interleaved, so machine noise hits every variant alike) with ``--color never``,
``--color always`` (rich loaded, diff coloured) and ``--color always --stat``, and
prints the medians and their ratio to the plain run. Then the review page's diff
rendering: the highlighted HTML of the same patch, against the plain escaped one.
"""

from __future__ import annotations

import argparse
import html
import os
import sys
import tempfile
import time
from pathlib import Path

from _common import fmt_ms, fmt_ratio, median, patchwright_cli, render_table, run_measured


def make_tree(folder: Path, files: int) -> str:
    """``files`` 40-line Python files and one patch changing two lines in each."""
    parts = []
    for i in range(files):
        lines = [f"def f{j}(x):\n    return x + {j}\n" for j in range(20)]
        (folder / f"m{i}.py").write_text("".join(lines))
        parts.append(
            f"--- a/m{i}.py\n+++ b/m{i}.py\n@@ -3,4 +3,4 @@\n def f1(x):\n"
            f"-    return x + 1\n+    return x + 100\n def f2(x):\n     return x + 2\n"
        )
    return "".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--files", type=int, default=100)
    args = parser.parse_args()
    cli = patchwright_cli()
    if cli is None:
        print("patchwright is not installed in this interpreter", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "tree"
        root.mkdir()
        patch = make_tree(root, args.files)
        (Path(tmp) / "fix.diff").write_text(patch)
        env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(Path(tmp) / "state")}
        base = [*cli, "apply", str(Path(tmp) / "fix.diff"), "--check", "--root", str(root)]
        variants = {
            "--color never": [*base, "--color", "never"],
            "--color always": [*base, "--color", "always"],
            "--color always --stat": [*base, "--color", "always", "--stat"],
        }
        times: dict[str, list[float]] = {name: [] for name in variants}
        for _ in range(args.runs):
            for name, argv in variants.items():
                run = run_measured(argv, tmp, env)
                if run.returncode != 0:
                    print(f"{name} failed: {run.stderr}", file=sys.stderr)
                    return 1
                times[name].append(run.seconds)
    plain = median(times["--color never"])
    rows = [[name, fmt_ms(median(t)), fmt_ratio(median(t), plain)] for name, t in times.items()]
    print(f"patchwright apply --check, {args.files} files, median of {args.runs}")
    print(render_table(["variant", "median", "vs plain"], rows))
    print()
    print(render_bench(patch, args.runs))
    return 0


def render_bench(patch: str, runs: int) -> str:
    """The review page's highlighted diff HTML against plain escaping, same patch."""
    from patchwright.adapters.review.render import files_html

    files = [{"path": "m.py", "action": "update", "diff": patch}]
    highlighted, plain = [], []
    for _ in range(runs):
        start = time.perf_counter()
        files_html(files, "unified")
        highlighted.append(time.perf_counter() - start)
        start = time.perf_counter()
        html.escape(patch)
        plain.append(time.perf_counter() - start)
    rows = [
        ["highlighted HTML (pygments)", fmt_ms(median(highlighted))],
        ["escaped text only", fmt_ms(median(plain))],
    ]
    return f"review page diff of {patch.count(chr(10))} lines\n" + render_table(
        ["rendering", "median"], rows
    )


if __name__ == "__main__":
    sys.exit(main())
