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

    retried = cli("apply", "fix.diff", cwd=tree, state=state)  # a retry changes nothing
    assert retried.returncode == 0, retried.stderr
    assert retried.stdout.startswith("Already applied (batch b-")
    (tree / "other.diff").write_text(PATCH.replace("-b\n+B", "-x\n+X"))
    again = cli("apply", "other.diff", cwd=tree, state=state)
    assert again.returncode == 1
    assert again.stderr.startswith("Patch failed on f.txt:\n  Hunk 1 failed: ")
    assert "No changes made (atomic rollback).\nRoot folder: " in again.stderr
    assert again.stderr.endswith(
        f"Root folder: {tree} (patch paths are relative to it; "
        "choose another with --root or strip leading folders with -p N).\n"
    )
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


def test_failure_json_has_per_hunk_results(tree: Path, tmp_path: Path) -> None:
    (tree / "f.txt").write_text("a\nb\nc\nd\ne\nf\ng\nh\n")
    patch = "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n@@ -7,2 +7,2 @@\n g\n-x\n+X\n"
    out = cli("apply", "-", "--json", "--mode", "strict", cwd=tree, state=tmp_path, stdin=patch)
    assert out.returncode == 1
    data = json.loads(out.stdout)
    assert not data["ok"] and data["error"]["code"] == "not_found"
    (file,) = data["files"]
    assert file["status"] == "failed"
    assert [(h["hunk"], h["status"]) for h in file["hunks"]] == [(1, "would_apply"), (2, "failed")]
    assert file["hunks"][0]["rung"] == "exact"
    assert file["hunks"][1]["line"] == 8 and file["hunks"][1]["expected"] == "x"
    human = cli("apply", "-", "--mode", "strict", cwd=tree, state=tmp_path, stdin=patch)
    assert human.stderr.splitlines()[:3] == [
        "Patch failed on f.txt:",
        "  Hunk 1: would have applied; nothing was written",
        "  Hunk 2 failed: context mismatch at line 8",
    ]
    assert (tree / "f.txt").read_text().startswith("a\n")


def test_missing_root_is_a_usage_error(tree: Path, tmp_path: Path) -> None:
    out = cli("apply", "fix.diff", "--root", str(tmp_path / "nowhere"), cwd=tree, state=tmp_path)
    assert out.returncode == 2
    assert out.stderr.startswith("patchwright apply: --root: ")
    assert "nowhere" in out.stderr and "not an existing folder" in out.stderr
    a_file = cli("apply", "fix.diff", "--root", "f.txt", cwd=tree, state=tmp_path)
    assert a_file.returncode == 2


def test_no_history_offers_no_undo(tree: Path, tmp_path: Path) -> None:
    out = cli("apply", "fix.diff", "--no-history", cwd=tree, state=tmp_path / "s")
    assert out.returncode == 0, out.stderr
    assert "undo with" not in out.stdout and "cannot be undone" in out.stdout
    log = cli("log", "--json", cwd=tree, state=tmp_path / "s")
    assert json.loads(log.stdout) == []


def test_syntax_option(tree: Path, tmp_path: Path) -> None:
    (tree / "m.py").write_text("x = 1\n")
    patch = "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 1\n+x = (1\n"
    rejected = cli("apply", "-", "--syntax", "reject", cwd=tree, state=tmp_path, stdin=patch)
    assert rejected.returncode == 1 and "Syntax check (python) refused" in rejected.stderr
    assert (tree / "m.py").read_text() == "x = 1\n"
    warned = cli("apply", "-", "--json", cwd=tree, state=tmp_path, stdin=patch)
    assert warned.returncode == 0
    data = json.loads(warned.stdout)
    assert data["files"][0]["syntax"]["new_errors"][0]["line"] == 1
    assert any("Syntax check (python)" in w for w in data["warnings"])
    assert cli("apply", "-", "--syntax", "loud", cwd=tree, state=tmp_path).returncode == 2


def test_mode_only_diff(tree: Path, tmp_path: Path) -> None:
    (tree / "f.txt").chmod(0o644)
    patch = "diff --git a/f.txt b/f.txt\nold mode 100644\nnew mode 100755\n"
    out = cli("apply", "-", cwd=tree, state=tmp_path, stdin=patch)
    assert out.returncode == 0, out.stderr
    assert (tree / "f.txt").stat().st_mode & 0o777 == 0o755
    again = cli("apply", "-", cwd=tree, state=tmp_path, stdin=patch)
    assert again.returncode == 1 and "already has mode 100755" in again.stderr
