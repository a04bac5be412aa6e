"""A bare MCP server on the official Python SDK: one ``edit_file`` tool that does nothing.

``bench/mcp_latency.py --floors`` times it beside the real servers: what a call costs
with the SDK's low-level ``mcp.server.Server`` over stdio alone, before any tool work
(the floor a Python MCP server starts from). With ``--wire`` the same server is served
the way ``patchwright mcp`` serves its own (``patchwright.adapters.mcp.stdio``, and no
tracing middleware without a tracer provider): the floor patchwright's calls start from.

``bench/concurrency.py --reference`` serves it over streamable HTTP instead
(``--http``): the SDK's own app (``Server.streamable_http_app``, stateful sessions,
answers as event streams, the body limit and idle time-out ``patchwright mcp --http``
passes) under uvicorn with httptools, on a free loopback port whose URL is printed on
stderr; no tracing middleware without a tracer provider, as patchwright builds its
server. Nothing of patchwright is imported. With ``--root ROOT`` its ``edit_file``
edits for real, in plain Python: reads ``ROOT/path``, replaces the one occurrence of
``old_string`` with ``new_string`` and writes the file back, fsynced (as patchwright
writes), in a worker thread (as patchwright runs its calls).
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from mcp import types
from mcp.server import Server
from mcp.server.stdio import stdio_server

_TOOL = types.Tool(
    name="edit_file",
    description="Does nothing (a benchmark floor).",
    input_schema={"type": "object", "additionalProperties": True},
)

# what `patchwright mcp --http` gives the SDK's app (adapters/mcp/http.py's defaults)
_MAX_BODY_BYTES = 64 * 2**20
_IDLE_SECONDS = 600.0


async def _list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[_TOOL])


async def _call_tool(ctx: Any, params: Any) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text="ok")])


def _edit(root: Path, arguments: dict[str, Any]) -> str:
    """``edit_file`` in plain Python: the text to answer; raises when the edit cannot be made."""
    path = root / str(arguments["path"])
    old, new = str(arguments["old_string"]), str(arguments["new_string"])
    with open(path, encoding="utf-8", newline="") as handle:
        text = handle.read()
    if text.count(old) != 1:
        raise ValueError(f"old_string occurs {text.count(old)} times in {arguments['path']}")
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text.replace(old, new))
        handle.flush()
        os.fsync(handle.fileno())
    return f"Edited {arguments['path']}: 1 replacement."


def _file_tool(root: Path) -> Any:
    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            text = await anyio.to_thread.run_sync(_edit, root, params.arguments or {})
        except (OSError, ValueError, KeyError) as exc:
            failed = types.TextContent(type="text", text=f"edit_file failed: {exc}")
            return types.CallToolResult(content=[failed], is_error=True)
        return types.CallToolResult(content=[types.TextContent(type="text", text=text)])

    return call_tool


def _tracing_configured() -> bool:
    from opentelemetry import trace

    return not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)


async def _serve_http(server: Server[Any]) -> None:
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as patchwright's bind
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    sock.setblocking(False)
    app = server.streamable_http_app(
        streamable_http_path="/mcp",
        host="127.0.0.1",
        max_request_body_size=_MAX_BODY_BYTES,
        session_idle_timeout=_IDLE_SECONDS,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, timeout_graceful_shutdown=2, http="httptools"
    )
    # the socket listens already: a client that connects now waits in its backlog
    print(f"serving http://127.0.0.1:{sock.getsockname()[1]}/mcp", file=sys.stderr, flush=True)
    await uvicorn.Server(config).serve(sockets=[sock])


async def _main() -> None:
    call_tool = _call_tool
    if "--root" in sys.argv:
        call_tool = _file_tool(Path(sys.argv[sys.argv.index("--root") + 1]))
    server: Server[Any] = Server("noop", on_list_tools=_list_tools, on_call_tool=call_tool)
    if "--http" in sys.argv:
        if not _tracing_configured():  # as patchwright's build_server does
            server.middleware = []
        await _serve_http(server)
        return
    if "--wire" in sys.argv:
        from patchwright.adapters.mcp.server import tracing_configured
        from patchwright.adapters.mcp.stdio import serve_stdio

        if not tracing_configured():  # as build_server does
            server.middleware = []
        await serve_stdio(server)
        return
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(_main)
