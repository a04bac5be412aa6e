"""Repeated, verified timing of patches applied by each tool to fresh copies of a file."""

from __future__ import annotations

import gc
import os
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from _common import (
    ApplyPatchText,
    git_apply_argv,
    gnu_patch_argv,
    load_api,
    median,
    patchwright_cli,
    peak_rss_kb,
    run_measured,
    tool_env,
)
from _synth import SynthCase

FORMATS = ("udiff", "v4a", "sr")
TOOLS = ("patch", "git", "cli", "api")


@dataclass
class Measurement:
    """Times (seconds) and peak memory (KiB) of the runs of one tool on one patch.

    ``error`` is set when a run failed or wrote other bytes than expected; the
    remaining runs are then skipped, since timing a wrong result means nothing.
    """

    tool: str
    fmt: str
    times: list[float] = field(default_factory=list)
    peak_kb: int = 0
    peak_note: str = "RSS"
    error: str = ""
    skipped: str = ""

    @property
    def median(self) -> float:
        """Median wall time in seconds (NaN when nothing ran)."""
        return median(self.times)

    @property
    def ok(self) -> bool:
        """Ran at least once and always produced the expected bytes."""
        return bool(self.times) and not self.error and not self.skipped


@dataclass(frozen=True)
class Target:
    """The file a patch applies to, and what it must become."""

    path: str
    before: bytes
    after: bytes


def _describe_mismatch(got: bytes | None, want: bytes) -> str:
    if got is None:
        return "the file is missing afterwards"
    if len(got) != len(want):
        return f"output has {len(got)} bytes, expected {len(want)}"
    first = next(i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b)
    return f"output differs from the expected bytes at offset {first}"


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def measure_process(
    tool: str,
    fmt: str,
    argv_for: Callable[[Path, Path], Sequence[str]],
    patch_text: str,
    target: Target,
    runs: int,
    slow_cutoff: float,
) -> Measurement:
    """Run ``argv_for(patch_file, root)`` ``runs`` times, each on a fresh copy of the file.

    A run slower than ``slow_cutoff`` seconds ends the series early: one such figure is
    enough to show the tool is far off, and repeating it would stall the benchmark.
    """
    m = Measurement(tool, fmt)
    env = tool_env()
    with tempfile.TemporaryDirectory(prefix="pw-bench-") as tmp:
        patch_file = Path(tmp) / "change.patch"
        patch_file.write_bytes(patch_text.encode("utf-8"))
        root = Path(tmp) / "root"
        file = root / target.path
        file.parent.mkdir(parents=True)
        for _ in range(runs):
            _fresh_copy(file, target.before)
            run = run_measured(argv_for(patch_file, root), root, env)
            got = _read(file)
            if run.returncode != 0 or got != target.after:
                why = run.stderr.strip().splitlines()[-1:] or [
                    _describe_mismatch(got, target.after)
                ]
                m.error = f"exit {run.returncode}: {why[0][:200]}"
                break
            m.times.append(run.seconds)
            if run.seconds > slow_cutoff:
                break
        if m.ok and m.times[-1] <= slow_cutoff:
            # One more run for the peak memory, unless a run was so slow that a second
            # would stall the benchmark (its time already tells the story).
            _fresh_copy(file, target.before)
            m.peak_kb = peak_rss_kb(argv_for(patch_file, root), root, env)
    return m


def _fresh_copy(file: Path, data: bytes) -> None:
    """Write the file a run starts from, and put it on disk before the clock starts.

    A file being patched is already on disk; the copy just written is not, and its
    writeback would land on whichever tool first syncs (a journal commit writes out the
    data of the files it covers), not on the tools that never sync.
    """
    file.write_bytes(data)
    os.sync()


def measure_api(
    fmt: str,
    func: ApplyPatchText,
    patch_text: str,
    target: Target,
    runs: int,
) -> Measurement:
    """Time ``apply_patch_text`` in this process; one extra untimed run traces allocations.

    The traced run reports peak Python allocations (``tracemalloc``), which is what the
    library itself costs beyond the interpreter; it runs separately because tracing
    slows allocation down several times.
    """

    def run(root: str) -> bool:
        return func(patch_text, root, max_file_bytes=2**30).applied

    return _in_process(Measurement("patchwright API", fmt, peak_note="traced"), target, run, runs)


def measure_floor(case: SynthCase, runs: int) -> Measurement:
    """Time the least an in-process apply that holds the file as lines and writes it
    durably does, with ``case``'s edits already located: :func:`durable_rewrite`."""
    target = Target(case.path, case.before_bytes, case.after_bytes)
    m = Measurement("floor: durable rewrite", "edits", peak_note="traced")
    return _in_process(m, target, durable_rewrite(case), runs)


def _in_process(
    m: Measurement, target: Target, run: Callable[[str], bool], runs: int
) -> Measurement:
    """``runs`` timed calls of ``run(root)`` on fresh copies of the target, then a traced one."""
    with tempfile.TemporaryDirectory(prefix="pw-bench-") as tmp:
        file = Path(tmp) / target.path
        file.parent.mkdir(parents=True)
        for i in range(runs + 1):
            _fresh_copy(file, target.before)
            gc.collect()
            traced = i == runs
            if traced:
                tracemalloc.start()
            start = time.perf_counter()
            try:
                applied = run(tmp)
            except Exception as exc:  # an exception is a result to report, not a crash
                m.error = f"raised {type(exc).__name__}: {str(exc)[:200]}"
                break
            finally:
                if traced:
                    m.peak_kb = tracemalloc.get_traced_memory()[1] // 1024
                    tracemalloc.stop()
            elapsed = time.perf_counter() - start
            got = _read(file)
            if not applied or got != target.after:
                m.error = "not applied" if not applied else _describe_mismatch(got, target.after)
                break
            if not traced:
                m.times.append(elapsed)
    return m


# pieces of about a megabyte: decoded and split, or joined and encoded, while in cache
_PIECE_BYTES = 1 << 20
_PIECE_LINES = 16_384


def durable_rewrite(case: SynthCase) -> Callable[[str], bool]:
    """The floor under an in-process apply of ``case`` (UTF-8, LF endings, a final newline).

    What any apply that keeps the file as a list of lines and writes it durably must do,
    and nothing else: read the file and hash it; decode and split it into lines (a piece
    of about a megabyte at a time, cut after a line break); replace the edited lines,
    whose places are given (no patch parsed, nothing located or checked); join and
    encode the lines (again by pieces) and hash the result; write a temporary file,
    fsync it, rename it over the file and fsync the folder. No history, no report.
    """
    import hashlib

    edits = sorted(case.edits, key=lambda e: e.start, reverse=True)

    def run(root: str) -> bool:
        path = os.path.join(root, case.path)
        with open(path, "rb") as fh:
            data = fh.read()
        hashlib.sha256(data).digest()
        lines: list[str] = []
        start = 0
        while start < len(data):
            cut = data.find(b"\n", min(start + _PIECE_BYTES, len(data)) - 1)
            end = len(data) if cut < 0 else cut + 1
            lines += data[start:end].decode("utf-8").split("\n")[:-1]
            start = end
        del data
        for edit in edits:  # from the end: the places of the earlier ones stay true
            lines[edit.start : edit.end] = edit.new
        pieces = [
            ("\n".join(lines[i : i + _PIECE_LINES]) + "\n").encode("utf-8")
            for i in range(0, len(lines), _PIECE_LINES)
        ]
        del lines
        out = b"".join(pieces)
        del pieces
        hashlib.sha256(out).digest()
        temp = path + ".floor-tmp"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            view = memoryview(out)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
        folder = os.open(os.path.dirname(path), os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
        return True

    return run


def interpreter_rss_kb() -> int:
    """Peak RSS of ``python -c pass`` with this interpreter: the floor under any CLI figure."""
    with tempfile.TemporaryDirectory() as tmp:
        return peak_rss_kb([sys.executable, "-c", "pass"], tmp)


@dataclass
class Tools:
    """What is available to run, and why something is not."""

    wanted: frozenset[str]
    cli: list[str] | None
    api: ApplyPatchText | None
    notes: list[str]


def discover(wanted: frozenset[str]) -> Tools:
    """Find the patchwright CLI (with an ``apply`` command) and in-process API."""
    notes: list[str] = []
    cli = patchwright_cli() if "cli" in wanted else None
    if "cli" in wanted:
        if cli is None:
            notes.append("patchwright CLI: not installed, skipped")
        elif run_measured([*cli, "apply", "--help"], ".", tool_env()).returncode != 0:
            notes.append("patchwright CLI: `patchwright apply --help` fails, skipped")
            cli = None
    api, why = load_api() if "api" in wanted else (None, "")
    if why:
        notes.append(f"patchwright API: {why}, skipped")
    return Tools(wanted, cli, api, notes)


def _cli_argv(cli: list[str]) -> Callable[[Path, Path], list[str]]:
    def argv(patch_file: Path, root: Path) -> list[str]:
        # The generated files reach 47 MB: above the workspace's default 16 MiB limit.
        return [*cli, "apply", str(patch_file), "--root", str(root), "--max-file-mb", "1024"]

    return argv


def measure_case(
    case: SynthCase,
    tools: Tools,
    formats: Sequence[str],
    runs: int,
    cutoff: float,
    *,
    floor: bool = False,
) -> list[Measurement]:
    """Every wanted tool on every patch of ``case`` it reads; with ``floor`` and the API
    wanted, also :func:`measure_floor`."""
    target = Target(case.path, case.before_bytes, case.after_bytes)
    texts = {"udiff": case.udiff, "v4a": case.v4a, "sr": case.sr}
    out: list[Measurement] = []
    if "patch" in tools.wanted:
        out.append(
            measure_process(
                "GNU patch",
                "udiff",
                lambda p, r: gnu_patch_argv(p),
                case.udiff,
                target,
                runs,
                cutoff,
            )
        )
    if "git" in tools.wanted:
        out.append(
            measure_process(
                "git apply",
                "udiff",
                lambda p, r: git_apply_argv(p),
                case.udiff,
                target,
                runs,
                cutoff,
            )
        )
    for fmt in formats:
        if tools.cli is not None:
            argv = _cli_argv(tools.cli)
            out.append(
                measure_process("patchwright CLI", fmt, argv, texts[fmt], target, runs, cutoff)
            )
    for fmt in formats:
        if tools.api is not None:
            out.append(measure_api(fmt, tools.api, texts[fmt], target, runs))
    if floor and tools.api is not None:
        out.append(measure_floor(case, runs))
    return out
