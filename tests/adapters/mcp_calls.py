"""One MCP tool call to a fresh ``patchwright mcp`` server over stdio, made in a thread,
so a test can act (approve, reject) while the call waits."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, Implementation, TextContent

# seconds a call may take, approval included
CALL_TIMEOUT = 120
#: The ``clientInfo`` the calls send (recorded with their batches and proposals).
CLIENT = Implementation(name="test-agent", version="1.0")


class McpCall(threading.Thread):
    """``name(args)`` on ``patchwright mcp --root ROOT *server_args``, started at once."""

    def __init__(
        self, root: Path, env: dict[str, str], name: str, args: dict[str, Any], *server_args: str
    ) -> None:
        super().__init__(daemon=True)
        self.params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "patchwright", "mcp", "--root", str(root), *server_args],
            env=env,
        )
        self.name, self.args = name, args
        self.result: CallToolResult | None = None
        self.start()

    def run(self) -> None:
        async def call() -> None:
            with open(os.devnull, "w") as log:
                client = Client(
                    stdio_client(self.params, errlog=log), read_timeout_seconds=CALL_TIMEOUT,
                    client_info=CLIENT,
                )  # fmt: skip
                async with client:
                    self.result = await client.call_tool(self.name, self.args)

        anyio.run(call)

    def outcome(self) -> tuple[bool, str]:
        """Whether the call succeeded, and the text the model reads."""
        self.join(CALL_TIMEOUT)
        assert self.result is not None, "the MCP call never returned"
        first = self.result.content[0]
        assert isinstance(first, TextContent)
        return not self.result.is_error, first.text
