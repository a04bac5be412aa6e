"""The launcher the ``--baseline`` runs use (``bench/_console.py``): a source tree's own
entry point, ``run`` where the tree has one, ``main`` where it has not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from _common import patchwright_cli

_CONSOLE = Path(__file__).resolve().parent.parent / "_console.py"


def _launch(tmp_path: Path, pythonpath: str | None, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")}
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    return subprocess.run(
        [sys.executable, str(_CONSOLE), *args],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip


def test_a_baseline_runs_through_the_launcher(tmp_path: Path) -> None:
    assert patchwright_cli(tmp_path) == [sys.executable, str(_CONSOLE)]


def test_this_tree_runs_through_it(tmp_path: Path) -> None:
    done = _launch(tmp_path, None, "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("patchwright ")


def test_a_tree_without_run_goes_through_main(tmp_path: Path) -> None:
    # an older tree's command line: main() only, exiting 3 for "--version"
    package = tmp_path / "old" / "patchwright" / "adapters"
    package.mkdir(parents=True)
    (package.parent / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "cli.py").write_text(
        "import sys\n\ndef main():\n    print('old', sys.argv[1:])\n    return 3\n"
    )
    done = _launch(tmp_path, str(tmp_path / "old"), "--version")
    assert done.returncode == 3, done.stderr
    assert done.stdout == "old ['--version']\n"
