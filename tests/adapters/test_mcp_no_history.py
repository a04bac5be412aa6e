"""``patchwright mcp --no-history``: edits are written, nothing is recorded, and the
history tools say so instead of failing silently. A real server over stdio, driven by
the MCP SDK's client, stopped at the end of the test."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import anyio
from test_mcp_server import _stdio_client, _text, env, root

__all__ = ["env", "root"]  # the fixtures, shared with the other MCP server tests


def test_no_history_edits_without_recording(
    root: Path, env: dict[str, str], tmp_path: Path
) -> None:
    async def scenario(log: TextIO) -> None:
        async with _stdio_client(root, env, log, "--no-history", mode="auto") as client:
            edit = await client.call_tool(
                "edit_file", {"path": "app.py", "old_string": '"world"', "new_string": '"MCP"'}
            )
            assert not edit.is_error, _text(edit)
            undo = await client.call_tool("undo", {})
            assert undo.is_error and "no history" in _text(undo)

    with open(tmp_path / "server.log", "w") as log:
        anyio.run(scenario, log)
    assert 'greet("MCP")' in (root / "app.py").read_text()
    state = Path(env["PATCHWRIGHT_STATE_DIR"])
    assert state.is_dir()  # the workspace's state (locks) is there, its history is not
    assert list(state.rglob("history.sqlite3*")) == []
