"""The drain gate both mode changes use (workspace operations, whole tool calls)."""

from __future__ import annotations

import threading

import pytest

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace.gate import DrainGate


def _timed_out(running: int) -> PatchwrightError:
    return PatchwrightError(ErrorCode.LOCK_TIMEOUT, f"{running} running")


def test_a_drained_section_that_times_out_does_not_run() -> None:
    gate = DrainGate()
    ran = []
    with gate.entered(), pytest.raises(PatchwrightError) as info, gate.drained(0, _timed_out):
        ran.append("body")
    assert info.value.code is ErrorCode.LOCK_TIMEOUT and info.value.message == "1 running"
    assert ran == []
    with gate.drained(0, _timed_out):  # nothing in flight any more
        ran.append("body")
    assert ran == ["body"]


def test_work_refused_by_its_check_is_not_counted() -> None:
    gate = DrainGate()

    def refuse() -> None:
        raise PatchwrightError(ErrorCode.RESTRICTED, "no")

    with pytest.raises(PatchwrightError), gate.entered(refuse):
        pytest.fail("refused work ran")
    with gate.drained(0, _timed_out):
        pass


def test_work_arriving_during_a_drained_section_waits_for_its_end() -> None:
    gate = DrainGate()
    order: list[str] = []
    started = threading.Event()

    def later() -> None:
        started.set()
        with gate.entered():
            order.append("work")

    worker = threading.Thread(target=later)
    with gate.drained(None, _timed_out):
        worker.start()
        assert started.wait(10)
        worker.join(0.2)  # gives a gate that let it in the chance to show it
        order.append("section")
    worker.join(10)
    assert not worker.is_alive()
    assert order == ["section", "work"]
