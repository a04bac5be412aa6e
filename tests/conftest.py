"""Fixtures for every test: nothing a test runs writes to the user's state folder.

Every test gets ``PATCHWRIGHT_STATE_DIR`` pointed at a temporary folder of its own (the
subprocesses it starts inherit it), so histories, journals, locks and proposals of test
workspaces never land in ``~/.local/state/patchwright``. A test that needs another
state folder passes one itself (``state_dir=``, or the variable in a subprocess's
environment).
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_state_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    folder = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("PATCHWRIGHT_STATE_DIR", str(folder))
    return folder
