"""Tool definitions in the shapes hosts expect, built from :class:`ToolSpec` values.

* OpenAI Chat Completions: ``{"type": "function", "function": {"name", "description",
  "parameters"}}``; with ``strict=True`` the schema is OpenAI's strict variant
  (:func:`strict_schema`) and ``"strict": true`` is set;
* Anthropic Messages: ``{"name", "description", "input_schema"}``, with
  ``input_examples`` for a tool that has examples (those that take arrays of objects),
  and ``cache_control`` on the last tool when asked (:func:`anthropic_tools`);
* MCP ``tools/list``: ``{"name", "title", "description", "inputSchema", "annotations"}``
  with the standard hints (``readOnlyHint``, ``destructiveHint``, ``idempotentHint``,
  ``openWorldHint``);
* ``json-schema``: patchwright's own listing, with the contract each tool implements.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.tools.catalogue import input_schema
from patchwright.tools.spec import ToolSpec

SchemaFormat = Literal["openai", "anthropic", "mcp", "json-schema"]
FORMATS: tuple[str, ...] = ("openai", "anthropic", "mcp", "json-schema")


#: Keywords OpenAI's strict mode does not take; they are dropped from a strict schema
#: (the request model still checks them when the call arrives).
_NOT_STRICT = ("default", "minLength", "maxLength")


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """OpenAI's strict variant of a JSON schema: every object lists all its properties
    in ``required`` (optional ones become nullable) and has ``additionalProperties:
    false``, at every level. A model then sends ``null`` for what it leaves out, which
    the dispatcher reads as "not given"."""
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _NOT_STRICT:
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: strict_schema(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties", "not") and isinstance(value, dict):
            out[key] = strict_schema(value)
        elif key in ("anyOf", "oneOf", "allOf", "prefixItems") and isinstance(value, list):
            out[key] = [strict_schema(v) if isinstance(v, dict) else v for v in value]
        else:
            out[key] = value
    if out.get("type") == "object" and isinstance(out.get("properties"), dict):
        required = set(out.get("required", ()))
        out["properties"] = {
            name: sub if name in required else _nullable(sub)
            for name, sub in out["properties"].items()
        }
        out["required"] = list(out["properties"])
        out["additionalProperties"] = False
    return out


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    out = dict(schema)
    if isinstance(kind, str):
        out["type"] = [kind, "null"]
        if isinstance(out.get("enum"), list):
            out["enum"] = [*out["enum"], None]
        return out
    if isinstance(out.get("anyOf"), list):
        out["anyOf"] = [*out["anyOf"], {"type": "null"}]
        return out
    return {"anyOf": [out, {"type": "null"}]}


def parameters(spec: ToolSpec, *, strict: bool = False) -> dict[str, Any]:
    """The arguments' schema as OpenAI takes it (the strict variant when ``strict``)."""
    schema = input_schema(spec)
    return strict_schema(schema) if strict else schema


def openai_tool(spec: ToolSpec, *, strict: bool = False) -> dict[str, Any]:
    """The OpenAI Chat Completions ``function`` tool for ``spec``."""
    function: dict[str, Any] = {
        "name": spec.name,
        "description": spec.description,
        "parameters": parameters(spec, strict=strict),
    }
    if strict:
        function["strict"] = True
    return {"type": "function", "function": function}


def anthropic_tool(spec: ToolSpec) -> dict[str, Any]:
    """The Anthropic Messages API tool for ``spec`` (with ``input_examples`` when the
    tool has examples)."""
    tool: dict[str, Any] = {
        "name": spec.name,
        "description": spec.description,
        "input_schema": input_schema(spec),
    }
    if spec.examples:
        tool["input_examples"] = [dict(e) for e in spec.examples]
    return tool


def anthropic_tools(
    specs: Iterable[ToolSpec], *, cache_control: bool = False
) -> list[dict[str, Any]]:
    """Every spec as an Anthropic tool; ``cache_control`` marks the last one
    ``{"type": "ephemeral"}`` so the whole tool list is cached between requests."""
    tools = [anthropic_tool(s) for s in specs]
    if cache_control and tools:
        tools[-1]["cache_control"] = {"type": "ephemeral"}
    return tools


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


_BUILDERS: dict[str, Callable[[ToolSpec], dict[str, Any]]] = {
    "openai": openai_tool,
    "anthropic": anthropic_tool,
    "mcp": mcp_tool,
    "json-schema": json_schema_tool,
}


def tool_definitions(
    specs: Iterable[ToolSpec], format: str, *, strict: bool = False, cache_control: bool = False
) -> list[dict[str, Any]]:
    """Every spec in the given format (``strict``: OpenAI's strict schemas;
    ``cache_control``: Anthropic's cache mark on the last tool).

    Raises:
        PatchwrightError: ``invalid_request`` for an unknown format, or an option the
            format does not take.
    """
    if strict and format != "openai":
        raise _option_error("strict", "openai", format)
    if cache_control and format != "anthropic":
        raise _option_error("cache_control", "anthropic", format)
    if strict:
        return [openai_tool(s, strict=True) for s in specs]
    if cache_control:
        return anthropic_tools(specs, cache_control=True)
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


def _option_error(option: str, needs: str, format: str) -> PatchwrightError:
    return PatchwrightError(
        ErrorCode.INVALID_REQUEST,
        f"The {option} option is for the {needs} format, not {format!r}.",
        f"Use format {needs} with {option}, or leave {option} out.",
        field=option,
    )
