"""patchwright's tools for LangChain (``langchain-core``).

    from patchwright.integrations.langchain_tools import structured_tools

    tools = structured_tools(toolbox)
    model = chat_model.bind_tools(tools)
    reply = model.invoke(messages)
    messages += [reply, *(by_name[c["name"]].invoke(c) for c in reply.tool_calls)]

Each tool is a ``StructuredTool`` whose ``args_schema`` is the tool's JSON schema; invoked
with a tool call it returns a ``ToolMessage`` holding the text written for the model (a
refusal included, so the model can retry).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from patchwright.tools import Toolbox, ToolSpec, input_schema

if TYPE_CHECKING:  # pragma: no cover
    from langchain_core.tools import StructuredTool

__all__ = ["structured_tools"]


def structured_tools(toolbox: Toolbox) -> list[StructuredTool]:
    """One ``StructuredTool`` per tool ``toolbox`` exposes."""
    from langchain_core.tools import StructuredTool

    def tool(spec: ToolSpec) -> StructuredTool:
        def run(**arguments: Any) -> str:
            return toolbox.call(spec.name, arguments).text

        return StructuredTool.from_function(
            run, name=spec.name, description=spec.description, args_schema=input_schema(spec)
        )

    return [tool(spec) for spec in toolbox.specs()]
