"""Notebooks through every tool that reads or edits them, on the fixture notebooks.

Each fixture (tests/fixtures/notebooks: Jupyter, VS Code, Colab and hand-written
layouts; nbformat 4.0, 4.4 and 4.5; ids present and absent; sources as lists and as
strings; stream, image, HTML and error outputs; CRLF, one-line and escaped-Unicode
files) is edited inside one cell's source by ``edit_file``, the Anthropic
``str_replace``, Claude Code's ``Edit`` and ``MultiEdit``, a SEARCH/REPLACE block
through ``apply_patch``, and whole cells by ``NotebookEdit`` (replace, insert,
delete). Every result validates with nbformat, its JSON differs from the original only
in the edited cell, the bytes around that cell are the original's, and undo gives back
the original bytes.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbformat
import pytest
from tool_helpers import ok, refused

from patchwright.engine.notebook import cell_source, parse_notebook
from patchwright.tools import Toolbox
from patchwright.workspace import Workspace

FIXTURES = Path(__file__).parent.parent / "fixtures" / "notebooks"
NOTEBOOKS = sorted(p.name for p in FIXTURES.glob("*.ipynb"))
TEXT = ("code", "markdown", "raw")


def _target(cells: list[dict[str, Any]]) -> tuple[int, str]:
    """A cell and a line of its source that stands once in the whole notebook."""
    sources = [cell_source(c) if c.get("cell_type") in TEXT else "" for c in cells]
    for index, source in enumerate(sources):
        for line in source.split("\n"):
            if len(line.strip()) > 3 and sum(s.count(line) for s in sources) == 1:
                return index, line
    raise AssertionError("no unique line")


def _editable() -> list[str]:
    out = []
    for name in NOTEBOOKS:
        cells = json.loads((FIXTURES / name).read_text(encoding="utf-8"))["cells"]
        if any(c.get("cell_type") in TEXT and cell_source(c).strip() for c in cells):
            out.append(name)
    return out


EDITABLE = _editable()


def _valid(text: str) -> dict[str, Any]:
    node = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
    nbformat.validate(node)
    data: dict[str, Any] = json.loads(text)
    return data


def _only_cell_changed(before: str, after: str, index: int) -> dict[str, Any]:
    """Assert the JSON differs only in cell ``index`` (same count), and the bytes before
    and after that cell's span are the original's; returns the new cell."""
    old, new = json.loads(before), json.loads(after)
    assert {k: v for k, v in old.items() if k != "cells"} == {
        k: v for k, v in new.items() if k != "cells"
    }
    assert len(old["cells"]) == len(new["cells"])
    differing = [k for k, (a, b) in enumerate(zip(old["cells"], new["cells"])) if a != b]
    assert differing == [index]
    start, end = parse_notebook(before).spans[index]
    assert after.startswith(before[:start]) and after.endswith(before[end:])
    cell: dict[str, Any] = new["cells"][index]
    return cell


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")


@pytest.fixture
def bench(tmp_path: Path) -> Callable[[str, str], tuple[Toolbox, Workspace, Path]]:
    def make(fixture: str, preset: str) -> tuple[Toolbox, Workspace, Path]:
        root = tmp_path / "root"
        root.mkdir(exist_ok=True)
        shutil.copy(FIXTURES / fixture, root / "nb.ipynb")
        ws = Workspace(root, state_dir=tmp_path / "state")
        toolbox = Toolbox(ws, preset=preset)
        if preset == "claude-code":  # Claude Code's tools edit only what was read
            ok(toolbox, "Read", file_path="nb.ipynb")
        return toolbox, ws, root / "nb.ipynb"

    return make


def _string_call(tool: str, line: str, new_line: str) -> tuple[str, str, dict[str, Any]]:
    """(preset, tool name, arguments) replacing ``line`` by ``new_line`` in nb.ipynb."""
    if tool == "edit_file":
        return "default", "edit_file", {"path": "nb.ipynb", "old_string": line,
                                        "new_string": new_line}  # fmt: skip
    if tool == "str_replace":
        return (
            "anthropic",
            "str_replace_based_edit_tool",
            {"command": "str_replace", "path": "nb.ipynb", "old_str": line, "new_str": new_line},
        )
    if tool == "Edit":
        return "claude-code", "Edit", {"file_path": "nb.ipynb", "old_string": line,
                                       "new_string": new_line}  # fmt: skip
    if tool == "MultiEdit":
        return "claude-code", "MultiEdit", {"file_path": "nb.ipynb", "edits": [
            {"old_string": line, "new_string": new_line}]}  # fmt: skip
    block = f"nb.ipynb\n    assert again.text.startswith("Already applied (batch b-") and again.data["already_applied"]
    assert path.read_bytes() == after


def test_replace_all_edits_every_cell_that_holds_the_text(bench: Any) -> None:
    toolbox, _, path = bench("jupyter_45_basic.ipynb", "default")
    result = ok(toolbox, "edit_file", path="nb.ipynb", old_string="df", new_string="sales",
                replace_all=True)  # fmt: skip
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    assert "df" not in cell_source(cells[2]) + cell_source(cells[3])
    assert "cell 2," in result.text and "cell 3," in result.text
    assert cells[2]["outputs"][0]["text"] == ["1200\n"]


def test_an_empty_old_text_is_refused_in_a_notebook(bench: Any) -> None:
    toolbox, _, path = bench("jupyter_45_basic.ipynb", "default")
    before = path.read_bytes()
    block = "nb.ipynb\n<<<<<<< SEARCH\n=======\nx = 1\n>>>>>>> REPLACE\n"
    result = refused(toolbox, "apply_patch", patch=block, format="search-replace")
    assert "the old text is empty" in result.text
    assert path.read_bytes() == before


def test_cells_past_the_page_size_are_named_with_their_json_lines() -> None:
    from patchwright.tools.notebook.view import render_view

    text = (FIXTURES / "jupyter_45_basic.ipynb").read_text(encoding="utf-8")
    view = render_view(parse_notebook(text), budget=250)
    assert view.shown == 2
    last = view.body.splitlines()[-1]
    assert last == (
        "[cells 2-4 not shown (page size): they stand at lines 24-77 of the file's JSON; "
        "read those lines with a line range]"
    )
    lines = text.splitlines()
    assert lines[23] == "  {" and lines[76] == "  }"
    assert [c["index"] for c in view.data()["cells"]] == [0, 1, 2, 3, 4]
