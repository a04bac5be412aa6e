"""Concurrent MCP sessions on one ``patchwright mcp --http`` server.

    python bench/concurrency.py                  # 1, 4, 16, 32 sessions, 6 s each
    python bench/concurrency.py --quick          # 3 s each
    python bench/concurrency.py --baseline SRC   # the same against another source tree
    python bench/concurrency.py --check          # exit 1 when a target is missed
    python bench/concurrency.py --reference      # also the bare SDK server (about twice as long)

**Sessions.** One server (``patchwright mcp --http 127.0.0.1:0``, its defaults: history
on, syntax guard on, every write fsynced) serves 1, 4, 16 and 32 HTTP sessions in turn,
each session editing its own 200-line Python file over and over (``edit_file``, a new
trailing comment on one line per call), every session sending its next call as soon as
the previous one is answered. Reported per count: calls per second over all sessions,
the median and p99 of one call, and the server process's CPU time (user + system, all
its threads, from ``/proc``) per call and over the wall time ("busy": 100% is one core).
Targets (issue 32): at 16 sessions, at least 1.5x the calls per second of one session,
and a median at most 4x one session's median.

**Reference** (``--reference``). The same client, counts and ratios against the official
SDK's low-level server alone (``_mcp_noop.py --http``: the SDK's streamable-HTTP app as
``patchwright mcp --http`` sets it up, stateful sessions, answers as event streams,
under uvicorn), nothing of patchwright loaded: once with an ``edit_file`` that does
nothing and answers "ok" ("SDK no-op", the least any server on the SDK spends on a
call), once with one that edits the session's file in plain Python in a worker thread,
fsynced ("SDK plain file"). With every session sending its next call at once, the
median at N sessions is about N / (calls per second) (Little's law): a median at most
4x one session's at 16 sessions needs 4x one session's calls per second, which a server
whose one session already keeps its interpreter busy cannot give; these rows show how
busy the SDK alone keeps it. A last table gives each server's ceilings at 16 sessions
from its CPU per call: one interpreter running the server's CPU seconds one after the
other (1 / server CPU), and both cores shared with the client, whatever the server's
architecture (2 / (server + client CPU)), each as a multiple of one session's calls/s.

**Approval.** A second server runs with ``--approve``; 4 sessions read their own files
(``read_file``) for a while with no write waiting, then for as long again while a fifth
session's ``edit_file`` waits for approval (rejected at the end of the phase; its answer
must say so). The two phases alternate twice. Target: the readers' p99 with the write
waiting at most 2x their p99 without it.

Every answer is checked (no error; an edit's file holds the new line afterwards; for the
no-op reference only the first), so a fast refusal never counts. The client is a small
JSON-RPC client over plain HTTP/1.1 connections (one per session): the SDK's own client,
or httpx, costs as much CPU per call as the server on this 2-core machine, and would
measure itself; its own CPU per call is printed too.
``--baseline SRC`` runs the same against ``patchwright mcp`` from another source tree
(``PYTHONPATH=SRC``, e.g. an older commit's ``src`` from ``git archive``), for
before/after figures from one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from _common import fmt_ms, median, render_table

SRC = Path(__file__).resolve().parent.parent / "src"
COUNTS = (1, 4, 16, 32)
LINES = 200
READERS = 4
PROTOCOL = "2025-11-25"
ACCEPT = "application/json, text/event-stream"


class Session:
    """One MCP session over streamable HTTP on a connection of its own: JSON-RPC
    requests, each answer read from the response (JSON, or the events of an SSE stream)."""

    def __init__(self, url: str) -> None:
        address = url.split("//", 1)[1].split("/", 1)[0]
        host, _, port = address.rpartition(":")
        self.host, self.port, self.address = host, int(port), address
        self.session_id: str | None = None
        self._next = 0
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        """Connect, initialize the session and send ``notifications/initialized``."""
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        sock = self._writer.get_extra_info("socket")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        params = {
            "protocolVersion": PROTOCOL,
            "capabilities": {},
            "clientInfo": {"name": "bench-concurrency", "version": "1"},
        }
        await self.request("initialize", params)
        await self._exchange("POST", {"jsonrpc": "2.0", "method": "notifications/initialized"})

    async def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The ``tools/call`` result (raises when the call failed)."""
        result = await self.request("tools/call", {"name": tool, "arguments": arguments})
        if result.get("isError"):
            raise RuntimeError(f"{tool} failed: {result['content'][0]['text']}")
        return result

    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send one request and return its ``result``."""
        self._next += 1
        message = {"jsonrpc": "2.0", "id": self._next, "method": method, "params": params}
        answer = _answer(await self._exchange("POST", message))
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        result: dict[str, Any] = answer["result"]
        return result

    async def close(self) -> None:
        """End the session (DELETE) and the connection."""
        if self.session_id is not None and self._writer is not None:
            await self._exchange("DELETE", None)
        if self._writer is not None:
            self._writer.close()
            await self._writer.wait_closed()

    async def _exchange(self, verb: str, message: dict[str, Any] | None) -> tuple[str, bytes]:
        """One HTTP/1.1 request on the kept connection: (content type, body)."""
        assert self._reader is not None and self._writer is not None
        body = b"" if message is None else json.dumps(message).encode()
        head = [f"{verb} /mcp HTTP/1.1", f"Host: {self.address}", f"Accept: {ACCEPT}",
                "Content-Type: application/json", f"Content-Length: {len(body)}"]  # fmt: skip
        if self.session_id is not None:
            head += [f"mcp-session-id: {self.session_id}", f"mcp-protocol-version: {PROTOCOL}"]
        self._writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        status = await self._reader.readline()
        if not status.split()[1].startswith(b"2"):
            raise RuntimeError(f"HTTP {status.decode().strip()}")
        headers: dict[str, str] = {}
        while (line := await self._reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        self.session_id = headers.get("mcp-session-id", self.session_id)
        if headers.get("transfer-encoding") == "chunked":
            parts = []
            while size := int((await self._reader.readline()).split(b";")[0], 16):
                parts.append(await self._reader.readexactly(size))
                await self._reader.readexactly(2)
            await self._reader.readexactly(2)
            data = b"".join(parts)
        else:
            data = await self._reader.readexactly(int(headers.get("content-length", "0")))
        return headers.get("content-type", ""), data


def _answer(response: tuple[str, bytes]) -> dict[str, Any]:
    kind, data = response
    if kind.startswith("text/event-stream"):
        for line in data.decode().splitlines():
            if line.startswith("data:") and '"id"' in line:
                found: dict[str, Any] = json.loads(line[5:])
                if "result" in found or "error" in found:
                    return found
        raise RuntimeError(f"no answer in the event stream: {data[:200]!r}")
    parsed: dict[str, Any] = json.loads(data)
    return parsed


def _source(index: int) -> str:
    return "".join(f"value_{index}_{n} = {n}\n" for n in range(LINES))


@contextmanager
def served(root: Path, state: Path, src: Path, *args: str) -> Iterator[Server]:
    """A ``patchwright mcp --http`` server from ``src`` on a free port."""
    env = {**os.environ, "PYTHONPATH": str(src), "PATCHWRIGHT_STATE_DIR": str(state)}
    argv = [sys.executable, "-m", "patchwright.adapters.cli.mcp", "--root", str(root),
            "--http", "127.0.0.1:0", *args]  # fmt: skip
    with _serving(argv, env) as server:
        yield server


@contextmanager
def reference_served(root: Path, kind: str) -> Iterator[Server]:
    """The bare SDK server of ``_mcp_noop.py`` over streamable HTTP: its ``edit_file``
    does nothing (``kind`` ``"noop"``) or edits in plain Python (``"plain"``)."""
    script = Path(__file__).with_name("_mcp_noop.py")
    extra = ["--root", str(root)] if kind == "plain" else []
    with _serving([sys.executable, str(script), "--http", *extra], dict(os.environ)) as server:
        yield server


class Server:
    """A server process being measured: its endpoint and its CPU time so far."""

    def __init__(self, url: str, pid: int) -> None:
        self.url, self.pid = url, pid

    def cpu(self) -> float:
        """User + system seconds the process (all its threads) has run, from ``/proc``."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextmanager
def _serving(argv: list[str], env: dict[str, str]) -> Iterator[Server]:
    process = subprocess.Popen(
        argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stderr is not None
    url, drain = "", None
    try:
        deadline = time.monotonic() + 60
        while not url and time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line:
                raise RuntimeError("the server exited before it served")
            found = re.search(r"(http://\S+/mcp)", line)
            url = found.group(1) if found else ""
        stderr = process.stderr
        drain = threading.Thread(target=lambda: [None for _ in stderr], daemon=True)
        drain.start()
        yield Server(url, process.pid)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if drain is not None:
            drain.join(timeout=5)  # the pipe ends with the process
        process.stderr.close()


@dataclass
class Run:
    """What one count of sessions measured."""

    rate: float  # calls per second over all sessions
    latencies: list[float]  # seconds, one per call
    server_cpu: float  # the server's user + system seconds during the calls
    client_cpu: float  # this process's (the client's) CPU seconds during the calls
    elapsed: float  # seconds the calls took, from the first sent to the last answered

    def per_call(self, seconds: float) -> float:
        """``seconds`` over the calls made."""
        return seconds / len(self.latencies) if self.latencies else float("nan")


async def _editing(server: Server, root: Path, sessions: int, seconds: float, real: bool) -> Run:
    """``sessions`` sessions editing their own files for ``seconds``; with ``real``
    each file must hold its last edit afterwards (not so for a tool that does nothing)."""
    latencies: list[float] = []
    opened = [Session(server.url) for _ in range(sessions)]
    for session in opened:
        await session.open()
    stop = time.monotonic() + seconds

    async def edit(index: int, session: Session) -> None:
        path = f"s{index}.py"
        (root / path).write_text(_source(index))
        line, count = f"value_{index}_100 = 100", 0
        while time.monotonic() < stop:
            count += 1
            new = f"value_{index}_100 = 100  # edit {count}"
            started = time.perf_counter()
            await session.call("edit_file", {"path": path, "old_string": line,
                                             "new_string": new})  # fmt: skip
            latencies.append(time.perf_counter() - started)
            line = new
        if real and f"{line}\n" not in (root / path).read_text():
            raise RuntimeError(f"{path} does not hold its last edit")

    began, cpu, own = time.monotonic(), server.cpu(), time.process_time()
    async with anyio.create_task_group() as tg:
        for index, session in enumerate(opened):
            tg.start_soon(edit, index, session)
    elapsed = time.monotonic() - began
    server_cpu, client_cpu = server.cpu() - cpu, time.process_time() - own
    for session in opened:
        await session.close()
    return Run(round(len(latencies) / elapsed), latencies, server_cpu, client_cpu, elapsed)


async def _reading(
    url: str, root: Path, seconds: float, state: Path, src: Path
) -> tuple[list[float], list[float]]:
    """Readers' latencies without, then with, a write waiting for approval (twice)."""
    quiet: list[float] = []
    waiting: list[float] = []
    readers = [Session(url) for _ in range(READERS)]
    writer = Session(url)
    for session in [*readers, writer]:
        await session.open()
    for index in range(READERS):
        (root / f"r{index}.py").write_text(_source(index))
    (root / "w.py").write_text(_source(99))
    for index, session in enumerate(readers):  # warm: the first call loads the tool
        await session.call("read_file", {"path": f"r{index}.py"})

    async def read(index: int, session: Session, until: float, into: list[float]) -> None:
        while time.monotonic() < until:
            started = time.perf_counter()
            await session.call("read_file", {"path": f"r{index}.py"})
            into.append(time.perf_counter() - started)

    async def phase(into: list[float]) -> None:
        until = time.monotonic() + seconds
        async with anyio.create_task_group() as tg:
            for index, session in enumerate(readers):
                tg.start_soon(read, index, session, until, into)

    answer: dict[str, Any] = {}

    async def propose() -> None:
        answer.clear()
        answer.update(await writer.request("tools/call", {"name": "edit_file",
            "arguments": {"path": "w.py", "old_string": "value_99_5 = 5",
                          "new_string": "value_99_5 = 6"}}))  # fmt: skip

    for _ in range(2):
        await phase(quiet)

        async with anyio.create_task_group() as tg:
            tg.start_soon(propose)
            proposal = await _wait_for_proposal(root, state, src)

            async def reject_at_the_end(proposal: str) -> None:
                # at the end of the phase, whatever the readers wait for: a server that
                # serves one call at a time answers them only after the decision
                await anyio.sleep(seconds)
                await anyio.to_thread.run_sync(_reject, root, state, src, proposal)

            tg.start_soon(reject_at_the_end, proposal)
            await phase(waiting)
        if "Rejected by the user" not in answer["content"][0]["text"]:
            raise RuntimeError(f"the waiting write was answered {answer!r}")
    for session in [*readers, writer]:
        await session.close()
    return quiet, waiting


def _cli(state: Path, src: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(src), "PATCHWRIGHT_STATE_DIR": str(state)}
    done = subprocess.run(
        [sys.executable, "-m", "patchwright", *args], env=env, capture_output=True, text=True,
        check=True, timeout=120,
    )  # fmt: skip
    return done.stdout


async def _wait_for_proposal(root: Path, state: Path, src: Path) -> str:
    for _ in range(600):
        listed = await anyio.to_thread.run_sync(
            _cli, state, src, "pending", "--root", str(root), "--json"
        )
        pending = json.loads(listed)
        if pending:
            return str(pending[0]["id"])
        await anyio.sleep(0.1)
    raise RuntimeError("the write never became a proposal")


def _reject(root: Path, state: Path, src: Path, proposal: str) -> None:
    _cli(state, src, "reject", proposal, "--reason", "bench", "--root", str(root))


def p99(values: list[float]) -> float:
    """The 99th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def measure(src: Path, seconds: float) -> dict[int | str, Any]:
    """Every figure of one source tree."""
    figures: dict[int | str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="pw-conc-") as tmp:
        root, state = Path(tmp) / "root", Path(tmp) / "state"
        root.mkdir()
        with served(root, state, src) as server:
            for count, run in _counts(server, root, seconds, real=True).items():
                figures[count] = run
        with served(root, state, src, "--approve", "--approve-timeout", "600") as server:
            figures["approval"] = anyio.run(_reading, server.url, root, seconds / 2, state, src)
    return figures


def measure_reference(kind: str, seconds: float) -> dict[int, Run]:
    """The editing figures of the bare SDK server (``kind`` as :func:`reference_served`)."""
    with (
        tempfile.TemporaryDirectory(prefix="pw-conc-") as tmp,
        reference_served(Path(tmp), kind) as server,
    ):
        return _counts(server, Path(tmp), seconds, real=kind == "plain")


def _counts(server: Server, root: Path, seconds: float, real: bool) -> dict[int, Run]:
    anyio.run(_editing, server, root, 1, min(seconds, 1.0), real)  # warm up
    return {count: anyio.run(_editing, server, root, count, seconds, real) for count in COUNTS}


def _ceilings(editing: dict[str, dict[int, Run]]) -> tuple[list[str], list[list[object]]]:
    """The ceiling table: how many calls per second CPU time allows each server."""
    header = ["server", "1 session calls/s", "busy", "server CPU/call", "client CPU/call",
              "ceiling: one interpreter", "both cores"]  # fmt: skip
    rows: list[list[object]] = []
    for name, runs in editing.items():
        one, busy = runs[1], runs[16]
        server, client = busy.per_call(busy.server_cpu), busy.per_call(busy.client_cpu)
        alone, both = 1 / server, 2 / (server + client)
        rows.append([
            name, one.rate, f"{one.server_cpu / one.elapsed:.0%}", fmt_ms(server), fmt_ms(client),
            f"{alone:.0f} calls/s ({alone / one.rate:.2f}x)",
            f"{both:.0f} calls/s ({both / one.rate:.2f}x)",
        ])  # fmt: skip
    return header, rows


def main(argv: list[str] | None = None) -> int:
    """Run, print the tables, and with ``--check`` exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 s per measurement")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per measurement")
    parser.add_argument("--baseline", type=Path, help="another source tree to compare with")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument(
        "--reference",
        action="store_true",
        help="also the bare SDK server: a tool that does nothing, one that edits in plain Python",
    )
    args = parser.parse_args(argv)
    seconds = args.seconds or (3.0 if args.quick else 6.0)
    trees = [("this tree", SRC)]
    if args.baseline is not None:
        trees.append(("baseline", args.baseline.resolve()))
    load = os.getloadavg()[0]
    results = {name: measure(src, seconds) for name, src in trees}
    editing = {name: {count: results[name][count] for count in COUNTS} for name, _ in trees}
    if args.reference:
        editing["SDK no-op"] = measure_reference("noop", seconds)
        editing["SDK plain file"] = measure_reference("plain", seconds)
    print(f"load average (1 min) {load:.1f} before, {os.getloadavg()[0]:.1f} after, "
          f"on {os.cpu_count()} cores")  # fmt: skip

    header = ["sessions"]
    for name in editing:
        header += [f"{name} calls/s", "median", "p99", "vs 1 session", "CPU/call", "busy"]
    rows = []
    for count in COUNTS:
        row: list[object] = [count]
        for runs in editing.values():
            run, one = runs[count], runs[1]
            ratios = (
                f"{run.rate / one.rate:.2f}x / {median(run.latencies) / median(one.latencies):.2f}x"
            )
            cpu = fmt_ms(run.per_call(run.server_cpu))
            row += [
                run.rate,
                fmt_ms(median(run.latencies)),
                fmt_ms(p99(run.latencies)),
                ratios,
                cpu,
                f"{run.server_cpu / run.elapsed:.0%}",
            ]
        rows.append(row)
    print(render_table(header, rows))
    print("(vs 1 session: calls/s / median; CPU/call: the server's user + system ms per call;")
    print(" busy: the server's CPU time over the wall time, 100% = one core)")
    print()
    print(render_table(*_ceilings(editing)))
    print("(ceilings at 16 sessions, from its CPU per call: one interpreter running every CPU")
    print(" second of the server in turn, 1 / server CPU; both cores, shared with the client,")
    print(" 2 / (server + client CPU); the targets need 1.5x, and 4x for the median)")
    print()
    header = ["readers (4 sessions)"]
    for name, _ in trees:
        header += [f"{name} p99", "median", "calls"]
    rows = []
    for index, label in enumerate(("no write waiting", "one write waiting for approval")):
        row = [label]
        for name, _ in trees:
            values = results[name]["approval"][index]
            row += [fmt_ms(p99(values)), fmt_ms(median(values)), len(values)]
        rows.append(row)
    print(render_table(header, rows))

    mine = results["this tree"]
    rate_ratio = mine[16].rate / mine[1].rate
    median_ratio = median(mine[16].latencies) / median(mine[1].latencies)
    quiet, waiting = mine["approval"]
    wait_ratio = p99(waiting) / p99(quiet)
    checks = [
        ("16 sessions: calls/s >= 1.5x one session", rate_ratio >= 1.5, f"{rate_ratio:.2f}x"),
        ("16 sessions: median <= 4x one session", median_ratio <= 4, f"{median_ratio:.2f}x"),
        ("readers' p99 with a write waiting <= 2x", wait_ratio <= 2, f"{wait_ratio:.2f}x"),
    ]
    print()
    for text, met, figure in checks:
        print(f"{text}: {figure} ({'met' if met else 'MISSED'})")
    return 1 if args.check and not all(met for _, met, _ in checks) else 0


if __name__ == "__main__":
    sys.exit(main())
