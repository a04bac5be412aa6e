"""A fleet: 8 processes on 4 workspaces and 2 machines, 50 commits each, one history."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from patchwright.workspace import Workspace, sha256_hex
from patchwright.workspace.history.migrations import MIGRATIONS

PROCESSES, COMMITS = 8, 50
CHILD = str(Path(__file__).with_name("fleet_child.py"))


def test_eight_processes_lose_and_duplicate_nothing(pg_url: str, tmp_path: Path) -> None:
    jobs = []
    for n in range(PROCESSES):
        root = tmp_path / f"root{n % 4}"  # two agents per workspace, on different files
        root.mkdir(exist_ok=True)
        env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / f"machine{n % 2}")}
        args = [sys.executable, CHILD, str(root), f"agent{n}.txt", str(COMMITS)]
        jobs.append((n, root, subprocess.Popen(args, env=env, stdout=subprocess.PIPE)))
    reported: dict[int, list[str]] = {}
    for n, _, proc in jobs:
        out, _ = proc.communicate(timeout=600)
        assert proc.returncode == 0, f"agent {n} failed"
        reported[n] = json.loads(out)

    state = tmp_path / "machine0"
    everything = Workspace(tmp_path / "root0", state_dir=state).history.list_batches(
        limit=10_000, all_workspaces=True
    )
    with Workspace(tmp_path / "root0", state_dir=state).history.backend.transaction(
        write=False
    ) as tx:  # eight processes migrated a new database at once: each version once
        versions = [r["version"] for r in tx.rows("SELECT version FROM schema_migrations")]
    assert sorted(versions) == [m.version for m in MIGRATIONS]
    ids = [b["id"] for b in everything]
    assert len(ids) == PROCESSES * COMMITS == len(set(ids))
    assert sorted(ids) == sorted(i for batch in reported.values() for i in batch)
    assert len({b["machine"] for b in everything}) == 2
    assert Counter(b["workspace"] for b in everything) == {
        str((tmp_path / f"root{k}").resolve()): 2 * COMMITS for k in range(4)
    }
    for n, root, _ in jobs:
        # each agent's chain is whole: every version once, each built on the one before
        mine = Workspace(root, state_dir=tmp_path / f"machine{n % 2}").history
        labels = [b["label"] for b in mine.list_batches(limit=10_000) if b["id"] in reported[n]]
        assert sorted(labels) == sorted(f"agent{n}.txt {i}" for i in range(COMMITS))
        last = mine.get(reported[n][-1])["files"][0]
        assert last["after_sha256"] == sha256_hex(f"agent{n}.txt {COMMITS - 1}\n".encode())
        assert (root / f"agent{n}.txt").read_bytes() == f"agent{n}.txt {COMMITS - 1}\n".encode()
