"""The review page's application, called in process through starlette's test client."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from patchwright.adapters.review.app import HEADER, build_app, cookie_name
from patchwright.model import ToolResult
from patchwright.tools import Toolbox
from patchwright.workspace import Workspace

TOKEN = "t0ken-for-tests"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    folder.mkdir()
    (folder / "app.py").write_text('def greet():\n    return "hello"\n')
    (folder / "notes.txt").write_text("one\ntwo\n")
    return folder


@pytest.fixture
def ws(root: Path, tmp_path: Path) -> Workspace:
    return Workspace(root, state_dir=tmp_path / "state", session="agent-a")


@pytest.fixture
def client(ws: Workspace) -> TestClient:
    c = TestClient(build_app(ws, TOKEN, hosts=("testserver",)))
    c.headers[HEADER] = TOKEN
    return c


def edit(ws: Workspace, path: str, old: str, new: str) -> ToolResult:
    result = Toolbox(ws).call("edit_file", {"path": path, "old_string": old, "new_string": new})
    assert result.ok, result.text
    return result


def test_the_token_is_required(ws: Workspace) -> None:
    c = TestClient(build_app(ws, TOKEN, hosts=("testserver",)))
    assert c.get("/").status_code == 401
    assert c.get("/api/batches").status_code == 401
    assert c.get("/?token=wrong").status_code == 403
    assert c.get("/api/batches", headers={HEADER: "wrong"}).status_code == 403
    page = c.get(f"/?token={TOKEN}")
    assert page.status_code == 200
    assert f'content="{TOKEN}"' in page.text
    # the cookie set by the first visit lets the page's own requests through
    assert c.cookies.get(cookie_name(80)) == TOKEN  # the test client's port
    assert c.get("/api/batches").status_code == 200
    # but a change needs the header, which another site's page cannot send
    assert c.post("/api/batches/b-00000000/undo").status_code == 403


def test_the_page_cannot_be_framed_and_its_cookie_stays_with_its_port(ws: Workspace) -> None:
    c = TestClient(build_app(ws, TOKEN, hosts=("127.0.0.1",)), base_url="http://127.0.0.1:8123")
    for answer in (
        c.get(f"/?token={TOKEN}"),
        c.get("/api/batches", headers={HEADER: TOKEN}),
        c.get("/"),  # refused answers too
    ):
        assert answer.headers["content-security-policy"] == "frame-ancestors 'none'"
        assert answer.headers["x-frame-options"] == "DENY"
    cookie = c.get(f"/?token={TOKEN}").headers["set-cookie"]
    name, attributes = cookie.split("=", 1)[0], cookie.lower()
    assert name == "patchwright_review_8123"
    assert "httponly" in attributes and "samesite=strict" in attributes
    # a page on another port of the same host does not take this cookie for its own
    other = TestClient(build_app(ws, TOKEN, hosts=("127.0.0.1",)), base_url="http://127.0.0.1:9000")
    other.cookies.set(name, TOKEN)
    assert other.get("/api/batches").status_code == 401


def test_unknown_host_names_are_refused(ws: Workspace) -> None:
    c = TestClient(build_app(ws, TOKEN, hosts=("127.0.0.1",)))
    answer = c.get(f"/?token={TOKEN}", headers={"Host": "evil.example:80"})
    assert answer.status_code == 403
    assert c.get(f"/?token={TOKEN}", headers={"Host": "127.0.0.1:8123"}).status_code == 200


def test_static_files_are_served(client: TestClient) -> None:
    assert "refreshBatches" in client.get("/static/app.js").text
    assert "table.diff" in client.get("/static/style.css").text
    assert ".hl .k" in client.get("/static/pygments.css").text
    assert client.get("/static/secret.txt").status_code == 404


def test_batches_list_with_lines_session_and_summary(client: TestClient, ws: Workspace) -> None:
    edit(ws, "app.py", '"hello"', '"hi"')
    edit(Workspace(ws.root, state_dir=ws.state_folder.parent.parent, session="b"), "notes.txt",
         "two", "2\n3")  # fmt: skip
    data = client.get("/api/batches").json()
    assert data["total"] == 2
    assert data["sessions"] == ["agent-a", "b"]
    newest, oldest = data["batches"]
    assert newest["paths"] == ["notes.txt"] and newest["session"] == "b"
    assert (newest["added"], newest["removed"]) == (2, 1)
    assert oldest["tool"] == "edit_file"
    assert oldest["label"] == "edit_file app.py"
    assert (oldest["added"], oldest["removed"]) == (1, 1)


def test_filters_by_file_session_and_time(client: TestClient, ws: Workspace) -> None:
    edit(ws, "app.py", '"hello"', '"hi"')
    edit(ws, "notes.txt", "one", "1")

    def ids(query: str) -> list[str]:
        return [b["paths"][0] for b in client.get("/api/batches?" + query).json()["batches"]]

    assert ids("file=NOTES") == ["notes.txt"]
    assert ids("session=agent-a") == ["notes.txt", "app.py"]
    assert ids("session=other") == []
    assert ids("since=2000-01-01T00:00:00Z") == ["notes.txt", "app.py"]
    assert ids("until=2000-01-01T00:00:00Z") == []
    assert ids("since=2999-01-01T00:00:00") == []
    bad = client.get("/api/batches?since=yesterday")
    assert bad.status_code == 400
    assert "since must be an ISO 8601 time" in bad.json()["error"]["message"]


def test_one_batch_diff_is_highlighted_unified_or_split(client: TestClient, ws: Workspace) -> None:
    batch_id = edit(ws, "app.py", '"hello"', '"hi"').data["batch_id"]
    unified = client.get(f"/api/batches/{batch_id}").json()["html"]
    assert 'class="diff unified hl"' in unified
    assert '<span class="k">def</span>' in unified  # pygments' Python colours
    assert '<tr class="del">' in unified and '<tr class="add">' in unified
    split = client.get(f"/api/batches/{batch_id}?view=split").json()["html"]
    assert 'class="diff split hl"' in split
    # the removed and the added line share one row, old left and new right
    assert split.count('<td class="code del">') == split.count('<td class="code add">') == 1
    missing = client.get("/api/batches/b-00000000")
    assert missing.status_code == 409
    assert "No batch" in missing.json()["error"]["message"]


def test_undo_has_the_same_checks_as_the_command(
    client: TestClient, ws: Workspace, root: Path
) -> None:
    first = edit(ws, "app.py", '"hello"', '"hi"').data["batch_id"]
    second = edit(ws, "notes.txt", "one", "1").data["batch_id"]
    (root / "notes.txt").write_text("changed by hand\n")
    refused = client.post(f"/api/batches/{second}/undo")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "conflict"
    assert (root / "notes.txt").read_text() == "changed by hand\n"
    done = client.post(f"/api/batches/{first}/undo")
    assert done.status_code == 200
    assert done.json()["reverts"] == first
    assert (root / "app.py").read_text() == 'def greet():\n    return "hello"\n'
    again = client.post(f"/api/batches/{first}/undo")
    assert again.status_code == 409 and "already undone" in again.json()["error"]["message"]
    listed = {b["id"]: b for b in client.get("/api/batches").json()["batches"]}
    assert listed[first]["reverted_by"] == done.json()["batch_id"]


class Call(threading.Thread):
    """A tool call in approval mode, waiting in a thread."""

    def __init__(self, toolbox: Toolbox, name: str, args: dict[str, Any]) -> None:
        super().__init__(daemon=True)
        self.toolbox, self.name, self.args = toolbox, name, args
        self.result: ToolResult | None = None
        self.start()

    def run(self) -> None:
        self.result = self.toolbox.call(self.name, self.args)

    def outcome(self) -> ToolResult:
        self.join(60)
        assert self.result is not None, "the call never returned"
        return self.result


def wait_for_proposals(client: TestClient, count: int) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        proposals: list[dict[str, Any]] = client.get("/api/proposals").json()["proposals"]
        if len(proposals) >= count:
            return proposals
        time.sleep(0.02)
    raise AssertionError("no proposal appeared")


def test_proposals_are_approved_and_rejected_from_the_page(
    client: TestClient, ws: Workspace, root: Path, tmp_path: Path
) -> None:
    agent = Workspace(root, state_dir=tmp_path / "state", session="mcp-1")
    toolbox = Toolbox(agent, approve=True, approve_timeout=60)
    call = Call(
        toolbox, "edit_file", {"path": "app.py", "old_string": "hello", "new_string": "hey"}
    )
    [proposal] = wait_for_proposals(client, 1)
    assert proposal["paths"] == ["app.py"] and proposal["session"] == "mcp-1"
    assert (proposal["added"], proposal["removed"]) == (1, 1)
    diff = client.get(f"/api/proposals/{proposal['id']}").json()
    assert diff["status"] == "pending" and "hey" in diff["html"]
    approved = client.post(f"/api/proposals/{proposal['id']}/approve")
    assert approved.status_code == 200
    result = call.outcome()
    assert result.ok and result.data["batch_id"] == approved.json()["batch_id"]
    assert "hey" in (root / "app.py").read_text()

    call = Call(toolbox, "edit_file", {"path": "notes.txt", "old_string": "one", "new_string": "1"})
    [proposal] = wait_for_proposals(client, 1)
    no_reason = client.post(f"/api/proposals/{proposal['id']}/reject", json={"reason": ""})
    assert no_reason.status_code == 400
    rejected = client.post(f"/api/proposals/{proposal['id']}/reject", json={"reason": "keep it"})
    assert rejected.status_code == 200 and rejected.json()["status"] == "rejected"
    result = call.outcome()
    assert not result.ok
    assert "Rejected by the user: keep it" in result.text
    assert (root / "notes.txt").read_text() == "one\ntwo\n"
    assert client.get("/api/proposals").json()["proposals"] == []
    late = client.post(f"/api/proposals/{proposal['id']}/approve")
    assert late.status_code == 409 and "no longer waiting" in late.json()["error"]["message"]


def test_a_batch_shows_its_client_session_and_the_answer(client: TestClient, ws: Workspace) -> None:
    from patchwright.workspace import calling_as

    with calling_as("Claude Code 2.1", "5f0c"):
        result = edit(ws, "app.py", '"hello"', '"hi"')
    [summary] = client.get("/api/batches").json()["batches"]
    assert (summary["client"], summary["session"]) == ("Claude Code 2.1", "5f0c")
    assert summary["answer"] == result.text and summary["here"] is True
    assert summary["changes"] == []  # not "Edit 1": the answer says what was done
    opened = client.get(f"/api/batches/{result.data['batch_id']}").json()
    assert (opened["client"], opened["session"], opened["answer"]) == (
        "Claude Code 2.1", "5f0c", result.text,
    )  # fmt: skip
    assert [b["id"] for b in client.get("/api/batches?session=claude").json()["batches"]] == [
        result.data["batch_id"]
    ]
