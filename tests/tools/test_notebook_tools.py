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
    block = f"nb.ipynb\n<<<<<<< SEARCH\n{line}\n=======\n{new_line}\n>>>>>>> REPLACE\n"
    return "default", "apply_patch", {"patch": block, "format": "search-replace"}


STRING_TOOLS = ("edit_file", "str_replace", "Edit", "MultiEdit", "search_replace")


@pytest.mark.parametrize("tool", STRING_TOOLS)
@pytest.mark.parametrize("fixture", EDITABLE)
def test_an_edit_inside_one_cell(bench: Any, fixture: str, tool: str) -> None:
    original = (FIXTURES / fixture).read_bytes()
    before = original.decode("utf-8")
    index, line = _target(json.loads(before)["cells"])
    preset, name, args = _string_call(tool, line, line + " # edited")
    toolbox, ws, path = bench(fixture, preset)
    result = ok(toolbox, name, **args)
    after = path.read_bytes().decode("utf-8")
    _valid(after)
    cell = _only_cell_changed(before, after, index)
    old_cell = json.loads(before)["cells"][index]
    assert cell_source(cell) == cell_source(old_cell).replace(line, line + " # edited")
    assert {k: v for k, v in cell.items() if k != "source"} == {
        k: v for k, v in old_cell.items() if k != "source"
    }  # outputs, ids and metadata kept
    assert type(cell["source"]) is type(old_cell["source"])
    assert f"cell {index} (" in result.diff and "+" + line + " # edited" in result.diff
    ws.undo(result.data["batch_id"])
    assert path.read_bytes() == original


@pytest.mark.parametrize("fixture", NOTEBOOKS)
def test_notebook_edit_inserts_replaces_and_deletes(bench: Any, fixture: str) -> None:
    original = (FIXTURES / fixture).read_bytes()
    before = original.decode("utf-8")
    nb = json.loads(before)
    toolbox, _, path = bench(fixture, "claude-code")
    n = len(nb["cells"])
    first = ok(toolbox, "NotebookEdit", notebook_path="nb.ipynb", new_source="x = 41\nx + 1",
               cell_type="code", edit_mode="insert")  # fmt: skip
    text = path.read_bytes().decode("utf-8")
    new = _valid(text)
    assert new["cells"][1:] == nb["cells"] and len(new["cells"]) == n + 1
    assert cell_source(new["cells"][0]) == "x = 41\nx + 1"
    has_ids = (nb["nbformat"], nb["nbformat_minor"]) >= (4, 5)
    assert ("id" in new["cells"][0]) is has_ids
    assert first.data["cell_id"] == new["cells"][0].get("id")
    if n:
        assert text.endswith(before[parse_notebook(before).spans[0][0] :])
    # replace the inserted cell as markdown, then delete it: the original bytes again
    cell_id = first.data["cell_id"] or "cell-0"
    ok(toolbox, "NotebookEdit", notebook_path="nb.ipynb", cell_id=cell_id,
       new_source="## Heading", cell_type="markdown")  # fmt: skip
    replaced = _valid(path.read_bytes().decode("utf-8"))
    assert replaced["cells"][0]["cell_type"] == "markdown"
    assert "outputs" not in replaced["cells"][0]
    ok(toolbox, "NotebookEdit", notebook_path="nb.ipynb", cell_id=cell_id, new_source="",
       edit_mode="delete")  # fmt: skip
    assert path.read_bytes() == original


@pytest.mark.parametrize("fixture", EDITABLE)
def test_notebook_edit_replaces_a_cell_keeping_the_rest(bench: Any, fixture: str) -> None:
    original = (FIXTURES / fixture).read_bytes()
    before = original.decode("utf-8")
    index, _ = _target(json.loads(before)["cells"])
    toolbox, ws, path = bench(fixture, "claude-code")
    result = ok(toolbox, "NotebookEdit", notebook_path="nb.ipynb", cell_id=f"cell-{index}",
                new_source="value = 'é ☕'\nprint(value)")  # fmt: skip
    after = path.read_bytes().decode("utf-8")
    _valid(after)
    cell = _only_cell_changed(before, after, index)
    old = json.loads(before)["cells"][index]
    assert cell_source(cell) == "value = 'é ☕'\nprint(value)"
    assert cell.get("outputs") == old.get("outputs")  # kept unless asked
    assert cell.get("id") == old.get("id") and cell["metadata"] == old["metadata"]
    ws.undo(result.data["batch_id"])
    assert path.read_bytes() == original


def _cells_kept(before: str, after: str, kept: list[Any]) -> None:
    """Assert ``after`` validates, keeps everything but the cells, and holds ``kept``."""
    new = _valid(after)
    old = json.loads(before)
    assert {k: v for k, v in new.items() if k != "cells"} == {
        k: v for k, v in old.items() if k != "cells"
    }
    assert new["cells"] == kept


def _with_outputs_first(cells: list[dict[str, Any]]) -> list[int]:
    """Every cell's index, those with outputs first (a deleted cell takes them along)."""
    return sorted(range(len(cells)), key=lambda k: not cells[k].get("outputs"))


@pytest.mark.parametrize("fixture", [n for n in NOTEBOOKS if n != "empty_notebook.ipynb"])
def test_notebook_edit_deletes_and_inserts_beside_a_cell_of_the_file(
    bench: Any, fixture: str
) -> None:
    original = (FIXTURES / fixture).read_bytes()
    before = original.decode("utf-8")
    cells = json.loads(before)["cells"]
    index = _with_outputs_first(cells)[0]
    name = cells[index].get("id", f"cell-{index}")
    toolbox, ws, path = bench(fixture, "claude-code")
    deleted = ok(toolbox, "NotebookEdit", notebook_path="nb.ipynb", cell_id=name,
                 new_source="", edit_mode="delete")  # fmt: skip
    after = path.read_bytes().decode("utf-8")
    _cells_kept(before, after, cells[:index] + cells[index + 1 :])
    spans = parse_notebook(before).spans
    start, end = spans[index]
    cuts = []  # the cell goes with the separator before it, or the one after it
    if index > 0:
        cuts.append(before[: spans[index - 1][1]] + before[end:])
    if index + 1 < len(spans):
        cuts.append(before[:start] + before[spans[index + 1][0] :])
    assert after in cuts  # every other byte is the original's
    assert f"cell {index} (" in deleted.diff and ": deleted" in deleted.diff
    ws.undo(deleted.data["batch_id"])
    assert path.read_bytes() == original
    ok(toolbox, "Read", file_path="nb.ipynb")  # the undo changed the notebook since the read
    inserted = ok(toolbox, "NotebookEdit", notebook_path="nb.ipynb", cell_id=name,
                  new_source="total = 0\nfor n in range(3):\n    total += n", cell_type="code",
                  edit_mode="insert")  # fmt: skip
    after = path.read_bytes().decode("utf-8")
    new_cell = json.loads(after)["cells"][index + 1]
    _cells_kept(before, after, [*cells[: index + 1], new_cell, *cells[index + 1 :]])
    assert cell_source(new_cell) == "total = 0\nfor n in range(3):\n    total += n"
    assert new_cell["outputs"] == [] and new_cell["execution_count"] is None
    assert after.startswith(before[:end]) and after.endswith(before[end:])
    ws.undo(inserted.data["batch_id"])
    assert path.read_bytes() == original


def test_notebook_edit_clears_outputs_only_when_asked(bench: Any) -> None:
    toolbox, _, path = bench("jupyter_45_basic.ipynb", "claude-code")
    ok(toolbox, "NotebookEdit", notebook_path="nb.ipynb", cell_id="a1b2c302",
       new_source="print(df.shape)", clear_outputs=True)  # fmt: skip
    cell = json.loads(path.read_text(encoding="utf-8"))["cells"][2]
    assert cell["outputs"] == [] and cell["execution_count"] is None


def test_notebook_edit_inserts_after_the_cell_named(bench: Any) -> None:
    toolbox, _, path = bench("jupyter_44_no_ids.ipynb", "claude-code")
    result = ok(toolbox, "NotebookEdit", notebook_path="nb.ipynb", cell_id="cell-2",
                new_source="df.describe()", cell_type="code", edit_mode="insert")  # fmt: skip
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    assert cell_source(cells[3]) == "df.describe()" and "id" not in cells[3]
    assert result.text == "Inserted cell 3 (code) after cell 2 of nb.ipynb."
    assert isinstance(cells[3]["source"], str)  # the file holds sources as strings


@pytest.mark.parametrize(
    ("arguments", "field", "words"),
    [
        ({"cell_id": "nope", "new_source": "x"}, "cell_id", 'Cell with ID "nope" not found'),
        ({"cell_id": "cell-99", "new_source": "x"}, "cell_id", "Cell with index 99 does not"),
        ({"new_source": "x"}, "cell_id", "Cell ID must be specified"),
        ({"new_source": "x", "edit_mode": "insert"}, "cell_type", "Cell type is required"),
    ],
)  # fmt: skip
def test_notebook_edit_refusals_change_nothing(
    bench: Any, arguments: dict[str, Any], field: str, words: str
) -> None:
    toolbox, _, path = bench("jupyter_45_basic.ipynb", "claude-code")
    before = path.read_bytes()
    result = refused(toolbox, "NotebookEdit", notebook_path="nb.ipynb", **arguments)
    assert words in result.text and result.error is not None
    assert result.error.field == field
    assert path.read_bytes() == before


def test_notebook_edit_retried_changes_nothing(bench: Any) -> None:
    toolbox, _, path = bench("jupyter_45_basic.ipynb", "claude-code")
    insert = {"notebook_path": "nb.ipynb", "cell_id": "a1b2c301", "new_source": "x = 1",
              "cell_type": "code", "edit_mode": "insert"}  # fmt: skip
    first = ok(toolbox, "NotebookEdit", **insert)
    after = path.read_bytes()
    again = ok(toolbox, "NotebookEdit", **insert)
    assert again.text.startswith(f"Already applied (batch {first.data['batch_id']})")
    assert path.read_bytes() == after  # the cell was not inserted twice
    same = ok(toolbox, "NotebookEdit", notebook_path="nb.ipynb", cell_id="a1b2c301",
              new_source="import pandas as pd\nimport numpy as np")  # fmt: skip
    assert same.text.startswith("Already applied, nothing changed")
    assert path.read_bytes() == after


def test_notebook_edit_needs_a_read_and_a_fresh_index(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    shutil.copy(FIXTURES / "jupyter_44_no_ids.ipynb", root / "nb.ipynb")
    toolbox = Toolbox(Workspace(root, state_dir=tmp_path / "state"), preset="claude-code")
    edit = {"notebook_path": "nb.ipynb", "cell_id": "cell-1", "new_source": "y = 2"}
    unread = refused(toolbox, "NotebookEdit", **edit)
    assert "File has not been read yet" in unread.text and "Read" in unread.text
    ok(toolbox, "Read", file_path="nb.ipynb")
    data = json.loads((root / "nb.ipynb").read_text(encoding="utf-8"))
    data["cells"].insert(0, {"cell_type": "markdown", "metadata": {}, "source": "# new"})
    (root / "nb.ipynb").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    before = (root / "nb.ipynb").read_bytes()
    moved = refused(toolbox, "NotebookEdit", **edit)
    assert "changed since you read it" in moved.text and moved.error is not None
    assert moved.error.field == "cell_id"
    assert (root / "nb.ipynb").read_bytes() == before


def test_notebook_edit_refuses_another_file(bench: Any) -> None:
    toolbox, _, _ = bench("jupyter_45_basic.ipynb", "claude-code")
    result = refused(toolbox, "NotebookEdit", notebook_path="a.py", cell_id="x", new_source="")
    assert "File must be a Jupyter notebook" in result.text and "use Edit" in result.text


def test_text_edits_never_reach_outputs_or_span_cells(bench: Any) -> None:
    toolbox, _, path = bench("jupyter_45_basic.ipynb", "default")
    before = path.read_bytes()
    # "1200" stands only in an output; the two lines stand in two cells
    for old in ("1200", "import numpy as np\ndf = pd.read_csv('sales.csv')"):
        result = refused(toolbox, "edit_file", path="nb.ipynb", old_string=old, new_string="x")
        assert result.error is not None and result.error.code.value == "not_found"
    tied = refused(toolbox, "edit_file", path="nb.ipynb", old_string="df", new_string="frame")
    assert "cell" in tied.text
    assert path.read_bytes() == before


def test_the_ladder_works_inside_a_cell(bench: Any) -> None:
    toolbox, _, path = bench("error_traceback.ipynb", "default")
    result = ok(toolbox, "edit_file", path="nb.ipynb", old_string="return a / b",
                new_string="return a / b if b else float('nan')")  # fmt: skip
    assert "cell 0, line 2" in result.text
    source = cell_source(json.loads(path.read_text(encoding="utf-8"))["cells"][0])
    assert source == "def ratio(a, b):\n    return a / b if b else float('nan')"


def test_reads_show_cells(bench: Any) -> None:
    toolbox, _, _ = bench("plot_image_output.ipynb", "default")
    text = ok(toolbox, "read_file", path="nb.ipynb").text
    assert '<cell id="img01" index=1 type=code execution_count=2>' in text
    assert "display_data: image/png (" in text and "iVBOR" not in text
    raw = ok(toolbox, "read_file", path="nb.ipynb", start_line=1).text
    assert '"cells": [' in raw  # a line range shows the JSON lines
    toolbox, _, _ = bench("error_traceback.ipynb", "anthropic")
    view = ok(toolbox, "str_replace_based_edit_tool", command="view", path="nb.ipynb").text
    assert "error ZeroDivisionError: division by zero" in view and "\x1b" not in view
    toolbox, _, _ = bench("jupyter_44_no_ids.ipynb", "claude-code")
    read = ok(toolbox, "Read", file_path="nb.ipynb").text
    assert '<cell id="cell-4" index=4 type=markdown>' in read


def test_anthropic_insert_is_refused_on_a_notebook(bench: Any) -> None:
    toolbox, _, path = bench("jupyter_45_basic.ipynb", "anthropic")
    before = path.read_bytes()
    result = refused(toolbox, "str_replace_based_edit_tool", command="insert", path="nb.ipynb",
                     insert_line=1, new_str="x = 1")  # fmt: skip
    assert "str_replace" in result.text
    assert path.read_bytes() == before


def test_history_and_review_show_a_notebook_change_per_cell(bench: Any) -> None:
    from patchwright.adapters.review.render import files_html

    toolbox, ws, path = bench("plot_image_output.ipynb", "default")
    original = path.read_bytes()
    result = ok(toolbox, "edit_file", path="nb.ipynb", old_string="ax.plot([1, 2, 3], [4, 1, 9])",
                new_string="ax.plot([1, 2, 3], [4, 1, 9], marker='o')")  # fmt: skip
    stored = ws.history.load(result.data["batch_id"])[0].files[0].diff
    assert stored == result.diff
    assert stored.splitlines() == [
        "--- a/nb.ipynb",
        "+++ b/nb.ipynb",
        "cell 1 (code, id img01): source changed",
        "@@ -1,3 +1,3 @@",
        " fig, ax = plt.subplots()",
        "-ax.plot([1, 2, 3], [4, 1, 9])",
        "+ax.plot([1, 2, 3], [4, 1, 9], marker='o')",
        " plt.show()",
    ]
    page = files_html([{"path": "nb.ipynb", "action": "update", "diff": stored}], "unified")
    assert "cell 1 (code, id img01): source changed" in page and "+1</span>" in page
    undo = ws.undo(result.data["batch_id"])
    assert path.read_bytes() == original
    assert "cell 1 (code, id img01): source changed" in undo.files[0].diff
    assert "+ax.plot([1, 2, 3], [4, 1, 9])" in undo.files[0].diff.splitlines()


def test_the_same_edit_twice_is_already_applied(bench: Any) -> None:
    toolbox, _, path = bench("jupyter_45_basic.ipynb", "default")
    args = {"path": "nb.ipynb", "old_string": "print(len(df))", "new_string": "print(df.shape)"}
    ok(toolbox, "edit_file", **args)
    after = path.read_bytes()
    again = ok(toolbox, "edit_file", **args)  # a retry: a success that changes nothing
    assert again.text.startswith("Already applied (batch b-") and again.data["already_applied"]
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


def test_outputs_are_bounded_in_count_and_length(tmp_path: Path) -> None:
    from patchwright.tools.notebook.view import MAX_OUTPUTS

    root = tmp_path / "root"
    root.mkdir()
    long_line = "x" * 5000
    outputs = [{"name": "stdout", "output_type": "stream", "text": [f"{k} {long_line}\n"]}
               for k in range(MAX_OUTPUTS + 3)]  # fmt: skip
    outputs.append({"ename": "ValueError", "evalue": "bad " * 2000, "output_type": "error",
                    "traceback": ["\x1b[31m" + long_line]})  # fmt: skip
    source = ["for k in range(9):\n", "    print(k, 'x' * 5000)"]
    cell = {"cell_type": "code", "execution_count": 1, "id": "loud", "metadata": {},
            "outputs": outputs, "source": source}  # fmt: skip
    data = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (root / "nb.ipynb").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    text = ok(Toolbox(Workspace(root, state_dir=tmp_path / "state")), "read_file",
              path="nb.ipynb").text  # fmt: skip
    shown = text[text.index("<outputs of cell 0>") : text.index("</outputs>")].splitlines()[1:]
    assert len(shown) == MAX_OUTPUTS + 1 and shown[-1] == "... and 4 more outputs"
    assert all(line.startswith(f"stream stdout: {k} xxx") for k, line in enumerate(shown[:-1]))
    assert max(len(line) for line in shown) <= 250 and long_line not in text
