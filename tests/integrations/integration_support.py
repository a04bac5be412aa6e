"""Helpers for the integration tests: recorded conversations replayed through the SDKs.

A recorded conversation (``fixtures/*.json``) holds the files of a workspace, the API
responses a model sent turn by turn (tool calls included, some of them malformed), what
each tool answer must say, and the files expected at the end. :class:`Replay` is an
HTTP transport for the vendor SDK: it answers each request with the next recorded
response and keeps the request bodies, so nothing goes over the network.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2
from pydantic import TypeAdapter

from patchwright.tools import Toolbox
from patchwright.workspace import Workspace

FIXTURES = Path(__file__).parent / "fixtures"


def load_script(name: str) -> dict[str, Any]:
    """A recorded conversation by file stem."""
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def make_toolbox(tmp_path: Path, files: dict[str, str]) -> Toolbox:
    """A toolbox over a fresh workspace holding ``files``."""
    root = tmp_path / "root"
    root.mkdir()
    for rel, text in files.items():
        (root / rel).write_text(text, encoding="utf-8")
    return Toolbox(Workspace(root, state_dir=tmp_path / "state"), preset="spec")


def workspace_files(toolbox: Toolbox) -> dict[str, str]:
    """Every file of the workspace by relative path."""
    root = toolbox.workspace.root
    return {
        p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def assert_fits(typed_dict: Any, value: Any) -> None:
    """``value`` validates as the SDK's ``typed_dict`` and has no key it does not know.

    Validating a TypedDict drops unknown keys, so the round trip must be the identity
    (an ``Iterable`` field such as ``input_examples`` validates lazily: it is listed).
    """
    fitted = TypeAdapter(typed_dict).validate_python(value)
    if isinstance(fitted, dict) and "input_examples" in fitted:
        fitted = {**fitted, "input_examples": list(fitted["input_examples"])}
    assert fitted == value


def check_answers(
    answers: list[str], flags: list[bool | None], expected: list[dict[str, Any]]
) -> None:
    """Each answer text contains what the script says; ``flags`` are the error flags sent."""
    assert len(answers) == len(expected)
    for text, flag, want in zip(answers, flags, expected):
        assert want["contains"] in text, text
        if "error" in want:
            assert flag is want["error"], text


class Replay:
    """An SDK transport answering each request with the next recorded response."""

    def __init__(self, responses: list[dict[str, Any]]) -> None:
        self.responses = list(responses)
        self.requests: list[dict[str, Any]] = []

    def _handle(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(json.loads(request.content))
        if len(self.requests) > len(self.responses):
            return httpx2.Response(500, json={"error": {"message": "no more recorded turns"}})
        return httpx2.Response(200, json=self.responses[len(self.requests) - 1])

    def http_client(self) -> httpx2.Client:
        """An HTTP client for the SDK that never leaves the process."""
        return httpx2.Client(transport=httpx2.MockTransport(self._handle))
