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
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

SERVER = [sys.executable, "-m", "patchwright.adapters.cli.mcp"]
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


def _initialize_bytes(port: int, connection: str = "keep-alive") -> bytes:
    body = json.dumps(INITIALIZE).encode()
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\n"
        f"Content-Length: {len(body)}\r\nConnection: {connection}\r\n\r\n"
    )
    return head.encode() + body


_STATUS = re.compile(rb"HTTP/1\.1 (\d{3}) ")


def _flood(port: int, source: str, count: int) -> list[int]:
    """``count`` initialize requests from ``source``, pipelined on one connection; the
    status of each answer, in order."""
    statuses: list[int] = []
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT,
                                  source_address=(source, 0)) as sock:  # fmt: skip
        received = b""
        batch = 250
        for start in range(0, count, batch):
            size = min(batch, count - start)
            sock.sendall(_initialize_bytes(port) * size)
            want = len(statuses) + size
            while len(statuses) < want:
                chunk = sock.recv(1 << 16)
                assert chunk, "the server closed the connection"
                received += chunk
                found = list(_STATUS.finditer(received))
                statuses += [int(m.group(1)) for m in found]
                # keep what may hold the start of a status line split by the chunks
                received = received[found[-1].end() :] if found else received[-16:]
    return statuses


def test_an_initialize_flood_from_one_address_shuts_out_no_other_client(tmp_path: Path) -> None:
    with _server(tmp_path, "127.0.0.1") as served:
        statuses = _flood(served.port, "127.0.0.2", 10_000)
        assert statuses.count(200) == 32  # --max-sessions-per-client's default
        assert statuses.count(503) == 10_000 - 32
        # another client address, and a later client, still get sessions
        assert served.post({}) == 200
        status, text = _exchange(served.port, _initialize_bytes(served.port, "close"), "127.0.0.2")
        assert status == 503
        assert "Too many open sessions from 127.0.0.2 (32)" in text


def _exchange(port: int, request: bytes, source: str = "127.0.0.1") -> tuple[int, str]:
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT,
                                  source_address=(source, 0)) as sock:  # fmt: skip
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(1 << 16):
            received += chunk
    status = int(received.split(b"\r\n", 1)[0].split()[1])
    return status, received.decode("utf-8", "replace")


def _session(port: int) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        sock.sendall(_initialize_bytes(port, "close"))
        received = b""
        while chunk := sock.recv(1 << 16):
            received += chunk
    found = re.search(rb"(?im)^mcp-session-id: *(\S+)", received)
    assert found is not None, received[:500]
    return found.group(1).decode()


def _ping(port: int, session: str) -> int:
    body = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}).encode()
    request = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\nmcp-protocol-version: 2025-03-26\r\n"
        f"mcp-session-id: {session}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    ).encode() + body
    return _exchange(port, request)[0]


def test_an_idle_session_is_closed(tmp_path: Path) -> None:
    with _server(tmp_path, "127.0.0.1", "--session-idle-minutes", "0.02") as served:
        session = _session(served.port)
        assert _ping(served.port, session) == 200
        pause, waited = 1.5, 0.0  # the idle time is 1.2 s; each ping restarts it
        while waited < TIMEOUT:
            time.sleep(pause)
            waited += pause
            if _ping(served.port, session) == 404:
                break
            pause *= 2
        else:
            raise AssertionError("the idle session was never closed")


def test_a_request_body_that_never_arrives_whole_times_out(tmp_path: Path) -> None:
    with _server(tmp_path, "127.0.0.1", "--body-timeout", "1") as served:
        started = time.monotonic()
        partial = _initialize_bytes(served.port, "close")[:-10]  # the body's end never comes
        with socket.create_connection(("127.0.0.1", served.port), timeout=TIMEOUT) as sock:
            sock.sendall(partial)
            received = b""
            while chunk := sock.recv(1 << 16):
                received += chunk
        assert received.startswith(b"HTTP/1.1 408 ")
        assert b"did not arrive within 1 s" in received
        assert time.monotonic() - started < TIMEOUT


def test_a_connection_whose_headers_never_end_is_closed(tmp_path: Path) -> None:
    with _server(tmp_path, "127.0.0.1") as served:
        started = time.monotonic()
        with socket.create_connection(("127.0.0.1", served.port), timeout=TIMEOUT) as slow:
            slow.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and nothing more
            assert slow.recv(1024) == b""  # closed by the server (HEADER_SECONDS), no answer
        assert time.monotonic() - started < TIMEOUT
        assert served.post({}) == 200  # the server goes on serving
