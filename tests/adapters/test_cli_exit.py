"""The end of a command's own process (``cli.run``): exit handlers run, standard output
is flushed whole, a reader gone before that flush gives exit code 141, and a thread
still running is waited for; only the interpreter's teardown is left out.

Each case runs the command in a fresh interpreter, as the console script does.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

_PATCH = "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    root.mkdir()
    (root / "f.txt").write_text("a\nb\nc\n")
    (tmp_path / "fix.diff").write_text(_PATCH)
    return root


def _env(tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")}
    env.pop("PYTHONUNBUFFERED", None)  # standard output block-buffered on a pipe, as usual
    return env


def _python(
    tmp_path: Path, code: str, *args: str, **kwargs: object
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args], env=_env(tmp_path), text=True, timeout=120,
        check=False, **kwargs,  # type: ignore[call-overload]
    )  # fmt: skip


def test_output_written_through_a_pipe_arrives_whole(tmp_path: Path, tree: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "patchwright", "apply", str(tmp_path / "fix.diff"),
         "--root", str(tree)],
        capture_output=True, text=True, env=_env(tmp_path), timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Patch applied (unified): 1 file(s)")
    assert done.stdout.endswith(" a\n-b\n+B\n c\n")
    assert (tree / "f.txt").read_text() == "a\nB\nc\n"


def test_output_still_buffered_when_the_command_returns_is_flushed(tmp_path: Path) -> None:
    # `--version` prints without flushing: on a pipe its line is still in the buffer
    done = subprocess.run(
        [sys.executable, "-m", "patchwright", "--version"],
        capture_output=True, text=True, env=_env(tmp_path), timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("patchwright ")


def test_exit_handlers_run_and_the_command_s_code_is_the_process_s(
    tmp_path: Path, tree: Path
) -> None:
    code = (
        "import atexit, sys\n"
        "from patchwright.adapters.cli import run\n"
        "atexit.register(lambda: print('handler ran', file=sys.stderr))\n"
        "sys.argv = ['patchwright', 'apply', sys.argv[1], '--root', sys.argv[2]]\n"
        "run()\n"
        "print('never reached', file=sys.stderr)\n"
    )
    missing = tmp_path / "missing.diff"
    done = _python(tmp_path, code, str(missing), str(tree), capture_output=True)
    assert done.returncode == 2  # the patch file cannot be read: a usage error
    assert "handler ran" in done.stderr
    assert "never reached" not in done.stderr
    assert "missing.diff" in done.stderr


def test_a_reader_gone_before_the_output_is_flushed_gives_141(tmp_path: Path) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # no reader at all: the final flush of standard output fails
    try:
        done = subprocess.run(
            [sys.executable, "-m", "patchwright", "--version"],
            stdout=writer, stderr=subprocess.PIPE, text=True, env=_env(tmp_path),
            timeout=120, check=False,
        )  # fmt: skip
    finally:
        os.close(writer)
    assert done.returncode == 141
    assert done.stderr == ""  # no traceback, no "Exception ignored"


def test_a_thread_still_running_is_waited_for(tmp_path: Path) -> None:
    marker = tmp_path / "thread-finished"
    # the thread waits for an event set only once run() has ended the usual way (by
    # raising SystemExit): ended at once instead, the process leaves neither trace
    code = (
        "import sys, threading\n"
        "from pathlib import Path\n"
        "from patchwright.adapters.cli import run\n"
        "marker = Path(sys.argv[1])\n"
        "go = threading.Event()\n"
        "def work():\n"
        "    go.wait()\n"
        "    marker.write_text('done')\n"
        "threading.Thread(target=work).start()\n"
        "sys.argv = ['patchwright', '--version']\n"
        "try:\n"
        "    run()\n"
        "except SystemExit:\n"
        "    print('ended the usual way', file=sys.stderr)\n"
        "    go.set()\n"
        "    raise\n"
    )
    done = _python(tmp_path, code, str(marker), capture_output=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("patchwright ")
    assert "ended the usual way" in done.stderr
    assert marker.read_text() == "done"


def test_under_a_profiler_the_command_ends_the_usual_way(tmp_path: Path) -> None:
    stats = tmp_path / "run.prof"
    done = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(stats), "-m", "patchwright", "--version"],
        capture_output=True, text=True, env=_env(tmp_path), timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("patchwright ")
    assert stats.stat().st_size > 0  # written by cProfile once the command returned
