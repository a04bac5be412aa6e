"""Approval mode: writes held as proposals, decided by another workspace object."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ws_child import CHILD_PATH

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import FileChange, Proposal, Workspace, sha256_hex
from patchwright.workspace.approval import Caller, calling
from patchwright.workspace.commit import BatchInfo
from waiting import Waiting


def next_pending(ws: Workspace, known: int = 0) -> Proposal:
    """The newest pending proposal, once there are more than ``known`` (bounded wait)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        pending = ws.proposals.pending()
        if len(pending) > known:
            return pending[-1]
        time.sleep(0.02)
    raise AssertionError("no proposal appeared")


@pytest.fixture
def pair(make_ws: Callable[..., Workspace], root: Path) -> tuple[Workspace, Workspace]:
    (root / "a.txt").write_bytes(b"one\r\ntwo\r\n")
    agent = make_ws(session="agent-1")
    agent.require_approval(timeout=60)
    return agent, make_ws()


def change(root: Path, data: bytes = b"one\r\nTWO\r\n") -> FileChange:
    before = (root / "a.txt").read_bytes()
    return FileChange("a.txt", data, expected_sha256=sha256_hex(before), diff="-two\n+TWO\n")


def test_approved_write_is_applied_and_recorded(
    pair: tuple[Workspace, Workspace], root: Path
) -> None:
    agent, person = pair
    waiting = Waiting(lambda: agent.commit([change(root)], tool="edit_file", label="edit a"))
    proposal = next_pending(person)
    assert (root / "a.txt").read_bytes() == b"one\r\ntwo\r\n"  # nothing written yet
    assert proposal.session == "agent-1"
    assert proposal.tool == "edit_file"
    assert [f["path"] for f in proposal.files] == ["a.txt"]
    assert proposal.files[0]["diff"] == "-two\n+TWO\n"
    record = person.proposals.approve(proposal.id)
    waiting.join()
    assert waiting.error is None
    assert waiting.result.batch_id == record.batch_id
    assert (root / "a.txt").read_bytes() == b"one\r\nTWO\r\n"
    batch = person.history.get(record.batch_id)
    assert batch["meta"]["session"] == "agent-1"
    assert person.proposals.get(proposal.id).status == "applied"
    assert person.proposals.pending() == []


def test_rejected_write_tells_the_reason(pair: tuple[Workspace, Workspace], root: Path) -> None:
    agent, person = pair
    waiting = Waiting(lambda: agent.commit([change(root)], tool="edit_file"))
    proposal = next_pending(person)
    person.proposals.reject(proposal.id, "keep lower case")
    waiting.join()
    assert isinstance(waiting.error, PatchwrightError)
    assert waiting.error.code is ErrorCode.REJECTED
    assert "Rejected by the user: keep lower case" in waiting.error.message
    assert (root / "a.txt").read_bytes() == b"one\r\ntwo\r\n"
    assert person.history.list_batches() == []
    with pytest.raises(PatchwrightError, match="no longer waiting: it is rejected"):
        person.proposals.approve(proposal.id)


def test_stale_proposal_is_refused_on_approval(
    pair: tuple[Workspace, Workspace], root: Path
) -> None:
    agent, person = pair
    # no SHA256 precondition from the caller: the proposal pins the file as it was
    unpinned = FileChange("a.txt", b"proposed\n")
    waiting = Waiting(lambda: agent.commit([unpinned], tool="edit_file"))
    proposal = next_pending(person)
    (root / "a.txt").write_bytes(b"someone else\n")
    with pytest.raises(PatchwrightError) as info:
        person.proposals.approve(proposal.id)
    assert info.value.code is ErrorCode.STALE
    assert proposal.id in info.value.message
    waiting.join()
    assert isinstance(waiting.error, PatchwrightError)
    assert waiting.error.code is ErrorCode.STALE
    assert "Nothing was written" in waiting.error.message
    assert (root / "a.txt").read_bytes() == b"someone else\n"
    assert person.proposals.get(proposal.id).status == "stale"


def test_time_out_writes_nothing_and_closes_the_proposal(
    make_ws: Callable[..., Workspace], root: Path
) -> None:
    (root / "a.txt").write_bytes(b"one\r\ntwo\r\n")
    agent = make_ws()
    agent.require_approval(timeout=0.05)
    with pytest.raises(PatchwrightError) as info:
        agent.commit([change(root)])
    assert info.value.code is ErrorCode.APPROVAL_TIMEOUT
    assert "nothing written" in info.value.message
    [closed] = agent.proposals.store.by_status(None)
    assert closed.status == "timed_out"
    with pytest.raises(PatchwrightError, match="timed_out"):
        agent.proposals.approve(closed.id)
    assert (root / "a.txt").read_bytes() == b"one\r\ntwo\r\n"


def test_a_request_that_cannot_apply_is_refused_not_proposed(
    pair: tuple[Workspace, Workspace], root: Path
) -> None:
    agent, person = pair
    with pytest.raises(PatchwrightError) as info:
        agent.commit([FileChange("a.txt", b"x", expected_sha256="0" * 64)])
    assert info.value.code is ErrorCode.STALE
    assert person.proposals.store.by_status(None) == []


def test_dry_runs_and_reads_need_no_approval(pair: tuple[Workspace, Workspace], root: Path) -> None:
    agent, _ = pair
    record = agent.commit([change(root)], dry_run=True)
    assert record.dry_run
    assert agent.read("a.txt").data == b"one\r\ntwo\r\n"


def test_undo_is_a_proposal_too(pair: tuple[Workspace, Workspace], root: Path) -> None:
    agent, person = pair
    done = person.commit([change(root)], tool="edit_file")
    waiting = Waiting(lambda: agent.undo(done.batch_id))
    proposal = next_pending(person)
    assert proposal.tool == "undo"
    person.proposals.approve(proposal.id)
    waiting.join()
    assert waiting.error is None
    assert waiting.result.reverts == done.batch_id
    assert (root / "a.txt").read_bytes() == b"one\r\ntwo\r\n"


def test_reject_needs_a_reason_and_ids_are_checked(pair: tuple[Workspace, Workspace]) -> None:
    _, person = pair
    with pytest.raises(PatchwrightError, match="needs a reason") as info:
        person.proposals.reject("p-00000000", "  ")
    assert info.value.field == "reason"
    with pytest.raises(PatchwrightError, match="No proposal has the ID 'p-00000000'"):
        person.proposals.approve("p-00000000")


def test_approval_needs_history_and_a_positive_time_out(
    make_ws: Callable[..., Workspace],
) -> None:
    with pytest.raises(PatchwrightError, match="needs the workspace history"):
        make_ws(history=False).require_approval()
    with pytest.raises(PatchwrightError, match="positive number") as info:
        make_ws().require_approval(timeout=0)
    assert info.value.field == "approve_timeout"


def test_restricted_mode_refuses_before_proposing(
    make_ws: Callable[..., Workspace], root: Path
) -> None:
    (root / "a.txt").write_bytes(b"one\r\ntwo\r\n")
    agent = make_ws(mode="restricted")
    agent.require_approval(timeout=60)
    with pytest.raises(PatchwrightError) as info:
        agent.commit([change(root)])
    assert info.value.code is ErrorCode.RESTRICTED
    assert agent.proposals.store.by_status(None) == []


def test_a_caller_that_stops_waiting_closes_its_proposal(
    pair: tuple[Workspace, Workspace], root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent, person = pair

    def interrupted(seconds: float) -> None:
        raise KeyboardInterrupt  # what Ctrl-C does to a waiting caller

    monkeypatch.setattr("patchwright.workspace.approval.time.sleep", interrupted)
    with pytest.raises(KeyboardInterrupt):
        agent.commit([change(root)])
    [closed] = person.proposals.store.by_status(None)
    assert (closed.status, closed.reason) == ("withdrawn", "the caller left")
    with pytest.raises(PatchwrightError, match="no longer waiting"):
        person.proposals.approve(closed.id)
    assert (root / "a.txt").read_bytes() == b"one\r\ntwo\r\n"


@pytest.mark.parametrize("kind", ["undo", "edit"])
def test_an_approved_write_never_goes_through_a_symlink_swapped_in(
    pair: tuple[Workspace, Workspace], root: Path, kind: str
) -> None:
    agent, person = pair
    (root / "d").mkdir()
    (root / "d" / "a.txt").write_bytes(b"v1\n")
    done = person.commit([FileChange("d/a.txt", b"v2\n", diff="-v1\n+v2\n")], tool="edit_file")
    if kind == "undo":
        waiting = Waiting(lambda: agent.undo(done.batch_id))
    else:
        edit = FileChange("d/a.txt", b"v3\n", expected_sha256=sha256_hex(b"v2\n"), diff="")
        waiting = Waiting(lambda: agent.commit([edit], tool="edit_file"))
    proposal = next_pending(person)
    # the folder is swapped for an in-root symlink to a copy: same content, other file
    (root / "d").rename(root / "real")
    (root / "d").symlink_to("real")
    with pytest.raises(PatchwrightError) as info:
        person.proposals.approve(proposal.id)
    assert info.value.code is ErrorCode.STALE
    waiting.join()
    assert isinstance(waiting.error, PatchwrightError)
    assert (root / "real" / "a.txt").read_bytes() == b"v2\n"  # nothing written through it
    assert (root / "d").is_symlink()
    assert person.proposals.get(proposal.id).status == "stale"


def _child(*args: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, CHILD_PATH, *map(str, args)], stdout=subprocess.PIPE, text=True
    )


def _stop(child: subprocess.Popen[str]) -> None:
    child.kill()
    child.wait(timeout=30)
    assert child.stdout is not None
    child.stdout.close()


def _settled(ws: Workspace, proposal_id: str) -> Proposal:
    """The proposal once it is no longer ``approving`` (bounded wait)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        current = ws.proposals.get(proposal_id)
        if current.status != "approving":
            return current
        time.sleep(0.05)
    raise AssertionError(f"{proposal_id} stayed approving")


def test_a_proposal_whose_server_was_killed_cannot_be_approved(
    make_ws: Callable[..., Workspace], root: Path, state: Path
) -> None:
    (root / "a.txt").write_bytes(b"one\n")
    person = make_ws()
    agent = _child("propose", root, state)
    try:
        proposal = next_pending(person)
    finally:
        _stop(agent)  # the agent's server is killed while its write waits
    with pytest.raises(PatchwrightError, match="can no longer be approved") as info:
        person.proposals.approve(proposal.id)
    assert f"(process {agent.pid} on " in info.value.message
    assert info.value.message.endswith(
        "has stopped, so its agent was told it failed. Nothing was written."
    )
    assert person.proposals.get(proposal.id).status == "orphaned"
    assert person.proposals.pending() == []
    assert (root / "a.txt").read_bytes() == b"one\n"


def test_a_proposal_past_its_time_out_cannot_be_approved(
    make_ws: Callable[..., Workspace], root: Path
) -> None:
    (root / "a.txt").write_bytes(b"one\n")
    person = make_ws()
    store = person.proposals.store
    info = BatchInfo("edit_file", "late")
    late = store.add(
        [FileChange("a.txt", b"two\n")], info, [], "agent", waiter="gone:1",
        expires_at=time.time() - 1,
    )  # fmt: skip
    with pytest.raises(PatchwrightError, match="can no longer be approved"):
        person.proposals.approve(late.id)
    assert person.proposals.get(late.id).status == "timed_out"
    assert (root / "a.txt").read_bytes() == b"one\n"


def test_a_cancelled_caller_withdraws_its_proposal(
    pair: tuple[Workspace, Workspace], root: Path
) -> None:
    agent, person = pair
    caller = Caller()

    def propose() -> Any:
        with calling(caller):
            return agent.commit([change(root)])

    waiting = Waiting(propose)
    proposal = next_pending(person)
    deadline = time.monotonic() + 30  # listed a moment before the caller is told its ID
    while caller.waiting_since is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert caller.proposal_id == proposal.id and caller.waiting_since is not None
    caller.leave("the client cancelled the call")
    waiting.join()
    assert isinstance(waiting.error, PatchwrightError)
    assert waiting.error.code is ErrorCode.WITHDRAWN
    assert waiting.error.message == (
        "The change was withdrawn before anyone approved it (the client cancelled the "
        "call); nothing was written."
    )
    assert person.proposals.get(proposal.id).status == "withdrawn"
    with pytest.raises(PatchwrightError, match="no longer waiting: it is withdrawn"):
        person.proposals.approve(proposal.id)
    assert (root / "a.txt").read_bytes() == b"one\r\ntwo\r\n"


@pytest.mark.parametrize("pause_at", [1, 2, 3, 4])
def test_an_approval_killed_mid_write_never_stays_approving(
    pair: tuple[Workspace, Workspace], root: Path, state: Path, pause_at: int
) -> None:
    agent, person = pair
    before = (root / "a.txt").read_bytes()
    waiting = Waiting(lambda: agent.commit([change(root)]))
    proposal = next_pending(person)
    approver = _child("approve", root, state, proposal.id, pause_at)
    assert approver.stdout is not None
    said = approver.stdout.readline()
    _stop(approver)  # `patchwright approve` killed while it writes (or just after)
    settled = _settled(person, proposal.id)
    if said.startswith("paused") and settled.status == "pending":
        assert "stopped before it wrote" in settled.reason
        assert (root / "a.txt").read_bytes() == before  # nothing written: approve again
        person.proposals.approve(proposal.id)
    assert person.proposals.get(proposal.id).status == "applied"
    waiting.join()
    assert waiting.error is None and waiting.result is not None
    assert (root / "a.txt").read_bytes() == b"one\r\nTWO\r\n"
