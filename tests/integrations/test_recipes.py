"""The recipes for agent frameworks, each run with the installed library and a scripted
model (no network): the model reads greeting.py, edits it, sends the same edit again
(and is told it is already applied), then answers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from patchwright.tools import Toolbox
from patchwright.workspace import Workspace

OLD, NEW = 'print("Hello, " + name)', 'print(f"Hello, {name}!")'
CALLS = [
    ("read_file", {"path": "greeting.py"}),
    ("edit_file", {"path": "greeting.py", "old_string": OLD, "new_string": NEW}),
    ("edit_file", {"path": "greeting.py", "old_string": OLD, "new_string": NEW}),
]


@pytest.fixture
def toolbox(tmp_path: Path) -> Toolbox:
    root = tmp_path / "root"
    root.mkdir()
    (root / "greeting.py").write_text(f"def greet(name):\n    {OLD}\n")
    return Toolbox(Workspace(root, state_dir=tmp_path / "state"))


def _check(toolbox: Toolbox, answers: list[str]) -> None:
    assert NEW in (toolbox.workspace.root / "greeting.py").read_text()
    assert answers[0].startswith("path: greeting.py")
    assert answers[1].startswith("Applied 1 edit")
    assert answers[2].startswith("Already applied (batch b-")


def test_openai_agents_sdk(toolbox: Toolbox) -> None:
    from agents import Agent, ModelSettings, Runner, set_tracing_disabled
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    from patchwright.integrations.agents_sdk import function_tools

    set_tracing_disabled(True)
    answers: list[str] = []

    class Scripted(Model):
        """Calls the tools one turn at a time, then answers."""

        def __init__(self) -> None:
            self.turn = 0

        async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
            history = args[1] if len(args) > 1 else kwargs["input"]
            if isinstance(history, list):
                answers.extend(
                    str(i["output"])
                    for i in history[-1:]
                    if i.get("type") == "function_call_output"
                )
            self.turn += 1
            if self.turn <= len(CALLS):
                name, arguments = CALLS[self.turn - 1]
                item: Any = ResponseFunctionToolCall(
                    type="function_call", call_id=f"c{self.turn}", name=name,
                    arguments=json.dumps(arguments),
                )  # fmt: skip
            else:
                item = ResponseOutputMessage(
                    id="m", type="message", role="assistant", status="completed",
                    content=[ResponseOutputText(type="output_text", text="Done.", annotations=[])],
                )  # fmt: skip
            return ModelResponse(output=[item], usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
            raise NotImplementedError("the scripted model does not stream")

    tools = function_tools(toolbox)
    assert all(t.strict_json_schema for t in tools)
    agent = Agent(name="editor", instructions="Edit files.", tools=tools, model=Scripted(),
                  model_settings=ModelSettings())  # fmt: skip
    result = asyncio.run(Runner.run(agent, "In greeting.py, greet with an f-string."))
    assert result.final_output == "Done."
    _check(toolbox, answers)


def test_pydantic_ai(toolbox: Toolbox) -> None:
    from pydantic_ai import Agent
    from pydantic_ai.messages import (
        ModelMessage,
        ModelResponse,
        TextPart,
        ToolCallPart,
        ToolReturnPart,
    )
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from patchwright.integrations.pydantic_ai_tools import agent_tools

    answers: list[str] = []

    def scripted(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        assert {t.name for t in info.function_tools} >= {"read_file", "edit_file"}
        answers.extend(str(p.content) for p in messages[-1].parts if isinstance(p, ToolReturnPart))
        turn = sum(isinstance(m, ModelResponse) for m in messages)
        if turn < len(CALLS):
            name, arguments = CALLS[turn]
            return ModelResponse(parts=[ToolCallPart(name, arguments, tool_call_id=f"c{turn}")])
        return ModelResponse(parts=[TextPart("Done.")])

    agent = Agent(FunctionModel(scripted), tools=agent_tools(toolbox))
    result = asyncio.run(agent.run("In greeting.py, greet with an f-string."))
    assert result.output == "Done."
    _check(toolbox, answers)


def test_langchain(toolbox: Toolbox) -> None:
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

    from patchwright.integrations.langchain_tools import structured_tools

    script = [
        AIMessage("", tool_calls=[{"name": n, "args": a, "id": f"c{k}", "type": "tool_call"}])
        for k, (n, a) in enumerate(CALLS)
    ] + [AIMessage("Done.")]
    model = GenericFakeChatModel(messages=iter(script))
    by_name = {t.name: t for t in structured_tools(toolbox)}
    messages: list[BaseMessage] = [HumanMessage("In greeting.py, greet with an f-string.")]
    answers: list[str] = []
    while True:
        reply = model.invoke(messages)
        messages.append(reply)
        if not isinstance(reply, AIMessage) or not reply.tool_calls:
            break
        for call in reply.tool_calls:
            answer = by_name[call["name"]].invoke(call)
            assert isinstance(answer, ToolMessage)
            answers.append(str(answer.content))
            messages.append(answer)
    assert messages[-1].content == "Done."
    _check(toolbox, answers)
