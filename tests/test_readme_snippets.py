"""Every fenced snippet of README.md, docs/agents.md, docs/tools.md, docs/architecture.md
and the preset pages (docs/presets/) is exercised.

Each snippet runs against a fresh temporary workspace laid out as the documents assume:
``greeting.py`` and ``fix.diff`` (from ``examples/``) at the top, in
``path/to/repo/``, and the ``examples/`` folder itself, plus ``blocks.txt``; history
goes to a temporary ``$PATCHWRIGHT_STATE_DIR``. Shell snippets run for real, command
after command, and JSON snippets are checked, by the rules of readme_support.py. Python
snippets are executed there; a vendor SDK client they create (``anthropic.Anthropic``,
``openai.OpenAI``) is the real one with a recorded model behind it, which reads
``greeting.py``, edits it, and stops; the test then checks the file was edited and
every recorded turn was used. A ``ToolResult`` or ``ApplyReport`` a snippet leaves in
its namespace must be ``ok``. A ``text`` block right after a Python block (nothing but
blank lines between) is what that snippet prints, and must match it exactly (batch IDs
and confirm tokens aside, which differ per run). Other untagged and ``text`` blocks are
diagrams and are not run.
"""

from __future__ import annotations

import contextlib
import io
import re
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
    check_json,
    install_recorded_models,
    run_pipeline,
    shell_pipelines,
    snippets,
)

DOCUMENTS = [
    "README.md",
    "docs/agents.md",
    "docs/tools.md",
    "docs/architecture.md",
    *sorted(p.relative_to(REPO).as_posix() for p in (REPO / "docs" / "presets").glob("*.md")),
]
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
        pipelines = shell_pipelines(snippet.code)
        assert pipelines, snippet.id
        for stages in pipelines:
            run_pipeline(stages, workdir)
    elif snippet.lang == "json":
        check_json(snippet.code, workdir)
    elif snippet.lang in ("python", "py"):
        _run_python(snippet, workdir, monkeypatch)
    elif snippet.lang not in ("", "text"):
        pytest.fail(f"{snippet.id}: no rule for ```{snippet.lang} snippets")


_BATCH_ID = re.compile(r"\bb-[0-9a-f]{8}\b")
_TOKEN = re.compile(r"\bc-[0-9a-f]{12}\b")  # confirm tokens, random too


def _stable(text: str) -> str:
    return _TOKEN.sub("c-TOKEN", _BATCH_ID.sub("b-ID", text)).rstrip("\n")


def shown_output(snippet: Snippet) -> str | None:
    """The ``text`` block that shows what ``snippet`` prints, if one follows it."""
    lines = (REPO / snippet.document).read_text(encoding="utf-8").splitlines()
    end = snippet.line + snippet.code.count("\n") + 1  # the closing fence, 1-based
    following = [s for s in SNIPPETS if s.document == snippet.document and s.line > end]
    if not following or following[0].lang != "text":
        return None
    gap = lines[end : following[0].line - 1]
    return following[0].code if all(not g.strip() for g in gap) else None


def _run_python(snippet: Snippet, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    replays = install_recorded_models(snippet.code, monkeypatch)
    namespace: dict[str, Any] = {"__name__": "__snippet__"}
    before = {p: p.read_text() for p in workdir.rglob("greeting.py")}
    printed = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stdout(printed):
        # snippets favour brevity: open(...).read() without closing is fine there
        warnings.simplefilter("ignore", ResourceWarning)
        exec(compile(snippet.code, snippet.id, "exec"), namespace)
    shown = shown_output(snippet)
    if shown is not None:
        got = _stable(printed.getvalue())
        assert got == _stable(shown), f"{snippet.id} prints:\n{got}"
    for name, value in namespace.items():
        if isinstance(value, (ToolResult, ApplyReport)):
            assert value.ok, f"{snippet.id}: `{name}` failed: {value}"
    for replay in replays:
        if replay.requests:
            assert len(replay.requests) == len(replay.responses), "the conversation stopped early"
            edited = [p for p, text in before.items() if p.read_text() != text]
            assert edited and all(NEW in p.read_text() for p in edited), snippet.id


def test_the_command_line_snippet_writes_shows_and_undoes(workdir: Path) -> None:
    # The README's command-line block, run for real: the patch lands in path/to/repo, the
    # SEARCH/REPLACE blocks land here, log and show find that batch, undo reverts it.
    (snippet,) = [s for s in SNIPPETS if s.document == "README.md" and "cat blocks.txt |" in s.code]
    original = (workdir / "greeting.py").read_text()
    for stages in shell_pipelines(snippet.code):
        run_pipeline(stages, workdir)
    assert NEW in (workdir / "path" / "to" / "repo" / "greeting.py").read_text()
    assert (workdir / "greeting.py").read_text() == original


def test_the_readme_shows_the_snapshot_diff_edit_workflow(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Spec 003 sections 5 and 9.7: the README documents snapshot -> diff -> document_edit.
    (snippet,) = [
        s
        for s in SNIPPETS
        if s.document == "README.md" and s.lang == "python" and "document_snapshot" in s.code
    ]
    code = snippet.code
    assert code.index("document_snapshot") < code.index("build_diff") < code.index("document_edit")
    _run_python(snippet, workdir, monkeypatch)
    assert NEW in (workdir / "path" / "to" / "repo" / "greeting.py").read_text()
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert readme.index("### Snapshot, diff, edit") < readme.index("## Layout")
