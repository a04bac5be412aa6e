"""One patch over many files: 300 Python modules, two hunks each, every tool.

    python bench/many_files.py               # 300 files x 1,000 lines, 600 hunks, 5 runs
    python bench/many_files.py --quick       # 60 files, 3 runs
    python bench/many_files.py --check       # exit 1 when a target is missed

A deterministic generator (``_synth.py``) writes ``--files`` Python-like modules of
``--lines`` lines in a small package tree, and two known edits per module, rendered as
one git-style unified diff (3 lines of context). GNU patch, ``git apply``, the
``patchwright apply`` command (history and the syntax guard on, as shipped) and
``apply_patch_text`` in this process each apply it to a fresh copy of the tree (put on
disk with ``sync`` before the clock starts), runs interleaved tool by tool; every result
is checked file by file against the expected tree. Reported: median, minimum and spread
per tool and the ratios to GNU patch (target: the command <= 5x GNU patch), and the
median CPU time (user plus system) of each, which moves far less than the wall time when
other processes share the cores (it leaves out the waits on the disk, fsyncs above all).
``--baseline SRC`` adds the command run from another source tree (``PYTHONPATH=SRC``),
for before/after figures from one run.

``--syscalls`` counts instead the system calls of one ``patchwright apply`` run of this
tree and of the ``--baseline`` tree (``strace -f -c``, a fresh tree and an empty state
folder each): counts do not move with the load of the machine, times do.

``--guard`` measures the syntax guard alone instead: the CPU time spent inside
``check_edit`` while ``apply_patch_text`` applies the patch in a fresh process (its
first apply, as the command runs it), per module, for this tree and the ``--baseline``
tree alternated; the guard's reports must be the same in both.

patchwright's state folder (``$PATCHWRIGHT_STATE_DIR``) is shared by the runs unless
``--fresh-state`` gives each run its own: shared, the history already holds every old
and new content after the first run and stores none of them again (a tree patchwright
has edited before); fresh, every run stores the 300 old and 300 new contents (a tree it
has never seen).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from _common import (
    fmt_ms,
    fmt_ratio,
    git_apply_argv,
    gnu_patch_argv,
    load_api,
    median,
    patchwright_cli,
    render_table,
    run_measured,
    tool_env,
)
from _synth import (
    LineEdit,
    apply_line_edits,
    build_hunks,
    compilable,
    encode_lines,
    generate_source,
    make_edits,
    render_udiff,
)

TARGET = 5.0

Tree = dict[str, tuple[bytes, bytes]]


def make_tree(files: int, lines: int, hunks: int, valid: bool = True) -> tuple[Tree, str]:
    """``{path: (before, after)}`` and the unified diff between the two trees.

    ``valid``: the modules compile (comment-only blocks get a ``pass``), as most files
    a patch changes do; otherwise they keep the generator's syntax errors.
    """
    tree: Tree = {}
    parts = []
    for index in range(files):
        path = f"pkg/sub{index % 10}/module_{index:04d}.py"
        before = generate_source(lines, seed=index)
        before = compilable(before) if valid else before
        after, edits = _edited(before, hunks, index, valid)
        parts.append(render_udiff(path, before, after, build_hunks(before, edits, _three)))
        tree[path] = (encode_lines(before), encode_lines(after))
    return tree, "".join(parts)


def _edited(
    before: list[str], hunks: int, index: int, valid: bool
) -> tuple[list[str], list[LineEdit]]:
    """The edits of one module; with ``valid``, edits that keep it compiling (a deleted
    statement can leave a block empty: another seed is drawn then)."""
    for attempt in range(50):
        edits = make_edits(before, hunks, seed=index * 1000 + attempt + 1)
        after = apply_line_edits(before, edits)
        if not valid or _compiles(after):
            return after, edits
    raise SystemExit(f"no compiling edits found for module {index}")


def _compiles(lines: list[str]) -> bool:
    try:
        compile("\n".join(lines), "module.py", "exec")
    except SyntaxError:
        return False
    return True


def _three(_edit: object) -> tuple[int, int]:
    return 3, 3


def install(root: Path, tree: Tree) -> None:
    """A fresh copy of the tree before the patch."""
    shutil.rmtree(root, ignore_errors=True)
    for path, (before, _) in tree.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(before)


def mismatch(root: Path, tree: Tree) -> str:
    """The first file that does not hold its expected content, or ``""``."""
    for path, (_, after) in tree.items():
        try:
            if (root / path).read_bytes() != after:
                return f"{path} differs from the expected result"
        except OSError as exc:
            return f"{path}: {exc}"
    return ""


# a run: (applied, wall seconds, CPU seconds, why it failed)
Runner = Callable[[Path, Path], tuple[bool, float, float, str]]


def process_runner(
    argv_for: Callable[[Path, Path], list[str]], extra_env: dict[str, str] | None = None
) -> Runner:
    """Time a tool as a whole process."""
    env = {**tool_env(), **(extra_env or {})}

    def run(patch: Path, root: Path) -> tuple[bool, float, float, str]:
        env.update(_state_env())
        done = run_measured(argv_for(patch, root), root, env)
        why = (done.stderr.strip().splitlines() or ["no message"])[-1][:200]
        return done.returncode == 0, done.seconds, done.cpu_seconds, why

    return run


def api_runner() -> Runner | None:
    """Time ``apply_patch_text`` in this process (reading the patch included)."""
    func, why = load_api()
    if func is None:
        print(f"API left out: {why}")
        return None

    def run(patch: Path, root: Path) -> tuple[bool, float, float, str]:
        os.environ.update(_state_env())
        started, cpu = time.perf_counter(), time.process_time()
        report = func(patch.read_text(encoding="utf-8"), root)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        return bool(report.applied), elapsed, cpu, "" if report.applied else "refused"

    return run


# with --fresh-state: a parent folder in which each run gets a state folder of its own
_FRESH: list[Path] = []


def _state_env() -> dict[str, str]:
    """The state folder of the next run: a new one with ``--fresh-state``, else as set."""
    if not _FRESH:
        return {}
    return {"PATCHWRIGHT_STATE_DIR": tempfile.mkdtemp(prefix="state-", dir=_FRESH[0])}


def runners(baseline: Path | None = None) -> dict[str, Runner]:
    """Every tool found on this machine (and the baseline source tree's command)."""
    found: dict[str, Runner] = {
        "GNU patch": process_runner(lambda patch, _root: gnu_patch_argv(patch)),
        "git apply": process_runner(lambda patch, _root: git_apply_argv(patch)),
    }
    cli = patchwright_cli()
    if cli is None:
        print("patchwright console script not found: CLI left out")
    else:
        found["patchwright CLI"] = process_runner(
            lambda patch, root: [*cli, "apply", str(patch), "--root", str(root)]
        )
        if baseline is not None:
            old = patchwright_cli(baseline) or cli
            found["patchwright CLI, baseline"] = process_runner(
                lambda patch, root: [*old, "apply", str(patch), "--root", str(root)],
                {"PYTHONPATH": str(baseline)},
            )
    api = api_runner()
    if api is not None:
        found["patchwright API"] = api
    return found


def measure(
    tools: dict[str, Runner], tree: Tree, patch_text: str, runs: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Interleaved, verified runs: wall and CPU seconds per tool; a tool that fails or
    writes wrong bytes is dropped."""
    times: dict[str, list[float]] = {name: [] for name in tools}
    cpus: dict[str, list[float]] = {name: [] for name in tools}
    with tempfile.TemporaryDirectory(prefix="pw-many-") as tmp:
        patch = Path(tmp) / "change.patch"
        patch.write_text(patch_text, encoding="utf-8")
        root = Path(tmp) / "root"
        for _ in range(runs):
            for name, run in tools.items():
                if name not in times:
                    continue
                install(root, tree)
                # The fresh tree goes to disk before the clock starts: a tree being edited
                # is already on disk, and its writeback would otherwise land on whichever
                # tool first syncs (a journal commit writes out the data of new files).
                os.sync()
                ok, seconds, cpu, why = run(patch, root)
                wrong = mismatch(root, tree) if ok else why
                if wrong:
                    print(f"{name}: {wrong}; left out")
                    del times[name], cpus[name]
                    continue
                times[name].append(seconds)
                cpus[name].append(cpu)
    return times, cpus


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options (see the module docstring)."""
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--files", type=int, default=300, help="modules in the tree (300)")
    p.add_argument("--lines", type=int, default=1000, help="lines per module (1,000)")
    p.add_argument("--hunks", type=int, default=2, help="hunks per module (2)")
    p.add_argument("--runs", type=int, default=5, help="runs per tool (5)")
    p.add_argument(
        "--broken", action="store_true", help="modules with syntax errors (the guard's slow path)"
    )
    p.add_argument("--quick", action="store_true", help="60 files, 3 runs")
    p.add_argument(
        "--fresh-state", action="store_true", help="a new state folder (empty history) per run"
    )
    p.add_argument("--baseline", type=Path, help="also run the CLI from this src folder")
    p.add_argument("--check", action="store_true", help="exit 1 when the target is missed")
    p.add_argument("--guard", action="store_true", help="the syntax guard's CPU time alone")
    p.add_argument("--syscalls", action="store_true", help="system calls of one CLI run")
    p.add_argument("--guard-child", type=Path, help=argparse.SUPPRESS)  # one guard run
    args = p.parse_args(argv)
    if args.quick:
        args.files, args.runs = min(args.files, 60), min(args.runs, 3)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point."""
    args = parse_args(argv)
    tree, patch_text = make_tree(args.files, args.lines, args.hunks, valid=not args.broken)
    if args.guard_child is not None:
        return guard_child(tree, patch_text, args.guard_child)
    if args.guard:
        return guard_main(args)
    if args.syscalls:
        return syscalls_main(args, tree, patch_text)
    size = sum(len(before) for before, _ in tree.values())
    with tempfile.TemporaryDirectory(prefix="pw-states-") as states:
        if args.fresh_state:
            _FRESH.append(Path(states))
        times, cpus = measure(runners(args.baseline), tree, patch_text, args.runs)
    gnu = median(times.get("GNU patch", []))
    gnu_cpu = median(cpus.get("GNU patch", []))
    rows = []
    for name, values in times.items():
        spread = max(values) - min(values) if values else float("nan")
        cpu = median(cpus[name])
        rows.append((name, len(values), fmt_ms(median(values)), fmt_ms(min(values)),
                     fmt_ms(spread), fmt_ratio(median(values), gnu), fmt_ms(cpu),
                     fmt_ratio(cpu, gnu_cpu)))  # fmt: skip
    print(
        f"{args.files} {'broken ' if args.broken else ''}Python files x {args.lines:,} lines "
        f"({size / 1e6:.1f} MB), "
        f"{args.files * args.hunks} hunks in one unified diff; {args.runs} runs per tool, "
        "interleaved, each on a fresh tree"
        + (", each with an empty history" if args.fresh_state else "")
    )
    header = ("tool", "runs", "median ms", "min ms", "max-min ms", "vs patch", "CPU ms", "CPU vs")
    print(render_table(header, rows))
    cli = median(times.get("patchwright CLI", []))
    ratio = cli / gnu if cli == cli and gnu == gnu else float("nan")
    verdict = "skip" if ratio != ratio else "PASS" if ratio <= TARGET else "FAIL"
    print(f"target patchwright CLI <= {TARGET}x GNU patch: {ratio:.2f}x {verdict}")
    return 1 if args.check and verdict == "FAIL" else 0


def syscalls_main(args: argparse.Namespace, tree: Tree, patch_text: str) -> int:
    """System calls of one CLI apply: this tree, and the baseline's when given."""
    from _syscalls import count_calls, env_for, table_rows

    cli = patchwright_cli()
    if cli is None:
        raise SystemExit("patchwright console script not found")
    trees = {"before": args.baseline, "after": None} if args.baseline else {"after": None}
    counts: dict[str, dict[str, int]] = {}
    stored: dict[str, tuple[int, int]] = {}
    with tempfile.TemporaryDirectory(prefix="pw-syscalls-") as tmp:
        patch = Path(tmp) / "change.patch"
        patch.write_text(patch_text, encoding="utf-8")
        for name, src in trees.items():
            root = Path(tmp) / f"root-{name}"
            install(root, tree)
            os.sync()
            state = tempfile.mkdtemp(prefix="state-", dir=tmp)
            env = env_for(src, state)
            launcher = (patchwright_cli(src) if src is not None else None) or cli
            found = count_calls([*launcher, "apply", str(patch), "--root", str(root)], root, env)
            stored[name] = history_bytes(Path(state))
            if found is None:
                raise SystemExit("strace not found: install it to count system calls")
            wrong = mismatch(root, tree)
            if wrong:
                raise SystemExit(f"{name}: {wrong}")
            counts[name] = found
    print(f"system calls of one patchwright apply ({args.files} files, empty state folder)")
    before = counts.get("before", counts["after"])
    print(
        render_table(
            ("syscall", "before", "after", "after/before"), table_rows(before, counts["after"])
        )
    )
    for name, (database, files) in stored.items():
        print(f"history {name}: database {database:,} bytes, content files {files:,} bytes")
    return 0


def history_bytes(state: Path) -> tuple[int, int]:
    """The bytes of the history databases (with their WAL) and of the content files
    under a state folder (a linked before-image counts, though it takes no room of its own)."""
    database = sum(p.stat().st_size for p in state.rglob("history.sqlite3*"))
    files = sum(p.stat().st_size for p in state.rglob("blobs/*") if p.is_file())
    return database, files


def guard_child(tree: Tree, patch_text: str, out: Path) -> int:
    """Apply the patch once in this process; write the guard's CPU seconds and reports."""
    import json

    import patchwright.syntax.check as check

    spent: list[float] = []
    reports: list[object] = []
    real = check.check_edit

    def timed(*args: object, **kwargs: object) -> object:
        started = time.process_time()
        report = real(*args, **kwargs)  # type: ignore[arg-type]
        spent.append(time.process_time() - started)
        reports.append({k: v for k, v in report.to_dict().items() if k != "elapsed_ms"})
        return report

    check.check_edit = timed  # type: ignore[assignment]
    func, why = load_api()
    if func is None:
        raise SystemExit(why)
    with tempfile.TemporaryDirectory(prefix="pw-guard-") as tmp:
        install(Path(tmp), tree)
        os.environ.update(_state_env())
        if not func(patch_text, Path(tmp)).applied:
            raise SystemExit("the patch was refused")
    out.write_text(json.dumps({"cpu": spent, "reports": reports}, sort_keys=True))
    return 0


def guard_main(args: argparse.Namespace) -> int:
    """The guard's CPU per module, this tree and the baseline alternated, fresh processes."""
    import json
    import subprocess

    trees = {"after": None, "before": args.baseline} if args.baseline else {"after": None}
    cpu: dict[str, list[float]] = {name: [] for name in trees}
    seen: dict[str, str] = {}
    argv = [sys.executable, __file__, "--files", str(args.files), "--lines", str(args.lines)]
    argv += ["--hunks", str(args.hunks)] + (["--broken"] if args.broken else [])
    with tempfile.TemporaryDirectory(prefix="pw-guard-out-") as tmp:
        out = Path(tmp) / "guard.json"
        for _ in range(args.runs):
            for name, src in trees.items():
                env = dict(os.environ)
                if src is not None:
                    env["PYTHONPATH"] = str(src)
                subprocess.run([*argv, "--guard-child", str(out)], env=env, check=True)
                found = json.loads(out.read_text())
                cpu[name].append(sum(found["cpu"]) / len(found["cpu"]))
                seen[name] = json.dumps(found["reports"])
    same = len(set(seen.values())) == 1
    print(f"syntax guard, CPU per module ({args.files} modules, {args.runs} runs each, alternated)")
    rows = [(name, fmt_ms(median(v)), fmt_ms(min(v)), fmt_ms(max(v))) for name, v in cpu.items()]
    print(render_table(("tree", "median ms", "min ms", "max ms"), rows))
    if args.baseline:
        ratio = median(cpu["after"]) / median(cpu["before"])
        print(f"after / before: {ratio:.2f}x; reports {'the same' if same else 'DIFFER'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
