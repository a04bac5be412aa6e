"""``patchwright mcp --approve`` with ``pending`` / ``approve`` / ``reject``, and
``patchwright review``'s start-up, all as real subprocesses."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from mcp_calls import McpCall

TIMEOUT = 60


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    folder.mkdir()
    (folder / "a.txt").write_text("one\ntwo\n")
    return folder


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")}


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "patchwright", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


def pending(root: Path, env: dict[str, str]) -> list[dict[str, Any]]:
    """``patchwright pending --json``, polled until a proposal is there (bounded)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        out = cli("pending", "--root", str(root), "--json", env=env)
        assert out.returncode == 0, out.stderr
        listed: list[dict[str, Any]] = json.loads(out.stdout)
        if listed:
            return listed
        time.sleep(0.1)
    raise AssertionError("no proposal appeared")


def test_approve_and_reject_waiting_mcp_calls_from_the_shell(
    root: Path, env: dict[str, str]
) -> None:
    empty = cli("pending", "--root", str(root), env=env)
    assert empty.returncode == 0 and "No changes wait for approval" in empty.stdout

    call = McpCall(
        root,
        env,
        "edit_file",
        {"path": "a.txt", "old_string": "two", "new_string": "2"},
        "--approve",
    )
    [proposal] = pending(root, env)
    assert proposal["id"].startswith("p-") and proposal["status"] == "pending"
    # who proposed it: the client's clientInfo, and the server's session
    assert proposal["tool"] == "edit_file" and proposal["session"].startswith("test-agent 1.0 mcp-")
    assert proposal["files"][0]["path"] == "a.txt" and "+2" in proposal["files"][0]["diff"]
    human = cli("pending", "--root", str(root), env=env)
    assert proposal["id"] in human.stdout and "a.txt" in human.stdout
    assert "-two\n+2\n" in human.stdout  # each proposal with its diff
    coloured = cli("pending", "--root", str(root), "--color", "always", env=env)
    assert "\x1b[" in coloured.stdout and "+2" in coloured.stdout
    shown = cli("show", proposal["id"], "--root", str(root), env=env)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(f"proposal {proposal['id']}  ")
    assert " pending " in shown.stdout.splitlines()[0] and "-two\n+2\n" in shown.stdout
    assert (root / "a.txt").read_text() == "one\ntwo\n"
    approved = cli("approve", proposal["id"], "--root", str(root), env=env)
    assert approved.returncode == 0, approved.stderr
    assert approved.stdout.startswith(f"Applied {proposal['id']} as batch b-")
    ok, text = call.outcome()
    assert ok, text
    assert (root / "a.txt").read_text() == "one\n2\n"

    call = McpCall(
        root,
        env,
        "edit_file",
        {"path": "a.txt", "old_string": "one", "new_string": "1"},
        "--approve",
    )
    [proposal] = pending(root, env)
    no_reason = cli("reject", proposal["id"], "--root", str(root), env=env)
    assert no_reason.returncode == 2 and "--reason" in no_reason.stderr
    rejected = cli("reject", proposal["id"], "--reason", "numbers stay words", "--root", str(root),
                   env=env)  # fmt: skip
    assert rejected.returncode == 0, rejected.stderr
    ok, text = call.outcome()
    assert not ok
    assert text.startswith("Rejected by the user: numbers stay words. Nothing was written.")
    assert (root / "a.txt").read_text() == "one\n2\n"
    again = cli("approve", proposal["id"], "--root", str(root), env=env)
    assert again.returncode == 1 and "no longer waiting: it is rejected" in again.stderr
    unknown = cli("approve", "p-00000000", "--root", str(root), env=env)
    assert unknown.returncode == 1 and "No proposal has the ID" in unknown.stderr


def test_decisions_name_a_missing_root(tmp_path: Path, env: dict[str, str]) -> None:
    out = cli("pending", "--root", str(tmp_path / "nowhere"), env=env)
    assert out.returncode == 2
    assert f"--root {tmp_path / 'nowhere'}" in out.stderr


def test_review_refuses_a_missing_root_and_a_bad_port(tmp_path: Path, env: dict[str, str]) -> None:
    out = cli("review", "--root", str(tmp_path / "nowhere"), "--no-open", env=env)
    assert out.returncode == 2 and "nowhere" in out.stderr
    port = cli("review", "--root", str(tmp_path), "--port", "70000", "--no-open", env=env)
    assert port.returncode == 2 and "--port must be from 0 to 65535" in port.stderr


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as err:
        err.close()
        return err.code


def test_review_prints_one_url_with_its_token(root: Path, env: dict[str, str]) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "patchwright", "review", "--root", str(root), "--no-open"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    stdout = proc.stdout
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in stdout], daemon=True).start()
    try:
        line = lines.get(timeout=TIMEOUT)
        prefix, url = line.strip().split(": ", 1)
        assert prefix == "patchwright review" and url.startswith("http://127.0.0.1:")
        base, token = url.split("/?token=")
        assert len(token) >= 32
        assert status(base + "/") == 401
        assert status(base + "/?token=nope") == 403
        with urllib.request.urlopen(url, timeout=TIMEOUT) as page:
            text = page.read().decode()
        assert "patchwright review" in text and str(root) in text
    finally:
        proc.terminate()
        assert proc.wait(TIMEOUT) is not None
        stdout.close()


def test_log_filters(root: Path, env: dict[str, str]) -> None:
    from patchwright.workspace import FileChange, Workspace

    ws = Workspace(root, state_dir=env["PATCHWRIGHT_STATE_DIR"], session="alice")
    first = ws.commit([FileChange("a.txt", b"one\n2\n", diff="")], tool="edit_file").batch_id
    other = Workspace(root, state_dir=env["PATCHWRIGHT_STATE_DIR"], session="bob")
    second = other.commit([FileChange("b.txt", b"b\n", diff="")], tool="write_file").batch_id
    undo = ws.undo(first).batch_id

    def ids(*filters: str) -> list[str]:
        out = cli("log", "--root", str(root), "--json", *filters, env=env)
        assert out.returncode == 0, out.stderr
        return [b["id"] for b in json.loads(out.stdout)]

    assert ids() == [undo, second, first]
    assert ids("--file", "B.TXT") == [second]
    assert ids("--session", "ali") == [undo, first]
    assert ids("--status", "undone") == [first]
    assert ids("--status", "active") == [second]
    assert ids("--status", "undo") == [undo]
    assert ids("--since", "1h") == [undo, second, first]
    assert ids("--until", "2000-01-01") == []
    assert ids("--session", "bob", "-n", "1") == [second]
    bad = cli("log", "--root", str(root), "--since", "yesterday", env=env)
    assert bad.returncode == 2 and "--since must be an ISO 8601 time" in bad.stderr
    text = cli("log", "--root", str(root), "--file", "nothing", env=env)
    assert text.stdout == "No changes that match recorded for this workspace.\n"
