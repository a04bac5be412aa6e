"""A folder inside the root flips to a symlink to an outside folder while tools run.

Another local process (flipper.py) swaps ``root/d`` for a symlink to ``outside`` and
back, round after round, while this one runs edits, creates and undos through the
tools. The run is bounded by counts: it goes on until at least ``CALLS`` tool calls
*and* ``ROUNDS`` swaps have happened (with a generous deadline only as a guard against
a hung machine). Then: nothing outside changed, no call ended ``internal``, every file
inside is whole (an original or an edit, never a temp file), and the swap was really
met (some calls refused, some succeeded).
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from patchwright.tools import Toolbox
from patchwright.workspace import Workspace

CALLS = 400
ROUNDS = 200
FILES = 4
_DEADLINE_SECONDS = 600  # a guard, not a pace: the loop ends on the counts above
FLIPPER = Path(__file__).with_name("flipper.py")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() if p.is_file() else b"<dir>"
        for p in sorted(folder.rglob("*"))
    }


class _Rounds:
    """Counts the flipper's rounds from its output, in a thread."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.count = 0
        self._thread = threading.Thread(target=self._read, args=(proc,), daemon=True)
        self._thread.start()

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for _line in proc.stdout:
            self.count += 1

    def join(self) -> None:
        self._thread.join(timeout=60)


def _call(toolbox: Toolbox, n: int) -> tuple[str, str]:
    """One tool call of the mix; returns (kind, outcome code or 'ok')."""
    kind = ("edit", "create", "undo", "read")[n % 4]
    if kind == "edit":
        path = f"d/f{n % FILES}.txt"
        current = toolbox.call("read_file", {"path": path})
        old = "line\n" if current.ok and "line" in current.text else "x"
        arguments = {"path": path, "old_string": old, "new_string": f"edit {n}\n"}
        result = toolbox.call("edit_file", arguments)
    elif kind == "create":
        diff = f"--- /dev/null\n+++ b/d/new{n}.txt\n@@ -0,0 +1 @@\n+created {n}\n"
        result = toolbox.call("apply_diff", {"diff": diff, "target": f"d/new{n}.txt"})
    elif kind == "undo":
        result = toolbox.call("undo", {})
    else:
        result = toolbox.call("read_file", {"path": f"d/f{n % FILES}.txt"})
    code = "ok" if result.ok else (result.error.code.value if result.error else "?")
    return kind, code


def test_folder_flipping_to_a_symlink_never_lets_a_write_out(tmp_path: Path) -> None:
    root, outside, state = tmp_path / "root", tmp_path / "outside", tmp_path / "state"
    (root / "d").mkdir(parents=True)
    outside.mkdir()
    for i in range(FILES):
        (root / "d" / f"f{i}.txt").write_text("line\n")
        (outside / f"f{i}.txt").write_text("line\n")  # same names, same content: tempting
    before_outside = _snapshot(outside)
    toolbox = Toolbox(Workspace(root, state_dir=state))
    stop = tmp_path / "stop"
    proc = subprocess.Popen(
        [sys.executable, str(FLIPPER), str(root), "d", str(outside), str(stop)],
        stdout=subprocess.PIPE,
        text=True,
    )
    rounds = _Rounds(proc)
    outcomes: Counter[tuple[str, str]] = Counter()
    deadline = time.monotonic() + _DEADLINE_SECONDS
    try:
        n = 0
        while n < CALLS or rounds.count < ROUNDS:
            assert time.monotonic() < deadline, f"only {n} calls, {rounds.count} rounds"
            assert proc.poll() is None, "the flipper stopped early"
            outcomes[_call(toolbox, n)] += 1
            n += 1
    finally:
        stop.touch()
        proc.wait(timeout=60)
        rounds.join()
        assert proc.stdout is not None
        proc.stdout.close()
    assert proc.returncode == 0
    codes = Counter(code for (_kind, code) in outcomes.elements())
    assert codes["internal"] == 0, outcomes
    assert _snapshot(outside) == before_outside, "something was written outside the root"
    assert codes["ok"] > 0 and codes["path_outside_root"] > 0, outcomes  # the race was met
    _check_inside(root, state)


def _check_inside(root: Path, state: Path) -> None:
    # opening again rolls back anything a refused call left journaled
    Workspace(root, state_dir=state)
    leftovers = [p for p in root.rglob("*") if ".pw-" in p.name]
    assert leftovers == [], leftovers
    for path in root.rglob("*.txt"):
        text = path.read_text()
        assert text in ("line\n",) or text.startswith(("edit ", "created ")), (path, text)
