"""A bare MCP server on the official Python SDK: one ``edit_file`` tool that does nothing.

``bench/mcp_latency.py --floors`` times it beside the real servers: what a call costs
with the SDK's low-level ``mcp.server.Server`` over stdio alone, before any tool work
(the floor a Python MCP server starts from). With ``--wire`` the same server is served
the way ``patchwright mcp`` serves its own (``patchwright.adapters.mcp.stdio``, and no
tracing middleware without a tracer provider): the floor patchwright's calls start from.
"""

from __future__ import annotations

import sys
from typing import Any

import anyio
from mcp import types
from mcp.server import Server
from mcp.server.stdio import stdio_server

_TOOL = types.Tool(
    name="edit_file",
    description="Does nothing (a benchmark floor).",
    input_schema={"type": "object", "additionalProperties": True},
)


async def _list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[_TOOL])


async def _call_tool(ctx: Any, params: Any) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text="ok")])


async def _main() -> None:
    server: Server[Any] = Server("noop", on_list_tools=_list_tools, on_call_tool=_call_tool)
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
