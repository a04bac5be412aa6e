"""Start-up cost: ``patchwright --version`` and a one-line ``patchwright apply`` against a
bare interpreter, and heavy imports.

    python bench/startup.py               # 20 runs each, median
    python bench/startup.py --runs 50 --check

Runs ``python -c pass``, ``python -c "import patchwright"``, ``patchwright --version``
and ``patchwright apply`` of a one-line unified diff to a 3-line text file (history on,
as shipped; every other run applies the reverse patch, so each run really writes) in
turn, interleaved so machine noise hits them alike, and reports medians, the spread and
the ratio to the bare interpreter (targets: ``--version`` <= 1.5x, the apply <= 2.5x).
GNU patch on the same patch is shown for scale; ``--baseline SRC`` adds the apply run from
another source tree (``PYTHONPATH=SRC``) for before/after figures. Then lists which heavy modules
``import patchwright`` and ``patchwright --version`` load (target: none of them) and the
slowest imports of ``import patchwright``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from _common import (
    fmt_ms,
    fmt_ratio,
    gnu_patch_argv,
    median,
    patchwright_cli,
    render_table,
    run_measured,
)

# Third-party packages the adapters need, and stdlib modules that are slow to import.
HEAVY = (
    "mcp", "pydantic", "pydantic_core", "filelock", "rapidfuzz", "anyio", "httpx",
    "httpcore", "starlette", "uvicorn", "sse_starlette", "jsonschema", "click", "typer",
    "rich", "sqlite3", "asyncio", "email", "http.client", "ssl", "concurrent.futures",
    "multiprocessing", "difflib",
)  # fmt: skip

_PROBE_IMPORT = "import json, sys, patchwright; print(json.dumps(sorted(sys.modules)))"
# Runs the console entry point as `patchwright --version` would, then lists the modules.
_PROBE_CLI = """
import json, sys
from patchwright.adapters.cli import main
sys.argv = ["patchwright", "--version"]
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""


_FILE = "a\nb\nc\n"
_FORWARD = "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
_BACKWARD = "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-B\n+b\n c\n"


def _one_line_patches(tmp: str) -> tuple[Path, Path]:
    """The file ``f.txt`` and two patches: one changes a line, the other changes it back."""
    (Path(tmp) / "f.txt").write_text(_FILE)
    forward, backward = Path(tmp) / "forward.diff", Path(tmp) / "backward.diff"
    forward.write_text(_FORWARD)
    backward.write_text(_BACKWARD)
    return forward, backward


def time_commands(
    commands: dict[str, list[str]],
    runs: int,
    patching: dict[str, list[str]] | None = None,
    envs: dict[str, dict[str, str]] | None = None,
) -> dict[str, list[float]]:
    """Interleaved wall times of each command; a failing command is dropped with a note.

    ``patching`` maps a name to a command that takes a patch file as its last argument:
    it runs in a folder of its own holding ``f.txt``, alternately with the patch that
    changes its line and the one that changes it back (each run checked by its exit
    status). ``envs`` adds environment variables for some of the commands.
    """
    patching = patching or {}
    environment = {name: {**os.environ, **extra} for name, extra in (envs or {}).items()}
    times: dict[str, list[float]] = {name: [] for name in (*commands, *patching)}
    with tempfile.TemporaryDirectory() as tmp:
        folders = {name: Path(tmp) / f"p{n}" for n, name in enumerate(patching)}
        for folder in folders.values():
            folder.mkdir()
        patches = {name: _one_line_patches(str(folder)) for name, folder in folders.items()}

        def argv(name: str, index: int) -> list[str]:
            if name in commands:
                return commands[name]
            return [*patching[name], str(patches[name][index % 2])]

        def cwd(name: str) -> Path:
            return folders.get(name, Path(tmp))

        for name in list(times):  # warm the page cache once (and leave f.txt as it was)
            for index in (0, 1) if name in patching else (0,):
                run = run_measured(argv(name, index), cwd(name), environment.get(name))
                if run.returncode != 0 and name in times:
                    last = (run.stderr.strip().splitlines() or ["no message"])[-1][:200]
                    print(f"{name}: exit {run.returncode}, left out ({last})")
                    del times[name]
        for index in range(runs):
            for name in times:
                run = run_measured(argv(name, index), cwd(name), environment.get(name))
                if run.returncode != 0:
                    raise SystemExit(f"{name} failed in run {index}: {run.stderr[-300:]}")
                times[name].append(run.seconds)
    return times


def _iqr(values: list[float]) -> float:
    ordered = sorted(values)
    if len(ordered) < 4:
        return float("nan")
    return ordered[(3 * len(ordered)) // 4] - ordered[len(ordered) // 4]


def _target(times: dict[str, list[float]], name: str, base: float, goal: float) -> str:
    value = median(times.get(name, []))
    ratio = value / base if value == value else float("nan")
    verdict = "skip" if ratio != ratio else "PASS" if ratio <= goal else "FAIL"
    print(f"target {name} <= {goal}x python -c pass: {fmt_ratio(value, base)} {verdict}")
    return verdict


def loaded_modules(code: str, from_stderr: bool = False) -> set[str] | None:
    """``sys.modules`` after running ``code`` in a fresh interpreter, None if it failed."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    text = done.stderr if from_stderr else done.stdout
    for line in reversed(text.splitlines()):
        payload = line.removeprefix("MODULES ") if from_stderr else line
        if payload.startswith("["):
            return set(json.loads(payload))
    return None


def heavy_table(probes: dict[str, set[str] | None]) -> tuple[str, list[str]]:
    """Heavy modules loaded by any probe, as a table; also the offending (probe, module)s."""
    names = [n for n, mods in probes.items() if mods is not None]
    rows: list[tuple[str, ...]] = []
    offences: list[str] = []
    quiet: list[str] = []
    for mod in HEAVY:
        hits = [mod in (probes[n] or set()) for n in names]
        offences.extend(f"{n}: {mod}" for n, hit in zip(names, hits, strict=True) if hit)
        if any(hits):
            rows.append((mod, *("LOADED" if hit else "-" for hit in hits)))
        else:
            quiet.append(mod)
    parts = [render_table(("heavy module", *names), rows)] if rows else []
    parts.append(f"not loaded by {' or '.join(names) or 'any probe'}: {', '.join(quiet)}")
    return "\n".join(parts), offences


def slowest_imports(top: int) -> str:
    """The ``top`` slowest imports under ``import patchwright`` (cumulative time).

    Modules a bare interpreter imports anyway (``site``, ``encodings``...) are left out:
    they cost the same without patchwright.
    """
    bare = loaded_modules("import json, sys; print(json.dumps(sorted(sys.modules)))") or set()
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import patchwright"],
        capture_output=True,
        text=True,
        check=False,
    )
    entries = []
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = (p.strip() for p in line.removeprefix("import time:").split("|"))
        if cumulative.isdigit() and name not in bare:
            entries.append((int(cumulative), name))
    entries.sort(reverse=True)
    rows = [(name, f"{us / 1000:.1f}") for us, name in entries[:top]]
    return render_table(("slowest imports of `import patchwright`", "cumulative ms"), rows)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options (see the module docstring)."""
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--runs", type=int, default=20, help="runs per command (default 20)")
    p.add_argument("--quick", action="store_true", help="5 runs per command")
    p.add_argument("--top", type=int, default=10, help="slowest imports to list (default 10)")
    p.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    p.add_argument("--baseline", type=Path, help="also time the apply from this src folder")
    args = p.parse_args(argv)
    if args.quick:
        args.runs = min(args.runs, 5)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; with --check, exit 1 when a target is missed."""
    args = parse_args(argv)
    py = sys.executable
    commands = {
        "python -c pass": [py, "-c", "pass"],
        "import patchwright": [py, "-c", "import patchwright"],
    }
    cli = patchwright_cli()
    patching: dict[str, list[str]] = {"GNU patch, one line": [*gnu_patch_argv("-")[:-1]]}
    if cli is None:
        print("patchwright console script not found: --version and apply left out")
    else:
        commands["patchwright --version"] = [*cli, "--version"]
        patching["patchwright apply, one line"] = [*cli, "apply"]
    envs = {}
    if cli is not None and args.baseline is not None:
        patching["apply, one line, baseline"] = [*cli, "apply"]
        envs["apply, one line, baseline"] = {"PYTHONPATH": str(args.baseline)}
    times = time_commands(commands, args.runs, patching, envs)
    base = median(times.get("python -c pass", []))
    rows = [
        (n, fmt_ms(median(t)), fmt_ms(min(t)), fmt_ms(_iqr(t)), fmt_ratio(median(t), base))
        for n, t in times.items()
    ]
    print(f"interpreter: {py} ({Path(py).resolve().name}), {args.runs} runs each, interleaved")
    headers = ("command", "median ms", "min ms", "IQR ms", "vs python -c pass")
    print(render_table(headers, rows))
    verdicts = [
        _target(times, "patchwright --version", base, 1.5),
        _target(times, "patchwright apply, one line", base, 2.5),
    ]
    verdict = "FAIL" if "FAIL" in verdicts else "PASS"
    print()
    probes = {"import patchwright": loaded_modules(_PROBE_IMPORT)}
    if cli is not None:
        probes["patchwright --version"] = loaded_modules(_PROBE_CLI, from_stderr=True)
    for name, mods in probes.items():
        if mods is None:
            print(f"{name}: probe failed, no module list")
    table, offences = heavy_table(probes)
    print(table)
    print(f"heavy modules loaded: {', '.join(offences) if offences else 'none'}\n")
    print(slowest_imports(args.top))
    return 1 if args.check and (verdict == "FAIL" or offences) else 0


if __name__ == "__main__":
    sys.exit(main())
