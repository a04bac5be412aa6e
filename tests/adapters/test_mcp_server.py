"""``patchwright mcp`` as a real subprocess, driven by the MCP SDK's own client.

Over stdio (both protocol eras: the 2026 per-request era a current client negotiates,
and the initialize handshake of older clients) and over streamable HTTP on a free
loopback port. Most servers run the module behind the subcommand; one runs the installed
``patchwright`` console script, the route an MCP client configuration takes. Every
server is stopped at the end of its test.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, TextContent
from served import served

from patchwright.tools import PRESETS, input_schema, select_specs
from patchwright.workspace import RESTRICTED_MESSAGE

# the module `patchwright mcp` runs; started directly so most tests need no installed script
SERVER = [sys.executable, "-m", "patchwright.adapters.cli.mcp"]
# the console script the package installs, next to the interpreter running the tests
SCRIPT = Path(sys.executable).with_name("patchwright.exe" if os.name == "nt" else "patchwright")
GREET = 'def greet(name):\n    print("Hello, " + name)\n'
APP = GREET + '\n\nif __name__ == "__main__":\n    greet("world")\n'
TIMEOUT = 20
SPEC = ("--preset", "spec")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    (folder / "app.py").write_text(APP)
    return folder


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {"PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")}


def _stdio_client(
    root: Path,
    env: dict[str, str],
    log: TextIO,
    *args: str,
    mode: str,
    server: tuple[str, ...] = tuple(SERVER),
) -> Client:
    params = StdioServerParameters(
        command=server[0], args=[*server[1:], "--root", str(root), *args], env=env
    )
    return Client(stdio_client(params, errlog=log), mode=mode, read_timeout_seconds=TIMEOUT)


async def _check_listing(client: Client) -> None:
    """The tools listed are the registry's, with its schemas, texts and hints."""
    listed = (await client.list_tools()).tools
    assert [t.name for t in listed] == list(PRESETS["spec"].tools)
    for tool, spec in zip(listed, select_specs(preset="spec")):
        assert tool.input_schema == input_schema(spec)
        assert tool.description == spec.description and tool.title == spec.title
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is spec.annotations.read_only
        assert tool.annotations.destructive_hint is spec.annotations.destructive


def _text(result: CallToolResult) -> str:
    first = result.content[0]
    assert isinstance(first, TextContent)
    return first.text


async def _call(client: Client, name: str, arguments: dict[str, Any]) -> CallToolResult:
    return await client.call_tool(name, arguments)


def _cut(path: str = "app.py") -> dict[str, Any]:
    return {"path": path, "patches": [{"operation": "replace", "oldText": GREET,
            "newText": "from greeting import greet\n", "toClipboard": "greet"}]}  # fmt: skip


def _paste() -> dict[str, Any]:
    return {
        "path": "greeting.py",
        "patches": [{"operation": "overwrite", "fromClipboard": "greet"}],
    }


def test_stdio_lists_tools_patches_moves_through_a_clipboard_and_undoes(
    root: Path, env: dict[str, str], tmp_path: Path
) -> None:
    async def scenario(log: TextIO) -> None:
        async with _stdio_client(root, env, log, *SPEC, mode="auto") as client:
            assert client.server_info is not None and client.server_info.name == "patchwright"
            assert str(root) in (client.instructions or "")
            await _check_listing(client)

            edit = await _call(client, "patch", {"path": "app.py", "patches": [
                {"operation": "replace", "oldText": '"world"', "newText": '"MCP"'}]})  # fmt: skip
            assert not edit.is_error, _text(edit)
            assert _text(edit).startswith("Applied 1 patch to app.py")
            diff = edit.content[1]
            assert isinstance(diff, TextContent) and '+    greet("MCP")' in diff.text
            assert diff.annotations is not None and diff.annotations.audience == ["user"]
            structured = edit.structured_content
            assert structured["ok"] is True and structured["diff"] == diff.text
            assert structured["data"]["batch_id"].startswith("b-")

            # cut in one call, paste in the next: the clipboard lives as long as the process
            cut = await _call(client, "patch", _cut())
            assert not cut.is_error, _text(cut)
            paste = await _call(client, "patch", _paste())
            assert not paste.is_error, _text(paste)
            assert (root / "greeting.py").read_text() == GREET
            assert (root / "app.py").read_text().startswith("from greeting import greet\n")

            missing = {"path": "app.py", "old_string": "zzz", "new_string": "y"}
            refused = await _call(client, "edit_file", missing)
            assert refused.is_error and "No change was made" in _text(refused)
            assert refused.structured_content["error"]["code"] == "not_found"
            invalid = await _call(client, "patch", {"path": "app.py", "patches": "all"})
            assert invalid.is_error and "patches" in _text(invalid)

            undo = await _call(client, "undo", {})
            assert not undo.is_error, _text(undo)
            assert not (root / "greeting.py").exists()
            assert (await _call(client, "read_file", {"path": "app.py"})).is_error is False

    with (tmp_path / "server.log").open("w") as log:
        anyio.run(scenario, log)


def test_stdio_restricted_mode_and_tool_selection_over_the_handshake(
    root: Path, env: dict[str, str], tmp_path: Path
) -> None:
    # Through the installed console script: `patchwright mcp`, as a client config runs it.
    if not SCRIPT.is_file():  # pragma: no cover - only outside an installed environment
        pytest.skip(f"no installed patchwright script at {SCRIPT}")

    async def scenario(log: TextIO) -> None:
        args = ("--access", "restricted", "--tools", "read_file,patch,undo")
        script = (str(SCRIPT), "mcp")
        async with _stdio_client(root, env, log, *args, mode="legacy", server=script) as client:
            assert client.protocol_version.startswith("2025")
            assert [t.name for t in (await client.list_tools()).tools] == [
                "read_file", "patch", "undo"]  # fmt: skip
            read = await _call(client, "read_file", {"path": "app.py"})
            assert not read.is_error and "     2\t" in _text(read)
            write = await _call(client, "patch", _cut())
            assert write.is_error
            assert _text(write).startswith(RESTRICTED_MESSAGE)
            hidden = await _call(client, "edit_file", {"path": "app.py"})
            assert hidden.is_error and "Unknown tool 'edit_file'" in _text(hidden)

    with (tmp_path / "server.log").open("w") as log:
        anyio.run(scenario, log)
    assert (root / "app.py").read_text() == APP
    assert "serving 3 tools" in (tmp_path / "server.log").read_text()


@contextmanager
def _http_server(
    root: Path, env: dict[str, str], *args: str
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    argv = ["mcp", "--root", str(root), "--http", "127.0.0.1:0", *args]
    with served(argv, {**os.environ, **env}, stop_timeout=10) as (url, process):
        yield url, process


def test_http_gives_each_client_session_its_own_session(root: Path, env: dict[str, str]) -> None:
    async def connect_twice(url: str) -> None:
        async with Client(url, read_timeout_seconds=TIMEOUT) as first:
            await _check_listing(first)  # the same schemas as over stdio
            alone = await _call(first, "patch", {"path": "app.py", "patches": [
                {"operation": "replace", "oldText": '"world"', "newText": '"HTTP"'}]})  # fmt: skip
            assert not alone.is_error, _text(alone)
            assert _text(alone).startswith("Applied 1 patch to app.py")
            assert alone.structured_content["data"]["batch_id"].startswith("b-")
            assert '    greet("HTTP")' in (root / "app.py").read_text()
            cut = await _call(first, "patch", _cut())
            assert not cut.is_error, _text(cut)
            # a second client session has clipboards of its own: the first one's is not
            # there, while the workspace and its history are shared
            async with Client(url, mode="legacy", read_timeout_seconds=TIMEOUT) as second:
                elsewhere = await _call(second, "patch", _paste())
                assert elsewhere.is_error and "greet" in _text(elsewhere)
                assert not (root / "greeting.py").exists()
                paste = await _call(first, "patch", _paste())
                assert not paste.is_error, _text(paste)
                undo = await _call(second, "undo", {})
                assert not undo.is_error, _text(undo)

    with _http_server(root, env, *SPEC) as (url, process):
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
        anyio.run(connect_twice, url)
        process.send_signal(signal.SIGINT)  # Ctrl-C: a clean stop
        assert process.wait(timeout=10) == 0
    assert not (root / "greeting.py").exists()
    app = (root / "app.py").read_text()
    assert app.startswith("from greeting import greet\n") and 'greet("HTTP")' in app


def test_http_reads_count_only_in_the_session_that_made_them(
    root: Path, env: dict[str, str]
) -> None:
    # two client sessions: the handshake protocol ("legacy" to the SDK's client) gives
    # each an id; the 2026-07-28 revision has no session, so it cannot tell them apart
    edit = {"file_path": "app.py", "old_string": '"world"', "new_string": '"reader"'}

    async def two_agents(url: str) -> None:
        async with (
            Client(url, mode="legacy", read_timeout_seconds=TIMEOUT) as reader,
            Client(url, mode="legacy", read_timeout_seconds=TIMEOUT) as other,
        ):
            read = await _call(reader, "Read", {"file_path": "app.py"})
            assert not read.is_error, _text(read)
            unread = await _call(other, "Edit", edit)
            assert unread.is_error
            assert _text(unread).startswith("File has not been read yet.")
            assert (root / "app.py").read_text() == APP
            done = await _call(reader, "Edit", edit)
            assert not done.is_error, _text(done)

    with _http_server(root, env, "--preset", "claude-code") as (url, _):
        anyio.run(two_agents, url)
    assert (root / "app.py").read_text() == APP.replace('"world"', '"reader"')


def test_http_a_confirm_token_is_refused_in_another_session(
    root: Path, env: dict[str, str]
) -> None:
    (root / "limits.py").write_text("limit = 10\nother = 1\nlimit = 10\n")
    edit = {"path": "limits.py", "old_string": "limit = 10", "new_string": "limit = 20"}

    async def two_agents(url: str) -> None:
        async with (
            Client(url, mode="legacy", read_timeout_seconds=TIMEOUT) as owner,
            Client(url, mode="legacy", read_timeout_seconds=TIMEOUT) as other,
        ):
            refusal = await _call(owner, "edit_file", edit)
            assert refusal.is_error
            candidates = refusal.structured_content["candidates"]
            assert [c["line"] for c in candidates] == [1, 3]
            token = candidates[1]["token"]
            stolen = await _call(other, "edit_file", {"confirm": token})
            assert stolen.is_error
            assert f"Confirm token {token!r} was given to another session" in _text(stolen)
            assert (root / "limits.py").read_text() == "limit = 10\nother = 1\nlimit = 10\n"
            done = await _call(owner, "edit_file", {"confirm": token})
            assert not done.is_error, _text(done)

    with _http_server(root, env) as (url, _):
        anyio.run(two_agents, url)
    assert (root / "limits.py").read_text() == "limit = 10\nother = 1\nlimit = 20\n"


def test_http_restricted_mode_refuses_writes(root: Path, env: dict[str, str]) -> None:
    async def try_to_write(url: str) -> None:
        async with Client(url, read_timeout_seconds=TIMEOUT) as client:
            assert len((await client.list_tools()).tools) == len(PRESETS["spec"].tools)
            read = await _call(client, "read_file", {"path": "app.py"})
            assert not read.is_error and "     2\t" in _text(read)
            write = await _call(client, "patch", _cut())
            assert write.is_error and _text(write).startswith(RESTRICTED_MESSAGE)
            assert write.structured_content["ok"] is False

    with _http_server(root, env, "--access", "restricted", *SPEC) as (url, _):
        anyio.run(try_to_write, url)
    assert (root / "app.py").read_text() == APP


def test_batches_name_the_client_and_its_session(root: Path, env: dict[str, str]) -> None:
    from mcp.types import Implementation

    from patchwright.workspace import Workspace

    made: dict[str, str] = {}

    async def edit(url: str) -> None:
        agent = Implementation(name="test-agent", version="1.0")
        async with Client(url, mode="legacy", client_info=agent, read_timeout_seconds=TIMEOUT) as c:
            done = await _call(c, "patch", {"path": "app.py", "patches": [
                {"operation": "replace", "oldText": '"world"', "newText": '"you"'}]})  # fmt: skip
            assert not done.is_error, _text(done)
            made["batch_id"] = done.structured_content["data"]["batch_id"]
            made["text"] = _text(done)

    with _http_server(root, env, *SPEC) as (url, _):
        anyio.run(edit, url)
    batch = Workspace(root, state_dir=env["PATCHWRIGHT_STATE_DIR"]).history.get(made["batch_id"])
    assert batch["meta"]["client"] == "test-agent 1.0"
    session = batch["meta"]["session"]
    assert session and not session.startswith("mcp-")  # the HTTP session, not the process
    assert batch["answer"] == made["text"]  # what the model was answered


def test_one_ctrl_c_stops_a_server_started_on_a_terminal(root: Path, env: dict[str, str]) -> None:
    import pty

    terminal, side = pty.openpty()  # standard input is a terminal, as when run by hand
    process = subprocess.Popen(
        [*SERVER, "--root", str(root)], stdin=side, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, env={**os.environ, **env}, text=True,
    )  # fmt: skip
    os.close(side)
    try:
        assert process.stderr is not None
        assert "serving" in process.stderr.readline()
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:  # pragma: no cover - only when the stop fails
            process.kill()
            process.communicate()
        os.close(terminal)
    assert process.returncode == 0, err
    assert "Fatal Python error" not in err and "Traceback" not in err
