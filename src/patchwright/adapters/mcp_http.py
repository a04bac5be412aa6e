"""The MCP server over streamable HTTP (``patchwright mcp --http HOST:PORT``).

The SDK's streamable-HTTP app runs under uvicorn on a socket bound here, before the
server starts, so port 0 (any free port) works and the real address is known and
announced. On a loopback host the SDK's DNS-rebinding protection is on: requests must
name a loopback ``Host`` and, when they carry one, a loopback ``Origin``.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

import anyio
from mcp.server import Server

__all__ = ["ENDPOINT_PATH", "bind", "serve_http", "url_of"]

#: The path the MCP endpoint is served at.
ENDPOINT_PATH = "/mcp"

# seconds open connections (event streams) get to finish after SIGINT / SIGTERM
_GRACE_SECONDS = 2


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0 picks a free port).

    Raises:
        OSError: the address cannot be bound (in use, not local, no permission).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


def url_of(sock: socket.socket) -> str:
    """The MCP endpoint URL of a bound socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{ENDPOINT_PATH}"


async def serve_http(
    server: Server[Any],
    sock: socket.socket,
    *,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve ``server`` on the bound socket until SIGINT or SIGTERM.

    ``on_ready`` receives the endpoint URL once the server accepts connections.
    """
    import uvicorn

    host = sock.getsockname()[0]
    app = server.streamable_http_app(streamable_http_path=ENDPOINT_PATH, host=host)
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=_GRACE_SECONDS,
    )
    web = uvicorn.Server(config)

    async def announce() -> None:
        # uvicorn sets `started` once it accepts connections
        while not web.started and not web.should_exit:
            await anyio.sleep(0.02)
        if web.started and on_ready is not None:
            on_ready(url_of(sock))

    async with anyio.create_task_group() as tg:
        tg.start_soon(announce)
        await web.serve(sockets=[sock])
        tg.cancel_scope.cancel()
