"""Content temp files a killed commit leaves in the history's folder are removed later.

A large content is written to a temp file in ``blobs/.partial`` and renamed to
``blobs/<sha256>``; a process killed in between leaves the temp file. The next writer of
a content file removes the ones older than ``TEMP_MAX_AGE`` (no live commit keeps one
that long) and leaves younger ones alone (they may be another process's, mid-commit).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from patchwright.workspace import FileChange, Workspace, sha256_hex
from patchwright.workspace.history.contents import FILE_BLOB_MIN, PARTIAL, TEMP_MAX_AGE

MakeWs = Callable[..., Workspace]


def _content(v: int) -> bytes:
    # large enough to be kept as a file, and different throughout from the last one
    return b"".join(b"v%d line %d\n" % (v, i) for i in range(FILE_BLOB_MIN // 8))


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_old_leftovers_are_removed_and_young_ones_kept(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(_content(0))
    ws = make_ws()
    ws.commit([FileChange("a.txt", _content(1), expected_sha256=sha256_hex(_content(0)))])
    partial = ws.state_folder / "blobs" / PARTIAL
    old, young = partial / ".dead.0000.tmp", partial / ".live.0000.tmp"
    old.write_bytes(b"left by a killed commit")
    young.write_bytes(b"being written by another process")
    _age(old, TEMP_MAX_AGE + 60)
    _age(young, TEMP_MAX_AGE - 60)
    ws.commit([FileChange("a.txt", _content(2), expected_sha256=sha256_hex(_content(1)))])
    assert sorted(p.name for p in partial.iterdir()) == [young.name]
    assert (ws.state_folder / "blobs" / sha256_hex(_content(2))).read_bytes() == _content(2)


# A child killed (SIGKILL, by itself: no timing involved) right before its content temp
# file would take its name, after the temp file was written and synced.
_CHILD = """
import os, signal, sys
from pathlib import Path
from patchwright.workspace import FileChange, OsFileSystem, Workspace, sha256_hex

class KilledAtTheRename(OsFileSystem):
    def replace(self, src, dst):
        if "/.partial/" in src:
            os.kill(os.getpid(), signal.SIGKILL)
        super().replace(src, dst)

root, state = Path(sys.argv[1]), Path(sys.argv[2])
old, new = (root / "a.txt").read_bytes(), Path(sys.argv[3]).read_bytes()
ws = Workspace(root, state_dir=state, fs=KilledAtTheRename())
ws.commit([FileChange("a.txt", new, expected_sha256=sha256_hex(old))])
"""


def test_a_commit_killed_before_its_content_file_is_named_leaves_a_temp_file_swept_later(
    root: Path, state: Path, tmp_path: Path
) -> None:
    (root / "a.txt").write_bytes(_content(0))
    Workspace(root, state_dir=state)
    wanted = tmp_path / "new.bin"
    wanted.write_bytes(_content(1))
    child = subprocess.run(
        [sys.executable, "-c", _CHILD, str(root), str(state), str(wanted)],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()
    ws = Workspace(root, state_dir=state)  # recovery of what the child left
    assert (root / "a.txt").read_bytes() == _content(0)  # the commit did not happen
    assert ws.history.list_batches() == []
    blobs = ws.state_folder / "blobs"
    left = list((blobs / PARTIAL).glob("*.tmp"))
    assert len(left) == 1 and left[0].read_bytes() == _content(1)
    assert not [p for p in blobs.iterdir() if p.name.endswith(".tmp")]  # none beside them
    _age(left[0], TEMP_MAX_AGE + 60)
    ws.commit([FileChange("a.txt", _content(2), expected_sha256=sha256_hex(_content(0)))])
    assert not list((blobs / PARTIAL).glob("*.tmp"))
    assert (root / "a.txt").read_bytes() == _content(2)
