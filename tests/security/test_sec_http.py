"""``patchwright mcp --http`` against a real server on loopback: origins, hosts, tokens,
sizes; and ``patchwright mcp`` over stdio fed a message over its size limit.

Every server is started here on a free port (or on stdio), driven with plain HTTP
requests (or JSON-RPC lines), and stopped at the end of its test.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

SERVER = [sys.executable, "-m", "patchwright.adapters.cli_mcp"]
TIMEOUT = 30
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-03-26",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "1"},
    },
}


class Served:
    """A running HTTP server: its URL's port, and the status lines it printed."""

    def __init__(self, port: int, lines: list[str]) -> None:
        self.port = port
        self.lines = lines

    def post(self, headers: dict[str, str], body: bytes | None = None) -> int:
        """POST an initialize request (or ``body``) to /mcp; the response status."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        try:
            data = body if body is not None else json.dumps(INITIALIZE).encode()
            sent = {
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
                **headers,
            }
            conn.request("POST", "/mcp", body=data, headers=sent)
            response = conn.getresponse()
            response.read()
            return response.status
        finally:
            conn.close()


@contextmanager
def _server(tmp_path: Path, host: str, *args: str) -> Iterator[Served]:
    root = tmp_path / "root"
    root.mkdir(exist_ok=True)
    process = subprocess.Popen(
        [*SERVER, "--root", str(root), "--http", f"{host}:0", *args],
        env={**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    stderr = process.stderr
    lines: queue.Queue[str] = queue.Queue()
    seen: list[str] = []
    reader = threading.Thread(target=lambda: [lines.put(line) for line in stderr], daemon=True)
    reader.start()
    try:
        while not seen or "http://" not in seen[-1]:
            seen.append(lines.get(timeout=TIMEOUT))
        port = int(re.findall(r":(\d+)/mcp", seen[-1])[0])
        yield Served(port, seen)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - only when shutdown hangs
            process.kill()
            process.wait()
        reader.join(timeout=5)
        stderr.close()


def test_loopback_accepts_its_own_origin_only(tmp_path: Path) -> None:
    with _server(tmp_path, "127.0.0.1") as served:
        own = f"http://127.0.0.1:{served.port}"
        assert served.post({}) == 200  # no Origin: not a browser
        assert served.post({"Origin": own}) == 200
        assert served.post({"Origin": f"http://localhost:{served.port}"}) == 200
        assert served.post({"Origin": "http://localhost:9999"}) == 403  # another local page
        assert served.post({"Origin": "http://127.0.0.1:1"}) == 403
        assert served.post({"Origin": "null"}) == 403
        assert served.post({"Host": f"evil.example:{served.port}"}) == 421  # DNS rebinding


def test_allow_origin_adds_exactly_that_origin(tmp_path: Path) -> None:
    with _server(tmp_path, "127.0.0.1", "--allow-origin", "http://localhost:9999") as served:
        assert served.post({"Origin": "http://localhost:9999"}) == 200
        assert served.post({"Origin": "http://localhost:9998"}) == 403


def test_loopback_with_a_given_token_enforces_it(tmp_path: Path) -> None:
    with _server(tmp_path, "127.0.0.1", "--token", "s3cret") as served:
        assert served.post({}) == 401
        assert served.post({"Authorization": "Bearer s3cret"}) == 200


def test_off_loopback_without_a_token_refuses_to_start(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PATCHWRIGHT_MCP_TOKEN"}
    (tmp_path / "root").mkdir()
    proc = subprocess.run(
        [*SERVER, "--root", str(tmp_path / "root"), "--http", "0.0.0.0:0"],
        env={**env, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert proc.returncode == 2
    assert "--token" in proc.stderr and "Traceback" not in proc.stderr


def test_off_loopback_generated_token_is_printed_once_and_required(tmp_path: Path) -> None:
    with _server(tmp_path, "0.0.0.0", "--token", "generate") as served:
        shown = [line for line in served.lines if "bearer token" in line]
        assert len(shown) == 1
        token = shown[0].rsplit(" ", 1)[1].strip()
        assert len(token) >= 32
        assert served.post({}) == 401
        assert served.post({"Authorization": "Bearer wrong"}) == 401
        assert served.post({"Authorization": f"Bearer {token}"}) == 200
        assert served.post({"Authorization": f"Bearer {token}", "Origin": "http://x:1"}) == 403


def test_http_body_over_the_limit_is_413(tmp_path: Path) -> None:
    with _server(tmp_path, "127.0.0.1", "--max-message-mb", "0.01") as served:
        assert served.post({}, b" " * 20_000) == 413
        assert served.post({}) == 200


def test_stdio_message_over_the_limit_is_dropped_and_the_server_goes_on(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    process = subprocess.Popen(
        [*SERVER, "--root", str(root), "--max-message-mb", "1"],
        env={**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["id"] == 1
        baseline = _peak_kib(process.pid)
        huge = b'{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"x": "'
        process.stdin.write(huge + b"y" * (48 * 2**20) + b'"}}\n')
        process.stdin.write(b'{"jsonrpc": "2.0", "id": 8, "method": "ping"}\n')
        process.stdin.flush()
        answer = json.loads(process.stdout.readline())
        assert answer["id"] == 8 and "result" in answer  # it answers what comes next
        # the 48 MiB line read whole would add at least that much
        assert _peak_kib(process.pid) - baseline < 16 * 1024, (baseline, _peak_kib(process.pid))
    finally:
        process.stdin.close()
        process.wait(timeout=TIMEOUT)
        assert process.stderr is not None
        err = process.stderr.read().decode()
        process.stdout.close()
        process.stderr.close()
    assert "--max-message-mb" in err and "Traceback" not in err


def _peak_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.findall(r"VmHWM:\s+(\d+) kB", status)[0])


@pytest.mark.parametrize("origin", ["http://localhost:9999", "http://127.0.0.1:8080"])
def test_other_local_ports_are_other_origins(tmp_path: Path, origin: str) -> None:
    with _server(tmp_path, "127.0.0.1") as served:
        assert served.post({"Origin": origin}) == 403
