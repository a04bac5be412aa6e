"""Every fenced snippet of README.md and docs/agents.md is exercised.

Each snippet runs against a fresh temporary workspace laid out as the documents assume:
``greeting.py`` and ``fix.diff`` (from ``examples/``) at the top, in
``path/to/repo/``, and the ``examples/`` folder itself, plus ``blocks.txt``. Shell and
JSON snippets follow the rules of readme_support.py. Python snippets are executed there;
a vendor SDK client they create (``anthropic.Anthropic``, ``openai.OpenAI``) is the
real one with a recorded model behind it, which reads ``greeting.py``, edits it, and
stops; the test then checks the file was edited and every recorded turn was used. A
``ToolResult`` or ``ApplyReport`` a snippet leaves in its namespace must be ``ok``.
Untagged and ``text`` blocks are diagrams or sample output and are not run.
"""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest

from patchwright.api import ApplyReport
from patchwright.model import ToolResult
from readme_support import (
    NEW,
    OLD,
    REPO,
    Snippet,
    check_command,
    check_json,
    install_recorded_models,
    shell_commands,
    snippets,
)

DOCUMENTS = ["README.md", "docs/agents.md"]
SNIPPETS = [s for doc in DOCUMENTS if (REPO / doc).exists() for s in snippets(doc)]
BLOCKS = f"greeting.py\n<<<<<<< SEARCH\n    {OLD}\n=======\n    {NEW}\n>>>>>>> REPLACE\n"


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    work = tmp_path / "work"
    shutil.copytree(REPO / "examples", work / "examples")
    for folder in (work, work / "path" / "to" / "repo"):
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / "examples" / "greeting.py", folder / "greeting.py")
    shutil.copy(REPO / "examples" / "greeting.diff", work / "fix.diff")
    (work / "blocks.txt").write_text(BLOCKS)
    monkeypatch.setenv("PATCHWRIGHT_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.chdir(work)
    return work


def test_the_documents_have_snippets_of_every_kind() -> None:
    kinds = {s.lang for s in SNIPPETS}
    assert {"sh", "python"} <= kinds
    assert len([s for s in SNIPPETS if s.document == "README.md"]) >= 4


@pytest.mark.parametrize("snippet", SNIPPETS, ids=lambda s: s.id)
def test_snippet(snippet: Snippet, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if snippet.lang in ("sh", "bash", "shell", "console"):
        commands = shell_commands(snippet.code)
        assert commands, snippet.id
        for argv in commands:
            check_command(argv, workdir)
    elif snippet.lang == "json":
        check_json(snippet.code, workdir)
    elif snippet.lang in ("python", "py"):
        _run_python(snippet, workdir, monkeypatch)
    elif snippet.lang not in ("", "text"):
        pytest.fail(f"{snippet.id}: no rule for ```{snippet.lang} snippets")


def _run_python(snippet: Snippet, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    replays = install_recorded_models(snippet.code, monkeypatch)
    namespace: dict[str, Any] = {"__name__": "__snippet__"}
    before = {p: p.read_text() for p in workdir.rglob("greeting.py")}
    with warnings.catch_warnings():
        # snippets favour brevity: open(...).read() without closing is fine there
        warnings.simplefilter("ignore", ResourceWarning)
        exec(compile(snippet.code, snippet.id, "exec"), namespace)
    for name, value in namespace.items():
        if isinstance(value, (ToolResult, ApplyReport)):
            assert value.ok, f"{snippet.id}: `{name}` failed: {value}"
    for replay in replays:
        if replay.requests:
            assert len(replay.requests) == len(replay.responses), "the conversation stopped early"
            edited = [p for p, text in before.items() if p.read_text() != text]
            assert edited and all(NEW in p.read_text() for p in edited), snippet.id
