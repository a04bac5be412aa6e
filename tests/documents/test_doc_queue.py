"""Directives queued from several threads are applied one at a time, in order."""

from __future__ import annotations

import threading
from concurrent.futures import Future

import pytest

from patchwright.documents import (
    ConflictReason,
    DocumentSession,
    EditResult,
    PatchApplyError,
    create_patch_directive,
)

THREADS = 8
PER_THREAD = 5


def test_threads_submit_and_one_drain_applies_in_submission_order() -> None:
    session = DocumentSession("")
    order: list[str] = []
    order_lock = threading.Lock()
    futures: list[Future[EditResult]] = []
    barrier = threading.Barrier(THREADS)

    def worker(n: int) -> None:
        barrier.wait()
        for k in range(PER_THREAD):
            piece = f"[{n}.{k}]"
            with order_lock:  # record the order submit() saw
                order.append(piece)
                futures.append(session.submit({"action": "insert", "content": piece}))

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert session.pending == THREADS * PER_THREAD
    assert session.drain() == THREADS * PER_THREAD
    assert session.pending == 0
    assert all(f.done() and f.exception() is None for f in futures)
    # Each insert goes to the caret, which the previous insert left at its end.
    assert session.text == "".join(order)
    assert session.metrics().total_directives == THREADS * PER_THREAD


def test_threads_applying_concurrently_lose_nothing() -> None:
    session = DocumentSession("")
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        barrier.wait()
        try:
            for k in range(PER_THREAD):
                session.apply({"action": "insert", "content": f"<{n}.{k}>"})
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for n in range(THREADS):
        positions = [session.text.index(f"<{n}.{k}>") for k in range(PER_THREAD)]
        assert positions == sorted(positions)  # each thread's own order is kept
    steps = 0
    while session.can_undo:
        session.undo()
        steps += 1
    assert steps == THREADS * PER_THREAD and session.text == ""


def test_each_queued_directive_is_checked_against_its_own_version() -> None:
    session = DocumentSession("a\nb\nc\n")
    v0 = session.version
    first = session.submit(create_patch_directive("@@ -1 +1 @@\n-a\n+A\n", v0))
    second = session.submit(create_patch_directive("@@ -3 +3 @@\n-c\n+C\n", v0))
    unversioned = session.submit({"action": "insert", "content": "!", "target_range": [0, 0]})
    session.drain()
    assert first.result().previous_version == v0
    error = second.exception()
    assert isinstance(error, PatchApplyError)
    assert error.reason is ConflictReason.STALE_VERSION
    assert error.version_comparison["expected"] == v0
    assert unversioned.result().text == "!A\nb\nc\n"
    with pytest.raises(PatchApplyError):
        second.result()


def test_cancelled_directive_is_skipped() -> None:
    session = DocumentSession("x")
    cancelled = session.submit({"action": "insert", "content": "1"})
    kept = session.submit({"action": "insert", "content": "2"})
    assert cancelled.cancel()
    assert session.drain() == 1
    assert kept.result().text == "2x"


def test_drain_on_an_empty_queue_does_nothing() -> None:
    session = DocumentSession("x")
    assert session.drain() == 0
    assert not session.can_undo


def test_a_result_callback_may_apply_another_directive() -> None:
    session = DocumentSession("")
    first = session.submit({"action": "insert", "content": "a"})
    seen: list[str] = []
    first.add_done_callback(
        lambda _: seen.append(session.apply({"action": "insert", "content": "b"}).text)
    )
    worker = threading.Thread(target=session.drain)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive(), "drain() deadlocked on a reentrant apply()"
    assert seen == ["ab"] and session.text == "ab"
