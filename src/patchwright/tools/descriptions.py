"""Tool descriptions, kept as package data in ``patchwright/resources/tool_<name>.md``.

A description may name another tool as ``{tool:read_file}``; :func:`render` replaces
each such placeholder with the name the host exposes that tool under, so a renamed
tool set still teaches the right calls.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from importlib import resources

_PLACEHOLDER = re.compile(r"\{tool:([a-z_]+)\}")


@cache
def load(name: str) -> str:
    """The raw description of tool ``name`` (placeholders left in)."""
    source = resources.files("patchwright") / "resources" / f"tool_{name}.md"
    return source.read_text(encoding="utf-8").strip()


def render(text: str, names: Mapping[str, str]) -> str:
    """``text`` with ``{tool:x}`` replaced by ``names.get(x, x)``."""
    return _PLACEHOLDER.sub(lambda m: names.get(m.group(1), m.group(1)), text)
