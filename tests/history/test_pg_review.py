"""The review page on a shared PostgreSQL history: its own workspace by default, the
fleet (every workspace and machine, filtered by machine) when asked."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from patchwright.adapters.review.app import HEADER, build_app
from patchwright.workspace import FileChange, Workspace, sha256_hex

TOKEN = "t0ken-for-tests"


def _client(ws: Workspace) -> TestClient:
    client = TestClient(build_app(ws, TOKEN, hosts=("testserver",)))
    client.headers[HEADER] = TOKEN
    return client


def test_the_fleet_view_and_a_proposal_of_another_machine(
    pg_url: str, make_root: Callable[[str], Path], open_ws: Callable[..., Workspace]
) -> None:
    mine, theirs = open_ws(make_root("mine"), "m1"), open_ws(make_root("theirs"), "m2")
    own = mine.commit([FileChange("a.txt", b"a\n", diff="@@ -0,0 +1 @@\n+a\n")]).batch_id
    other = theirs.commit([FileChange("b.txt", b"b\n", diff="@@ -0,0 +1 @@\n+b\n")]).batch_id
    page = _client(mine)

    listed = page.get("/api/batches").json()
    assert [b["id"] for b in listed["batches"]] == [own] and listed["shared"] is True
    fleet = page.get("/api/batches?scope=fleet").json()
    assert [b["id"] for b in fleet["batches"]] == [other, own]
    theirs_machine = theirs.history.scope.machine
    assert sorted(fleet["machines"]) == sorted([mine.history.scope.machine, theirs_machine])
    [shown] = page.get(f"/api/batches?scope=fleet&machine={theirs_machine}").json()["batches"]
    assert (shown["id"], shown["here"], shown["workspace"]) == (other, False, str(theirs.root))
    opened = page.get(f"/api/batches/{other}").json()["html"]  # people see the fleet
    assert '<span class="sign">+</span>b</td>' in opened
    refused = page.post(f"/api/batches/{other}/undo")
    assert refused.status_code == 409 and theirs_machine in refused.json()["error"]["message"]

    # a write waiting on the other machine is listed here and approved from here
    (theirs.root / "b.txt").write_bytes(b"b\n")
    theirs.require_approval(timeout=60)
    outcome: dict[str, Any] = {}
    change = FileChange("b.txt", b"B\n", expected_sha256=sha256_hex(b"b\n"), diff="-b\n+B\n")
    waiting = threading.Thread(
        target=lambda: outcome.update(record=theirs.commit([change], tool="edit_file")),
        daemon=True,
    )
    waiting.start()
    deadline = time.monotonic() + 30
    proposals: list[dict[str, Any]] = []
    while not proposals and time.monotonic() < deadline:
        proposals = page.get("/api/proposals").json()["proposals"]
        time.sleep(0.02)
    [proposal] = proposals
    assert proposal["here"] is False and proposal["machine"] == theirs_machine
    approved = page.post(f"/api/proposals/{proposal['id']}/approve")
    assert approved.status_code == 200, approved.text
    waiting.join(60)
    assert outcome["record"].batch_id == approved.json()["batch_id"]
    assert (theirs.root / "b.txt").read_bytes() == b"B\n"
    assert not (mine.root / "b.txt").exists()
