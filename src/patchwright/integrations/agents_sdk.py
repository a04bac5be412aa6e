"""patchwright's tools for the OpenAI Agents SDK (``openai-agents``).

    from agents import Agent, Runner
    from patchwright.integrations.agents_sdk import function_tools

    agent = Agent(name="editor", instructions="...", tools=function_tools(toolbox))
    Runner.run_sync(agent, "In greeting.py, greet with an f-string.")

Each tool is a ``FunctionTool`` with OpenAI's strict schema (the SDK's default); the
model's ``null`` for an optional argument means "not given". A refusal comes back as the
tool's output text (what was wrong, how to fix the call), so the agent can retry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from patchwright.integrations._calls import ToolSource, specs_of
from patchwright.tools import Toolbox, ToolSpec
from patchwright.tools.schemas import parameters

if TYPE_CHECKING:  # pragma: no cover
    from agents import FunctionTool

__all__ = ["function_tools"]


def function_tools(toolbox: Toolbox, source: ToolSource | None = None) -> list[FunctionTool]:
    """One ``FunctionTool`` per tool ``toolbox`` exposes (or per spec of ``source``,
    which must be among them), running through ``toolbox``."""
    from agents import FunctionTool

    def tool(spec: ToolSpec) -> FunctionTool:
        async def invoke(context: Any, arguments: str) -> str:
            return toolbox.call(spec.name, arguments).text

        return FunctionTool(
            name=spec.name,
            description=spec.description,
            params_json_schema=parameters(spec, strict=True),
            on_invoke_tool=invoke,
            strict_json_schema=True,
        )

    return [tool(spec) for spec in specs_of(source if source is not None else toolbox)]
