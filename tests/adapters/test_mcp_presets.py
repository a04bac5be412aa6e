"""Every preset over the real MCP SDK client: a scripted session per preset.

Each session (tests/adapters/mcp_sessions.py) lists, searches and reads, edits, applies
patches in each format the preset takes, and meets the refusals an agent meets (the same
edit twice, a misspelt path, a folder, ``\\`` separators) with the expected next step.
Every preset runs over stdio; the default one also over streamable HTTP. The answers are
the transcripts in docs/presets/NAME.md: the test fails when a page differs from what
the server answers (``PATCHWRIGHT_WRITE_DOCS=1`` rewrites them). Restricted mode is
played with a client that supports elicitation (the user allows, then declines) and
with one that does not.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, ElicitResult, TextContent
from mcp_sessions import FILES, NEW, OLD, SESSIONS, Session, stable
from test_mcp_server import SERVER, TIMEOUT, _http_server

from patchwright.tools import PRESETS, TOOL_NAMES, select_specs, tool_definitions
from patchwright.workspace import RESTRICTED_MESSAGE

DOCS = Path(__file__).resolve().parents[2] / "docs" / "presets"
MARKER = "<!-- Below: the session as the server answered it; a test checks it. -->"
# tool names a hint could send a model to (plain words like "patch" or "Read" are left out)
_NAMED = [n for n in TOOL_NAMES if "_" in n] + ["request_mode_upgrade"]


def _make_root(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _client(root: Path, tmp_path: Path, log: TextIO, *args: str, **options: Any) -> Client:
    params = StdioServerParameters(
        command=SERVER[0], args=[*SERVER[1:], "--root", str(root), *args],
        env={"PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")},
    )  # fmt: skip
    return Client(stdio_client(params, errlog=log), read_timeout_seconds=TIMEOUT, **options)


def _text(result: CallToolResult) -> str:
    first = result.content[0]
    assert isinstance(first, TextContent)
    return first.text


def _check_hints(preset: str, text: str) -> None:
    """No answer sends the model to a tool this preset does not expose."""
    exposed = {s.name for s in select_specs(preset=preset)}
    hint = text.partition("\nHint: ")[2]
    for name in _NAMED:
        if name not in exposed:
            assert not re.search(rf"\b{name}\b", hint), (preset, name, hint)


async def _play(client: Client, preset: str, session: Session) -> list[str]:
    """Run the session's steps; returns the transcript's entries."""
    listed = (await client.list_tools()).tools
    assert [t.name for t in listed] == [s.name for s in select_specs(preset=preset)]
    size = len(json.dumps({"tools": tool_definitions(select_specs(preset=preset), "mcp")}))
    entries = [f"Tools listed: {', '.join(t.name for t in listed)} ({size:,} characters).\n"]
    seen: dict[str, str] = {}
    for number, step in enumerate(session.steps, start=1):
        result = await client.call_tool(step.tool, step.args)
        text = _text(result)
        code = (result.structured_content or {}).get("error", {}).get("code")
        assert result.is_error is (step.code is not None), (number, text)
        assert code == step.code, (number, text)
        for expected in step.says:
            assert expected in text, (number, expected, text)
        _check_hints(preset, text)
        verdict = f"refused: `{code}`" if code else "ok"
        entries.append(
            f"### {number}. {step.why}\n\n```json\n"
            f"{json.dumps({'tool': step.tool, 'arguments': step.args}, indent=2)}\n```\n\n"
            f"Answer ({verdict}):\n\n```text\n{stable(text, seen)}\n```\n"
        )
    return entries


def _check_tree(root: Path, session: Session) -> None:
    for rel, holds in session.after.items():
        path = root / rel
        if holds is None:
            assert not path.exists(), rel
        else:
            assert holds in path.read_text(), (rel, path.read_text())


def _check_page(preset: str, entries: list[str]) -> None:
    page = DOCS / f"{preset}.md"
    head = page.read_text().partition(MARKER)[0] if page.exists() else f"# {preset}\n\n"
    generated = "\n".join(entries)
    if os.environ.get("PATCHWRIGHT_WRITE_DOCS") == "1":
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"{head.rstrip()}\n\n{MARKER}\n\n{generated}")
    assert page.read_text().partition(MARKER)[2].strip() == generated.strip(), (
        f"docs/presets/{preset}.md differs from the session: rerun with "
        "PATCHWRIGHT_WRITE_DOCS=1 and review the change"
    )


@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_preset_over_stdio(preset: str, tmp_path: Path) -> None:
    root = _make_root(tmp_path)
    session = SESSIONS[preset]

    async def scenario(log: TextIO) -> list[str]:
        async with _client(root, tmp_path, log, "--preset", preset) as client:
            return await _play(client, preset, session)

    with (tmp_path / "server.log").open("w") as log:
        entries = anyio.run(scenario, log)
    _check_tree(root, session)
    _check_page(preset, entries)


def test_the_default_preset_over_http(tmp_path: Path) -> None:
    root = _make_root(tmp_path)
    env = {"PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")}

    async def scenario(url: str) -> None:
        async with Client(url, read_timeout_seconds=TIMEOUT) as client:
            await _play(client, "default", SESSIONS["default"])

    with _http_server(root, env) as (url, _):
        anyio.run(scenario, url)
    _check_tree(root, SESSIONS["default"])


def _answering(allow: bool | None) -> Callable[..., Any]:
    async def answer(context: Any, params: Any) -> ElicitResult:
        assert "read-only" in params.message
        if allow is None:
            return ElicitResult(action="cancel")
        return ElicitResult(action="accept", content={"allow": allow})

    return answer


EDIT = {"path": "app.py", "old_string": OLD, "new_string": NEW}


@pytest.mark.parametrize(
    ("allow", "era"), [(True, "auto"), (True, "legacy"), (False, "auto"), (None, "legacy")]
)
def test_restricted_mode_asks_the_user_when_the_client_can(
    allow: bool | None, era: str, tmp_path: Path
) -> None:
    # "auto" negotiates the 2026 protocol (the question comes back as an input-required
    # result), "legacy" the initialize handshake (an elicitation/create request)
    root = _make_root(tmp_path)

    async def scenario(log: TextIO) -> CallToolResult:
        callback = _answering(allow)
        async with _client(
            root, tmp_path, log, "--access", "restricted", elicitation_callback=callback, mode=era
        ) as client:
            return await client.call_tool("edit_file", EDIT)

    with (tmp_path / "server.log").open("w") as log:
        result = anyio.run(scenario, log)
    if allow:
        assert not result.is_error and "granted write access" in _text(result)
        assert NEW in (root / "app.py").read_text()
    else:
        assert result.is_error and _text(result).startswith(RESTRICTED_MESSAGE)
        assert (root / "app.py").read_text() == FILES["app.py"]


def test_restricted_mode_without_elicitation_hints_to_ask_the_user(tmp_path: Path) -> None:
    root = _make_root(tmp_path)

    async def scenario(log: TextIO) -> tuple[CallToolResult, CallToolResult]:
        async with _client(root, tmp_path, log, "--access", "restricted") as client:
            read = await client.call_tool("read_file", {"path": "app.py"})
            return read, await client.call_tool("edit_file", EDIT)

    with (tmp_path / "server.log").open("w") as log:
        read, write = anyio.run(scenario, log)
    assert not read.is_error
    text = _text(write)
    assert write.is_error and text.startswith(RESTRICTED_MESSAGE + "\nHint: ")
    assert "ask the user for write access" in text
    _check_hints("default", text)
