"""patchwright's tools for pydantic-ai.

    from pydantic_ai import Agent
    from patchwright.integrations.pydantic_ai_tools import agent_tools

    agent = Agent("openai:gpt-4.1", tools=agent_tools(toolbox))
    agent.run_sync("In greeting.py, greet with an f-string.")

Each tool is a ``pydantic_ai.Tool`` built from the tool's own JSON schema; its call runs
through the toolbox and returns the text written for the model (a refusal included, so
the model can retry).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from patchwright.tools import Toolbox, ToolSpec, input_schema

if TYPE_CHECKING:  # pragma: no cover
    from pydantic_ai import Tool

__all__ = ["agent_tools"]


def agent_tools(toolbox: Toolbox) -> list[Tool[Any]]:
    """One ``pydantic_ai.Tool`` per tool ``toolbox`` exposes."""
    from pydantic_ai import Tool

    def tool(spec: ToolSpec) -> Tool[Any]:
        def run(**arguments: Any) -> str:
            return toolbox.call(spec.name, arguments).text

        made: Tool[Any] = Tool.from_schema(
            run, name=spec.name, description=spec.description, json_schema=input_schema(spec)
        )
        return made

    return [tool(spec) for spec in toolbox.specs()]
