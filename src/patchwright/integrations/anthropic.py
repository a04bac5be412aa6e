"""patchwright's tools for the Anthropic Messages API.

    from patchwright.integrations.anthropic import handle_tool_uses, messages_tools

    reply = client.messages.create(
        model=..., max_tokens=4096, tools=messages_tools(toolbox), messages=messages
    )
    messages.append({"role": "assistant", "content": reply.content})
    if reply.stop_reason == "tool_use":
        messages.append({"role": "user", "content": handle_tool_uses(toolbox, reply.content)})

A ``tool_use`` block is taken as the SDK object or as the equivalent dict. A refusal
(an unknown tool, input that does not fit the schema, an edit that cannot be placed)
comes back as a ``tool_result`` with ``is_error`` set and a text that says what was
wrong and how to fix the call, so the model can retry.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from patchwright.integrations._calls import ToolSource, field, required_id, specs_of
from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.tools import Toolbox, anthropic_tool

__all__ = [
    "TEXT_EDITOR_TYPE",
    "handle_tool_use",
    "handle_tool_uses",
    "messages_tools",
    "run_tool_use",
    "tool_result_block",
]


#: The version of Anthropic's own text editor tool whose name and commands the
#: ``anthropic`` preset serves.
TEXT_EDITOR_TYPE = "text_editor_20250728"


def messages_tools(
    source: ToolSource, *, cache_control: bool = False, builtin_editor: bool = True
) -> list[dict[str, Any]]:
    """The ``tools`` of a Messages request: ``{"name", "description", "input_schema"}``
    (with ``input_examples`` for tools that take arrays of objects).

    ``cache_control`` marks the last tool ``{"type": "ephemeral"}``, so the tool list is
    cached between requests. The ``str_replace_based_edit_tool`` (the ``anthropic``
    preset) is declared as Anthropic's own text editor tool (``text_editor_20250728``,
    whose schema the model already knows) unless ``builtin_editor`` is False or the
    tool was renamed; its ``tool_use`` blocks come back to :func:`handle_tool_uses` like
    any other.
    """
    tools: list[dict[str, Any]] = []
    for spec in specs_of(source):
        native = spec.canonical == "str_replace_based_edit_tool" and spec.name == spec.canonical
        if native and builtin_editor:
            tools.append({"type": TEXT_EDITOR_TYPE, "name": spec.name})
        else:
            tools.append(anthropic_tool(spec))
    if cache_control and tools:
        tools[-1]["cache_control"] = {"type": "ephemeral"}
    return tools


def tool_result_block(tool_use_id: str, result: ToolResult) -> dict[str, Any]:
    """The ``tool_result`` content block answering one ``tool_use`` block."""
    block: dict[str, Any] = {
        "type": "tool_result",
        "tool_use_id": tool_use_id,
        "content": result.text,
    }
    if not result.ok:
        block["is_error"] = True
    return block


def run_tool_use(toolbox: Toolbox, block: Any) -> ToolResult:
    """Run one ``tool_use`` block (``{"type": "tool_use", "id", "name", "input"}``) and
    return the full result (with the diff for a person)."""
    name = field(block, "name")
    if field(block, "type") != "tool_use" or not isinstance(name, str):
        return ToolResult.failure(
            PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"This block is of type {field(block, 'type')!r}, not a tool_use block.",
                "Call patchwright's tools as client tools (tool_use blocks).",
                field="type",
            )
        )
    return toolbox.call(name, field(block, "input"))


def handle_tool_use(toolbox: Toolbox, block: Any) -> dict[str, Any]:
    """Run one ``tool_use`` block; return the ``tool_result`` block to send back.

    Raises:
        PatchwrightError: ``invalid_request`` when the block has no ``id``.
    """
    tool_use_id = required_id(block, "id", "tool_use block")
    return tool_result_block(tool_use_id, run_tool_use(toolbox, block))


def handle_tool_uses(toolbox: Toolbox, content: Iterable[Any]) -> list[dict[str, Any]]:
    """Run every ``tool_use`` block of an assistant message's content, in order; the
    ``tool_result`` blocks make the content of the next user message (text, thinking
    and server-tool blocks are skipped)."""
    return [handle_tool_use(toolbox, b) for b in content if field(b, "type") == "tool_use"]
