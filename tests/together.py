"""Threads started together, for the tests of what calls running at the same time share
(group commit, shared folder fsyncs): each test counts events, never times them."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from patchwright.workspace.locks import PathLocks

#: Seconds a test waits for its threads to get somewhere, at most.
DEADLINE = 60.0


def until(condition: Callable[[], bool]) -> None:
    """Wait until ``condition()`` holds (failing after :data:`DEADLINE`)."""
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, "the other threads never got there"
        time.sleep(0.001)


def in_threads(actions: list[Callable[[], object]]) -> list[BaseException | None]:
    """Run each action in a thread of its own; each one's exception (or None)."""
    errors: list[BaseException | None] = [None] * len(actions)

    def run(index: int) -> None:
        try:
            actions[index]()
        except BaseException as exc:  # the test inspects each outcome
            errors[index] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(DEADLINE)
        assert not thread.is_alive()
    return errors


def names_on_distinct_stripes(count: int) -> list[str]:
    """File names whose locks are distinct stripes (locks.py), so that no commit of one
    waits for the lock of another."""
    locks, names, stripes = PathLocks("locks", 1.0), [], set()
    index = 0
    while len(names) < count:
        name = f"f{index}.txt"
        stripe = locks.lock_file(name)  # a name only: nothing is created
        if stripe not in stripes:
            stripes.add(stripe)
            names.append(name)
        index += 1
    return names
