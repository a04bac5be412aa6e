"""JSON schemas for tool arguments, generated from the pydantic request models.

Hosts differ in what they accept, so the generated schema is flattened to the common
subset: ``$defs`` / ``$ref`` are inlined (the models are not recursive), ``title``
keywords are dropped (the description says more), and an optional field written
``X | None = None`` is published as plain ``X`` (leaving it out is how a model says
"none"; ``null`` is still accepted when sent).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel

_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SUBSCHEMA_KEYS = ("items", "additionalProperties", "not", "contains")


@cache
def _model_schema(model: type[BaseModel]) -> dict[str, Any]:
    raw = model.model_json_schema()
    defs = raw.pop("$defs", {})
    raw.pop("description", None)  # the model's docstring speaks to developers, not models
    flat: dict[str, Any] = _walk(raw, defs)
    return flat


def model_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The flattened JSON schema of ``model`` (a fresh copy each call)."""
    copied: dict[str, Any] = _copy(_model_schema(model))
    return copied


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _walk(node: Any, defs: dict[str, Any]) -> Any:
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = defs[str(node["$ref"]).rsplit("/", 1)[-1]]
        extra = {k: v for k, v in node.items() if k != "$ref"}
        return _walk({**target, **extra}, defs)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title":
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: _walk(sub, defs) for name, sub in value.items()}
        elif key in _SUBSCHEMA_LISTS and isinstance(value, list):
            out[key] = [_walk(sub, defs) for sub in value]
        elif key in _SUBSCHEMA_KEYS:
            out[key] = _walk(value, defs)
        else:
            out[key] = value
    return _drop_null_branch(out)


def _drop_null_branch(node: dict[str, Any]) -> dict[str, Any]:
    options = node.get("anyOf")
    if not isinstance(options, list) or node.get("default") is not None:
        return node
    rest = [o for o in options if o != {"type": "null"}]
    if len(rest) != 1 or len(rest) == len(options):
        return node
    merged = {k: v for k, v in node.items() if k not in ("anyOf", "default")}
    return {**rest[0], **merged}
