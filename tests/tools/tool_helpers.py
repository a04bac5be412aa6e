"""Helpers shared by the tool tests."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from patchwright.model import ToolResult
from patchwright.tools import Toolbox


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write(root: Path, rel: str, text: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def ok(toolbox: Toolbox, name: str, **arguments: Any) -> ToolResult:
    result = toolbox.call(name, arguments)
    assert result.ok, result.text
    return result


def refused(toolbox: Toolbox, name: str, **arguments: Any) -> ToolResult:
    result = toolbox.call(name, arguments)
    assert not result.ok, result.text
    assert result.error is not None
    return result
