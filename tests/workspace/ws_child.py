"""Test-only helper run as a subprocess by the crash and concurrency tests.

Modes::

    ws_child.py server ROOT STATE
        A fork server for the crash tests. Reads commands from stdin, one per line:
        ``step N``: fork a child that commits the next scenario version with a file
        system that pauses before its N-th mutating call (prints ``paused PID N`` and
        sleeps until killed), or prints ``done PID`` when the commit has fewer steps;
        ``loop``: fork a child that prints ``ready PID`` and then commits one version
        after another until killed. After each fork the server prints ``pid PID`` and,
        once the child ended, ``exit PID STATUS``. Forking from one warm process makes
        hundreds of kills affordable.

    ws_child.py propose ROOT STATE
        Opens ROOT in approval mode and proposes one change to ``a.txt`` (``A`` appended),
        waiting for the decision (the approval tests kill it while it waits).

    ws_child.py approve ROOT STATE ID N
        Approves proposal ID with a file system that pauses for ever before its N-th
        mutating call (prints ``paused PID N``; the approval tests kill it there), or
        prints ``approved PID`` when the approval has fewer steps.

    ws_child.py counter ROOT STATE NAME COUNT
        Appends COUNT lines ``NAME:i`` to ``log.txt``, each as a SHA256-guarded commit
        (read, modify, commit with the expected hash, retry on ``stale``), and prints a
        JSON summary of the stale refusals it met.

The crash scenario (``tree(v)``) is a multi-file change from version ``v`` to ``v + 1``:
three updates, a move, a creation in a new folder, a deletion and the update of a file
large enough for the history to keep its contents as files (history.FILE_BLOB_MIN).
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path

from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.workspace import FileChange, OsFileSystem, Probe, Workspace, sha256_hex

#: This script, for starting it as a subprocess.
CHILD_PATH = str(Path(__file__).resolve())

# --- the crash scenario -------------------------------------------------------------------


def tree(v: int) -> dict[str, bytes]:
    """Every file of the scenario tree at version ``v``."""
    return {
        "a.txt": f"alpha {v}\n".encode() * (1 + v % 5),
        "b/b.txt": f"beta {v}\r\n".encode() * (1 + v % 3),
        "c.txt": f"gamma {v}".encode() * (1 + v % 4),
        f"mv/v{v}.txt": f"moved {v}\n".encode(),
        f"d{v}/new.txt": f"created {v}\n".encode(),
        "big.txt": "".join(f"big {v} {i}\n" for i in range(8_000)).encode(),
    }


def version_of(root: Path) -> int:
    """The version of the tree, read from the name of the moved file."""
    (only,) = (root / "mv").iterdir()
    return int(only.name[1:-4])


def commit_next(ws: Workspace, v: int) -> None:
    """Commit version ``v + 1`` over version ``v``."""
    old, new = tree(v), tree(v + 1)
    updates = [
        FileChange(p, new[p], expected_sha256=sha256_hex(old[p]))
        for p in ("a.txt", "b/b.txt", "c.txt")
    ]
    ws.commit(
        [
            *updates,
            FileChange(
                f"mv/v{v + 1}.txt",
                new[f"mv/v{v + 1}.txt"],
                move_from=f"mv/v{v}.txt",
                expected_sha256=sha256_hex(old[f"mv/v{v}.txt"]),
            ),
            FileChange(f"d{v + 1}/new.txt", new[f"d{v + 1}/new.txt"], must_not_exist=True),
            FileChange(f"d{v}/new.txt", None, expected_sha256=sha256_hex(old[f"d{v}/new.txt"])),
            FileChange("big.txt", new["big.txt"], expected_sha256=sha256_hex(old["big.txt"])),
        ],
        tool="crash-test",
        meta={"version": v + 1},
    )


class PausingFileSystem(OsFileSystem):
    """The real file system, pausing for ever before its ``pause_at``-th mutating call."""

    def __init__(self, pause_at: int) -> None:
        self.pause_at = pause_at
        self.calls = 0

    def _step(self) -> None:
        self.calls += 1
        if self.calls == self.pause_at:
            say(f"paused {os.getpid()} {self.calls}")
            while True:
                orphan_check()
                time.sleep(0.05)

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


def orphan_check() -> None:
    """End a child whose server is gone, so no child outlives a failed test."""
    if os.getppid() != SERVER_PID:
        os._exit(3)


SERVER_PID = os.getpid()


def say(line: str) -> None:
    """Write one line to stdout unbuffered (safe from forked children)."""
    os.write(1, (line + "\n").encode())


# --- modes --------------------------------------------------------------------------------


def child_step(root: Path, state: Path, pause_at: int) -> None:
    fs = PausingFileSystem(0)
    ws = Workspace(root, state_dir=state, fs=fs)
    fs.calls, fs.pause_at = 0, pause_at  # count the commit's calls only, not the opening
    commit_next(ws, version_of(root))
    say(f"done {os.getpid()}")


def child_loop(root: Path, state: Path) -> None:
    ws = Workspace(root, state_dir=state)
    say(f"ready {os.getpid()}")
    while True:
        orphan_check()
        commit_next(ws, version_of(root))


def server(root: Path, state: Path) -> None:
    for command in sys.stdin:
        words = command.split()
        if not words or words[0] == "quit":
            return
        go_read, go_write = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.read(go_read, 1)  # start only once the server has announced the pid
                if words[0] == "step":
                    child_step(root, state, int(words[1]))
                else:
                    child_loop(root, state)
            finally:
                os._exit(0)
        say(f"pid {pid}")
        os.write(go_write, b"x")
        os.close(go_read)
        os.close(go_write)
        _, status = os.waitpid(pid, 0)
        say(f"exit {pid} {os.waitstatus_to_exitcode(status)}")


def counter(root: Path, state: Path, name: str, count: int) -> None:
    ws = Workspace(root, state_dir=state, lock_timeout=60)
    stale: list[dict[str, str | None]] = []
    for i in range(count):
        while True:
            current = ws.read("log.txt")
            time.sleep(random.uniform(0, 0.002))  # widen the read-to-commit window
            new = current.data + f"{name}:{i}\n".encode()
            try:
                ws.commit([FileChange("log.txt", new, expected_sha256=current.sha256)])
            except PatchwrightError as exc:
                if exc.code != ErrorCode.STALE:
                    raise
                stale.append({"expected": current.sha256, "actual": exc.details["actual_sha256"]})
                continue
            break
    print(json.dumps({"name": name, "stale": stale}))


def propose(root: Path, state: Path) -> None:
    ws = Workspace(root, state_dir=state, session="child")
    ws.require_approval(timeout=120)
    before = (root / "a.txt").read_bytes()
    ws.commit([FileChange("a.txt", before + b"A", expected_sha256=sha256_hex(before))])
    say(f"applied {os.getpid()}")


def approve(root: Path, state: Path, proposal_id: str, pause_at: int) -> None:
    global SERVER_PID
    SERVER_PID = os.getppid()  # a direct child of the test: ends when the test does
    fs = PausingFileSystem(0)
    ws = Workspace(root, state_dir=state, fs=fs)
    fs.calls, fs.pause_at = 0, pause_at
    ws.proposals.approve(proposal_id)
    say(f"approved {os.getpid()}")


def main(argv: list[str]) -> None:
    mode, root, state = argv[1], Path(argv[2]), Path(argv[3])
    if mode == "server":
        server(root, state)
    elif mode == "propose":
        propose(root, state)
    elif mode == "approve":
        approve(root, state, argv[4], int(argv[5]))
    else:
        counter(root, state, argv[4], int(argv[5]))


if __name__ == "__main__":
    main(sys.argv)
