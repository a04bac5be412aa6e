"""Start-up cost: ``patchwright --version`` and a one-line ``patchwright apply`` against a
bare interpreter, and heavy imports.

    python bench/startup.py               # 20 runs each, median
    python bench/startup.py --runs 50 --check

Runs ``python -c pass``, ``python -c "import patchwright"``, ``patchwright --version``
and ``patchwright apply`` of a one-line unified diff to a 3-line text file (history on,
as shipped; every other run applies the reverse patch, so each run really writes) in
turn, interleaved so machine noise hits them alike, and reports medians, the spread and
the ratio to the bare interpreter (target: ``--version`` <= 1.5x; the apply's own bound
is the instruction budget of tests/test_startup_budget.py).
GNU patch on the same patch is shown for scale; ``--baseline SRC`` adds the apply run from
another source tree (``PYTHONPATH=SRC``) for before/after figures.

Floor rows, timed in the same run, show what the apply cannot go below as long as it
uses the modules and classes it uses: ``python -c "import ..."`` of exactly the
standard-library modules the apply loads, then of those plus its third-party ones (if
any), then the same again defining as many record classes (``patchwright._records``) as
the apply defines, each frozen or not as the apply's, with as many fields and defaults.
Like the apply's own start-up, the floor rows run with the cyclic garbage collector
paused. The gap between the last floor
and the apply is patchwright's own modules (apart from their record classes: functions,
enums, patterns) and the work itself.

Then lists which heavy modules ``import patchwright``, ``patchwright --version`` and the
apply load (target: none for the first two), and the apply's most expensive imports by
their own time (``-X importtime``). Bytecode for the package is compiled first, as
``pip install`` does, so that no run pays for compiling a module that has none cached
(``PYTHONDONTWRITEBYTECODE`` would otherwise leave an editable install uncompiled).

``--instructions`` also counts the instructions of whole processes with valgrind's
callgrind (its total ``Ir``): ``python -c pass``, the floor rows, single imports the
apply cannot do without (``sqlite3`` for the history, ``re``, ``argparse``), and the
apply in a used workspace, the patch and its reverse (``-R``), and the ``--baseline``
tree's apply. Unlike wall time,
the count does not move with the machine's load, so a step of a few percent shows.
"""

from __future__ import annotations

import argparse
import compileall
import json
import marshal
import os
import re
import shutil
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
    "multiprocessing", "difflib", "typing",
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


# Runs the console entry point as `patchwright apply -q PATCH --root ROOT` would, then
# lists the modules (json only after the apply, which must not count it).
_PROBE_APPLY = """
import sys
from patchwright.adapters.cli import main
sys.argv = ["patchwright", "apply", "-q", sys.argv[1], "--root", sys.argv[2]]
code = main()
import json
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
from patchwright._records import MISSING
shapes = []
for name, module in sorted(sys.modules.items()):
    if not name.startswith("patchwright"):
        continue
    for value in list(vars(module).values()):
        fields = getattr(value, "__dict__", {}).get("__record_fields__")
        if fields is None or value.__module__ != name:
            continue
        given = sum(
            f.default is not MISSING or f.default_factory is not MISSING for f in fields.values()
        )
        shapes.append([value.__record_frozen__, len(fields), given])
sys.stderr.write("\\nRECORDS " + json.dumps(shapes) + "\\n")
sys.exit(code)
"""


def apply_probe() -> tuple[set[str] | None, list[list[int]]]:
    """``sys.modules`` after a one-line ``patchwright apply`` in a fresh interpreter, and
    the shape of each record class patchwright defined (see :func:`record_code`)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        forward, _ = _one_line_patches(tmp)
        done = subprocess.run(
            [sys.executable, "-c", _PROBE_APPLY, str(forward), str(root)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
    modules: set[str] | None = None
    shapes: list[list[int]] = []
    for line in done.stderr.splitlines():
        if line.startswith("MODULES ["):
            modules = set(json.loads(line.removeprefix("MODULES ")))
        elif line.startswith("RECORDS ["):
            shapes = json.loads(line.removeprefix("RECORDS "))
    return modules, shapes


def record_code(shapes: list[list[int]]) -> str:
    """Source defining one record class per shape: frozen or not, as many fields and as
    many of them with a default, annotated as strings and with a docstring as in
    patchwright's modules."""
    lines = ["from __future__ import annotations", "from patchwright._records import record"]
    for n, (frozen, count, given) in enumerate(shapes):
        lines += [f"@record(frozen={bool(frozen)})", f"class C{n}:", '    """A record."""']
        lines += [f"    f{i}: int{' = 0' if i >= count - given else ''}" for i in range(count)]
    return "\n".join(lines)


def floor_commands(
    applied: set[str] | None, shapes: list[list[int]] | None = None
) -> dict[str, list[str]]:
    """``python -c "import ..."`` of the modules the apply loads, patchwright's left out.

    The standard-library modules alone, then with the third-party ones (if any), then
    with as many record classes as the apply defines (``shapes``). Modules a bare
    interpreter has loaded anyway are left out, and so is every submodule (its
    package's import brings it, as in the apply). The collector is paused, as in the
    apply's start-up.
    """
    if not applied:
        return {}
    bare = loaded_modules("import json, sys; print(json.dumps(sorted(sys.modules)))") or set()
    tops = sorted({m for m in applied - bare if "." not in m and m != "patchwright"})
    stdlib = [m for m in tops if m in sys.stdlib_module_names]
    third = [m for m in tops if m not in sys.stdlib_module_names]

    def importing(names: list[str], classes: str = "") -> list[str]:
        # one try per module: a pseudo-module that cannot be imported by name is skipped
        lines = ["import gc; gc.disable()"]
        lines += [f"try: import {n}\nexcept ImportError: pass" for n in names]
        return [sys.executable, "-c", "\n".join([*lines, classes])]

    commands = {"floor: apply's stdlib imports": importing(stdlib)}
    if third:
        commands[f"floor: + {', '.join(third)}"] = importing(stdlib + third)
    if shapes:
        # A module of its own, as in patchwright (`from __future__` must come first),
        # compiled here and handed over as bytecode: patchwright's modules are loaded
        # from their cached bytecode too, so the child must not pay for compiling.
        code = marshal.dumps(compile(record_code(shapes), "floor", "exec")).hex()
        commands[f"floor: + {len(shapes)} records like the apply's"] = importing(
            stdlib + third,
            "import marshal, sys, types\n"
            "sys.modules['floor'] = floor = types.ModuleType('floor')\n"
            f"exec(marshal.loads(bytes.fromhex({code!r})), vars(floor))",
        )
    return commands


def compile_package() -> str:
    """Compile the installed package's bytecode (as ``pip install`` does); a note."""
    try:
        import patchwright
    except ImportError:
        return "patchwright is not importable: nothing compiled"
    folder = Path(patchwright.__file__).parent
    ok = compileall.compile_dir(folder, quiet=2)
    return f"bytecode {'compiled' if ok else 'NOT fully compiled'} for {folder}"


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
    """The ``top`` imports of a one-line apply with the most time of their own.

    Own time (``-X importtime``'s "self" column) is what the module's body costs,
    without what it imports: the list names the modules to look at. ``-X importtime``
    adds its own overhead, so the figures are larger than in a plain run.
    """
    with tempfile.TemporaryDirectory() as tmp:
        forward, _ = _one_line_patches(tmp)
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", _PROBE_APPLY, str(forward), tmp],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
    entries = []
    total = 0
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        own, _, name = (p.strip() for p in line.removeprefix("import time:").split("|"))
        if own.isdigit():
            entries.append((int(own), name))
            total += int(own)
    entries.sort(reverse=True)
    rows = [(name, f"{us / 1000:.1f}") for us, name in entries[:top]]
    table = render_table(("costliest imports of a one-line apply", "own ms"), rows)
    return f"{table}\nall {len(entries)} imports: {total / 1000:.1f} ms of own time"


def _instructions(argv: list[str], cwd: str, env: dict[str, str]) -> int:
    """Instructions callgrind counts for the whole process ``argv`` (checked to succeed)."""
    valgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    done = subprocess.run(
        [*valgrind, *argv], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind of {argv[-2:]} failed: {done.stderr[-300:]}")
    return int(found.group(1))


# Single imports the apply cannot do without, counted beside it: the history store's
# driver, the patterns of the parsers and the engine, the command line's parser.
_SINGLE_FLOORS = {
    "floor: import sqlite3": "import sqlite3",
    "floor: import re": "import re",
    "floor: import argparse": "import argparse",
}


def instruction_table(baseline: Path | None, floors: dict[str, list[str]] | None = None) -> str:
    """Instructions of ``python -c pass``, of the floors (``floors``, the timed floor
    commands, and single imports the apply needs) and of the apply (see the module
    docstring)."""
    cli = patchwright_cli()
    if shutil.which("valgrind") is None or cli is None:
        return "valgrind or the patchwright console script not found: no instruction counts"
    trees = {"apply": (os.environ.get("PYTHONPATH"), cli)}
    if baseline is not None:
        trees["apply, baseline"] = (str(baseline), patchwright_cli(baseline) or cli)
    # a folder with few entries: the first import lists sys.path[0], the script's folder
    with tempfile.TemporaryDirectory() as tmp:
        forward, backward = _one_line_patches(tmp)
        base_env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(Path(tmp) / "state")}
        counts = {"python -c pass": _instructions([sys.executable, "-c", "pass"], tmp, base_env)}
        for name, code in _SINGLE_FLOORS.items():
            counts[name] = _instructions([sys.executable, "-c", code], tmp, base_env)
        for name, argv in (floors or {}).items():
            counts[name] = _instructions(argv, tmp, base_env)
        for name, (path, launcher) in trees.items():
            env = {**base_env, "PYTHONPATH": path} if path else base_env
            # the console script through this interpreter (valgrind follows no shebang)
            head = launcher if launcher[0] == sys.executable else [sys.executable, *launcher]
            apply = [*head, "apply", "-q"]
            # the first apply creates the history store: a used workspace from then on
            subprocess.run([*apply, str(forward)], cwd=tmp, env=env, check=True)
            subprocess.run([*apply, str(backward)], cwd=tmp, env=env, check=True)
            counts[f"{name}, forward"] = _instructions([*apply, str(forward)], tmp, env)
            counts[f"{name}, -R"] = _instructions([*apply, "-R", str(forward)], tmp, env)
    base = counts["python -c pass"]
    rows = [(n, f"{c / 1e6:.1f} M", f"{c / base:.2f}x") for n, c in counts.items()]
    return render_table(("whole process (callgrind)", "instructions", "vs python -c pass"), rows)


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
    p.add_argument("--instructions", action="store_true", help="also count instructions (valgrind)")
    args = p.parse_args(argv)
    if args.quick:
        args.runs = min(args.runs, 5)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; with --check, exit 1 when a target is missed."""
    args = parse_args(argv)
    py = sys.executable
    print(compile_package())
    applied, shapes = apply_probe()
    commands = {
        "python -c pass": [py, "-c", "pass"],
        "import patchwright": [py, "-c", "import patchwright"],
        **floor_commands(applied, shapes),
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
        patching["apply, one line, baseline"] = [*(patchwright_cli(args.baseline) or cli), "apply"]
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
    if applied is not None:  # shown for reference: the apply needs some of them
        table = heavy_table({**probes, "one-line apply": applied})[0]
    print(table)
    print(f"heavy modules loaded: {', '.join(offences) if offences else 'none'}\n")
    print(slowest_imports(args.top))
    if args.instructions:
        print()
        print(instruction_table(args.baseline, floor_commands(applied, shapes)))
    return 1 if args.check and (verdict == "FAIL" or offences) else 0


if __name__ == "__main__":
    sys.exit(main())
