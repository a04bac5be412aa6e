"""Fixtures for workspace tests: a root folder and a state folder outside it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

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
def make_ws(root: Path, state: Path) -> Callable[..., Workspace]:
    def make(**options: Any) -> Workspace:
        options.setdefault("state_dir", state)
        return Workspace(root, **options)

    return make
