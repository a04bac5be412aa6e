"""What the descriptor walk costs: reads and commits with the root held, and by name.

    python bench/sandbox.py               # 300 reads and 100 commits per case, median
    python bench/sandbox.py --quick

The workspace normally reaches every path from the root's directory descriptor, one
folder at a time (workspace/dirfd.py). For comparison, the same workspace is also run
with a file system that never holds the root, so every path is used by name as before
(unsafe under a folder-to-symlink swap; here only as the baseline). Both run in the same
process, interleaved round by round so machine noise hits them alike, for a file at
depth 1 and at depth 6. Commits fsync and dominate by the disk: their ratio is the
figure to read; single timings are noisy on a busy machine.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from _common import fmt_ms, fmt_ratio, median, render_table

from patchwright.workspace import FileChange, OsFileSystem, Workspace, sha256_hex


class ByName(OsFileSystem):
    """The real file system without the held root: paths used by name (the baseline)."""

    def hold_root(self, path: str) -> None:
        """Hold nothing."""


def _case(base: Path, depth: int, fs: OsFileSystem) -> tuple[Workspace, str]:
    root = base / "root"
    rel = "/".join(f"d{i}" for i in range(depth - 1)) + ("/" if depth > 1 else "") + "f.txt"
    (root / rel).parent.mkdir(parents=True, exist_ok=True)
    (root / rel).write_bytes(b"line\n" * 200)
    return Workspace(root, state_dir=base / "state", history=False, fs=fs), rel


def _reads(ws: Workspace, rel: str, count: int) -> float:
    start = time.perf_counter()
    for _ in range(count):
        ws.read(rel)
    return (time.perf_counter() - start) / count


def _commits(ws: Workspace, rel: str, count: int) -> float:
    data = ws.read(rel).data
    start = time.perf_counter()
    for i in range(count):
        new = data + b"%d\n" % i
        ws.commit([FileChange(rel, new, expected_sha256=sha256_hex(data))])
        data = new
    return (time.perf_counter() - start) / count


def main() -> int:
    """Print the table of medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer calls (a smoke run)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    args = parser.parse_args()
    reads, commits = (50, 10) if args.quick else (300, 100)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for depth in (1, 6):
            cases = {
                name: _case(Path(tmp) / f"{name}{depth}", depth, fs)
                for name, fs in (("held", OsFileSystem()), ("by name", ByName()))
            }
            times: dict[tuple[str, str], list[float]] = {}
            for _ in range(args.rounds):
                for name, (ws, rel) in cases.items():
                    times.setdefault((name, "read"), []).append(_reads(ws, rel, reads))
                    times.setdefault((name, "commit"), []).append(_commits(ws, rel, commits))
            for what in ("read", "commit"):
                held, plain = median(times[("held", what)]), median(times[("by name", what)])
                rows.append([f"{what}, depth {depth}", fmt_ms(held), fmt_ms(plain),
                             fmt_ratio(held, plain)])  # fmt: skip
    print(render_table(["median per call (ms)", "root held", "by name", "ratio"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
