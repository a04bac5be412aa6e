"""patchwright's tools for the OpenAI Chat Completions and Responses APIs.

    from patchwright.integrations.openai import chat_completions_tools, handle_tool_calls

    response = client.chat.completions.create(
        model=..., messages=messages, tools=chat_completions_tools(toolbox)
    )
    message = response.choices[0].message
    messages.append(message)
    messages.extend(handle_tool_calls(toolbox, message.tool_calls or []))

With the Responses API: ``responses_tools(toolbox)`` and
``handle_function_calls(toolbox, response.output)``, whose items go into the next
request's ``input``. OpenAI's hosted ``apply_patch`` tool (``{"type": "apply_patch"}``
in ``tools``) emits ``apply_patch_call`` items instead; ``handle_apply_patch_calls``
applies their operations with the toolbox's OpenAI ``apply_patch`` (preset ``openai``)
and returns the ``apply_patch_call_output`` items.

A tool call is taken as the SDK object or as the equivalent dict. Its arguments are the
JSON text the model wrote: malformed JSON, an unknown tool, arguments that do not fit
the schema and refused edits all come back as a tool message whose text says what was
wrong and how to fix the call, so the model can retry. The APIs have no error flag for
tool output; the text of a refusal says that nothing was changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from patchwright.integrations._calls import ToolSource, field, required_id, specs_of
from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.tools import Toolbox, openai_tool
from patchwright.tools.schemas import parameters

__all__ = [
    "apply_patch_call_output",
    "chat_completions_tools",
    "function_call_output",
    "handle_apply_patch_calls",
    "handle_function_call",
    "handle_function_calls",
    "handle_tool_call",
    "handle_tool_calls",
    "responses_tools",
    "run_apply_patch_call",
    "run_function_call",
    "run_tool_call",
    "tool_message",
]


def chat_completions_tools(source: ToolSource, *, strict: bool = False) -> list[dict[str, Any]]:
    """The ``tools`` of a Chat Completions request: ``{"type": "function", "function": ...}``;
    ``strict`` gives OpenAI's strict schemas (``"strict": true``)."""
    return [openai_tool(spec, strict=strict) for spec in specs_of(source)]


def responses_tools(source: ToolSource, *, strict: bool = False) -> list[dict[str, Any]]:
    """The ``tools`` of a Responses request: ``{"type": "function", "name", ...}``.

    Without ``strict`` the schemas are the plain ones (optional arguments may be left
    out); with it, OpenAI's strict variant, where the model sends ``null`` for what it
    leaves out (the dispatcher reads that as "not given").
    """
    return [
        {
            "type": "function",
            "name": spec.name,
            "description": spec.description,
            "parameters": parameters(spec, strict=strict),
            "strict": strict,
        }
        for spec in specs_of(source)
    ]


def tool_message(tool_call_id: str, result: ToolResult) -> dict[str, Any]:
    """The Chat Completions ``tool`` message answering one call."""
    return {"role": "tool", "tool_call_id": tool_call_id, "content": result.text}


def function_call_output(call_id: str, result: ToolResult) -> dict[str, Any]:
    """The Responses ``function_call_output`` input item answering one call."""
    return {"type": "function_call_output", "call_id": call_id, "output": result.text}


def run_tool_call(toolbox: Toolbox, tool_call: Any) -> ToolResult:
    """Run one Chat Completions tool call (``{"id", "type", "function": {"name",
    "arguments"}}``) and return the full result (with the diff for a person)."""
    function = field(tool_call, "function")
    name = field(function, "name") if function is not None else None
    if field(tool_call, "type", "function") != "function" or not isinstance(name, str):
        return ToolResult.failure(_not_a_function(field(tool_call, "type")))
    return toolbox.call(name, field(function, "arguments"))


def handle_tool_call(toolbox: Toolbox, tool_call: Any) -> dict[str, Any]:
    """Run one Chat Completions tool call; return the ``tool`` message to send back.

    Raises:
        PatchwrightError: ``invalid_request`` when the call has no ``id``.
    """
    call_id = required_id(tool_call, "id", "tool call")
    return tool_message(call_id, run_tool_call(toolbox, tool_call))


def handle_tool_calls(toolbox: Toolbox, tool_calls: Iterable[Any]) -> list[dict[str, Any]]:
    """Run an assistant message's tool calls in order; one ``tool`` message each."""
    return [handle_tool_call(toolbox, call) for call in tool_calls]


def run_function_call(toolbox: Toolbox, call: Any) -> ToolResult:
    """Run one Responses ``function_call`` item (``{"type": "function_call", "call_id",
    "name", "arguments"}``) and return the full result."""
    name = field(call, "name")
    if field(call, "type") != "function_call" or not isinstance(name, str):
        return ToolResult.failure(_not_a_function(field(call, "type")))
    return toolbox.call(name, field(call, "arguments"))


def handle_function_call(toolbox: Toolbox, call: Any) -> dict[str, Any]:
    """Run one Responses ``function_call`` item; return its ``function_call_output``.

    Raises:
        PatchwrightError: ``invalid_request`` when the item has no ``call_id``.
    """
    call_id = required_id(call, "call_id", "function call")
    return function_call_output(call_id, run_function_call(toolbox, call))


def handle_function_calls(toolbox: Toolbox, output: Iterable[Any]) -> list[dict[str, Any]]:
    """Run every ``function_call`` item of a response's ``output``, in order (other
    items, such as messages and reasoning, are skipped)."""
    return [
        handle_function_call(toolbox, item)
        for item in output
        if field(item, "type") == "function_call"
    ]


def apply_patch_call_output(call_id: str, result: ToolResult) -> dict[str, Any]:
    """The Responses ``apply_patch_call_output`` input item answering one call."""
    return {
        "type": "apply_patch_call_output",
        "call_id": call_id,
        "status": "completed" if result.ok else "failed",
        "output": result.text,
    }


def run_apply_patch_call(toolbox: Toolbox, call: Any) -> ToolResult:
    """Apply one hosted-tool ``apply_patch_call`` item's ``operation`` with the
    toolbox's OpenAI ``apply_patch`` tool (canonical ``codex_apply_patch``)."""
    spec = next((s for s in toolbox.specs() if s.canonical == "codex_apply_patch"), None)
    if spec is None:
        return ToolResult.failure(
            PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                "This toolbox does not expose OpenAI's apply_patch, so an apply_patch_call "
                "cannot be applied.",
                'Open the toolbox with preset="openai" (or tools=["codex_apply_patch"]).',
                field="tools",
            )
        )
    operation = field(call, "operation")
    if operation is not None and not isinstance(operation, dict):
        operation = operation.model_dump() if hasattr(operation, "model_dump") else dict(operation)
    return toolbox.call(spec.name, {"operation": operation})


def handle_apply_patch_calls(toolbox: Toolbox, output: Iterable[Any]) -> list[dict[str, Any]]:
    """Apply every ``apply_patch_call`` item of a response's ``output``, in order; one
    ``apply_patch_call_output`` each (other items are skipped).

    Raises:
        PatchwrightError: ``invalid_request`` when an item has no ``call_id``.
    """
    return [
        apply_patch_call_output(
            required_id(item, "call_id", "apply_patch call"), run_apply_patch_call(toolbox, item)
        )
        for item in output
        if field(item, "type") == "apply_patch_call"
    ]


def _not_a_function(kind: object) -> PatchwrightError:
    return PatchwrightError(
        ErrorCode.INVALID_REQUEST,
        f"This tool call is of type {kind!r}; patchwright's tools are function tools.",
        "Call the tool as a function, with its arguments as one JSON object.",
        field="type",
    )
