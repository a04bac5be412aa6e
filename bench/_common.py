"""Helpers shared by the benchmark scripts: tool discovery, timed runs, tables.

Every script in ``bench/`` runs as ``python bench/<name>.py`` from a checkout with the
package installed, so this module is imported by its bare name (``bench/`` is the
script directory and therefore first on ``sys.path``).
"""

from __future__ import annotations

import atexit
import importlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, cast

REPO_ROOT = Path(__file__).resolve().parent.parent
GIT = shutil.which("git") or "/usr/bin/git"
GNU_PATCH = shutil.which("patch") or "/usr/bin/patch"
GNU_TIME = "/usr/bin/time"

# Benchmarks apply patches to throwaway folders: keep their history and locks out of
# the user's state folder, in one made for this run and removed when it ends.
if "PATCHWRIGHT_STATE_DIR" not in os.environ:
    _STATE = tempfile.mkdtemp(prefix="patchwright-bench-")
    os.environ["PATCHWRIGHT_STATE_DIR"] = _STATE
    atexit.register(shutil.rmtree, _STATE, ignore_errors=True)


class ApplyReport(Protocol):
    """The part of ``patchwright.api``'s report the benchmarks read."""

    @property
    def applied(self) -> bool:
        """True when the patch was written."""


class ApplyPatchText(Protocol):
    """Signature of ``patchwright.api.apply_patch_text``."""

    def __call__(
        self,
        patch_text: str,
        root: str | Path,
        *,
        format: str = "auto",
        mode: str = "fuzzy",
        fuzzy_threshold: float = 0.8,
        dry_run: bool = False,
        max_file_bytes: int | None = None,
    ) -> ApplyReport:
        """Apply ``patch_text`` below ``root``."""


def load_api() -> tuple[ApplyPatchText | None, str]:
    """Import ``patchwright.api.apply_patch_text``.

    Returns the function and ``""``, or ``None`` and why it is unavailable; never raises,
    because a missing or broken package only means that column is skipped.
    """
    try:
        module = importlib.import_module("patchwright.api")
    except Exception as exc:  # any import failure just disables the column
        return None, f"cannot import patchwright.api ({type(exc).__name__}: {exc})"
    func = getattr(module, "apply_patch_text", None)
    if func is None:
        return None, "patchwright.api has no apply_patch_text"
    return cast(ApplyPatchText, func), ""


def patchwright_cli(baseline: Path | None = None) -> list[str] | None:
    """The ``patchwright`` console script to run, preferring this interpreter's one;
    for a ``baseline`` source tree (run with ``PYTHONPATH``), ``_console.py``: that
    tree's own entry point, whatever this tree's console script names."""
    if baseline is not None:
        return [sys.executable, str(Path(__file__).with_name("_console.py"))]
    beside = Path(sys.executable).parent / "patchwright"
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    found = shutil.which("patchwright")
    return [found] if found else None


def tool_env() -> dict[str, str]:
    """An environment that keeps user and system configuration out of the measurements.

    ``git`` ignores global/system config (``apply.whitespace`` would change results)
    and any repository above the temporary folder, GNU ``patch`` never asks a
    version-control system for missing files, and messages are in the C locale.
    """
    env = dict(os.environ)
    env.update(
        {
            "LC_ALL": "C",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            # never up into the temporary folder the runs work in: a stray repository
            # there would make ``git apply`` read paths relative to its root
            "GIT_CEILING_DIRECTORIES": os.pathsep.join((tempfile.gettempdir(), "/")),
            "PATCH_GET": "0",
        }
    )
    env.pop("POSIXLY_CORRECT", None)
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    return env


def git_apply_argv(patch_file: str | Path) -> list[str]:
    """``git apply`` as scored: defaults (``-p1``, no fuzz, all-or-nothing), outside a repo."""
    return [GIT, "apply", str(patch_file)]


def gnu_patch_argv(patch_file: str | Path) -> list[str]:
    """GNU ``patch`` made non-interactive and side-effect free.

    ``--batch`` never prompts; ``--forward`` refuses (rather than reverses) a patch that
    looks already applied, which ``--batch`` alone would silently reverse;
    ``--no-backup-if-mismatch`` and ``-r -`` leave no ``.orig``/``.rej`` files. The
    default fuzz factor (2) is kept: it is what users get.
    """
    return [
        GNU_PATCH,
        "-p1",
        "--batch",
        "--forward",
        "--no-backup-if-mismatch",
        "-r",
        "-",
        "-i",
        str(patch_file),
    ]


@dataclass(frozen=True)
class Run:
    """One finished child process.

    Attributes:
        returncode: the exit status (negative: killed by that signal).
        seconds: wall time from start to reap.
        max_rss_kb: the child's peak resident set size in KiB, including the instant
            after fork when it still was a copy of the parent.
        stderr: the tail of what it wrote to stderr.
        cpu_seconds: user plus system CPU time of the child; unlike the wall time it
            barely grows when other processes share the cores.
    """

    returncode: int
    seconds: float
    max_rss_kb: int
    stderr: str
    cpu_seconds: float = 0.0


def run_measured(argv: Sequence[str], cwd: str | Path, env: dict[str, str] | None = None) -> Run:
    """Run ``argv`` and measure its wall time.

    ``os.wait4`` reaps exactly this child, with no wrapper process inside the timed
    region; its ``max_rss_kb`` is only an upper bound (see :func:`peak_rss_kb`). Output
    goes to files, not pipes, so a chatty child cannot block.
    """
    with open(os.devnull, "wb") as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(list(argv), cwd=cwd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode(errors="replace")[-2000:]
    cpu = usage.ru_utime + usage.ru_stime
    return Run(proc.returncode, seconds, int(usage.ru_maxrss), stderr, cpu)


def peak_rss_kb(argv: Sequence[str], cwd: str | Path, env: dict[str, str] | None = None) -> int:
    """Peak RSS (KiB) of one run of ``argv``, measured by GNU ``time``; 0 when unavailable.

    A child's own ``ru_maxrss`` also counts the moment between fork and exec, when it is
    still a copy of this (large) benchmark process; GNU ``time`` is a small parent, so
    its figure is the tool's own. It runs separately from the timed runs because it adds
    an exec of its own.
    """
    if not os.access(GNU_TIME, os.X_OK):
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rss"
        argv = [GNU_TIME, "-f", "%M", "-o", str(out), *argv]
        done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
        try:
            return int(out.read_text().split()[-1]) if done.returncode == 0 else 0
        except (OSError, ValueError, IndexError):
            return 0


def median(values: Sequence[float]) -> float:
    """The median, or NaN for no values."""
    return statistics.median(values) if values else float("nan")


def fmt_ms(seconds: float) -> str:
    """Seconds as a short millisecond figure."""
    if seconds != seconds:  # NaN: not measured
        return "-"
    ms = seconds * 1000
    return f"{ms:.3f}" if ms < 1 else f"{ms:.1f}" if ms < 100 else f"{ms:.0f}"


def fmt_ratio(num: float, den: float) -> str:
    """``num/den`` as ``1.23x``, ``-`` when either side is missing."""
    if num != num or den != den or den == 0:
        return "-"
    return f"{num / den:.2f}x"


def render_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    groups: Sequence[tuple[str, int]] = (),
    left: int = 1,
) -> str:
    """A plain-text table; the first ``left`` columns are left-aligned, the rest right.

    ``groups`` optionally adds a row above the headers: (title, number of columns)
    pairs, spanning the columns from the left in order.
    """
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    if groups:
        _widen_for_groups(widths, groups)

    def line(row: Sequence[str]) -> str:
        parts = [c.ljust(widths[i]) if i < left else c.rjust(widths[i]) for i, c in enumerate(row)]
        return "  ".join(parts).rstrip()

    out: list[str] = []
    if groups:
        out.append(_group_line(widths, groups))
    out.append(line(cells[0]))
    out.append("  ".join("-" * w for w in widths))
    out.extend(line(row) for row in cells[1:])
    return "\n".join(out)


def _widen_for_groups(widths: list[int], groups: Sequence[tuple[str, int]]) -> None:
    col = 0
    for title, span in groups:
        have = sum(widths[col : col + span]) + 2 * (span - 1)
        if span and len(title) > have:
            widths[col + span - 1] += len(title) - have
        col += span


def _group_line(widths: list[int], groups: Sequence[tuple[str, int]]) -> str:
    col = 0
    parts: list[str] = []
    for title, span in groups:
        width = sum(widths[col : col + span]) + 2 * (span - 1)
        parts.append(title.center(width) if title else " " * width)
        col += span
    return "  ".join(parts).rstrip()
