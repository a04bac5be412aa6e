"""Crash safety: commits killed with SIGKILL at every step and at random instants.

A warm fork server (ws_child.py) forks one child per kill; the child commits the scenario
of ws_child.tree from version v to v + 1 (three updates, a move, a creation in a new
folder, a deletion) and is killed either while paused before its N-th mutating file-system
call or after a random delay. Each time, the test opens a fresh workspace on the root
(which rolls back what the child left) and checks that the tree is exactly version v or
exactly version v + 1, with no temp file left, permission bits kept, an empty journal and
exactly one history batch per completed commit.

The random kills go on until they have counted what the test needs (kills, kills that
landed mid-commit, commits completed between kills), so a busy machine makes the test
longer, never wrong.
"""

from __future__ import annotations

import contextlib
import os
import random
import selectors
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from ws_child import CHILD_PATH, commit_next, tree, version_of
from ws_helpers import files

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import FileChange, OsFileSystem, Probe, Workspace, sha256_hex
from patchwright.workspace.locks import PathLocks

RANDOM_KILLS = 200
RANDOM_COMMITS = 20  # commits the randomly killed children must complete between them
MAX_RANDOM_KILLS = 2_000


def _install(root: Path, v: int = 0) -> None:
    for rel, data in tree(v).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    (root / "a.txt").chmod(0o751)


class Server:
    """The fork server, with line reads that time out instead of hanging the suite."""

    def __init__(self, root: Path, state: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, CHILD_PATH, "server", str(root), str(state)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert self.proc.stdout is not None
        self.out = self.proc.stdout.fileno()
        self.buffer = b""
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.out, selectors.EVENT_READ)
        self.live: set[int] = set()

    def send(self, line: str) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        word, pid = self.line().split()
        assert word == "pid"
        self.live.add(int(pid))
        return int(pid)

    def line(self, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            assert remaining > 0 and self.selector.select(remaining), "child server silent"
            chunk = os.read(self.out, 4096)
            assert chunk, "child server exited"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()

    def kill(self, pid: int) -> None:
        os.kill(pid, signal.SIGKILL)
        self.live.discard(pid)
        assert self.line() == f"exit {pid} -9"

    def close(self) -> None:
        for pid in self.live:  # children of a failed run: end them, by their own ids
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(10)
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        self.selector.close()


@pytest.fixture
def server(root: Path, state: Path) -> Iterator[Server]:
    _install(root)
    Workspace(root, state_dir=state)  # create the state folder before forking
    running = Server(root, state)
    try:
        yield running
    finally:
        running.close()


def check(root: Path, state: Path, before: int) -> tuple[int, bool]:
    """Recover, then check the invariants; returns the version and whether a rollback ran."""
    ws = Workspace(root, state_dir=state)
    v = version_of(root)
    assert v in (before, before + 1) if before >= 0 else v >= -before
    assert files(root) == tree(v), f"tree is neither version {v} nor whole"
    assert (root / "a.txt").stat().st_mode & 0o777 == 0o751
    if v == before:
        assert not (root / f"d{v + 1}").exists(), "a folder made by a rolled-back commit stayed"
    assert list((ws.state_folder / "journal").iterdir()) == []
    batches = ws.history.list_batches(limit=100_000)
    assert len(batches) == v
    if v:
        assert batches[0]["meta"] == {"version": v}
    return v, bool(ws.recovered)


def test_kill_before_every_step_then_at_random_instants(
    root: Path, state: Path, server: Server
) -> None:
    kills = rollbacks = 0
    v, step = 0, 1
    while True:  # one kill before each mutating call of one commit
        pid = server.send(f"step {step}")
        status = server.line()
        if status == f"done {pid}":
            server.live.discard(pid)
            assert server.line() == f"exit {pid} 0"
            v, _ = check(root, state, v)
            break
        assert status == f"paused {pid} {step}"
        server.kill(pid)
        kills += 1
        v, rolled = check(root, state, v)
        rollbacks += rolled
        step += 1
    assert step > 30 and v >= 1
    stepped = v
    rng = random.Random(1234)
    max_delay, random_kills = 0.08, 0
    # counts, not timing: go on until enough kills, enough of them mid-commit, and enough
    # commits completed by the random children; a slow machine only takes more rounds
    while random_kills < RANDOM_KILLS or rollbacks < 40 or v - stepped < RANDOM_COMMITS:
        assert random_kills < MAX_RANDOM_KILLS, (random_kills, rollbacks, v - stepped)
        pid = server.send("loop")
        assert server.line() == f"ready {pid}"
        time.sleep(rng.uniform(0, max_delay))
        server.kill(pid)
        kills += 1
        random_kills += 1
        v, rolled = check(root, state, -v)
        rollbacks += rolled
        if random_kills % 50 == 0 and v - stepped < RANDOM_COMMITS * random_kills // 200:
            max_delay *= 2  # commits are slow here: give the children longer
    assert kills >= 200 and rollbacks >= 40 and v - stepped >= RANDOM_COMMITS


def _pause_child(server: Server, root: Path, want: dict[str, bytes]) -> int:
    """Kill children at growing steps until the tree holds the ``want`` contents mid-commit."""
    for step in range(1, 60):
        pid = server.send(f"step {step}")
        assert server.line() == f"paused {pid} {step}"
        if all((root / p).read_bytes() == data for p, data in want.items()):
            server.kill(pid)
            return step
        server.kill(pid)
        Workspace(root, state_dir=root.parent / "state")  # roll back before the next try
    raise AssertionError("no step left the wanted half-written state")


def test_live_commit_is_never_rolled_back(root: Path, state: Path, server: Server) -> None:
    old, new = tree(0), tree(1)
    pid = server.send("step 21")  # paused with the journal written and a.txt replaced
    assert server.line() == f"paused {pid} 21"
    assert (root / "a.txt").read_bytes() == new["a.txt"]
    assert Workspace(root, state_dir=state).recovered == []  # its writer is alive
    assert (root / "a.txt").read_bytes() == new["a.txt"]
    server.kill(pid)
    assert len(Workspace(root, state_dir=state).recovered) == 1
    assert files(root) == old


def test_opening_skips_an_orphan_whose_files_are_busy(
    root: Path, state: Path, server: Server
) -> None:
    ws = Workspace(root, state_dir=state, lock_timeout=0.1)
    pid = server.send("step 21")
    assert server.line() == f"paused {pid} 21"
    server.kill(pid)
    with PathLocks(ws.state_folder / "locks", 1).hold(["c.txt"]):
        assert Workspace(root, state_dir=state, lock_timeout=0.1).recovered == []
    assert files(root) != tree(0)
    ws.commit([FileChange("a.txt", b"x\n", expected_sha256=sha256_hex(tree(0)["a.txt"]))])
    assert files(root) == {**tree(0), "a.txt": b"x\n"}


def test_rollback_forgets_the_recorded_batch(root: Path, state: Path, server: Server) -> None:
    ws = Workspace(root, state_dir=state)
    history = ws.history
    for step in range(20, 60):  # the first pause after the batch reached history
        pid = server.send(f"step {step}")
        assert server.line() == f"paused {pid} {step}"
        if history.list_batches():
            break
        server.kill(pid)
        Workspace(root, state_dir=state)
        # content files a killed attempt stored stay (content-addressed, harmless) and
        # would let the next attempt skip their steps; without them every attempt takes
        # the same steps, so the scan cannot jump past the commit point
        shutil.rmtree(ws.state_folder / "blobs", ignore_errors=True)
    assert list((ws.state_folder / "journal").glob("*/manifest.json")), "past the commit point"
    server.kill(pid)
    assert len(Workspace(root, state_dir=state, history=False).recovered) == 1
    assert files(root) == tree(0)
    assert history.list_batches() == []


def test_open_workspace_clears_orphan_before_committing(
    root: Path, state: Path, server: Server
) -> None:
    ws = Workspace(root, state_dir=state)  # opened before the crash: no recovery on open
    old, new = tree(0), tree(1)
    _pause_child(server, root, {"a.txt": new["a.txt"], "b/b.txt": old["b/b.txt"]})
    with pytest.raises(PatchwrightError) as info:  # a.txt holds uncommitted content
        ws.commit([FileChange("a.txt", b"mine\n", expected_sha256=sha256_hex(new["a.txt"]))])
    assert info.value.code == ErrorCode.STALE
    assert info.value.details["actual_sha256"] == sha256_hex(old["a.txt"])
    ws.commit([FileChange("a.txt", b"mine\n", expected_sha256=sha256_hex(old["a.txt"]))])
    assert files(root) == {**old, "a.txt": b"mine\n"}
    assert [b["tool"] for b in ws.history.list_batches()] == [""]


def test_recovery_leaves_files_changed_by_others_alone(
    root: Path, state: Path, server: Server
) -> None:
    old, new = tree(0), tree(1)
    _pause_child(server, root, {"a.txt": new["a.txt"], "b/b.txt": old["b/b.txt"]})
    (root / "a.txt").write_bytes(b"edited by hand after the crash\n")
    ws = Workspace(root, state_dir=state)
    assert len(ws.recovered) == 1
    assert files(root) == {**old, "a.txt": b"edited by hand after the crash\n"}


def test_a_file_holding_the_new_content_before_its_rename_is_left_alone(
    root: Path, state: Path, server: Server
) -> None:
    # Paused with the manifest durable and no before-image yet: a.txt then gets, from a
    # writer ignoring the locks, exactly what the commit would write. Without an image
    # the commit cannot have renamed it, so recovery leaves it alone instead of failing.
    old, new = tree(0), tree(1)
    journal = Workspace(root, state_dir=state).state_folder / "journal"
    pid = server.send("step 6")
    assert server.line() == f"paused {pid} 6"
    (batch,) = journal.iterdir()
    assert sorted(p.name for p in batch.iterdir()) == ["manifest.json"]
    (root / "a.txt").write_bytes(new["a.txt"])
    server.kill(pid)
    ws = Workspace(root, state_dir=state)
    assert len(ws.recovered) == 1
    assert files(root) == {**old, "a.txt": new["a.txt"]}
    assert list(journal.iterdir()) == []


class FailingFileSystem(OsFileSystem):
    """The real file system, raising once before its ``fail_at``-th mutating call."""

    def __init__(self) -> None:
        self.fail_at = 0
        self.calls = 0

    def _step(self) -> None:
        self.calls += 1
        if self.calls == self.fail_at:
            raise OSError(28, "No space left on device (injected)")

    def write_new(self, path: str, data: bytes, mode_bits: int | None) -> None:
        self._step()
        super().write_new(path, data, mode_bits)

    def link(self, src: str, dst: str, *, sync: bool = True) -> Probe:
        self._step()
        return super().link(src, dst, sync=sync)

    def replace(self, src: str, dst: str) -> None:
        self._step()
        super().replace(src, dst)

    def unlink(self, path: str) -> None:
        self._step()
        super().unlink(path)

    def mkdir(self, path: str) -> None:
        self._step()
        super().mkdir(path)

    def rmdir(self, path: str) -> None:
        self._step()
        super().rmdir(path)

    def fsync_dir(self, path: str) -> None:
        self._step()
        super().fsync_dir(path)


def test_failure_at_any_step_rolls_back_in_process(root: Path, state: Path) -> None:
    _install(root)
    fs = FailingFileSystem()
    ws = Workspace(root, state_dir=state, fs=fs)
    for step in range(1, 100):
        fs.calls, fs.fail_at = 0, step
        try:
            commit_next(ws, 0)
        except PatchwrightError as exc:
            assert exc.code == ErrorCode.IO_ERROR and "nothing changed" in exc.message
            assert files(root) == tree(0)
            assert ws.history.list_batches() == []
            assert list((ws.state_folder / "journal").iterdir()) == []
            continue
        break
    # the first step that does not fail the commit is past its commit point: the tree is
    # new, and the journal folder left behind is cleared by the next opening
    assert step > 30
    assert files(root) == tree(1) and len(ws.history.list_batches()) == 1
    assert Workspace(root, state_dir=state).recovered == []
    assert list((ws.state_folder / "journal").iterdir()) == []
