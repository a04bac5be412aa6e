"""Per-call latency of MCP ``edit_file`` against the reference MCP filesystem server.

    python bench/mcp_latency.py                 # 300 calls each, interleaved
    python bench/mcp_latency.py --quick         # 60 calls each
    python bench/mcp_latency.py --check         # exit 1 when a target is missed

Both servers run as subprocesses behind the official MCP SDK's stdio client, each on
its own copy of the same generated 2,000-line Python module, and both get the same
one-line edits: a line in the middle of the file gets a new trailing comment each call
(``# edit 1``, ``# edit 2``...), so every call writes content neither server has seen.
Calls alternate between the servers, so load on a shared machine hits them alike; the
ratios are those of one run.

* patchwright: ``patchwright mcp --root DIR`` with its defaults: history on, the syntax
  guard on (``warn``), the file fsynced before the answer;
* reference: ``@modelcontextprotocol/server-filesystem`` from npm, installed by this
  script into a cache folder (``--cache``, default ``~/.cache/patchwright-bench``), run
  with node; its ``edit_file`` takes ``edits: [{oldText, newText}]``.

Each answer is checked (no error, the file holds the expected bytes afterwards), so a
fast refusal never counts. Reported: median, p95 and spread (interquartile range) per
server, and the ratios median / median and p95 / p95 (targets: <= 1.5x and <= 2x).
``--no-history`` adds a server ``patchwright mcp --no-history``; ``--baseline SRC`` adds
``patchwright mcp`` run from another source tree (``PYTHONPATH=SRC``, e.g. an older
commit's ``src`` from ``git archive``), for before/after figures from one run.

``--floors`` adds, in the same alternation, what bounds the figures from below:

* ``sdk no-op``: a bare server on the Python SDK's low-level ``Server`` whose
  ``edit_file`` does nothing (``bench/_mcp_noop.py``): the cost of one call over stdio
  with the SDK alone;
* ``pw wire no-op``: the same server served as ``patchwright mcp`` serves its own
  (``patchwright.adapters.mcp.stdio``: requests read and answers written on the event
  loop, no tracing middleware): the floor patchwright's calls start from;
* ``reference no-op``: the reference server's ``list_allowed_directories``, the same
  for node and its SDK;
* ``durable write``: writing the 92 KB file as patchwright's one-file commit does, in
  this process (temp file, fsync, rename, fsync of the folder), on the same disk.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _common import fmt_ms, fmt_ratio, median, patchwright_cli, render_table
from _synth import compilable, encode_lines, generate_source

REFERENCE_PACKAGE = "@modelcontextprotocol/server-filesystem"
REFERENCE_VERSION = "2026.8.31"
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / (
    "patchwright-bench"
)
TARGET_MEDIAN = 1.5
TARGET_P95 = 2.0


@dataclass
class Server:
    """One MCP server under test: how to start it and how to phrase the edit."""

    name: str
    argv: list[str]
    root: Path
    reference: bool = False
    env: dict[str, str] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)
    client: Any = None
    #: the tool called; ``edit_file`` edits (and its file is checked at the end)
    tool: str = "edit_file"
    edits: bool = True

    def arguments(self, old: str, new: str) -> dict[str, Any]:
        """The arguments of one call replacing ``old`` by ``new``."""
        if self.tool != "edit_file":
            return {}
        path = str(self.root / "module.py") if self.reference else "module.py"
        if self.reference:
            return {"path": path, "edits": [{"oldText": old, "newText": new}]}
        return {"path": path, "old_string": old, "new_string": new}


@dataclass
class DiskFloor:
    """The one-file commit's disk work alone, timed in this process on ``path``."""

    name: str
    path: Path
    times: list[float] = field(default_factory=list)
    reference: bool = False

    def write(self, data: bytes) -> float:
        """Write ``data`` durably as a one-file commit does; the seconds it took."""
        started = time.perf_counter()
        temp = self.path.with_name(f".{self.path.name}.tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, self.path)
        folder = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
        return time.perf_counter() - started


def install_reference(cache: Path, version: str) -> Path:
    """The reference server's entry script, installed with npm into ``cache`` if missing."""
    prefix = cache / f"server-filesystem-{version}"
    entry = prefix / "node_modules" / REFERENCE_PACKAGE / "dist" / "index.js"
    if entry.is_file():
        return entry
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm not found: the reference server cannot be installed")
    prefix.mkdir(parents=True, exist_ok=True)
    print(f"installing {REFERENCE_PACKAGE}@{version} into {prefix} ...", file=sys.stderr)
    subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--prefix", str(prefix),
         f"{REFERENCE_PACKAGE}@{version}"],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    if not entry.is_file():
        raise SystemExit(f"npm installed no {entry}")
    return entry


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))
    return ordered[rank]


def make_file(lines: int) -> tuple[bytes, str]:
    """The module's bytes and the line every call edits.

    The module compiles, as the files an agent edits usually do.
    """
    source = compilable(generate_source(lines))
    compile("\n".join(source), "module.py", "exec")
    middle = len(source) // 2
    while not _plain_statement(source[middle]) or source.count(source[middle]) != 1:
        middle += 1
    return encode_lines(source), source[middle]


def edited(line: str, call: int) -> str:
    """The edited line after call number ``call`` (0: the line as generated)."""
    return line if call == 0 else f"{line}  # edit {call}"


def _plain_statement(line: str) -> bool:
    """A one-line statement that a trailing comment cannot break."""
    return bool(line.strip()) and line.rstrip()[-1] not in ":\\(,[{" and '"""' not in line


async def _open(stack: AsyncExitStack, server: Server, env: dict[str, str]) -> None:
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=server.argv[0], args=server.argv[1:], env={**env, **server.env}
    )
    errlog = stack.enter_context(open(os.devnull, "w"))  # noqa: SIM115
    client = Client(stdio_client(params, errlog=errlog), read_timeout_seconds=60)
    server.client = await stack.enter_async_context(client)


async def _call(server: Server, old: str, new: str) -> float:
    started = time.perf_counter()
    result = await server.client.call_tool(server.tool, server.arguments(old, new))
    elapsed = time.perf_counter() - started
    if result.is_error:
        text = result.content[0].text if result.content else "no content"
        raise SystemExit(f"{server.name}: edit_file failed: {text[:400]}")
    return elapsed


async def run_calls(
    servers: Sequence[Server | DiskFloor], calls: int, warmup: int, line: str, data: bytes
) -> None:
    """Open every server, then send each the same edits in turn, ``calls`` timed each
    (a disk floor writes ``data`` in its turn)."""
    state = tempfile.mkdtemp(prefix="pw-mcp-state-")
    env = {"PATCHWRIGHT_STATE_DIR": state}
    async with AsyncExitStack() as stack:
        stack.callback(shutil.rmtree, state, ignore_errors=True)
        for server in servers:
            if isinstance(server, Server):
                await _open(stack, server, env)
        for index in range(warmup + calls):
            old, new = edited(line, index), edited(line, index + 1)
            order = servers if index % 2 == 0 else list(reversed(servers))
            for server in order:
                if isinstance(server, DiskFloor):
                    elapsed = server.write(data)
                else:
                    elapsed = await _call(server, old, new)
                if index >= warmup:
                    server.times.append(elapsed)


def check_files(servers: Sequence[Server | DiskFloor], expected: bytes) -> None:
    """Every editing server's file holds the expected bytes after the last call."""
    for server in servers:
        if not isinstance(server, Server) or not server.edits:
            continue
        got = (server.root / "module.py").read_bytes()
        if got != expected:
            raise SystemExit(f"{server.name}: the file does not hold the expected bytes")


def report(servers: Sequence[Server | DiskFloor], check: bool) -> int:
    """Print the table and the targets; the exit status for ``--check``."""
    ref = next(s for s in servers if s.reference)
    ref_median, ref_p95 = median(ref.times), percentile(ref.times, 0.95)
    rows = []
    for s in servers:
        spread = percentile(s.times, 0.75) - percentile(s.times, 0.25)
        rows.append((
            s.name, len(s.times), fmt_ms(median(s.times)), fmt_ms(percentile(s.times, 0.95)),
            fmt_ms(min(s.times)), fmt_ms(spread),
            fmt_ratio(median(s.times), ref_median), fmt_ratio(percentile(s.times, 0.95), ref_p95),
        ))  # fmt: skip
    headers = ("server", "calls", "median ms", "p95 ms", "min ms", "IQR ms", "median/ref",
               "p95/ref")  # fmt: skip
    print(render_table(headers, rows, left=1))
    failed = False
    for s in servers:
        if s.reference or s.name != "patchwright":
            continue
        for label, ratio, goal in (
            ("median", median(s.times) / ref_median, TARGET_MEDIAN),
            ("p95", percentile(s.times, 0.95) / ref_p95, TARGET_P95),
        ):
            ok = ratio <= goal
            failed |= not ok
            print(f"target {label} <= {goal}x the reference: {ratio:.2f}x "
                  f"{'PASS' if ok else 'FAIL'}")  # fmt: skip
    return 1 if check and failed else 0


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Command-line options (see the module docstring)."""
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--calls", type=int, default=300, help="timed calls per server (300)")
    p.add_argument("--warmup", type=int, default=20, help="untimed calls first (20)")
    p.add_argument("--lines", type=int, default=2000, help="lines of the edited file (2000)")
    p.add_argument("--quick", action="store_true", help="60 calls per server")
    p.add_argument("--no-history", action="store_true", help="also time --no-history")
    p.add_argument("--baseline", type=Path, help="also run patchwright from this src folder")
    p.add_argument("--floors", action="store_true", help="also time the floors (see above)")
    p.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="npm install folder")
    p.add_argument("--reference-version", default=REFERENCE_VERSION)
    p.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = p.parse_args(argv)
    if args.quick:
        args.calls = min(args.calls, 60)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point."""
    import anyio

    args = parse_args(argv)
    cli = patchwright_cli()
    if cli is None:
        print("patchwright console script not found: nothing to compare")
        return 1
    node = shutil.which("node")
    if node is None:
        print("node not found: the reference server cannot run")
        return 1
    entry = install_reference(args.cache, args.reference_version)
    data, line = make_file(args.lines)
    work = Path(tempfile.mkdtemp(prefix="pw-mcp-bench-"))
    servers: list[Server] = []
    variants = [("patchwright", [])] + ([("pw --no-history", ["--no-history"])]
                                         if args.no_history else [])  # fmt: skip
    if args.baseline is not None:
        variants.append(("pw baseline", []))
    for name, extra in variants:
        root = work / name.replace(" ", "_")
        root.mkdir()
        env = {"PYTHONPATH": str(args.baseline)} if name == "pw baseline" else {}
        launcher = (patchwright_cli(args.baseline) if env else None) or cli
        servers.append(Server(name, [*launcher, "mcp", "--root", str(root), *extra], root, env=env))
    ref_root = work / "reference"
    ref_root.mkdir()
    ref_argv = [node, str(entry), str(ref_root)]
    servers.append(Server("reference (node)", ref_argv, ref_root, True))
    timed: list[Server | DiskFloor] = list(servers)
    if args.floors:
        noop = [sys.executable, str(Path(__file__).with_name("_mcp_noop.py"))]
        timed.append(Server("sdk no-op (python)", noop, work, edits=False))
        timed.append(Server("pw wire no-op", [*noop, "--wire"], work, edits=False))
        listing = "list_allowed_directories"
        timed.append(Server("reference no-op", ref_argv, ref_root, tool=listing, edits=False))
        timed.append(DiskFloor("durable write", work / "floor" / "module.py"))
        (work / "floor").mkdir()
    for server in servers:
        (server.root / "module.py").write_bytes(data)
    try:
        anyio.run(run_calls, timed, args.calls, args.warmup, line, data)
        last = edited(line, args.warmup + args.calls)
        check_files(timed, data.replace(f"{line}\n".encode(), f"{last}\n".encode(), 1))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(
        f"edit_file of one line in a {args.lines:,}-line Python file ({len(data):,} bytes), "
        f"{args.calls} timed calls per server after {args.warmup} warm-up calls, alternating; "
        f"{REFERENCE_PACKAGE}@{args.reference_version} on node {_node_version(node)}"
    )
    return report(timed, args.check)


def _node_version(node: str) -> str:
    done = subprocess.run([node, "--version"], capture_output=True, text=True, check=False)
    return done.stdout.strip()


if __name__ == "__main__":
    sys.exit(main())
