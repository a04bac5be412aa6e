"""How the documentation snippets are checked (used by test_readme_snippets.py).

* ``sh``: every command must match a rule. ``patchwright`` commands are parsed by the
  real CLI parser and run for real, in order, as separate processes of the installed
  script in the temporary workspace (history in ``$PATCHWRIGHT_STATE_DIR``, a temporary
  folder): ``apply``, ``log``, ``show``, ``undo`` and ``tools`` must exit 0; ``apply``
  and ``undo`` must change the workspace, ``apply --dry-run`` must not; ``log`` and
  ``show`` must print something (``show`` of the README's sample ID shows the latest
  batch instead). ``cat FILE | patchwright ...`` feeds the file to the command.
  ``patchwright mcp --http HOST:PORT`` is started on a free port and must answer an MCP
  ``initialize`` request before it is stopped; ``mcp`` over stdio is only parsed. The
  sample root ``/path/to/project`` stands for the workspace. ``claude mcp add`` must wrap
  such a command or name a loopback ``/mcp`` URL; ``pip install`` must name this project
  and extras it has; ``cat`` must name a file of the workspace. A command without a rule
  fails the test.
* ``json``: parsed; an MCP client config (``mcpServers``, or ``servers`` as VS Code
  spells it) must launch ``patchwright`` with arguments the CLI parser accepts, or name
  a loopback ``/mcp`` URL.
* ``python``: see test_readme_snippets.py; a vendor SDK client a snippet creates is the
  real one talking to a recorded model (:func:`install_recorded_models`) that reads
  ``greeting.py``, replaces ``OLD`` with ``NEW`` in it, and stops.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from patchwright.adapters.cli import build_parser

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]
_FENCE = re.compile(r"^```([\w+-]*)[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_SEPARATORS = {"&&", "||", "|", ";"}
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}
_CLAUDE_OPTIONS = {"-s", "--scope", "-t", "--transport", "-e", "--env", "-H", "--header"}
# The installed console script, next to the interpreter running the tests.
_SCRIPT = Path(sys.executable).with_name("patchwright.exe" if os.name == "nt" else "patchwright")
# Sample values of the documents and what stands for them in the temporary workspace.
_SAMPLE_ROOT = "/path/to/project"
_SAMPLE_BATCH = re.compile(r"b-[0-9a-f]{8}")
_TIMEOUT = 20


@dataclass(frozen=True)
class Snippet:
    """One fenced block of a document."""

    document: str
    line: int
    lang: str
    code: str

    @property
    def id(self) -> str:
        """A readable test ID."""
        return f"{self.document}:{self.line}:{self.lang or 'text'}"


def snippets(document: str) -> list[Snippet]:
    """Every fenced block of ``document`` (a path relative to the repository)."""
    text = (REPO / document).read_text(encoding="utf-8")
    return [
        Snippet(document, text.count("\n", 0, m.start()) + 1, m.group(1).lower(), m.group(2))
        for m in _FENCE.finditer(text)
    ]


def shell_commands(code: str) -> list[list[str]]:
    """The simple commands of a shell snippet (comments dropped, pipes and && split)."""
    return [stage for pipeline in shell_pipelines(code) for stage in pipeline]


def shell_pipelines(code: str) -> list[list[list[str]]]:
    """The pipelines of a shell snippet, in order: each a list of commands joined by ``|``.

    Comments are dropped; ``&&``, ``||`` and ``;`` end a pipeline.
    """
    pipelines: list[list[list[str]]] = []
    for line in code.replace("\\\n", " ").splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        pipeline: list[list[str]] = []
        current: list[str] = []
        for token in lexer:
            if token in _SEPARATORS:
                pipeline.append(current)
                current = []
                if token != "|":
                    pipelines.append(pipeline)
                    pipeline = []
            else:
                current.append(token)
        pipeline.append(current)
        pipelines.append(pipeline)
    return [[c for c in p if c] for p in pipelines if any(p)]


def run_pipeline(stages: list[list[str]], workdir: Path) -> None:
    """Check and run one pipeline: ``cat FILE... | patchwright ...`` or one command."""
    if len(stages) == 2 and stages[0][0] == "cat" and Path(stages[1][0]).name == "patchwright":
        check_command(stages[0], workdir)
        fed = b"".join((workdir / name).read_bytes() for name in stages[0][1:])
        check_patchwright(stages[1][1:], workdir, stdin=fed)
        return
    assert len(stages) == 1, f"no rule for the pipeline {stages}"
    check_command(stages[0], workdir)


def check_command(argv: list[str], workdir: Path) -> None:
    """Check (and, where safe, run) one shell command; fail when no rule covers it."""
    program = Path(argv[0]).name
    if program == "patchwright":
        check_patchwright(argv[1:], workdir)
    elif argv[:3] == ["claude", "mcp", "add"]:
        _check_claude(argv[3:], workdir)
    elif program in ("python", "python3") and argv[1:3] == ["-m", "pip"]:
        _check_pip(argv[3:])
    elif program == "pip":
        _check_pip(argv[1:])
    elif (program in ("python", "python3") and argv[1:3] == ["-m", "pytest"]) or (
        program == "pytest"
    ):
        assert (REPO / "tests").is_dir()  # this very suite; not run again from inside it
    elif program == "cat":
        assert all((workdir / name).is_file() for name in argv[1:]), argv
    elif program == "bash":
        assert (REPO / argv[1]).is_file(), argv
    else:
        pytest.fail(f"no rule for the documented command {shlex.join(argv)!r}")


def check_patchwright(
    args: list[str], workdir: Path, *, run: bool = True, stdin: bytes | None = None
) -> None:
    """Parse with the real CLI parser; then (``run``) run the command for real."""
    try:
        parsed = build_parser().parse_args(args)
    except SystemExit as exc:
        pytest.fail(f"`patchwright {shlex.join(args)}` does not parse (exit {exc.code})")
    if not run:
        return
    args = [str(workdir) if arg == _SAMPLE_ROOT else arg for arg in args]
    command = args[0]
    if command == "mcp":
        if getattr(parsed, "http", None):
            _serve_briefly(args, workdir)
        return  # over stdio it serves its client: parsing it is all a test can do
    if command == "show" and _SAMPLE_BATCH.fullmatch(args[-1]):
        args = [*args[:-1], _latest_batch(args, workdir)]
    root = workdir / getattr(parsed, "root", ".")
    before = _files(root)
    out = _patchwright(args, workdir, stdin=stdin)
    changed = _files(root) != before
    if command in ("apply", "undo"):
        writes = not getattr(parsed, "dry_run", False)
        assert changed == writes, f"`patchwright {shlex.join(args)}` changed={changed}"
    else:
        assert not changed and out.strip(), f"`patchwright {shlex.join(args)}` printed nothing"


def _patchwright(args: list[str], workdir: Path, *, stdin: bytes | None = None) -> str:
    """Run the installed script (or the module) in ``workdir``; its output, exit 0 checked."""
    program = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "patchwright"]
    done = subprocess.run(
        [*program, *args],
        cwd=workdir,
        input=stdin if stdin is not None else b"",
        capture_output=True,
        timeout=_TIMEOUT,
        check=False,
    )
    text = done.stdout.decode() + done.stderr.decode()
    assert done.returncode == 0, f"`patchwright {shlex.join(args)}` exit {done.returncode}:\n{text}"
    return done.stdout.decode()


def _latest_batch(args: list[str], workdir: Path) -> str:
    """The ID of the workspace's latest batch (the documents show a sample ID)."""
    root = ["--root", args[args.index("--root") + 1]] if "--root" in args else []
    batches = json.loads(_patchwright(["log", "--json", "-n", "1", *root], workdir))
    assert batches, "`patchwright show` needs a batch: no earlier command of the snippet wrote"
    return str(batches[0]["id"])


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve_briefly(args: list[str], workdir: Path) -> None:
    """Start ``patchwright mcp --http`` on a free port, expect an MCP answer, stop it."""
    at = args.index("--http") + 1
    host = args[at].rpartition(":")[0] or "127.0.0.1"
    assert host in _LOOPBACK, f"the documented server listens on {host}, not loopback"
    port = _free_port()
    args = [*args[:at], f"{host}:{port}", *args[at + 1 :]]
    program = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "patchwright"]
    server = subprocess.Popen(
        [*program, *args], cwd=workdir, stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        answer = _initialize(f"http://{host}:{port}/mcp", server)
        assert '"result"' in answer and "patchwright" in answer, answer
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - only when shutdown hangs
            server.kill()
            server.wait()


def _initialize(url: str, server: subprocess.Popen[bytes]) -> str:
    """The server's answer to an MCP ``initialize`` request, retried until it listens."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "readme-test", "version": "0"}}}  # fmt: skip
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        },
    )
    deadline = time.monotonic() + _TIMEOUT
    while True:
        assert server.poll() is None, f"the MCP server exited with {server.returncode}"
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                assert response.status == 200
                return str(response.read().decode())
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _check_claude(args: list[str], workdir: Path) -> None:
    if "--" in args:
        options, command = args[: args.index("--")], args[args.index("--") + 1 :]
    else:
        options, command = args, []
    positional = _claude_positional(options)
    if command:
        assert len(positional) == 1, f"claude mcp add takes one name before --: {args}"
        check_patchwright(command[1:], workdir, run=False)
        assert Path(command[0]).name == "patchwright", command
    else:
        assert len(positional) == 2, f"claude mcp add NAME URL, got {args}"
        check_url(positional[1])


def _claude_positional(options: list[str]) -> list[str]:
    positional: list[str] = []
    tokens = iter(options)
    for token in tokens:
        if token in _CLAUDE_OPTIONS:
            assert next(tokens, None) is not None, f"{token} needs a value"
        elif token.startswith("-"):
            pytest.fail(f"unknown claude mcp add option {token}")
        else:
            positional.append(token)
    return positional


def _check_pip(args: list[str]) -> None:
    assert args[:1] == ["install"], args
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = [a for a in args[1:] if not a.startswith("-")]
    assert specs, args
    for spec in specs:
        match = re.fullmatch(r"([^\[\]]+)(?:\[([\w,-]+)\])?", spec)
        assert match is not None, spec
        assert match.group(1) in (".", project["name"]), f"pip installs {spec}, not this project"
        extras = (match.group(2) or "").split(",") if match.group(2) else []
        assert set(extras) <= set(project.get("optional-dependencies", {})), spec


def check_url(url: str) -> None:
    """An MCP endpoint of ``patchwright mcp --http``: loopback, explicit port, ``/mcp``."""
    parts = urlsplit(url)
    assert parts.scheme == "http" and parts.hostname in _LOOPBACK, url
    assert parts.port is not None and parts.path == "/mcp", url


def check_json(code: str, workdir: Path) -> None:
    """Parse; check MCP server entries name a real command line or endpoint."""
    data: Any = json.loads(code)
    servers = data.get("mcpServers", data.get("servers")) if isinstance(data, dict) else None
    if servers is None:
        return
    assert servers, "an empty server list"
    for name, entry in servers.items():
        if "command" in entry:
            assert Path(entry["command"]).name == "patchwright", name
            assert entry.get("type", "stdio") == "stdio", name
            check_patchwright(list(entry["args"]), workdir, run=False)
        else:
            assert entry.get("type") in ("http", "streamable-http"), name
            check_url(entry["url"])


# recorded models -------------------------------------------------------------------------

OLD = 'print("Hello, " + name)'
NEW = 'print(f"Hello, {name}!")'
_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("read_file", {"path": "greeting.py"}),
    ("edit_file", {"path": "greeting.py", "old_string": OLD, "new_string": NEW}),
]


class Replay:
    """An SDK transport answering each request with the next recorded response."""

    def __init__(self, responses: list[dict[str, Any]]) -> None:
        self.responses = responses
        self.requests: list[dict[str, Any]] = []

    def http_client(self) -> Any:
        """An HTTP client for the SDK that never leaves the process."""
        import httpx2

        def answer(request: httpx2.Request) -> httpx2.Response:
            self.requests.append(json.loads(request.content))
            if len(self.requests) > len(self.responses):
                return httpx2.Response(500, json={"error": {"message": "no more turns"}})
            return httpx2.Response(200, json=self.responses[len(self.requests) - 1])

        return httpx2.Client(transport=httpx2.MockTransport(answer))


def install_recorded_models(code: str, monkeypatch: pytest.MonkeyPatch) -> list[Replay]:
    """Make the SDK clients ``code`` creates talk to recorded models; their replays."""
    replays: list[Replay] = []
    if "anthropic" in code:
        import anthropic

        replay = Replay(_anthropic_turns())
        options = {"api_key": "recorded", "base_url": "http://recorded.invalid"}
        client = anthropic.Anthropic(**options, http_client=replay.http_client(), max_retries=0)
        monkeypatch.setattr(anthropic, "Anthropic", lambda **_: client)
        replays.append(replay)
    if "openai" in code:
        import openai

        replay = Replay(_openai_turns(responses_api="responses.create" in code))
        options = {"api_key": "recorded", "base_url": "http://recorded.invalid/v1"}
        client = openai.OpenAI(**options, http_client=replay.http_client(), max_retries=0)
        monkeypatch.setattr(openai, "OpenAI", lambda **_: client)
        replays.append(replay)
    return replays


def _anthropic_turns() -> list[dict[str, Any]]:
    blocks = [
        [{"type": "tool_use", "id": f"toolu_{n}", "name": name, "input": args}]
        for n, (name, args) in enumerate(_CALLS)
    ]
    stops = ["tool_use"] * len(blocks)
    return [
        {
            "id": f"msg_{n}",
            "type": "message",
            "role": "assistant",
            "model": "recorded",
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
        for n, (content, stop) in enumerate(
            zip([*blocks, [{"type": "text", "text": "Done."}]], [*stops, "end_turn"])
        )
    ]


def _openai_turns(*, responses_api: bool) -> list[dict[str, Any]]:
    if responses_api:
        done = {
            "type": "message",
            "id": "msg_done",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "Done.", "annotations": []}],
        }
        outputs = [
            [{"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": name,
              "arguments": json.dumps(args)}]
            for n, (name, args) in enumerate(_CALLS)
        ]  # fmt: skip
        return [
            {"id": f"resp_{n}", "object": "response", "created_at": 0, "model": "recorded",
             "status": "completed", "output": output, "parallel_tool_calls": True,
             "tool_choice": "auto", "tools": []}
            for n, output in enumerate([*outputs, [done]])
        ]  # fmt: skip
    messages: list[dict[str, Any]] = [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{n}", "type": "function",
             "function": {"name": name, "arguments": json.dumps(args)}}]}
        for n, (name, args) in enumerate(_CALLS)
    ]  # fmt: skip
    messages.append({"role": "assistant", "content": "Done."})
    return [
        {"id": f"chatcmpl_{n}", "object": "chat.completion", "created": 0, "model": "recorded",
         "choices": [{"index": 0, "message": message,
                      "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}]}
        for n, message in enumerate(messages)
    ]  # fmt: skip
