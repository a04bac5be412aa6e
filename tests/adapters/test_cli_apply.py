"""``patchwright apply`` and the history commands, run as real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PATCH = "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"


def cli(
    *args: str, cwd: Path, state: Path, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(state)}
    return subprocess.run(
        [sys.executable, "-m", "patchwright", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "f.txt").write_text("a\nb\nc\n")
    (root / "fix.diff").write_text(PATCH)
    return root


def test_apply_then_refuse_then_undo(tree: Path, tmp_path: Path) -> None:
    state = tmp_path / "state"
    done = cli("apply", "fix.diff", cwd=tree, state=state)
    assert done.returncode == 0, done.stderr
    assert "update  f.txt" in done.stdout and "+B" in done.stdout
    assert (tree / "f.txt").read_text() == "a\nB\nc\n"

    again = cli("apply", "fix.diff", cwd=tree, state=state)
    assert again.returncode == 1
    assert "already applied" in again.stderr
    assert (tree / "f.txt").read_text() == "a\nB\nc\n"

    log = cli("log", "--json", cwd=tree, state=state)
    batches = json.loads(log.stdout)
    assert len(batches) == 1 and batches[0]["tool"] == "apply"
    shown = cli("show", batches[0]["id"], cwd=tree, state=state)
    assert "+B" in shown.stdout

    undone = cli("undo", cwd=tree, state=state)
    assert undone.returncode == 0, undone.stderr
    assert (tree / "f.txt").read_text() == "a\nb\nc\n"
    assert cli("undo", batches[0]["id"], cwd=tree, state=state).returncode == 1


def test_apply_from_stdin_with_json_and_dry_run(tree: Path, tmp_path: Path) -> None:
    out = cli("apply", "-", "--dry-run", "--json", cwd=tree, state=tmp_path / "s", stdin=PATCH)
    assert out.returncode == 0
    data = json.loads(out.stdout)
    assert data["ok"] and not data["applied"]
    assert data["files"][0]["hunks"][0]["rung"] == "exact"
    assert (tree / "f.txt").read_text() == "a\nb\nc\n"


def test_usage_errors_exit_2(tree: Path, tmp_path: Path) -> None:
    state = tmp_path / "s"
    assert cli("apply", "missing.diff", cwd=tree, state=state).returncode == 2
    assert cli("apply", "fix.diff", "--mode", "loose", cwd=tree, state=state).returncode == 2
    bad = cli("apply", "fix.diff", "--fuzzy-threshold", "3", cwd=tree, state=state)
    assert bad.returncode == 2 and "fuzzy_threshold" in bad.stderr
    assert cli("frobnicate", cwd=tree, state=state).returncode == 2


def test_version_and_help(tree: Path, tmp_path: Path) -> None:
    out = cli("--version", cwd=tree, state=tmp_path)
    assert out.returncode == 0 and out.stdout.startswith("patchwright ")
    helped = cli("--help", cwd=tree, state=tmp_path)
    assert helped.returncode == 0 and "apply" in helped.stdout
