"""The stdio server's own output path: whole messages on the wire, stray output off it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading

import anyio

from patchwright.adapters.mcp_server import WireWriter


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


def test_stray_output_goes_to_stderr_while_the_wire_is_claimed() -> None:
    script = textwrap.dedent(
        """
        import os, sys
        from patchwright.adapters.mcp_server import claimed_stdout

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
