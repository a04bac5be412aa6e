"""What the vendor integrations share: reading SDK objects or dicts, listing specs."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeAlias

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.tools import Toolbox, ToolSpec, select_specs

ToolSource: TypeAlias = Toolbox | Iterable[ToolSpec] | str
"""A toolbox (its exposed tools), the specs themselves (see ``select_specs``), or the
name of a preset (``"default"``, ``"anthropic"``, ``"openai"``, ``"claude-code"``,
``"spec"``)."""

_MISSING = object()


def specs_of(source: ToolSource) -> list[ToolSpec]:
    """The specs a toolbox exposes, the given specs, or a preset's.

    Raises:
        PatchwrightError: ``invalid_request`` for an unknown preset name.
    """
    if isinstance(source, Toolbox):
        return source.specs()
    if isinstance(source, str):
        return select_specs(preset=source)
    return list(source)


def field(item: Any, name: str, default: Any = None) -> Any:
    """``item[name]`` for a mapping, ``item.name`` for an SDK object; ``default`` if absent."""
    if isinstance(item, Mapping):
        return item.get(name, default)
    return getattr(item, name, default)


def required_id(item: Any, name: str, what: str) -> str:
    """The non-empty string ``name`` of ``item`` (a call's ID, which the API assigns).

    Raises:
        PatchwrightError: ``invalid_request`` when it is missing: the host passed
            something that is not a tool call from a model response.
    """
    value = field(item, name, _MISSING)
    if not isinstance(value, str) or not value:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"The {what} has no {name!r} (got {type(item).__name__}).",
            f"Pass the {what} exactly as the model response holds it.",
            field=name,
        )
    return value
