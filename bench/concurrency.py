"""Concurrent MCP sessions on one ``patchwright mcp --http`` server.

    python bench/concurrency.py                  # 1, 4, 16, 32 sessions, 6 s each
    python bench/concurrency.py --quick          # 3 s each
    python bench/concurrency.py --baseline SRC   # the same against another source tree
    python bench/concurrency.py --check          # exit 1 when a target is missed

**Sessions.** One server (``patchwright mcp --http 127.0.0.1:0``, its defaults: history
on, syntax guard on, every write fsynced) serves 1, 4, 16 and 32 HTTP sessions in turn,
each session editing its own 200-line Python file over and over (``edit_file``, a new
trailing comment on one line per call), every session sending its next call as soon as
the previous one is answered. Reported per count: calls per second over all sessions,
and the median and p99 of one call. Targets (issue 32): at 16 sessions, at least 1.5x
the calls per second of one session, and a median at most 4x one session's median.

**Approval.** A second server runs with ``--approve``; 4 sessions read their own files
(``read_file``) for a while with no write waiting, then for as long again while a fifth
session's ``edit_file`` waits for approval (rejected at the end of the phase; its answer
must say so). The two phases alternate twice. Target: the readers' p99 with the write
waiting at most 2x their p99 without it.

Every answer is checked (no error; an edit's file holds the new line afterwards), so a
fast refusal never counts. The client is a small JSON-RPC client over plain HTTP/1.1
connections (one per session): the SDK's own client, or httpx, costs as much CPU per
call as the server on this 2-core machine, and would measure itself.
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
def served(root: Path, state: Path, src: Path, *args: str) -> Iterator[str]:
    """A ``patchwright mcp --http`` server from ``src`` on a free port; its URL."""
    env = {**os.environ, "PYTHONPATH": str(src), "PATCHWRIGHT_STATE_DIR": str(state)}
    process = subprocess.Popen(
        [sys.executable, "-m", "patchwright.adapters.cli.mcp", "--root", str(root),
         "--http", "127.0.0.1:0", *args],
        env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert process.stderr is not None
    url = ""
    try:
        deadline = time.monotonic() + 60
        while not url and time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line:
                raise RuntimeError("the server exited before it served")
            found = re.search(r"(http://\S+/mcp)", line)
            url = found.group(1) if found else ""
        stderr = process.stderr
        threading.Thread(target=lambda: [None for _ in stderr], daemon=True).start()
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def _editing(url: str, root: Path, sessions: int, seconds: float) -> tuple[int, list[float]]:
    """``sessions`` sessions editing their own files for ``seconds``: calls, latencies."""
    latencies: list[float] = []
    opened = [Session(url) for _ in range(sessions)]
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
        if f"{line}\n" not in (root / path).read_text():
            raise RuntimeError(f"{path} does not hold its last edit")

    began = time.monotonic()
    async with anyio.create_task_group() as tg:
        for index, session in enumerate(opened):
            tg.start_soon(edit, index, session)
    elapsed = time.monotonic() - began
    for session in opened:
        await session.close()
    return round(len(latencies) / elapsed), latencies


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


def measure(src: Path, seconds: float) -> dict[str, Any]:
    """Every figure of one source tree."""
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="pw-conc-") as tmp:
        root, state = Path(tmp) / "root", Path(tmp) / "state"
        root.mkdir()
        with served(root, state, src) as url:
            anyio.run(_editing, url, root, 1, min(seconds, 1.0))  # warm up
            for count in COUNTS:
                figures[count] = anyio.run(_editing, url, root, count, seconds)
        with served(root, state, src, "--approve", "--approve-timeout", "600") as url:
            figures["approval"] = anyio.run(_reading, url, root, seconds / 2, state, src)
    return figures


def main(argv: list[str] | None = None) -> int:
    """Run, print the tables, and with ``--check`` exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 s per measurement")
    parser.add_argument("--seconds", type=float, default=None, help="seconds per measurement")
    parser.add_argument("--baseline", type=Path, help="another source tree to compare with")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    seconds = args.seconds or (3.0 if args.quick else 6.0)
    trees = [("this tree", SRC)]
    if args.baseline is not None:
        trees.append(("baseline", args.baseline.resolve()))
    load = os.getloadavg()[0]
    results = {name: measure(src, seconds) for name, src in trees}
    print(f"load average (1 min) {load:.1f} before, {os.getloadavg()[0]:.1f} after, "
          f"on {os.cpu_count()} cores")  # fmt: skip

    header = ["sessions"]
    for name, _ in trees:
        header += [f"{name} calls/s", "median", "p99", "vs 1 session"]
    rows = []
    for count in COUNTS:
        row: list[object] = [count]
        for name, _ in trees:
            rate, latencies = results[name][count]
            one_rate, one_lat = results[name][1]
            ratios = f"{rate / one_rate:.2f}x / {median(latencies) / median(one_lat):.2f}x"
            row += [rate, fmt_ms(median(latencies)), fmt_ms(p99(latencies)), ratios]
        rows.append(row)
    print(render_table(header, rows))
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
    rate_ratio = mine[16][0] / mine[1][0]
    median_ratio = median(mine[16][1]) / median(mine[1][1])
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
