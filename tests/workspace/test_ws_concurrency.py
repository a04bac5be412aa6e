"""SHA-guarded edits of one file by several processes and threads: no update is lost.

Each writer appends its own numbered lines to ``log.txt``, one commit per line: read,
append, commit with the hash it read, retry on ``stale``. At the end the file holds
every line exactly once and in each writer's order, the history is one unbroken chain
(each batch's before-hash is the previous batch's after-hash), and every refusal was a
real conflict (the hash it expected was not the file's hash).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import threading
from collections.abc import Iterable
from pathlib import Path

import pytest
from ws_child import CHILD_PATH

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import FileChange, Workspace, sha256_hex
from patchwright.workspace.locks import PathLocks

PROCESSES, PER_PROCESS = 4, 15
THREADS, PER_THREAD = 4, 10


def _check_log(ws: Workspace, writers: Iterable[str], count: int) -> None:
    lines = ws.read("log.txt").data.decode().splitlines()
    assert sorted(lines) == sorted(f"{w}:{i}" for w in writers for i in range(count))
    for writer in writers:
        mine = [int(line.split(":")[1]) for line in lines if line.startswith(f"{writer}:")]
        assert mine == sorted(mine)
    batches = ws.history.list_batches(limit=10_000)[::-1]
    chain = [ws.history.get(b["files"][0]["id"]) for b in batches]
    assert len(chain) == len(lines)
    assert chain[0]["before_sha256"] == sha256_hex(b"")
    for earlier, later in itertools.pairwise(chain):
        assert later["before_sha256"] == earlier["after_sha256"]
    assert chain[-1]["after_sha256"] == ws.read("log.txt").sha256


def test_processes_never_lose_an_update(root: Path, state: Path) -> None:
    (root / "log.txt").write_bytes(b"")
    Workspace(root, state_dir=state)
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                CHILD_PATH,
                "counter",
                str(root),
                str(state),
                f"p{n}",
                str(PER_PROCESS),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for n in range(PROCESSES)
    ]
    summaries = []
    for worker in workers:
        out, _ = worker.communicate(timeout=120)
        assert worker.returncode == 0
        summaries.append(json.loads(out))
    stale = [s for summary in summaries for s in summary["stale"]]
    assert stale, "the writers never collided, so nothing was proven"
    assert all(s["expected"] != s["actual"] for s in stale)
    _check_log(Workspace(root, state_dir=state), [f"p{n}" for n in range(PROCESSES)], PER_PROCESS)


def test_threads_sharing_one_workspace_never_lose_an_update(root: Path, state: Path) -> None:
    (root / "log.txt").write_bytes(b"")
    ws = Workspace(root, state_dir=state, lock_timeout=60)
    refusals: list[tuple[str, str | None]] = []
    errors: list[BaseException] = []

    def writer(name: str) -> None:
        try:
            for i in range(PER_THREAD):
                while True:
                    current = ws.read("log.txt")
                    new = current.data + f"{name}:{i}\n".encode()
                    try:
                        ws.commit([FileChange("log.txt", new, expected_sha256=current.sha256)])
                        break
                    except PatchwrightError as exc:
                        assert exc.code == ErrorCode.STALE
                        refusals.append((current.sha256, exc.details["actual_sha256"]))
        except BaseException as exc:  # surfaced below: a thread cannot fail the test itself
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(f"t{n}",)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors
    assert refusals, "the threads never collided, so nothing was proven"
    assert all(expected != actual for expected, actual in refusals)
    _check_log(ws, [f"t{n}" for n in range(THREADS)], PER_THREAD)


def test_busy_lock_times_out_clearly(root: Path, state: Path) -> None:
    ws = Workspace(root, state_dir=state, lock_timeout=0.2)
    with PathLocks(ws.state_folder / "locks", 1).hold(["a.txt"]):
        with pytest.raises(PatchwrightError) as info:
            ws.commit([FileChange("a.txt", b"x")])
        assert info.value.code == ErrorCode.LOCK_TIMEOUT and info.value.path == "a.txt"
    assert not (root / "a.txt").exists()
    ws.commit([FileChange("a.txt", b"x")])
