"""Proposals in a shared PostgreSQL history: seen and decided from any machine, written
only by the machine that made them; and reads by ID kept to the caller's workspace.

Each machine is a state folder of its own (its journal, locks and machine name), as on
two hosts, each with its own workspace folder.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.tools import Toolbox
from patchwright.workspace import FileChange, Proposal, Workspace, sha256_hex
from waiting import Waiting


def next_pending(ws: Workspace) -> Proposal:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        pending = ws.proposals.pending()
        if pending:
            return pending[-1]
        time.sleep(0.02)
    raise AssertionError("no proposal appeared")


@pytest.fixture
def fleet(
    pg_url: str, make_root: Callable[[str], Path], open_ws: Callable[..., Workspace]
) -> tuple[Workspace, Workspace]:
    """An agent's workspace on machine m1 (approval mode) and a person's on machine m2."""
    agent_root, person_root = make_root("agent"), make_root("person")
    (agent_root / "a.txt").write_bytes(b"one\ntwo\n")
    agent = open_ws(agent_root, "m1", session="agent-1")
    agent.require_approval(timeout=60)
    return agent, open_ws(person_root, "m2")


def _edit(agent: Workspace) -> FileChange:
    before = (agent.root / "a.txt").read_bytes()
    return FileChange(
        "a.txt", b"one\nTWO\n", expected_sha256=sha256_hex(before), diff="-two\n+TWO\n"
    )


def test_a_proposal_is_approved_from_another_machine_and_written_by_its_own(
    fleet: tuple[Workspace, Workspace],
) -> None:
    agent, person = fleet
    waiting = Waiting(lambda: agent.commit([_edit(agent)], tool="edit_file", label="edit a"))
    proposal = next_pending(person)  # listed on the other machine
    assert proposal.session == "agent-1" and proposal.files[0]["diff"] == "-two\n+TWO\n"
    assert proposal.workspace == str(agent.root) and proposal.machine == agent.history.scope.machine
    assert proposal.machine != person.history.scope.machine
    assert not person.proposals.store.is_here(proposal)

    record = person.proposals.approve(proposal.id)
    waiting.join()
    assert waiting.error is None
    assert waiting.result.batch_id == record.batch_id
    assert (agent.root / "a.txt").read_bytes() == b"one\nTWO\n"  # written by the agent's side
    assert not (person.root / "a.txt").exists()  # never in the approver's folder
    batch = agent.history.get(record.batch_id)
    assert (batch["machine"], batch["workspace"]) == (proposal.machine, str(agent.root))
    assert person.proposals.get(proposal.id).status == "applied"
    assert person.proposals.pending() == []


def test_a_rejection_from_another_machine_reaches_the_waiting_agent(
    fleet: tuple[Workspace, Workspace],
) -> None:
    agent, person = fleet
    waiting = Waiting(lambda: agent.commit([_edit(agent)], tool="edit_file"))
    person.proposals.reject(next_pending(person).id, "not now")
    waiting.join()
    assert isinstance(waiting.error, PatchwrightError)
    assert waiting.error.code is ErrorCode.REJECTED and "not now" in waiting.error.message
    assert (agent.root / "a.txt").read_bytes() == b"one\ntwo\n"


def test_an_approval_nobody_takes_up_is_handed_back(fleet: tuple[Workspace, Workspace]) -> None:
    agent, person = fleet
    # a proposal with no server waiting for it (stored directly, as a gone server left it)
    change = _edit(agent)
    files = [{"path": "a.txt", "action": "update", "move_from": None,
              "before_sha256": change.expected_sha256, "diff": change.diff}]  # fmt: skip
    from patchwright.workspace.commit import BatchInfo

    stored = agent.proposals.store.add([change], BatchInfo("edit_file", "", None, {}), files, "")
    decisions = person.proposals
    decisions.handover = 0.3
    with pytest.raises(PatchwrightError, match=r"did not take the approval within 0\.3 s") as info:
        decisions.approve(stored.id)
    assert info.value.code is ErrorCode.HISTORY
    assert person.proposals.get(stored.id).status == "pending"
    assert (agent.root / "a.txt").read_bytes() == b"one\ntwo\n"


def test_reads_by_id_stay_in_the_callers_workspace(fleet: tuple[Workspace, Workspace]) -> None:
    agent, person = fleet
    (person.root / "secret.txt").write_text("token = 1\n")
    done = person.commit(
        [FileChange("secret.txt", b"token = 2\n", diff="-token = 1\n+token = 2\n")], tool="t"
    )
    file_id = done.files[0].file_id
    for item in (done.batch_id, file_id):
        with pytest.raises(PatchwrightError, match="of this workspace has the ID"):
            agent.history.get(item)
    result = Toolbox(agent).call("get_patch_change", {"batch_id": done.batch_id})
    assert not result.ok and "token" not in result.text
    # the person's fleet view asks for it by name; the owner reads it as always
    assert agent.history.get(done.batch_id, anywhere=True)["id"] == done.batch_id
    assert "+token = 2" in person.history.get(file_id)["diff"]


def test_pending_and_approve_from_another_machine_in_a_shell(
    pg_url: str, make_root: Callable[[str], Path], tmp_path: Path
) -> None:
    import json
    import os
    import subprocess
    import sys

    agent_root, person_root = make_root("agent"), make_root("person")
    (agent_root / "a.txt").write_bytes(b"one\n")
    child = str(Path(__file__).parents[1] / "workspace" / "ws_child.py")
    env = {**os.environ, "PATCHWRIGHT_HISTORY_URL": pg_url}
    # the agent's server on machine 1: proposes a change to a.txt and waits
    agent = subprocess.Popen(
        [sys.executable, child, "propose", str(agent_root), str(tmp_path / "state-1")],
        env=env, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        person = {**env, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state-2")}
        return subprocess.run(
            [sys.executable, "-m", "patchwright", *args, "--root", str(person_root)],
            env=person, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip

    try:
        deadline, listed = time.monotonic() + 60, []
        while not listed and time.monotonic() < deadline:
            listed = json.loads(cli("pending", "--json").stdout)
        [proposal] = listed
        assert proposal["workspace"] == str(agent_root.resolve())
        shown = cli("pending", "--color", "never").stdout
        assert proposal["id"] in shown and f"{proposal['machine']}:{agent_root.resolve()}" in shown
        approved = cli("approve", proposal["id"])
        assert approved.returncode == 0, approved.stderr
        assert approved.stdout.startswith(f"Applied {proposal['id']} as batch b-")
        assert agent.stdout is not None
        assert agent.stdout.readline().startswith("applied ")  # the agent's call got it
        assert agent.wait(timeout=60) == 0
    finally:
        if agent.poll() is None:
            agent.kill()
            agent.wait()
        if agent.stdout is not None:
            agent.stdout.close()
    assert (agent_root / "a.txt").read_bytes() == b"one\nA"  # written on machine 1
    assert not (person_root / "a.txt").exists()
