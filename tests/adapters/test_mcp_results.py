"""The MCP adapter in process: result shapes, the never-crash guard, ``patchwright mcp``
argument handling (the subprocess tests are in test_mcp_server.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.types import TextContent
from mcp_types.methods import serialize_server_result
from mcp_types.version import KNOWN_PROTOCOL_VERSIONS

from patchwright.adapters.cli.mcp import main, parse_endpoint
from patchwright.adapters.mcp.server import (
    build_server,
    call_result,
    instructions,
    tool_definition,
    tracing_configured,
    wire_result,
)
from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.tools import Toolbox, internal_error, mcp_tool, select_specs
from patchwright.workspace import Workspace


@pytest.fixture
def toolbox(tmp_path: Path) -> Toolbox:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("one\ntwo\n")
    return Toolbox(Workspace(root, state_dir=tmp_path / "state"), preset="spec")


def test_a_success_carries_text_then_the_diff_for_the_user() -> None:
    result = ToolResult(True, "Applied.", diff="--- a/x\n+++ b/x\n", data={"batch_id": "b-1"})
    answer = call_result(result)
    assert answer.is_error is False
    assert [c.text for c in answer.content if isinstance(c, TextContent)] == [
        "Applied.", "--- a/x\n+++ b/x\n"]  # fmt: skip
    diff = answer.content[1]
    assert diff.annotations is not None and diff.annotations.audience == ["user"]
    assert answer.structured_content == result.to_dict()


def test_a_refusal_is_an_error_result_without_a_diff() -> None:
    error = PatchwrightError(ErrorCode.NOT_FOUND, "Not there.", "Re-read the file.", path="a")
    answer = call_result(ToolResult.failure(error))
    assert answer.is_error is True
    assert len(answer.content) == 1
    dumped = answer.model_dump(by_alias=True, exclude_none=True)
    assert dumped["isError"] is True
    assert dumped["structuredContent"]["error"]["code"] == "not_found"


def test_tool_definitions_are_the_shared_mcp_shape() -> None:
    for spec in select_specs(preset="spec"):
        dumped = tool_definition(spec).model_dump(by_alias=True, exclude_none=True)
        assert dumped == mcp_tool(spec)


def test_instructions_name_the_root_and_the_mode(toolbox: Toolbox) -> None:
    assert str(toolbox.workspace.root) in instructions(toolbox)
    assert "restricted" not in instructions(toolbox)
    toolbox.set_mode("restricted")
    assert "read-only (restricted mode)" in instructions(toolbox)


def _call_in_process(toolbox: Toolbox, name: str, arguments: dict[str, Any]) -> Any:
    async def scenario() -> Any:
        async with Client(build_server(toolbox)) as client:
            return await client.call_tool(name, arguments)

    return anyio.run(scenario)


def test_a_call_that_blows_up_is_an_error_result_not_a_crash(
    toolbox: Toolbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(name: str, arguments: Any = None, **_: Any) -> ToolResult:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(toolbox, "call", explode)
    answer = _call_in_process(toolbox, "read_file", {"path": "a.txt"})
    assert answer.is_error
    assert "internal error (RuntimeError)" in answer.content[0].text
    assert "secret detail" not in answer.content[0].text
    # the dispatcher's own answer to a handler that raises: one builder, one code
    assert answer.structured_content["error"]["code"] == "internal"
    assert (
        answer.structured_content
        == ToolResult.failure(internal_error("read_file", RuntimeError())).to_dict()
    )


def test_in_process_call_reaches_the_toolbox(toolbox: Toolbox) -> None:
    answer = _call_in_process(toolbox, "read_file", {"path": "a.txt"})
    assert not answer.is_error and "     2\ttwo" in answer.content[0].text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8765", ("127.0.0.1", 8765)),
        (":0", ("127.0.0.1", 0)),
        ("0.0.0.0:80", ("0.0.0.0", 80)),
        ("localhost:9000", ("localhost", 9000)),
        ("[::1]:8765", ("::1", 8765)),
    ],
)
def test_http_endpoints(text: str, expected: tuple[str, int]) -> None:
    assert parse_endpoint(text) == expected


@pytest.mark.parametrize("text", ["", "host:", "host:http", "::1:80", "1:65536", "a:-1"])
def test_bad_http_endpoints(text: str) -> None:
    with pytest.raises(ValueError):
        parse_endpoint(text)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--root", "no/such/folder"], "no/such/folder"),
        (["--tools", "read_file,nope"], "Unknown tool 'nope'"),
        (["--rename", "read_file"], "--rename takes OLD=NEW"),
        (["--http", "host:port"], "--http takes HOST:PORT"),
        (["--access", "open"], "invalid choice"),
        (["--mode", "open"], "invalid choice"),
    ],
)
def test_usage_errors_exit_2_before_serving(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--root", str(tmp_path), *argv] if argv[0] != "--root" else argv
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


def test_an_address_in_use_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from patchwright.adapters.mcp.http import bind

    taken = bind("127.0.0.1", 0)
    try:
        port = taken.getsockname()[1]
        assert main(["--root", str(tmp_path), "--http", f"127.0.0.1:{port}"]) == 2
    finally:
        taken.close()
    assert "cannot listen on 127.0.0.1" in capsys.readouterr().err


@pytest.mark.parametrize(
    "result",
    [
        ToolResult(True, "Applied.", diff="--- a/x\n+++ b/x\n", data={"batch_id": "b-1"}),
        ToolResult(True, "Preview.", diff="--- a/x\n+++ b/x\n", data={"dry_run": True}),
        ToolResult(True, "Read.", data={"lines": [1, 2]}),
        ToolResult.failure(PatchwrightError(ErrorCode.STALE, "Changed.", "Re-read it.", path="a")),
    ],
)
def test_the_wire_answer_is_what_the_sdk_model_dumps(result: ToolResult) -> None:
    wire = wire_result(result)
    assert wire == call_result(result).model_dump(by_alias=True, mode="json", exclude_none=True)
    for version in KNOWN_PROTOCOL_VERSIONS:  # the SDK's check on the way out passes
        surface = serialize_server_result("tools/call", version, wire)
        assert surface["content"] == wire["content"] and surface["isError"] == wire["isError"]


def test_the_tracing_middleware_runs_only_when_tracing_is_configured(
    toolbox: Toolbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    from opentelemetry import trace

    def tracing(server: Any) -> list[str]:
        return [type(m).__name__ for m in server.middleware if "Telemetry" in type(m).__name__]

    assert not tracing_configured()  # no provider in the tests
    assert tracing(build_server(toolbox)) == []
    monkeypatch.setattr(trace, "get_tracer_provider", trace.NoOpTracerProvider)
    assert tracing_configured()
    assert tracing(build_server(toolbox)) == ["OpenTelemetryMiddleware"]
