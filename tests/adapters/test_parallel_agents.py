"""Parallel agents lose nothing: 8 MCP sessions over HTTP and 4 command-line workers make
400 edits to disjoint lines of two shared files at the same time; then MCP sessions over
stdio, Python callers (each with a workspace of its own) and a command-line worker do the
same on two other files.

Every edit is counted by what its answer said (applied or refused), and the files are
checked afterwards: no edit reported applied may be missing, disjoint edits must all land
(a session that read an older version gets its edit rebased), and the files must equal
the result of all 400 edits. Nothing is timed: the test waits for every answer.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import TextContent
from served import served

from patchwright.tools import Toolbox
from patchwright.workspace import Workspace

FILES = ("shared_a.py", "shared_b.py")
MCP_SESSIONS, MCP_EDITS = 8, 45
CLI_WORKERS, CLI_EDITS = 4, 10
TOTAL = MCP_SESSIONS * MCP_EDITS + CLI_WORKERS * CLI_EDITS
LINES_PER_FILE = TOTAL // len(FILES)
TIMEOUT = 120  # seconds one call may take on a busy machine (never reached when all is well)


def _line(slot: int, done_by: str | None = None) -> str:
    return f"slot_{slot} = 0\n" if done_by is None else f"slot_{slot} = 1  # {done_by}\n"


def _edit(index: int, who: str) -> dict[str, Any]:
    """Edit ``index`` (0-based, of TOTAL): its own line of one of the two files."""
    path, slot = FILES[index % len(FILES)], index // len(FILES)
    return {"path": path, "old_string": _line(slot), "new_string": _line(slot, who)}


@contextmanager
def _http_server(root: Path, env: dict[str, str]) -> Iterator[str]:
    argv = ["mcp", "--root", str(root), "--http", "127.0.0.1:0", "--preset", "default"]
    with served(argv, {**os.environ, **env}) as (url, _):
        yield url


def _mcp_sessions(url: str, outcomes: dict[int, tuple[bool, str]]) -> None:
    async def session(number: int) -> None:
        async with Client(url, read_timeout_seconds=TIMEOUT) as client:
            for path in FILES:
                read = await client.call_tool("read_file", {"path": path})
                assert not read.is_error
            for k in range(MCP_EDITS):
                index = number * MCP_EDITS + k
                result = await client.call_tool("edit_file", _edit(index, f"mcp{number}"))
                first = result.content[0]
                assert isinstance(first, TextContent)
                outcomes[index] = (not result.is_error, first.text)

    async def all_sessions() -> None:
        async with anyio.create_task_group() as group:
            for number in range(MCP_SESSIONS):
                group.start_soon(session, number)

    anyio.run(all_sessions)


def _cli_worker(root: Path, env: dict[str, str], number: int,
                outcomes: dict[int, tuple[bool, str]]) -> None:  # fmt: skip
    first = MCP_SESSIONS * MCP_EDITS + number * CLI_EDITS
    _cli_edits(root, env, first, CLI_EDITS, outcomes, f"cli{number}")


def _cli_edits(root: Path, env: dict[str, str], first: int, count: int,
               outcomes: dict[int, tuple[bool, str]], who: str = "cli0",
               ready: threading.Barrier | None = None) -> None:  # fmt: skip
    """Edits ``first`` to ``first + count - 1``, each by its own ``patchwright call``
    process of the command-line session ``who`` (after ``ready``, when given)."""

    def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        done = subprocess.run(
            [sys.executable, "-m", "patchwright", "call", name, "-", "--root", str(root),
             "--session", who],
            input=json.dumps(arguments), env={**os.environ, **env}, capture_output=True,
            text=True, timeout=TIMEOUT, check=False,
        )  # fmt: skip
        answer: dict[str, Any] = json.loads(done.stdout)
        return answer

    for path in FILES:
        assert call("read_file", {"path": path})["ok"]
    if ready is not None:
        ready.wait()
    for index in range(first, first + count):
        answer = call("edit_file", _edit(index, who))
        outcomes[index] = (answer["ok"], answer["text"])


def _who(index: int) -> str:
    """The session that makes edit ``index``."""
    if index < MCP_SESSIONS * MCP_EDITS:
        return f"mcp{index // MCP_EDITS}"
    return f"cli{(index - MCP_SESSIONS * MCP_EDITS) // CLI_EDITS}"


def test_parallel_sessions_lose_no_edit(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    for path in FILES:
        (root / path).write_text("".join(_line(slot) for slot in range(LINES_PER_FILE)))
    env = {"PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")}
    outcomes: dict[int, tuple[bool, str]] = {}
    with _http_server(root, env) as url:
        workers = [
            threading.Thread(target=_cli_worker, args=(root, env, n, outcomes))
            for n in range(CLI_WORKERS)
        ]
        for worker in workers:
            worker.start()
        _mcp_sessions(url, outcomes)
        for worker in workers:
            worker.join()
    assert len(outcomes) == TOTAL  # every edit was answered
    reported = {i for i, (applied, _) in outcomes.items() if applied}
    refusals = {i: text for i, (applied, text) in outcomes.items() if not applied}
    texts = {path: (root / path).read_text() for path in FILES}
    who = {i: _who(i) for i in range(TOTAL)}
    missing = [
        i for i in reported if _edit(i, who[i])["new_string"] not in texts[_edit(i, "")["path"]]
    ]
    assert missing == [], f"{len(missing)} edits reported applied are missing"
    assert refusals == {}, f"{len(refusals)} disjoint edits refused: {list(refusals.values())[:3]}"
    for number, path in enumerate(FILES):
        expected = "".join(
            _line(slot, who[slot * len(FILES) + number]) for slot in range(LINES_PER_FILE)
        )
        assert texts[path] == expected


STDIO_SESSIONS, PYTHON_CALLERS, OTHER_CLI, EACH = 2, 2, 1, 12
OTHERS = (STDIO_SESSIONS + PYTHON_CALLERS + OTHER_CLI) * EACH


def _stdio_session(
    root: Path,
    env: dict[str, str],
    number: int,
    outcomes: dict[int, tuple[bool, str]],
    ready: threading.Barrier,
) -> None:
    """One ``patchwright mcp`` server over stdio (a session of its own) making its edits."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "patchwright", "mcp", "--root", str(root), "--preset", "default"],
        env={**os.environ, **env},
    )

    async def session() -> None:
        with open(os.devnull, "w") as log:
            async with Client(stdio_client(params, errlog=log),
                              read_timeout_seconds=TIMEOUT) as client:  # fmt: skip
                for path in FILES:
                    assert not (await client.call_tool("read_file", {"path": path})).is_error
                await anyio.to_thread.run_sync(ready.wait)
                for k in range(EACH):
                    index = number * EACH + k
                    result = await client.call_tool("edit_file", _edit(index, f"stdio{number}"))
                    first = result.content[0]
                    assert isinstance(first, TextContent)
                    outcomes[index] = (not result.is_error, first.text)

    anyio.run(session)


def _python_caller(
    root: Path,
    state: Path,
    number: int,
    outcomes: dict[int, tuple[bool, str]],
    ready: threading.Barrier,
) -> None:
    """A Python caller with a workspace and toolbox of its own, as another process's."""
    toolbox = Toolbox(Workspace(root, state_dir=state))
    for path in FILES:
        assert toolbox.call("read_file", {"path": path}).ok
    ready.wait()
    for k in range(EACH):
        index = (STDIO_SESSIONS + number) * EACH + k
        result = toolbox.call("edit_file", _edit(index, f"py{number}"))
        outcomes[index] = (result.ok, result.text)


def test_stdio_sessions_python_callers_and_cli_processes_lose_no_edit(tmp_path: Path) -> None:
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    lines = OTHERS // len(FILES)
    for path in FILES:
        (root / path).write_text("".join(_line(slot) for slot in range(lines)))
    env = {"PATCHWRIGHT_STATE_DIR": str(state)}
    outcomes: dict[int, tuple[bool, str]] = {}
    first_cli = (STDIO_SESSIONS + PYTHON_CALLERS) * EACH
    # every caller starts editing once all have read (a server's start takes longer than
    # a Python caller's whole run)
    ready = threading.Barrier(STDIO_SESSIONS + PYTHON_CALLERS + OTHER_CLI, timeout=TIMEOUT)
    workers = [
        *(threading.Thread(target=_stdio_session, args=(root, env, n, outcomes, ready))
          for n in range(STDIO_SESSIONS)),
        *(threading.Thread(target=_python_caller, args=(root, state, n, outcomes, ready))
          for n in range(PYTHON_CALLERS)),
        threading.Thread(target=_cli_edits,
                         args=(root, env, first_cli, EACH, outcomes, "cli0", ready)),
    ]  # fmt: skip
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(outcomes) == OTHERS  # every edit was answered
    who = {i: _others_who(i) for i in range(OTHERS)}
    texts = {path: (root / path).read_text() for path in FILES}
    applied = [i for i, (done, _) in outcomes.items() if done]
    missing = [i for i in applied if _edit(i, who[i])["new_string"] not in texts[FILES[i % 2]]]
    assert missing == [], f"{len(missing)} edits reported applied are missing"
    refusals = [text for applied, text in outcomes.values() if not applied]
    assert refusals == [], f"{len(refusals)} disjoint edits refused: {refusals[:3]}"
    for number, path in enumerate(FILES):
        expected = "".join(_line(slot, who[slot * len(FILES) + number]) for slot in range(lines))
        assert texts[path] == expected


def _others_who(index: int) -> str:
    """The caller that makes edit ``index`` of the second test."""
    group = index // EACH
    if group < STDIO_SESSIONS:
        return f"stdio{group}"
    if group < STDIO_SESSIONS + PYTHON_CALLERS:
        return f"py{group - STDIO_SESSIONS}"
    return "cli0"
