"""Make the benchmark helpers importable the way the scripts import them (bare names)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))


@pytest.fixture(autouse=True)
def _private_state_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """The state folder of whatever a benchmark test runs: a temporary one (as in
    tests/conftest.py), never the user's."""
    folder = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("PATCHWRIGHT_STATE_DIR", str(folder))
    return folder
