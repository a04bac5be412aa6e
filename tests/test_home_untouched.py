"""A test run leaves the user's home folder as it found it (tests/conftest.py points
every test's state folder at a temporary one)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# tests that open workspaces without naming a state folder, through the API, the
# workspace and the command line
SAMPLE = ["test_api.py", "workspace/test_ws_approval.py", "adapters/test_cli_approval.py"]


def test_a_test_run_leaves_the_home_folder_untouched(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("PATCHWRIGHT_STATE_DIR", "XDG_STATE_HOME")
    }
    env["HOME"] = str(home)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
         "--basetemp", str(tmp_path / "basetemp"), *(str(HERE / t) for t in SAMPLE)],
        cwd=HERE.parent, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert sorted(p.relative_to(home).as_posix() for p in home.rglob("*")) == []
