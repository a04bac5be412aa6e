"""Tool descriptions, kept as package data in ``patchwright/resources/tool_<name>.md``.

A description may name another tool as ``{tool:read_file}``; :func:`render` replaces
each such placeholder with the name the host exposes that tool under, so a renamed
tool set still teaches the right calls. A sentence that only makes sense when another
tool is exposed is written ``{if:edit_lines}For line-number edits use
{tool:edit_lines}.{end}`` and left out otherwise, so a description never sends the model
to a tool it cannot call.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from functools import cache
from importlib import resources

_PLACEHOLDER = re.compile(r"\{tool:([A-Za-z_]+)\}")
_CONDITION = re.compile(r"\{if:([A-Za-z_]+)\}(.*?)\{end\}", re.DOTALL)


@cache
def load(name: str) -> str:
    """The raw description of tool ``name`` (placeholders left in)."""
    source = resources.files("patchwright") / "resources" / f"tool_{name}.md"
    return source.read_text(encoding="utf-8").strip()


def render(text: str, names: Mapping[str, str], exposed: Collection[str] | None = None) -> str:
    """``text`` with ``{tool:x}`` replaced by ``names.get(x, x)`` and each
    ``{if:x}...{end}`` kept only when ``x`` is among the ``exposed`` canonical names
    (all of them when ``exposed`` is ``None``)."""

    def section(m: re.Match[str]) -> str:
        return m.group(2) if exposed is None or m.group(1) in exposed else ""

    kept = _CONDITION.sub(section, text).strip()
    return _PLACEHOLDER.sub(lambda m: names.get(m.group(1), m.group(1)), kept)
