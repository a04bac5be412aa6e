"""Input-size limits, enforced before an input is read whole or parsed.

A patch given to ``patchwright apply``, the arguments of ``patchwright call`` and every
MCP message are refused once they pass their limit, having read at most one byte more:
memory stays bounded by the limit, not by what a client sends. Each refusal names the
limit and the option that raises it. Over HTTP the SDK's own body limit is set to the
same figure (mcp/http.py).
"""

from __future__ import annotations

import io

from patchwright.model.errors import ErrorCode, PatchwrightError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

    import anyio

#: Default limit of a patch, of tool-call arguments and of one MCP message: 64 MiB.
DEFAULT_MAX_INPUT_MB = 64.0


def mb_to_bytes(mb: float) -> int:
    """A ``--max-...-mb`` option value in bytes."""
    return int(mb * 2**20)


def too_large(what: str, limit: int, option: str) -> PatchwrightError:
    """The refusal of an input over ``limit`` bytes."""
    return PatchwrightError(
        ErrorCode.TOO_LARGE,
        f"{what} is larger than the limit of {limit} bytes ({limit / 2**20:g} MB); it was "
        "not read. Nothing was changed.",
        f"Send a smaller input, or raise the limit with {option}.",
        details={"limit": limit, "option": option},
    )


def read_limited(stream: BinaryIO, limit: int, what: str, option: str) -> bytes:
    """All of ``stream``, or :func:`too_large` once it passes ``limit`` bytes."""
    # One ``read(limit + 1)`` would allocate the whole limit (64 MiB by default) for a
    # patch of a few kilobytes (a buffered read allocates what it is asked for, then
    # shrinks). Asking for what a regular file holds plus one byte, then for chunks,
    # keeps the buffers about the size of the input.
    chunks: list[bytes] = []
    total = 0
    step = _first_read(stream)
    while total <= limit:
        chunk = stream.read(min(step, limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        # a short read is most likely the end: ask for a little to see it, not a chunk
        step = _CHUNK if len(chunk) == step else _PROBE
    if total > limit:
        raise too_large(what, limit, option)
    return b"".join(chunks)


_CHUNK = 1 << 20
_PROBE = 1 << 16


def _first_read(stream: BinaryIO) -> int:
    """How much to ask for first: a regular file's size plus one, else one chunk."""
    import os
    import stat

    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        return _CHUNK
    return st.st_size + 1 if stat.S_ISREG(st.st_mode) else _CHUNK


class LimitedLines:
    """A text stream of lines, none longer than ``limit`` characters kept in memory.

    A longer line is consumed chunk by chunk and dropped; in its place comes a line
    that is no JSON-RPC message, so the server reports a malformed message and goes on,
    and one line on standard error names the limit and the option that raises it.
    """

    def __init__(self, raw: io.TextIOWrapper, limit: int, option: str) -> None:
        self._raw = raw
        self._limit = limit
        self._option = option

    def readline(self, size: int = -1) -> str:
        """The next line, or the stand-in of an oversized one (see class)."""
        line = self._raw.readline(self._limit + 1)
        if len(line) <= self._limit or line.endswith("\n"):
            return line
        while line and not line.endswith("\n"):  # drop the rest without keeping it
            line = self._raw.readline(1 << 20)
        return oversized_line(self._limit, self._option)


def oversized_line(limit: int, option: str) -> str:
    """What stands for an MCP message longer than ``limit`` that was dropped unread: a
    line that is no JSON-RPC message (the server reports it and goes on), after one line
    on standard error naming the limit and ``option``."""
    import logging  # only the MCP server reads lines: the CLI's apply never logs

    logging.getLogger("patchwright.limits").error(
        "refused an MCP message over the size limit (%d) without reading it whole; "
        "raise the limit with %s",
        limit,
        option,
    )
    return "message over the size limit\n"


def limited_stdin(limit: int, option: str) -> anyio.AsyncFile[str]:
    """Standard input as the MCP stdio transport reads it, with :class:`LimitedLines`."""
    import sys

    raw = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    import anyio  # only for the MCP server: the CLI's apply never needs it

    return anyio.wrap_file(LimitedLines(raw, limit, option))  # type: ignore[arg-type]
