"""Folder fsyncs shared by the commits of several threads (fs.py, ``shared_fsync``).

The first fsync of the folder is held until the other threads have asked for theirs
(counted, not timed), so how many fsyncs ran is exact whatever the machine's load.
"""

from __future__ import annotations

import errno
import os
import signal
import threading
import warnings
from collections.abc import Callable
from pathlib import Path

import pytest

from patchwright.workspace import FileChange, Workspace, fs
from together import DEADLINE, in_threads, names_on_distinct_stripes, until


def _count_fsyncs(
    monkeypatch: pytest.MonkeyPatch, folder: Path, asked: int, fail_first: bool = False
) -> list[int]:
    """Count the real fsyncs of ``folder``; the first waits until ``asked`` calls want
    one (and then fails, with ``fail_first``)."""
    st = os.stat(folder)
    key = (st.st_dev, st.st_ino)
    real: Callable[[int], None] = os.fsync
    synced: list[int] = []

    def counting(fd: int) -> None:
        found = os.fstat(fd)
        if (found.st_dev, found.st_ino) == key:
            synced.append(fd)
            if len(synced) == 1:
                until(lambda: fs.FOLDER_SYNCS[key].asked >= asked)
                if fail_first:
                    raise OSError(errno.EIO, "Input/output error")
        real(fd)

    monkeypatch.setattr(os, "fsync", counting)
    return synced


def test_sixteen_commits_in_one_folder_take_two_folder_fsyncs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    names = names_on_distinct_stripes(16)
    for name in names:
        (root / name).write_bytes(b"old\n")
    ws = Workspace(root, state_dir=tmp_path / "state")
    synced = _count_fsyncs(monkeypatch, root, asked=16)

    errors = in_threads(
        [lambda name=name: ws.commit([FileChange(name, b"new\n")], tool="t") for name in names]
    )

    assert errors == [None] * 16
    # the first alone (it started before the others renamed), one more for the fifteen
    assert len(synced) == 2
    assert all((root / name).read_bytes() == b"new\n" for name in names)
    assert fs.FOLDER_SYNCS == {}


def test_one_commit_takes_one_folder_fsync(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_bytes(b"old\n")
    ws = Workspace(root, state_dir=tmp_path / "state")
    synced = _count_fsyncs(monkeypatch, root, asked=1)
    ws.commit([FileChange("a.txt", b"new\n")], tool="t")
    assert len(synced) == 1


def test_a_failed_fsync_leaves_those_it_covered_to_run_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced = _count_fsyncs(monkeypatch, tmp_path, asked=3, fail_first=True)
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        errors = in_threads([lambda: fs.shared_fsync(fd)] * 3)
    finally:
        os.close(fd)

    # the first failed (its caller is told); the two that waited for it ran one more
    # between them, which succeeded
    failed = [e for e in errors if e is not None]
    assert len(failed) == 1 and isinstance(failed[0], OSError)
    assert failed[0].errno == errno.EIO
    assert len(synced) == 2
    assert fs.FOLDER_SYNCS == {}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX only")
def test_a_child_forked_during_a_folder_fsync_runs_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real: Callable[[int], None] = os.fsync
    started, release = threading.Event(), threading.Event()

    def held(fd: int) -> None:  # the parent's fsync lasts until the child is done
        if not started.is_set():
            started.set()
            assert release.wait(DEADLINE)
        real(fd)

    monkeypatch.setattr(os, "fsync", held)
    fd = os.open(tmp_path, os.O_RDONLY)
    parent = threading.Thread(target=fs.shared_fsync, args=(fd,))
    parent.start()
    try:
        assert started.wait(DEADLINE)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # a threaded process forks
            pid = os.fork()
        if pid == 0:  # the child: nobody there would end the parent's fsync
            code = 1
            try:
                signal.alarm(int(DEADLINE))
                fs.shared_fsync(fd)
                code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
    finally:
        release.set()
        parent.join(DEADLINE)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0
