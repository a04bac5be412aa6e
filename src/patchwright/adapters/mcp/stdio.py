"""MCP over standard input and output, on the event loop alone.

    anyio.run(serve_stdio, build_server(toolbox))

The SDK's own ``stdio_server`` reads each line with a blocking ``readline`` in a worker
thread, and passes every message, both ways, through a memory stream to a task of its
own. Here the server's dispatcher reads the requests straight off the pipe
(:class:`Requests` over :class:`WireReader`) and each answer is written whole where the
dispatcher sends it (:class:`Answers` over :class:`WireWriter`): per call, one round
trip between threads and two between tasks fewer, each tens of microseconds on a busy
machine. Messages are parsed and written exactly as the SDK's transport does.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import AsyncIterable, Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any

import anyio
import anyio.abc
import mcp_types
from mcp.server import Server
from mcp.shared.message import SessionMessage

from patchwright.adapters.limits import oversized_line

__all__ = ["Answers", "Requests", "WireReader", "WireWriter", "claimed_stdout", "serve_stdio"]


async def serve_stdio(
    server: Server[Any],
    max_message_bytes: int | None = None,
    on_ready: Callable[[], None] | None = None,
) -> None:
    """Serve one client over standard input and output until it disconnects.

    A message longer than ``max_message_bytes`` (default: limits.DEFAULT_MAX_INPUT_MB) is
    refused without being read whole (see limits.py). Requests come in through
    :class:`WireReader` (a pipe, a socket or a terminal; other inputs are read the SDK's
    way, in a worker thread); while serving, file descriptor 1 points at standard
    error, so stray output of a library never corrupts the protocol.

    SIGINT (Ctrl-C) or SIGTERM stops the server at once and cleanly: the calls in flight
    are told first (a write waiting for approval withdraws its proposal and answers
    so; see :func:`~patchwright.adapters.mcp.server.stop_calls`), then serving ends.
    ``on_ready`` is called once both are handled (the server's status line).
    """
    from patchwright.adapters.limits import DEFAULT_MAX_INPUT_MB, limited_stdin, mb_to_bytes

    limit = max_message_bytes or mb_to_bytes(DEFAULT_MAX_INPUT_MB)
    fd = sys.stdin.fileno()
    lines: AsyncIterable[str]
    if WireReader.suits(fd):
        lines = WireReader(fd, limit, "--max-message-mb")
    else:
        lines = limited_stdin(limit, "--max-message-mb")
    with claimed_stdout() as wire:
        requests, answers = Requests(lines), Answers(WireWriter(wire))
        async with anyio.create_task_group() as tg:
            if sys.platform != "win32":
                await tg.start(_stop_on_signal, server, tg.cancel_scope)
            if on_ready is not None:
                on_ready()
            await server.run(requests, answers, server.create_initialization_options())
            tg.cancel_scope.cancel()


async def _stop_on_signal(
    server: Server[Any],
    scope: anyio.CancelScope,
    *,
    task_status: anyio.abc.TaskStatus[None] = anyio.TASK_STATUS_IGNORED,
) -> None:
    """On SIGINT or SIGTERM: tell the calls in flight, then end serving."""
    import signal

    from patchwright.adapters.mcp.server import stop_calls

    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        task_status.started()
        async for _ in signals:
            await stop_calls(server)
            scope.cancel()
            return


class _Stream:
    """The closing part of the SDK's stream protocols: nothing to release."""

    async def aclose(self) -> None:
        """Nothing to close: the descriptors belong to the process."""

    async def __aenter__(self) -> Any:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> None:
        return None


class Requests(_Stream):
    """The client's messages, parsed from ``lines`` as the SDK's transport does: a line
    that is no JSON-RPC message comes as the exception that says why (the server
    answers it with an error and goes on)."""

    def __init__(self, lines: AsyncIterable[str]) -> None:
        self._lines = lines.__aiter__()

    def __aiter__(self) -> Requests:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        """The next message, or the error of a malformed one."""
        line = await self._lines.__anext__()
        try:
            message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except Exception as exc:  # the dispatcher reports it to the client
            return exc
        return SessionMessage(message)

    async def receive(self) -> SessionMessage | Exception:
        """The next message (``anyio.EndOfStream`` once the client closed its end)."""
        try:
            return await self.__anext__()
        except StopAsyncIteration:
            raise anyio.EndOfStream from None


class Answers(_Stream):
    """The server's messages, each dumped as the SDK's transport does and written whole."""

    def __init__(self, writer: WireWriter) -> None:
        self._writer = writer

    async def send(self, item: SessionMessage, /) -> None:
        """Write one message and its line break."""
        text = item.message.model_dump_json(by_alias=True, exclude_unset=True)
        await self._writer.write(text + "\n")


class WireReader:
    """The protocol's input: lines read from a descriptor on the event loop itself.

    The SDK reads standard input with a blocking ``readline`` in a worker thread, a
    round trip between threads per message (about 80 µs on a busy machine, as much as
    the whole SDK dispatch of a call). Here the loop waits until the descriptor is
    readable, then one ``os.read`` takes what is there. A line longer than ``limit``
    bytes is dropped as it arrives, never kept whole, and stands as
    :func:`~patchwright.adapters.limits.oversized_line`.
    """

    _CHUNK = 1 << 16

    def __init__(self, fd: int, limit: int, option: str) -> None:
        self._fd = fd
        self._limit = limit
        self._option = option
        self._buffer = bytearray()
        self._searched = 0  # bytes of the buffer known to hold no line break
        self._dropping = False

    @staticmethod
    def suits(fd: int) -> bool:
        """Whether ``fd`` can be waited on by the event loop: a pipe, a socket or a
        terminal (not a regular file or ``/dev/null``, and not on Windows). A terminal
        read in a worker thread would hold standard input's lock when Ctrl-C ends the
        process ("could not acquire lock for stdin" at exit)."""
        if sys.platform == "win32":
            return False
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            return False
        return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)

    def __aiter__(self) -> WireReader:
        return self

    async def __anext__(self) -> str:
        """The next line (with its line break), decoded as UTF-8."""
        while True:
            line = self._next_line()
            if line is not None:
                return line
            await anyio.wait_readable(self._fd)
            try:
                chunk = os.read(self._fd, self._CHUNK)
            except BlockingIOError:  # a non-blocking pipe woken for nothing: wait again
                continue
            if not chunk:
                return self._last_line()
            self._buffer += chunk

    def _next_line(self) -> str | None:
        end = self._buffer.find(b"\n", self._searched)
        if end < 0:
            self._searched = len(self._buffer)
            if self._searched > self._limit:  # drop what came so far, and the rest
                self._dropping = True
                del self._buffer[:]
                self._searched = 0
            return None
        raw = bytes(self._buffer[: end + 1])
        del self._buffer[: end + 1]
        self._searched = 0
        if self._dropping or len(raw) > self._limit + 1:
            self._dropping = False
            return oversized_line(self._limit, self._option)
        return raw.decode("utf-8", errors="replace")

    def _last_line(self) -> str:
        if not self._buffer or self._dropping:
            raise StopAsyncIteration
        raw = bytes(self._buffer)
        del self._buffer[:]
        return raw.decode("utf-8", errors="replace")


class WireWriter:
    """The protocol's output: each message written whole to a descriptor, in place.

    The SDK's own writer hands every write and every flush to a worker thread, two round
    trips between threads per answer; here one ``os.write`` (rarely more, for a message
    larger than the pipe's buffer) sends the message from the event loop itself. A
    write can only wait for the client to read, which a client awaiting its answer does;
    on a descriptor its parent made non-blocking, the loop waits until there is room.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd

    async def write(self, text: str) -> None:
        """Send ``text`` (one JSON-RPC message and its newline) whole.

        Raises:
            anyio.BrokenResourceError: the client closed its end of the wire.
        """
        view = memoryview(text.encode("utf-8"))
        while view:
            try:
                view = view[os.write(self._fd, view) :]
            except BlockingIOError:  # a non-blocking pipe that is full: wait for room
                await anyio.wait_writable(self._fd)
            except (BrokenPipeError, ConnectionResetError) as exc:
                # the client is gone: the dispatcher drops an answer nobody can read
                raise anyio.BrokenResourceError from exc

    async def flush(self) -> None:
        """Nothing to flush: :meth:`write` sent everything."""


@contextmanager
def claimed_stdout() -> Iterator[int]:
    """A private descriptor of the protocol's standard output; meanwhile descriptor 1
    points at standard error, and is put back on exit."""
    sys.stdout.flush()
    try:
        import fcntl  # POSIX: above 0-2 even when one of them is closed

        wire = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3)
    except ImportError:
        wire = os.dup(1)
    os.dup2(2, 1)
    try:
        yield wire
    finally:
        sys.stdout.flush()
        os.dup2(wire, 1)
        os.close(wire)
