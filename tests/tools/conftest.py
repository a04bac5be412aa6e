"""Fixtures for tool tests: a workspace root and a state folder, both inside tmp_path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from patchwright.tools import Toolbox
from patchwright.workspace import Workspace


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    return folder


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture
def make_toolbox(root: Path, state: Path) -> Callable[..., Toolbox]:
    """Build a toolbox (the ``spec`` preset unless told otherwise); workspace options go
    to the workspace, the rest to the toolbox."""

    def make(**options: Any) -> Toolbox:
        ws_keys = {"mode", "fs", "history", "allow", "deny", "max_file_bytes"}
        ws_options = {k: options.pop(k) for k in list(options) if k in ws_keys}
        workspace = Workspace(root, state_dir=state, **ws_options)
        if "tools" not in options:
            options.setdefault("preset", "spec")  # the spec tools' tests see all eleven
        return Toolbox(workspace, **options)

    return make


@pytest.fixture
def toolbox(make_toolbox: Callable[..., Toolbox]) -> Toolbox:
    return make_toolbox()
