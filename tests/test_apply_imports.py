"""What ``patchwright apply`` loads in a workspace's first run: the history's migrations.

What a one-line apply may cost is one budget of instructions (test_startup_budget.py),
not a list of modules. The child runs the console entry point on a real folder and lists
``sys.modules`` when done.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

_CHILD = """
import sys
from patchwright.adapters.cli import main
sys.argv = ["patchwright", "apply", sys.argv[1], "--root", sys.argv[2]]
code = main()
modules = sorted(sys.modules)
import json
sys.stderr.write("\\nMODULES " + json.dumps(modules) + "\\n")
sys.exit(code)
"""


def test_a_new_history_store_is_migrated(tmp_path: Path) -> None:
    # the first apply in a fresh state folder creates the store: the migrations run
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("x\n")
    patch = tmp_path / "p.diff"
    patch.write_text("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n")
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(patch), str(root)],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    assert "patchwright.workspace.history.migrations" in json.loads(line[len("MODULES ") :])
