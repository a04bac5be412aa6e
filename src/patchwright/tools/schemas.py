"""Tool definitions in the shapes hosts expect, built from :class:`ToolSpec` values.

* OpenAI Chat Completions: ``{"type": "function", "function": {"name", "description",
  "parameters"}}``;
* Anthropic Messages: ``{"name", "description", "input_schema"}``;
* MCP ``tools/list``: ``{"name", "title", "description", "inputSchema", "annotations"}``
  with the standard hints (``readOnlyHint``, ``destructiveHint``, ``idempotentHint``,
  ``openWorldHint``);
* ``json-schema``: patchwright's own listing, with the contract each tool implements.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.tools.registry import input_schema
from patchwright.tools.spec import ToolSpec

SchemaFormat = Literal["openai", "anthropic", "mcp", "json-schema"]
FORMATS: tuple[str, ...] = ("openai", "anthropic", "mcp", "json-schema")


def openai_tool(spec: ToolSpec) -> dict[str, Any]:
    """The OpenAI Chat Completions ``function`` tool for ``spec``."""
    return {
        "type": "function",
        "function": {
            "name": spec.name,
            "description": spec.description,
            "parameters": input_schema(spec),
        },
    }


def anthropic_tool(spec: ToolSpec) -> dict[str, Any]:
    """The Anthropic Messages API tool for ``spec``."""
    return {
        "name": spec.name,
        "description": spec.description,
        "input_schema": input_schema(spec),
    }


def mcp_annotations(spec: ToolSpec) -> dict[str, Any]:
    """The MCP tool annotations of ``spec``."""
    a = spec.annotations
    return {
        "title": spec.title,
        "readOnlyHint": a.read_only,
        "destructiveHint": a.destructive,
        "idempotentHint": a.idempotent,
        "openWorldHint": False,
    }


def mcp_tool(spec: ToolSpec) -> dict[str, Any]:
    """The MCP ``Tool`` definition of ``spec`` (as listed by ``tools/list``)."""
    return {
        "name": spec.name,
        "title": spec.title,
        "description": spec.description,
        "inputSchema": input_schema(spec),
        "annotations": mcp_annotations(spec),
    }


def json_schema_tool(spec: ToolSpec) -> dict[str, Any]:
    """patchwright's own description of ``spec``."""
    a = spec.annotations
    return {
        "name": spec.name,
        "canonical": spec.canonical,
        "title": spec.title,
        "contract": spec.contract,
        "description": spec.description,
        "annotations": {
            "read_only": a.read_only,
            "destructive": a.destructive,
            "idempotent": a.idempotent,
        },
        "input_schema": input_schema(spec),
    }


_BUILDERS = {
    "openai": openai_tool,
    "anthropic": anthropic_tool,
    "mcp": mcp_tool,
    "json-schema": json_schema_tool,
}


def tool_definitions(specs: Iterable[ToolSpec], format: str) -> list[dict[str, Any]]:
    """Every spec in the given format.

    Raises:
        PatchwrightError: ``invalid_request`` for an unknown format.
    """
    try:
        build = _BUILDERS[format]
    except KeyError:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"Unknown tool schema format {format!r}.",
            f"Use one of: {', '.join(FORMATS)}.",
            field="format",
        ) from None
    return [build(s) for s in specs]
