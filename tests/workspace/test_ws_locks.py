"""Path locks: exclusion between threads, timeouts, owner files removed by their holder;
a bounded set of stripes, each taken once, in one order, never waited for by its holder."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

import patchwright.workspace.locks as locks_module
from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import FileChange, Workspace
from patchwright.workspace.locks import STRIPES, PathLocks, _try_lock


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


def _sharing(locks: PathLocks, count: int) -> list[str]:
    """``count`` distinct paths whose locks are one stripe (found by trying names)."""
    by_stripe: dict[str, list[str]] = {}
    for index in range(10 * STRIPES):
        rel = f"src/m{index}.py"
        group = by_stripe.setdefault(locks.lock_file(rel), [])
        group.append(rel)
        if len(group) == count:
            return group
    raise AssertionError("no stripe shared")  # impossible: more names than stripes


def test_paths_share_a_bounded_set_of_lock_files(root: Path, state: Path) -> None:
    ws = Workspace(root, state_dir=state)
    changes = [FileChange(f"pkg/m{index}.py", b"x\n") for index in range(3 * STRIPES)]
    ws.commit(changes)
    ws.commit([FileChange(c.path, b"y\n") for c in changes])
    locks = PathLocks(ws.state_folder / "locks", 1.0)
    stripes = {os.path.basename(locks.lock_file(c.path)) for c in changes}
    # one file per stripe in use (the journal's owner file is removed by its holder)
    assert {p.name for p in (ws.state_folder / "locks").iterdir()} == stripes
    assert len(stripes) <= STRIPES


def test_paths_on_one_stripe_are_taken_once(tmp_path: Path) -> None:
    locks = PathLocks(tmp_path, 5.0)
    first, second = _sharing(locks, 2)
    taken: list[str] = []
    with locks.hold([second, first], timeout=0):  # a second flock would wait for the first
        taken.append("both")
    assert taken == ["both"]


def test_a_hold_inside_a_hold_does_not_wait_for_itself(tmp_path: Path) -> None:
    locks = PathLocks(tmp_path, 5.0)
    first, second = _sharing(locks, 2)
    outcomes: list[str] = []

    def other_thread() -> None:
        try:
            with locks.hold([first], timeout=0):
                outcomes.append("other entered")
        except PatchwrightError as exc:
            outcomes.append(exc.code.value)

    with locks.hold([first]):
        with locks.hold([second], timeout=0):  # its stripe is this thread's already
            outcomes.append("inner")
        # the inner block gave nothing back: the stripe is still held
        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join(60)
    assert outcomes == ["inner", "lock_timeout"]


def test_opposite_orders_cannot_deadlock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Thread A holds the lower of two stripes and, before taking the higher, waits until
    thread B has started waiting for a lock; B asked for the two paths in the opposite
    order. B waits on the lower stripe (ascending order), so A gets the higher one and
    both finish; taken in the order asked, each would wait for the other until the timeout."""
    locks = PathLocks(tmp_path, 30.0)
    low, high = sorted(["a.txt", "b.txt"], key=locks.lock_file)
    assert locks.lock_file(low) != locks.lock_file(high)
    b_waiting = threading.Event()
    calls: dict[str, int] = {"A": 0, "B": 0}
    real_take = locks_module._take

    def take(path: str, timeout: float) -> object:
        who = threading.current_thread().name
        calls[who] += 1
        if who == "A" and calls["A"] == 2:
            assert b_waiting.wait(60)
        if who == "B" and calls["B"] == 1:
            b_waiting.set()
        return real_take(path, timeout)

    monkeypatch.setattr(locks_module, "_take", take)
    done: list[str] = []

    def run(paths: list[str]) -> None:
        with locks.hold(paths):
            done.append(threading.current_thread().name)

    a = threading.Thread(target=run, args=([low, high],), name="A")
    b = threading.Thread(target=run, args=([high, low],), name="B")
    a.start()
    # B starts once A holds the lower stripe (A's first take returned or is waiting)
    while calls["A"] < 2 and a.is_alive():
        a.join(0.01)
    b.start()
    a.join(120)
    b.join(120)
    assert done == ["A", "B"]
