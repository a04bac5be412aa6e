"""System calls of one command, counted by ``strace -f -c``: a measure that the load of
other processes on the machine does not move, unlike the wall and CPU times.

``count_calls(argv, cwd, env)`` runs the command once under strace and returns
``{syscall: calls}`` (threads included); ``None`` when strace is not installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

#: The calls a commit makes per file, in the order they are reported.
WATCHED = (
    "openat", "close", "newfstatat", "statx", "fstat", "flock", "fsync", "fdatasync",
    "linkat", "renameat", "unlinkat", "unlink", "write", "pwrite64", "futex",
)  # fmt: skip


def count_calls(argv: Sequence[str], cwd: Path, env: Mapping[str, str]) -> dict[str, int] | None:
    """``{syscall: calls}`` of one run of ``argv``, or ``None`` without strace.

    Raises:
        RuntimeError: the command failed (its last line of error output).
    """
    strace = shutil.which("strace")
    if strace is None:
        return None
    with tempfile.TemporaryDirectory(prefix="pw-strace-") as tmp:
        out = Path(tmp) / "counts.txt"
        done = subprocess.run(
            [strace, "-f", "-c", "-o", str(out), *argv],
            cwd=cwd, env=dict(env), capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise RuntimeError(f"{argv[0]} failed under strace: {last[:200]}")
        return parse_counts(out.read_text(encoding="utf-8"))


def parse_counts(table: str) -> dict[str, int]:
    """The ``calls`` column of strace's summary table, by syscall name, and ``total``."""
    counts: dict[str, int] = {}
    for line in table.splitlines():
        fields = line.split()
        if len(fields) < 5 or not fields[0][0].isdigit():
            continue  # the header, the rules
        # % time, seconds, usecs/call, calls, [errors,] syscall
        counts[fields[-1]] = int(fields[3])
    return counts


def table_rows(
    before: Mapping[str, int], after: Mapping[str, int]
) -> list[tuple[str, str, str, str]]:
    """Rows ``(syscall, before, after, after/before)`` for the watched calls either made."""
    rows = []
    for name in (*WATCHED, "total"):
        old, new = before.get(name, 0), after.get(name, 0)
        if old or new:
            ratio = f"{new / old:.2f}x" if old else "-"
            rows.append((name, f"{old:,}", f"{new:,}", ratio))
    return rows


def env_for(src: Path | None, state: str) -> dict[str, str]:
    """The environment of a run: this interpreter's, with ``PYTHONPATH`` and the state folder."""
    env = dict(os.environ, PATCHWRIGHT_STATE_DIR=state)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    return env
