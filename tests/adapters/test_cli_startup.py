"""Start-up of a command in a process of its own: the collector paused, then resumed.

The objects made while the command starts (modules, classes) are frozen out of the
cyclic garbage collector's sight; collection goes on for the command's own work. A
caller of ``main()`` with its own arguments keeps its collector as it was.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from patchwright.adapters.cli import main

_CHILD = """
import gc, json, sys
from patchwright.adapters.cli import main
sys.argv = ["patchwright", *sys.argv[1:]]
code = main()
sys.stderr.write("\\nGC " + json.dumps([code, gc.isenabled(), gc.get_freeze_count()]) + "\\n")
"""


def _child(tmp_path: Path, *args: str) -> tuple[int, bool, int]:
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, *args],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    line = next(x for x in done.stderr.splitlines() if x.startswith("GC "))
    code, enabled, frozen = json.loads(line.removeprefix("GC "))
    return code, enabled, frozen


def _patch(tmp_path: Path) -> Path:
    (tmp_path / "f.txt").write_text("a\nb\n")
    patch = tmp_path / "p.diff"
    patch.write_text("--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n")
    return patch


def test_a_command_process_freezes_its_start_up_and_collects_after(tmp_path: Path) -> None:
    patch = _patch(tmp_path)
    code, enabled, frozen = _child(tmp_path, "apply", "-q", str(patch), "--root", str(tmp_path))
    assert code == 0
    assert (tmp_path / "f.txt").read_text() == "a\nB\n"
    assert enabled  # the command's own work is collected as usual
    assert frozen > 1000  # the modules and classes start-up made


def test_a_usage_error_leaves_the_collector_on(tmp_path: Path) -> None:
    code, enabled, _ = _child(tmp_path, "apply", "--mode", "nonsense")
    assert code == 2
    assert enabled


def test_a_caller_of_main_keeps_its_collector(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    patch = _patch(tmp_path)
    before = gc.get_freeze_count()
    monkeypatch.setenv("PATCHWRIGHT_STATE_DIR", str(tmp_path / "state"))
    assert main(["apply", "-q", str(patch), "--root", str(tmp_path)]) == 0
    assert gc.isenabled()
    assert gc.get_freeze_count() == before
