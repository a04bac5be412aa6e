"""Anthropic function calling: payloads checked against the SDK's types, and a recorded
conversation replayed through the real SDK client (no network)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anthropic
import pytest
from anthropic.types import TextBlock, ToolParam, ToolResultBlockParam, ToolUseBlock
from integration_support import (
    Replay,
    assert_fits,
    check_answers,
    load_script,
    make_toolbox,
    workspace_files,
)

from patchwright.integrations.anthropic import (
    handle_tool_use,
    handle_tool_uses,
    messages_tools,
    run_tool_use,
)
from patchwright.model import PatchwrightError
from patchwright.tools import PRESETS, Toolbox
from patchwright.workspace import Workspace


@pytest.fixture
def toolbox(tmp_path: Path) -> Toolbox:
    return make_toolbox(tmp_path, {"a.txt": "one\ntwo\n"})


def test_messages_tools_fit_the_sdk_types(toolbox: Toolbox) -> None:
    tools = messages_tools(toolbox)
    assert [t["name"] for t in tools] == list(PRESETS["spec"].tools)
    for tool in tools:
        assert_fits(ToolParam, tool)
        assert tool["input_schema"]["type"] == "object"


def test_tools_follow_the_toolbox_selection(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    toolbox = Toolbox(
        Workspace(root, state_dir=tmp_path / "s"), tools=["read_file", "undo"],
        rename={"read_file": "view"},
    )  # fmt: skip
    assert [t["name"] for t in messages_tools(toolbox)] == ["view", "undo"]


def test_conversation_replayed_end_to_end(tmp_path: Path) -> None:
    script = load_script("anthropic_messages")
    toolbox = make_toolbox(tmp_path, script["files"])
    replay = Replay([turn["response"] for turn in script["turns"]])
    client = anthropic.Anthropic(
        api_key="recorded",
        base_url="http://recorded.invalid",
        http_client=replay.http_client(),
        max_retries=0,
    )
    tools = messages_tools(toolbox)
    messages: list[Any] = [{"role": "user", "content": script["prompt"]}]
    for turn in script["turns"]:
        reply = client.messages.create(
            model="claude-recorded", max_tokens=1024, tools=tools, messages=messages
        )
        messages.append({"role": "assistant", "content": reply.content})
        results = handle_tool_uses(toolbox, reply.content)
        for block in results:
            assert_fits(ToolResultBlockParam, block)
        uses = [b.id for b in reply.content if b.type == "tool_use"]
        assert [r["tool_use_id"] for r in results] == uses
        flags = [r.get("is_error", False) for r in results]
        check_answers([r["content"] for r in results], flags, turn["results"])
        if reply.stop_reason != "tool_use":
            break
        messages.append({"role": "user", "content": results})
    assert len(replay.requests) == len(script["turns"])
    assert all(request["tools"] == tools for request in replay.requests)
    sent = [b for m in replay.requests[-1]["messages"] if m["role"] == "user"
            for b in m["content"] if isinstance(b, dict)]  # fmt: skip
    assert [b["tool_use_id"] for b in sent] == [
        "toolu_read", "toolu_no_path", "toolu_cut", "toolu_paste", "toolu_unknown",
    ]  # fmt: skip
    assert workspace_files(toolbox) == script["final_files"]


def test_handler_takes_sdk_blocks_and_dicts_alike(toolbox: Toolbox) -> None:
    block = ToolUseBlock(type="tool_use", id="toolu_1", name="read_file", input={"path": "a.txt"})
    answer = handle_tool_use(toolbox, block)
    assert answer == handle_tool_use(toolbox, block.model_dump())
    assert answer["tool_use_id"] == "toolu_1"
    assert "is_error" not in answer
    assert "     2\ttwo" in answer["content"]


def test_refusals_set_is_error_and_change_nothing(toolbox: Toolbox) -> None:
    cases: list[dict[str, Any]] = [
        {"name": "edit_file", "input": {"path": "a.txt", "old_string": "zzz", "new_string": "y"}},
        {"name": "edit_file", "input": "not an object"},
        {"name": "no_such_tool", "input": {}},
    ]
    for n, case in enumerate(cases):
        answer = handle_tool_use(toolbox, {"type": "tool_use", "id": f"toolu_{n}", **case})
        assert_fits(ToolResultBlockParam, answer)
        assert answer["is_error"] is True, answer
    assert (toolbox.workspace.root / "a.txt").read_text() == "one\ntwo\n"


def test_only_tool_use_blocks_are_run(toolbox: Toolbox) -> None:
    content = [
        TextBlock(type="text", text="Let me look."),
        {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "a.txt"}},
    ]
    assert [r["tool_use_id"] for r in handle_tool_uses(toolbox, content)] == ["toolu_1"]
    refused = run_tool_use(toolbox, {"type": "server_tool_use", "id": "s", "name": "web_search"})
    assert not refused.ok and "not a tool_use block" in refused.text


def test_a_block_without_an_id_is_a_host_error(toolbox: Toolbox) -> None:
    with pytest.raises(PatchwrightError) as caught:
        handle_tool_use(toolbox, {"type": "tool_use", "name": "read_file", "input": {}})
    assert caught.value.field == "id"


def test_run_tool_use_keeps_the_diff_for_a_person(toolbox: Toolbox) -> None:
    block = {"type": "tool_use", "id": "toolu_1", "name": "patch", "input": {
        "path": "a.txt", "patches": [{"operation": "append_eof", "newText": "three"}],
    }}  # fmt: skip
    result = run_tool_use(toolbox, block)
    assert result.ok and result.diff.endswith("+three\n")
