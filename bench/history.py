"""What the history costs a commit: no history vs SQLite vs PostgreSQL, in one run.

    python bench/history.py                 # 300 commits per store; 4 processes x 100
    python bench/history.py --quick         # 60 commits; 4 processes x 25

Each commit changes one line of a 2,000-line file through ``Workspace.commit``, guarded
by the previous SHA256, as an edit tool's call does. The stores are timed in the same
run and interleaved call by call (so a busy moment of the machine hits all three):
without history, with the workspace's SQLite history, and with a PostgreSQL history on
a throwaway server this script starts (Debian's postgresql package, fsync on, a unix
socket; the same helper the tests use, tests/history/pg_server.py). "history" is the
time spent inside the history (drawing IDs and recording the batch), measured around
those two calls. Then several processes commit at once to one workspace, each to its
own file, for commits per second.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import REPO_ROOT, fmt_ms, fmt_ratio, median, render_table

sys.path.insert(0, str(REPO_ROOT / "tests" / "history"))
from pg_server import PgServer, find_binaries

from patchwright.workspace import FileChange, Workspace, sha256_hex

STORES = ("none", "sqlite", "postgres")
LINES = 2_000


def _text(version: int) -> bytes:
    lines = [f"    value_{i} = compute({i}, 'x')  # line {i}" for i in range(LINES)]
    lines[LINES // 2] = f"    value_mid = compute({version})"
    return ("\n".join(lines) + "\n").encode()


def open_store(store: str, root: Path, url: str | None) -> Workspace:
    """A workspace on ``root`` with the given history store."""
    os.environ.pop("PATCHWRIGHT_HISTORY_URL", None)
    if store == "postgres" and url:
        os.environ["PATCHWRIGHT_HISTORY_URL"] = url
    return Workspace(root, history=store != "none")


class Committer:
    """One workspace committing versions of one file, timing each call and its history."""

    def __init__(self, store: str, root: Path, url: str | None, name: str = "big.py") -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.ws = open_store(store, root, url)
        self.name = name
        self.version = 0
        self.data = _text(0)
        self.ws.commit([FileChange(name, self.data)])
        self.times: list[float] = []
        self.history: list[float] = []
        self._spent = 0.0
        if self.ws.keeps_history:
            for method in ("fresh_ids", "insert"):
                setattr(self.ws.history, method, self._timed(getattr(self.ws.history, method)))

    def _timed(self, call: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return call(*args, **kwargs)
            finally:
                self._spent += time.perf_counter() - start

        return timed

    def commit(self) -> None:
        """Commit the next version, recording the call's time and its history part."""
        self.version += 1
        new = _text(self.version)
        change = FileChange(self.name, new, expected_sha256=sha256_hex(self.data))
        self._spent = 0.0
        start = time.perf_counter()
        self.ws.commit([change], tool="bench")
        self.times.append(time.perf_counter() - start)
        self.history.append(self._spent)
        self.data = new


def per_call(url: str | None, commits: int, base: Path) -> list[list[object]]:
    """Interleaved single-process commits; one table row per store."""
    stores = [s for s in STORES if s != "postgres" or url]
    runs = {s: Committer(s, base / f"single-{s}", url) for s in stores}
    for _ in range(5):  # warm: connections, pools, page cache
        for run in runs.values():
            run.commit()
    for run in runs.values():
        run.times.clear()
        run.history.clear()
    for _ in range(commits):
        for run in runs.values():
            run.commit()
    sqlite = median(runs["sqlite"].times)
    rows: list[list[object]] = []
    for store, run in runs.items():
        p95 = statistics.quantiles(run.times, n=20)[-1]
        history = median(run.history) if store != "none" else float("nan")
        rows.append(
            [store, fmt_ms(median(run.times)), fmt_ms(p95), fmt_ms(history),
             f"{1 / statistics.mean(run.times):.0f}", fmt_ratio(median(run.times), sqlite)]
        )  # fmt: skip
    return rows


def child(store: str, root: str, name: str, count: int, url: str | None) -> None:
    """One of several processes: warm up, say ready, wait for go, commit, print timings."""
    run = Committer(store, Path(root), url, name)
    run.commit()
    print("ready", flush=True)
    sys.stdin.readline()
    start = time.time()
    for _ in range(count):
        run.commit()
    print(f"{start} {time.time()}", flush=True)


def many(store: str, url: str | None, processes: int, count: int, base: Path) -> float:
    """Commits per second of ``processes`` processes on one workspace."""
    root = base / f"many-{store}"
    args = [sys.executable, __file__, "--child", store, str(root), "", str(count)]
    env = {**os.environ, "PATCHWRIGHT_HISTORY_URL": url or ""}
    procs = []
    for n in range(processes):
        args[-2] = f"file{n}.py"
        procs.append(
            subprocess.Popen(
                args, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
            )
        )
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    spans = []
    for proc in procs:
        out, _ = proc.communicate(timeout=900)
        assert proc.returncode == 0, f"a {store} committer failed"
        spans.append([float(x) for x in out.split()])
    elapsed = max(end for _, end in spans) - min(start for start, _ in spans)
    return processes * count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer commits")
    parser.add_argument("--commits", type=int, help="single-process commits per store")
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        store, root, name, count = args.child
        child(store, root, name, int(count), os.environ.get("PATCHWRIGHT_HISTORY_URL") or None)
        return
    commits = args.commits or (60 if args.quick else 300)
    each = 25 if args.quick else 100
    bin_dir = find_binaries()
    server = PgServer(bin_dir, fsync=True).start() if bin_dir else None
    if server is None:
        print("PostgreSQL not installed (apt-get install postgresql): its rows are left out.")
    try:
        url = server.new_database() if server else None
        with tempfile.TemporaryDirectory(prefix="pw-bench-history-") as tmp:
            rows = per_call(url, commits, Path(tmp))
            print(f"One process, {commits} commits per store (one line of {LINES:,} lines):")
            headers = ("store", "median ms", "p95 ms", "history ms", "commits/s", "vs SQLite")
            print(render_table(headers, rows))
            rates = {
                s: many(s, url, args.processes, each, Path(tmp))
                for s in ("sqlite", "postgres")
                if s == "sqlite" or url
            }
            print(f"\n{args.processes} processes x {each} commits, one workspace:")
            table = [
                [s, f"{rate:.0f}", fmt_ratio(rate, rates["sqlite"])] for s, rate in rates.items()
            ]
            print(render_table(("store", "commits/s", "vs SQLite"), table))
    finally:
        if server is not None:
            server.remove()


if __name__ == "__main__":
    main()
