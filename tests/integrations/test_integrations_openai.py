"""OpenAI function calling: payloads checked against the SDK's types, and recorded
conversations replayed through the real SDK client (no network)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openai
import pytest
from integration_support import (
    Replay,
    assert_fits,
    check_answers,
    load_script,
    make_toolbox,
    workspace_files,
)
from openai.types.chat import (
    ChatCompletionFunctionToolParam,
    ChatCompletionMessageFunctionToolCall,
    ChatCompletionToolMessageParam,
)
from openai.types.responses import FunctionToolParam, ResponseFunctionToolCall
from openai.types.responses.response_input_item_param import FunctionCallOutput

from patchwright.integrations.openai import (
    chat_completions_tools,
    handle_function_call,
    handle_function_calls,
    handle_tool_call,
    handle_tool_calls,
    responses_tools,
    run_tool_call,
)
from patchwright.model import PatchwrightError
from patchwright.tools import PRESETS, Toolbox, select_specs


@pytest.fixture
def toolbox(tmp_path: Path) -> Toolbox:
    return make_toolbox(tmp_path, {"a.txt": "one\ntwo\n"})


def _sdk(replay: Replay) -> openai.OpenAI:
    return openai.OpenAI(
        api_key="recorded",
        base_url="http://recorded.invalid/v1",
        http_client=replay.http_client(),
        max_retries=0,
    )


def test_chat_completions_tools_fit_the_sdk_types(toolbox: Toolbox) -> None:
    tools = chat_completions_tools(toolbox)
    assert [t["function"]["name"] for t in tools] == list(PRESETS["spec"].tools)
    for tool in tools:
        assert_fits(ChatCompletionFunctionToolParam, tool)
        assert tool["function"]["parameters"]["type"] == "object"
        assert tool["function"]["description"]


def test_responses_tools_fit_the_sdk_types(toolbox: Toolbox) -> None:
    tools = responses_tools(toolbox)
    assert [t["name"] for t in tools] == list(PRESETS["spec"].tools)
    for tool in tools:
        assert_fits(FunctionToolParam, tool)
        # strict schemas would make every optional argument required
        assert tool["strict"] is False


def test_tools_follow_the_selection_and_renames() -> None:
    specs = select_specs(["read_file", "apply_diff"], {"apply_diff": "patch"})
    assert [t["function"]["name"] for t in chat_completions_tools(specs)] == ["read_file", "patch"]
    assert [t["name"] for t in responses_tools(specs)] == ["read_file", "patch"]


def test_chat_conversation_replayed_end_to_end(tmp_path: Path) -> None:
    script = load_script("openai_chat")
    toolbox = make_toolbox(tmp_path, script["files"])
    replay = Replay([turn["response"] for turn in script["turns"]])
    client = _sdk(replay)
    tools = chat_completions_tools(toolbox)
    messages: list[Any] = [{"role": "user", "content": script["prompt"]}]
    for turn in script["turns"]:
        completion = client.chat.completions.create(
            model="gpt-recorded", messages=messages, tools=tools
        )
        message = completion.choices[0].message
        messages.append(message)
        replies = handle_tool_calls(toolbox, message.tool_calls or [])
        for reply in replies:
            assert_fits(ChatCompletionToolMessageParam, reply)
        assert [r["tool_call_id"] for r in replies] == [c.id for c in message.tool_calls or []]
        check_answers([r["content"] for r in replies], [None] * len(replies), turn["results"])
        messages.extend(replies)
    assert len(replay.requests) == len(script["turns"])
    assert all(request["tools"] == tools for request in replay.requests)
    # the SDK sent our tool messages back in the next request, unchanged
    last = replay.requests[-1]["messages"]
    assert [m["tool_call_id"] for m in last if m["role"] == "tool"] == [
        "call_read", "call_bad_json", "call_edit", "call_unknown",
    ]  # fmt: skip
    assert workspace_files(toolbox) == script["final_files"]


def test_responses_conversation_replayed_end_to_end(tmp_path: Path) -> None:
    script = load_script("openai_responses")
    toolbox = make_toolbox(tmp_path, script["files"])
    replay = Replay([turn["response"] for turn in script["turns"]])
    client = _sdk(replay)
    tools = responses_tools(toolbox)
    items: list[Any] = [{"role": "user", "content": script["prompt"]}]
    for turn in script["turns"]:
        response = client.responses.create(model="gpt-recorded", input=items, tools=tools)
        outputs = handle_function_calls(toolbox, response.output)
        for output in outputs:
            assert_fits(FunctionCallOutput, output)
        check_answers([o["output"] for o in outputs], [None] * len(outputs), turn["results"])
        items.extend([*response.output, *outputs])
    assert len(replay.requests) == len(script["turns"])
    assert all(request["tools"] == tools for request in replay.requests)
    assert workspace_files(toolbox) == script["final_files"]


def test_handlers_take_sdk_objects_and_dicts_alike(toolbox: Toolbox) -> None:
    arguments = '{"path": "a.txt"}'
    as_object = ChatCompletionMessageFunctionToolCall(
        id="call_1", type="function", function={"name": "read_file", "arguments": arguments}
    )
    as_dict = {"id": "call_1", "type": "function",
               "function": {"name": "read_file", "arguments": arguments}}  # fmt: skip
    assert handle_tool_call(toolbox, as_object) == handle_tool_call(toolbox, as_dict)
    item = ResponseFunctionToolCall(
        type="function_call", call_id="call_2", name="read_file", arguments=arguments
    )
    output = handle_function_call(toolbox, item)
    assert output == handle_function_call(toolbox, item.model_dump())
    assert output["call_id"] == "call_2" and "     1\tone" in output["output"]


def test_a_non_function_call_is_answered_not_run(toolbox: Toolbox) -> None:
    custom = {"id": "call_c", "type": "custom", "custom": {"name": "patch", "input": "raw"}}
    reply = handle_tool_call(toolbox, custom)
    assert reply["tool_call_id"] == "call_c"
    assert "of type 'custom'" in reply["content"]
    assert toolbox.workspace.history.list_batches() == []


def test_a_call_without_an_id_is_a_host_error(toolbox: Toolbox) -> None:
    with pytest.raises(PatchwrightError) as caught:
        handle_tool_call(toolbox, {"type": "function", "function": {"name": "read_file"}})
    assert caught.value.field == "id"
    with pytest.raises(PatchwrightError):
        handle_function_call(toolbox, {"type": "function_call", "name": "read_file"})


def test_run_tool_call_keeps_the_diff_for_a_person(toolbox: Toolbox) -> None:
    call = {"id": "call_1", "type": "function", "function": {
        "name": "edit_file",
        "arguments": '{"path": "a.txt", "old_string": "two", "new_string": "2"}',
    }}  # fmt: skip
    result = run_tool_call(toolbox, call)
    assert result.ok
    assert "-two\n+2\n" in result.diff
    assert (toolbox.workspace.root / "a.txt").read_text() == "one\n2\n"
