"""Per-path locks: exclusion between threads, timeouts, owner files removed by their holder."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace.locks import PathLocks, _try_lock


def test_a_held_path_lock_times_out_in_another_thread_and_is_free_after_release(
    tmp_path: Path,
) -> None:
    locks = PathLocks(tmp_path / "missing" / "locks", 5.0)  # the folder is created on use
    held, release, outcomes = threading.Event(), threading.Event(), []

    def holder() -> None:
        with locks.hold(["a.txt"]):
            held.set()
            release.wait(60)

    thread = threading.Thread(target=holder)
    thread.start()
    assert held.wait(60)
    try:
        with pytest.raises(PatchwrightError) as caught, locks.hold(["a.txt"], timeout=0.05):
            outcomes.append("entered")
        assert caught.value.code is ErrorCode.LOCK_TIMEOUT and caught.value.path == "a.txt"
        with locks.hold(["b.txt"], timeout=0):  # other paths stay free
            outcomes.append("b")
    finally:
        release.set()
        thread.join(60)
    with locks.hold(["a.txt", "b.txt"], timeout=0):
        outcomes.append("both")
    assert outcomes == ["b", "both"]


def test_an_owner_lock_is_busy_while_held_and_free_once_its_holder_removed_it(
    tmp_path: Path,
) -> None:
    locks = PathLocks(tmp_path, 5.0)
    with locks.own("b-1"):
        assert os.path.exists(locks.owner_file("b-1"))
        with locks.try_own("b-1") as taken:
            assert taken is False
    assert not os.path.exists(locks.owner_file("b-1"))
    with locks.try_own("b-1") as taken:
        assert taken is True


def test_a_lock_taken_on_a_file_that_lost_its_name_guards_nothing(tmp_path: Path) -> None:
    path = tmp_path / "journal-b-2.lock"
    path.touch()
    fd = os.open(path, os.O_RDWR)
    try:
        path.unlink()  # its holder removed it between our open and our flock
        assert _try_lock(fd) == "unlinked"
    finally:
        os.close(fd)
