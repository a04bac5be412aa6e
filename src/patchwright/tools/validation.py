"""Turn a request that does not fit its model into one error a model can act on.

Each problem names the field as a path (``patches[1].oldText``), says what is wrong and
what was sent, and how to fix it: a missing field gets its description, an unknown
field the list of accepted ones, a wrong value the allowed values or type.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, Field, ValidationError, create_model

from patchwright.model import ErrorCode, PatchwrightError

_TYPE_WORDS = {
    "string_type": "a string",
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "float_type": "a number",
    "float_parsing": "a number",
    "list_type": "an array",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
}
_MAX_SHOWN = 8


def validate_request(model: type[BaseModel], arguments: Mapping[str, Any], tool: str) -> BaseModel:
    """Validate ``arguments`` against ``model``.

    Raises:
        PatchwrightError: ``invalid_request`` naming the first bad field, listing every
            problem in the message and in ``details["errors"]``.
    """
    try:
        return model.model_validate(dict(arguments))
    except ValidationError as exc:
        raise request_error(model, exc, tool) from None


def missing_field(model: type[BaseModel], name: str, tool: str) -> PatchwrightError:
    """The error :func:`validate_request` gives for the string field ``name`` of
    ``model`` when it is missing: for a field the model leaves optional because another
    form of the request (such as a confirm token alone) does without it."""
    info = model.model_fields[name]
    fields: dict[str, Any] = {name: (str, Field(description=info.description))}
    probe = create_model(model.__name__, **fields)
    try:
        probe.model_validate({})
    except ValidationError as exc:
        return request_error(probe, exc, tool)
    raise AssertionError("a required field validated without a value")  # pragma: no cover


def request_error(model: type[BaseModel], exc: ValidationError, tool: str) -> PatchwrightError:
    """The ``invalid_request`` error for a pydantic validation failure."""
    problems = [_problem(model, err) for err in exc.errors(include_url=False)]
    shown = problems[:_MAX_SHOWN]
    lines = [f"- {p['field'] or '(arguments)'}: {p['problem']}" for p in shown]
    if len(problems) > len(shown):
        lines.append(f"- ... and {len(problems) - len(shown)} more.")
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
    message = f"Invalid arguments for {tool} ({count}); nothing was done:\n" + "\n".join(lines)
    first = problems[0]
    return PatchwrightError(
        ErrorCode.INVALID_REQUEST,
        message,
        first["fix"],
        field=first["field"] or None,
        details={"errors": problems},
    )


def field_path(loc: Sequence[int | str]) -> str:
    """``("patches", 1, "oldText")`` -> ``"patches[1].oldText"``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _problem(model: type[BaseModel], err: Mapping[str, Any]) -> dict[str, str]:
    loc = tuple(err.get("loc", ()))
    kind = str(err.get("type", ""))
    path = field_path(loc)
    name = str(loc[-1]) if loc else ""
    got = _shown(err.get("input"))
    owner = _model_at(model, loc[:-1])
    if kind == "missing":
        about = _description(owner, name)
        return {
            "field": path,
            "problem": "required field is missing" + (f" ({about})" if about else "") + ".",
            "fix": f"Add `{path}`" + (f": {about}" if about else "."),
        }
    if kind == "extra_forbidden":
        accepted = ", ".join(owner.model_fields) if owner is not None else ""
        return {
            "field": path,
            "problem": f"unknown field `{name}`.",
            "fix": f"Remove `{path}`"
            + (f"; accepted fields here: {accepted}." if accepted else "."),
        }
    message = str(err.get("msg", "invalid value"))
    message = message.removeprefix("Value error, ")
    if kind in _TYPE_WORDS:
        return {
            "field": path,
            "problem": f"must be {_TYPE_WORDS[kind]}, got {got}.",
            "fix": f"Send `{path}` as {_TYPE_WORDS[kind]}.",
        }
    return {
        "field": path,
        "problem": f"{message} (got {got}).",
        "fix": f"Fix `{path}`: {message[0].lower() + message[1:] if message else 'invalid'}.",
    }


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _description(model: type[BaseModel] | None, name: str) -> str:
    if model is None or name not in model.model_fields:
        return ""
    text = model.model_fields[name].description or ""
    return text.split(". ")[0].rstrip(".")


def _model_at(model: type[BaseModel], loc: Sequence[int | str]) -> type[BaseModel] | None:
    """The model that owns the field at ``loc`` (``None`` when it cannot be told)."""
    current: type[BaseModel] | None = model
    for part in loc:
        if current is None:
            return None
        if isinstance(part, int):
            continue
        info = current.model_fields.get(part)
        current = _inner_model(info.annotation) if info is not None else None
    return current


def _inner_model(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin is None and not isinstance(annotation, types.UnionType):
        return None
    for arg in typing.get_args(annotation):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None
