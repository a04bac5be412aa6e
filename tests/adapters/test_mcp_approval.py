"""``patchwright mcp --approve`` against real clients: progress while a write waits, and
the proposal withdrawn when the client cancels, disconnects or the server stops.

Every server is a subprocess started here (stdio, or HTTP on a free loopback port), its
proposals decided in this process through the workspace's own API, and stopped at the end
of its test. Waits are bounded and count events (a progress notification, a proposal
appearing), never sleep for a fixed time.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.types import TextContent
from served import served

from patchwright.model import PatchwrightError
from patchwright.workspace import Proposal, Workspace

SERVER = [sys.executable, "-m", "patchwright.adapters.cli.mcp"]
TIMEOUT = 60
EDIT = {"path": "app.py", "old_string": "x = 1", "new_string": "x = 2"}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    (folder / "app.py").write_text("x = 1\n")
    return folder


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


def _person(root: Path, state: Path) -> Workspace:
    return Workspace(root, state_dir=state)


def _proposal(person: Workspace) -> Proposal:
    """The first proposal, once one exists (bounded wait)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        found = person.proposals.store.by_status(None)
        if found:
            return found[0]
        time.sleep(0.05)
    raise AssertionError("no proposal appeared")


def _closed(person: Workspace, proposal_id: str) -> Proposal:
    """The proposal once it left ``pending`` (bounded wait)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        current = person.proposals.get(proposal_id)
        if current.status != "pending":
            return current
        time.sleep(0.05)
    raise AssertionError(f"{proposal_id} stayed pending")


def _env(state: Path) -> dict[str, str]:
    return {**os.environ, "PATCHWRIGHT_STATE_DIR": str(state)}


@contextmanager
def _http_server(
    root: Path, state: Path, *args: str
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    argv = ["mcp", "--root", str(root), "--http", "127.0.0.1:0", *args]
    with served(argv, _env(state)) as (url, process):
        yield url, process


def _text(result: Any) -> str:
    first = result.content[0]
    assert isinstance(first, TextContent)
    return first.text


def test_a_waiting_write_reports_progress_and_completes_once_approved(
    root: Path, state: Path
) -> None:
    progress: list[tuple[float, str | None]] = []
    person = _person(root, state)

    async def scenario(url: str) -> str:
        async def noted(value: float, total: float | None, message: str | None) -> None:
            progress.append((value, message))

        async with Client(url, mode="legacy", read_timeout_seconds=TIMEOUT) as client:
            async with anyio.create_task_group() as tg:
                answer: list[str] = []

                async def call() -> None:
                    result = await client.call_tool("edit_file", EDIT, progress_callback=noted)
                    assert not result.is_error, _text(result)
                    answer.append(_text(result))

                tg.start_soon(call)
                for _ in range(TIMEOUT * 20):  # the first progress, then the decision
                    if progress:
                        break
                    await anyio.sleep(0.05)
                proposal = await anyio.to_thread.run_sync(_proposal, person)
                await anyio.to_thread.run_sync(person.proposals.approve, proposal.id)
            return answer[0]

    with _http_server(root, state, "--approve", "--approve-timeout", "120") as (url, _):
        answer = anyio.run(scenario, url)
    assert progress, "no progress notification while the write waited"
    assert progress[0][1] is not None and "Waiting for the user to approve p-" in progress[0][1]
    assert "x = 2" in (root / "app.py").read_text()
    assert answer.startswith("Applied 1 edit to app.py")


def test_a_cancelled_call_withdraws_its_proposal(root: Path, state: Path) -> None:
    person = _person(root, state)

    async def scenario(url: str) -> Proposal:
        async with Client(url, mode="legacy", read_timeout_seconds=TIMEOUT) as client:
            with anyio.CancelScope() as scope:

                async def cancel_once_proposed() -> None:
                    await anyio.to_thread.run_sync(_proposal, person)
                    scope.cancel()  # the SDK client sends notifications/cancelled

                async with anyio.create_task_group() as tg:
                    tg.start_soon(cancel_once_proposed)
                    await client.call_tool("edit_file", EDIT)
            proposal = await anyio.to_thread.run_sync(_proposal, person)
            return await anyio.to_thread.run_sync(_closed, person, proposal.id)

    with _http_server(root, state, "--approve", "--approve-timeout", "120") as (url, _):
        closed = anyio.run(scenario, url)
    assert (closed.status, closed.reason) == (
        "withdrawn",
        "the client cancelled the call or disconnected",
    )
    with pytest.raises(PatchwrightError, match="no longer waiting: it is withdrawn"):
        person.proposals.approve(closed.id)
    assert (root / "app.py").read_text() == "x = 1\n"


class StdioServer:
    """``patchwright mcp`` over stdio, spoken to in raw JSON-RPC lines."""

    def __init__(self, root: Path, state: Path, *args: str) -> None:
        self.process = subprocess.Popen(
            [*SERVER, "--root", str(root), *args], env=_env(state), stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        self.lines: queue.Queue[str] = queue.Queue()
        stdout = self.process.stdout
        assert stdout is not None
        threading.Thread(target=lambda: [self.lines.put(x) for x in stdout], daemon=True).start()
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}})  # fmt: skip
        assert json.loads(self.lines.get(timeout=TIMEOUT))["id"] == 0
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def answer(self, request_id: int) -> dict[str, Any]:
        """The answer to ``request_id`` (notifications before it are skipped)."""
        while True:
            message: dict[str, Any] = json.loads(self.lines.get(timeout=TIMEOUT))
            if message.get("id") == request_id:
                return message

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.kill()
        code = self.process.wait(timeout=30)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        return code


def test_one_ctrl_c_stops_the_stdio_server_and_tells_the_waiting_call(
    root: Path, state: Path
) -> None:
    person = _person(root, state)
    server = StdioServer(root, state, "--approve", "--approve-timeout", "120")
    try:
        server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                     "params": {"name": "edit_file", "arguments": EDIT}})  # fmt: skip
        proposal = _proposal(person)
        server.process.send_signal(signal.SIGINT)  # one Ctrl-C
        answer = server.answer(1)["result"]
        assert server.process.wait(timeout=TIMEOUT) == 0
    finally:
        server.stop()
    assert answer["isError"] is True
    assert answer["content"][0]["text"].startswith(
        "The change was withdrawn before anyone approved it (the server is stopping); "
        "nothing was written."
    )
    assert person.proposals.get(proposal.id).status == "withdrawn"
    assert (root / "app.py").read_text() == "x = 1\n"


def test_a_client_that_disconnects_withdraws_its_waiting_write(root: Path, state: Path) -> None:
    person = _person(root, state)
    server = StdioServer(root, state, "--approve", "--approve-timeout", "120")
    try:
        server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                     "params": {"name": "edit_file", "arguments": EDIT}})  # fmt: skip
        proposal = _proposal(person)
        assert server.process.stdin is not None
        server.process.stdin.close()  # the client goes away
        assert server.process.wait(timeout=TIMEOUT) == 0
    finally:
        server.stop()
    closed = person.proposals.get(proposal.id)
    assert (closed.status, closed.reason) == (
        "withdrawn",
        "the client cancelled the call or disconnected",
    )
    assert (root / "app.py").read_text() == "x = 1\n"


def test_one_ctrl_c_stops_the_http_server_and_tells_the_waiting_call(
    root: Path, state: Path
) -> None:
    person = _person(root, state)

    async def scenario(url: str, process: subprocess.Popen[str]) -> str:
        async with Client(url, mode="legacy", read_timeout_seconds=TIMEOUT) as client:
            async with anyio.create_task_group() as tg:
                answer: list[str] = []

                async def call() -> None:
                    answer.append(_text(await client.call_tool("edit_file", EDIT)))

                tg.start_soon(call)
                await anyio.to_thread.run_sync(_proposal, person)
                process.send_signal(signal.SIGINT)
            return answer[0]

    with _http_server(root, state, "--approve", "--approve-timeout", "120") as (url, process):
        answer = anyio.run(scenario, url, process)
        assert process.wait(timeout=TIMEOUT) == 0
    assert answer.startswith(
        "The change was withdrawn before anyone approved it (the server is stopping); "
        "nothing was written."
    )
    assert person.proposals.store.by_status(None)[0].status == "withdrawn"


def test_a_write_waiting_for_approval_holds_up_no_other_session(root: Path, state: Path) -> None:
    person = _person(root, state)
    (root / "other.py").write_text("y = 1\n")

    async def scenario(url: str) -> list[str]:
        events: list[str] = []
        async with (
            Client(url, mode="legacy", read_timeout_seconds=TIMEOUT) as waiting,
            Client(url, mode="legacy", read_timeout_seconds=TIMEOUT) as other,
            anyio.create_task_group() as tg,
        ):

            async def propose() -> None:
                result = await waiting.call_tool("edit_file", EDIT)
                events.append(_text(result).split(":")[0])

            tg.start_soon(propose)
            proposal = await anyio.to_thread.run_sync(_proposal, person)
            for _ in range(3):  # another session's calls are answered meanwhile
                read = await other.call_tool("read_file", {"path": "other.py"})
                assert not read.is_error, _text(read)
                events.append("read")
            await anyio.to_thread.run_sync(person.proposals.reject, proposal.id, "not now")
        return events

    with _http_server(root, state, "--approve", "--approve-timeout", "120") as (url, _):
        events = anyio.run(scenario, url)
    assert events == ["read", "read", "read", "Rejected by the user"]
