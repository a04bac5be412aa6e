"""The stdio server's own wire: whole messages out, stray output off it, lines read in
on the event loop; and the worker threads the calls run in."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any, cast

import anyio
import anyio.to_thread
import pytest

from patchwright.adapters.mcp.server import _ToolService
from patchwright.adapters.mcp.stdio import WireReader, WireWriter
from patchwright.tools import Toolbox
from patchwright.workspace import Workspace
from patchwright.workspace.approval import current_caller


def test_a_message_larger_than_the_pipe_buffer_arrives_whole_and_in_order() -> None:
    read_end, write_end = os.pipe()
    received: list[bytes] = []

    def drain() -> None:
        with os.fdopen(read_end, "rb") as stream:
            received.append(stream.read())

    reader = threading.Thread(target=drain)
    reader.start()
    messages = ['{"id": 1, "text": "' + "é" * 200_000 + '"}\n', '{"id": 2}\n']

    async def send() -> None:
        writer = WireWriter(write_end)
        for message in messages:
            await writer.write(message)
            await writer.flush()

    try:
        anyio.run(send)
    finally:
        os.close(write_end)
    reader.join(timeout=60)
    assert not reader.is_alive()
    assert received == ["".join(messages).encode("utf-8")]


def test_a_full_non_blocking_pipe_is_waited_on_not_an_error() -> None:
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)  # as a parent process may hand it over
    filler = 0
    try:
        while True:  # fill the pipe: the next write would block
            filler += os.write(write_end, b"x" * 4096)
    except BlockingIOError:
        pass
    message = '{"id": 1}\n'
    received = bytearray()

    async def send_while_drained() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(WireWriter(write_end).write, message)
            while len(received) < filler + len(message):
                await anyio.wait_readable(read_end)
                received.extend(os.read(read_end, 1 << 16))

    try:
        anyio.run(send_while_drained)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert bytes(received[filler:]) == message.encode()


def test_a_client_gone_before_its_answer_ends_the_server_quietly(tmp_path: object) -> None:
    request = (
        '{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": '
        '"2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}\n'
    )
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will read the answer: writing it breaks the pipe
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path)}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "patchwright", "mcp", "--root", str(tmp_path)],
            input=request.encode(), stdout=write_end, stderr=subprocess.PIPE,
            env=env, timeout=120, check=False,
        )  # fmt: skip
    finally:
        os.close(write_end)
    stderr = done.stderr.decode()
    assert done.returncode == 0, stderr
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr


def test_stray_output_goes_to_stderr_while_the_wire_is_claimed() -> None:
    script = textwrap.dedent(
        """
        import os, sys
        from patchwright.adapters.mcp.stdio import claimed_stdout

        print("before")
        with claimed_stdout() as wire:
            print("stray print", flush=True)
            os.write(1, b"stray write\\n")
            os.write(wire, b"on the wire\\n")
        print("after")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout == "before\non the wire\nafter\n"
    assert "stray print" in done.stderr and "stray write" in done.stderr


def _read_lines(chunks: list[bytes], limit: int, *, blocking: bool = True) -> list[str]:
    """Every line a WireReader gives for ``chunks`` written one by one to a pipe."""
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, blocking)

    def feed() -> None:
        with os.fdopen(write_end, "wb", buffering=0) as stream:
            for chunk in chunks:
                stream.write(chunk)

    feeder = threading.Thread(target=feed)
    feeder.start()

    async def collect() -> list[str]:
        return [line async for line in WireReader(read_end, limit, "--max-message-mb")]

    try:
        return anyio.run(collect)
    finally:
        feeder.join(timeout=60)
        os.close(read_end)


@pytest.mark.parametrize("blocking", [True, False])
def test_lines_come_whole_however_the_bytes_arrive(blocking: bool) -> None:
    text = '{"id": 1, "x": "é"}\n{"id": 2}\n{"id": 3}'.encode()
    pieces = [text[:5], text[5:12], text[12:13], text[13:40], text[40:]]
    assert _read_lines(pieces, 1000, blocking=blocking) == [
        '{"id": 1, "x": "é"}\n',
        '{"id": 2}\n',
        '{"id": 3}',
    ]


def test_a_line_over_the_limit_is_dropped_and_reading_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    huge = [b'{"id": 7, "x": "'] + [b"y" * 50_000] * 20 + [b'"}\n{"id": 8}\n']
    assert _read_lines(huge, 100_000) == ["message over the size limit\n", '{"id": 8}\n']
    assert "--max-message-mb" in caplog.text
    at_limit, over = b"z" * 100 + b"\n", b"z" * 101 + b"\n"  # its line break not counted
    assert _read_lines([at_limit, over], 100) == [
        at_limit.decode(),
        "message over the size limit\n",
    ]


def test_a_pipe_is_read_on_the_loop_and_a_regular_file_is_not() -> None:
    read_end, write_end = os.pipe()
    try:
        assert WireReader.suits(read_end)
    finally:
        os.close(read_end)
        os.close(write_end)
    with open(os.devnull, "rb") as null:
        assert not WireReader.suits(null.fileno())
    with open(__file__, "rb") as regular:
        assert not WireReader.suits(regular.fileno())


def _service(tmp_path: Path) -> _ToolService:
    root = tmp_path / "root"
    root.mkdir()
    return _ToolService(Toolbox(Workspace(root, state_dir=tmp_path / "state")))


def test_calls_run_at_the_same_time_in_worker_threads_and_raise_there(tmp_path: Path) -> None:
    service = _service(tmp_path)
    both = threading.Barrier(2, timeout=60)  # passes only when two calls run at once

    def meet(index: int) -> int:
        both.wait()
        return index * 10

    def fail() -> None:
        raise ValueError("inside")

    async def scenario() -> list[int]:
        results: list[int] = []

        async def one(index: int) -> None:
            results.append(await service._run(cast(Any, None), meet, index))

        async with anyio.create_task_group() as group:
            group.start_soon(one, 1)
            group.start_soon(one, 2)
        with pytest.raises(ValueError, match="inside"):
            await service._run(cast(Any, None), fail)
        return sorted(results)

    assert anyio.run(scenario) == [10, 20]
    assert service.busy == 0


def test_a_cancelled_call_runs_to_its_end_and_its_caller_is_told(tmp_path: Path) -> None:
    service = _service(tmp_path)
    started, release = threading.Event(), threading.Event()
    events: list[str] = []
    told: list[str] = []

    def commit() -> None:
        started.set()
        release.wait(60)
        caller = current_caller()
        assert caller is not None
        told.append(caller.reason if caller.gone else "not told")
        events.append("commit done")

    async def caller(scope: anyio.CancelScope) -> None:
        with scope:
            await service._run(cast(Any, None), commit)
        events.append("caller left")

    async def scenario() -> None:
        scope = anyio.CancelScope()
        async with anyio.create_task_group() as group:
            group.start_soon(caller, scope)
            await anyio.to_thread.run_sync(started.wait, 60)
            scope.cancel()
            for _ in range(20):  # the cancellation had every chance to be delivered
                await anyio.sleep(0)
            events.append("cancelled")
            release.set()

    anyio.run(scenario)
    assert events == ["cancelled", "commit done", "caller left"]
    assert told == ["the client cancelled the call or disconnected"]


def test_a_stopping_server_tells_the_calls_in_flight_and_later_ones(tmp_path: Path) -> None:
    service = _service(tmp_path)
    started = threading.Event()
    told: list[str] = []

    def wait_for_stop() -> None:
        caller = current_caller()
        assert caller is not None
        started.set()
        for _ in range(600):  # what a write waiting for approval does: poll its caller
            if caller.gone:
                told.append(caller.reason)
                return
            caller.pause(0.1)

    async def scenario() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(service._run, cast(Any, None), wait_for_stop)
            await anyio.to_thread.run_sync(started.wait, 60)
            service.stop("the server is stopping")
        await service._run(cast(Any, None), wait_for_stop)

    anyio.run(scenario)
    assert told == ["the server is stopping", "the server is stopping"]
