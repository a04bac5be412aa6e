"""The history commands against one PostgreSQL history shared by two "machines".

Each machine is a state folder of its own (its journal, locks and machine name), as on
two hosts; the commands run as real subprocesses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from patchwright.workspace.history.migrations import LATEST, MIGRATIONS
from patchwright.workspace.history.postgres import close_pools


def cli(*args: str, state: Path, url: str | None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(state)}
    env.pop("PATCHWRIGHT_HISTORY_URL", None)
    if url is not None:
        env["PATCHWRIGHT_HISTORY_URL"] = url
    return subprocess.run(
        [sys.executable, "-m", "patchwright", *args],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def _apply(root: Path, state: Path, url: str) -> str:
    (root / "f.txt").write_text("a\nb\n")
    (root / "fix.diff").write_text("--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n")
    done = cli("apply", "--root", str(root), str(root / "fix.diff"), "--json", state=state, url=url)
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["batch_id"])


def test_log_show_undo_across_two_machines(pg_url: str, tmp_path: Path) -> None:
    one, two = tmp_path / "machine-one", tmp_path / "machine-two"
    root1, root2 = tmp_path / "repo1", tmp_path / "repo2"
    root1.mkdir(), root2.mkdir()
    first, second = _apply(root1, one, pg_url), _apply(root2, two, pg_url)

    listed = cli("log", "--all-workspaces", "--json", state=one, url=pg_url)
    assert listed.returncode == 0, listed.stderr
    batches = json.loads(listed.stdout)
    assert [b["id"] for b in batches] == [second, first]
    assert [b["workspace"] for b in batches] == [str(root2.resolve()), str(root1.resolve())]
    machine_one, machine_two = batches[1]["machine"], batches[0]["machine"]
    assert machine_one != machine_two
    text = cli("log", "--all-workspaces", state=two, url=pg_url).stdout
    assert f"{machine_one}:{root1.resolve()}" in text and f"{machine_two}:{root2.resolve()}" in text
    # this workspace's log alone, from its own machine
    own = json.loads(cli("log", "--root", str(root1), "--json", state=one, url=pg_url).stdout)
    assert [b["id"] for b in own] == [first]

    # by ID, a workspace reads only its own batches; the fleet view is asked for by name
    hidden = cli("show", second, "--root", str(root1), state=one, url=pg_url)
    assert hidden.returncode == 1 and "+B" not in hidden.stdout + hidden.stderr
    assert f"No batch, file patch or change of this workspace has the ID {second!r}" in (
        hidden.stderr
    )
    shown = cli("show", second, "--all-workspaces", state=one, url=pg_url)
    assert shown.returncode == 0 and "+B" in shown.stdout and machine_two in shown.stdout

    elsewhere = cli("undo", second, "--root", str(root2), state=one, url=pg_url)
    assert elsewhere.returncode == 1 and "Traceback" not in elsewhere.stderr
    assert f"recorded on machine {machine_two!r}" in elsewhere.stderr
    assert "undo works only on the machine that holds the workspace" in elsewhere.stderr
    assert (root2 / "f.txt").read_text() == "a\nB\n"
    undone = cli("undo", second, "--root", str(root2), state=two, url=pg_url)
    assert undone.returncode == 0, undone.stderr
    assert (root2 / "f.txt").read_text() == "a\nb\n"


def test_sqlite_log_all_workspaces_lists_this_machines_folders(tmp_path: Path) -> None:
    state = tmp_path / "state"
    roots = [tmp_path / "repo1", tmp_path / "repo2"]
    for root in roots:
        root.mkdir()
        (root / "f.txt").write_text("a\nb\n")
        (root / "fix.diff").write_text("--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n")
        assert cli("apply", "--root", str(root), str(root / "fix.diff"), state=state, url=None)
    listed = json.loads(cli("log", "--all-workspaces", "--json", state=state, url=None).stdout)
    assert sorted(b["workspace"] for b in listed) == sorted(str(r.resolve()) for r in roots)
    assert len({b["machine"] for b in listed}) == 1


def test_migrate_command_and_first_use(pg_url: str, tmp_path: Path) -> None:
    import psycopg

    def tables() -> set[str]:
        with psycopg.connect(pg_url) as conn:
            rows = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname='public'")
            return {r[0] for r in rows}

    assert tables() == set()
    migrated = cli("history", "migrate", "--json", state=tmp_path / "s", url=pg_url)
    assert migrated.returncode == 0, migrated.stderr
    report = json.loads(migrated.stdout)
    every = [m.version for m in MIGRATIONS]
    assert (report["applied"], report["versions"]) == (every, every)
    assert "pwtest@" in report["store"]
    assert tables() == {
        "schema_migrations", "batches", "files", "changes", "blobs", "deltas", "proposals",
        "proposal_contents",
    }  # fmt: skip
    again = cli("history", "migrate", state=tmp_path / "s", url=pg_url)
    assert again.returncode == 0, again.stderr
    assert f"schema version {LATEST} (nothing to apply)" in again.stdout
    close_pools()


def test_commands_without_the_url_never_load_psycopg(tmp_path: Path) -> None:
    code = (
        "import sys; from patchwright.adapters.cli import main; "
        f"main(['log', '--root', {str(tmp_path)!r}]); "
        "print(sorted(m for m in sys.modules if m.startswith('psycopg')))"
    )
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "s")}
    env.pop("PATCHWRIGHT_HISTORY_URL", None)
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.splitlines()[-1] == "[]"
