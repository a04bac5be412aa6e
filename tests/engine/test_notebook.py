"""The notebook model of the engine: parse, write back in the file's layout, per-cell diff.

Pure (no disk but reading the fixtures): every fixture notebook written back unchanged
gives its exact text; a new or changed cell is written the way the file writes its
cells (indentation, key order, separators, escaping, line breaks, source shape).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patchwright._records import replace
from patchwright.engine import MatchOptions
from patchwright.engine.notebook import (
    cell_source,
    delete_cell,
    edit_sources,
    find_cell,
    insert_cell,
    notebook_diff,
    output_summary,
    parse_notebook,
    replace_cell,
)
from patchwright.engine.notebook.write import Slot, render
from patchwright.model import Edit, ErrorCode, OldText, PatchwrightError

FIXTURES = Path(__file__).parent.parent / "fixtures" / "notebooks"
NOTEBOOKS = sorted(FIXTURES.glob("*.ipynb"))
TOLERANT = MatchOptions(mode="tolerant")


def _text(name: str) -> str:
    return (FIXTURES / name).read_bytes().decode("utf-8")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_unchanged_cells_give_back_the_exact_text(path: Path) -> None:
    text = path.read_bytes().decode("utf-8")
    nb = parse_notebook(text)
    assert render(nb, [Slot(k, c) for k, c in enumerate(nb.cells)]) == text
    assert notebook_diff(text, text, "a/x.ipynb", "b/x.ipynb") is None


def test_a_new_cell_follows_the_files_layout() -> None:
    colab = parse_notebook(_text("colab_unsorted_keys.ipynb"))
    out = insert_cell(colab, 3, "print('done')", "code").text
    # Colab's key order (cell_type, source, metadata, ...), two-space indentation
    expected = '    {\n      "cell_type": "code",\n      "source": [\n        "print(\'done\')"\n'
    assert expected in out
    assert "id" not in json.loads(out)["cells"][3]  # nbformat 4.0: no ids
    compact = parse_notebook(_text("compact_one_line.ipynb"))
    out = insert_cell(compact, 0, "z", "markdown").text
    assert "\n" not in out and out.startswith('{"cells": [{"cell_type": "markdown", "id": "')
    crlf = parse_notebook(_text("windows_crlf_44.ipynb"))
    out = insert_cell(crlf, 1, "a\nb", "code").text
    assert "\n" not in out.replace("\r\n", "")
    assert json.loads(out)["cells"][1]["source"] == "a\nb"  # the file's sources are strings


def test_escaped_unicode_stays_escaped() -> None:
    text = _text("unicode_escaped.ipynb")
    nb = parse_notebook(text)
    out = replace_cell(nb, 0, "# Thé — ☕", None).text
    assert out.isascii() and "\\u2615" in out
    assert json.loads(out)["cells"][0]["source"] == ["# Thé — ☕"]


def test_empty_notebook_gets_its_first_cell_indented() -> None:
    nb = parse_notebook(_text("empty_notebook.ipynb"))
    out = insert_cell(nb, 0, "x = 1\n", "code").text
    assert ' "cells": [\n  {\n   "cell_type": "code",\n' in out
    assert json.loads(out)["cells"][0]["source"] == ["x = 1\n"]
    again = delete_cell(parse_notebook(out), 0).text
    assert again == _text("empty_notebook.ipynb")


def test_changing_a_cells_type_keeps_its_id_and_metadata() -> None:
    nb = parse_notebook(_text("jupyter_45_basic.ipynb"))
    change = replace_cell(nb, 2, "Now prose.", "markdown")
    cell = change.cells[2]
    assert cell == {"cell_type": "markdown", "id": "a1b2c302", "metadata": {},
                    "source": ["Now prose."]}  # fmt: skip
    back = replace_cell(parse_notebook(change.text), 2, "x", "code").cells[2]
    assert back["outputs"] == [] and back["execution_count"] is None


def test_cells_are_found_by_id_then_by_index() -> None:
    nb = parse_notebook(_text("jupyter_45_basic.ipynb"))
    assert find_cell(nb, "a1b2c303") == 3 and find_cell(nb, "cell-1") == 1
    with pytest.raises(PatchwrightError) as missing:
        find_cell(nb, "zzz")
    assert "a1b2c300, a1b2c301" in missing.value.message
    assert missing.value.code is ErrorCode.NOT_FOUND and missing.value.field == "cell_id"


def test_an_edit_is_placed_in_the_cell_that_matches_best() -> None:
    nb = parse_notebook(_text("jupyter_45_basic.ipynb"))
    # one cell holds the text; "df" stands in two cells alike
    change = edit_sources(nb, [Edit(OldText("import numpy as np"), "import numpy")], TOLERANT)
    assert change.reports[0].cell == 1 and cell_source(change.cells[1]).endswith("import numpy")
    with pytest.raises(PatchwrightError) as tie:
        edit_sources(nb, [Edit(OldText("df"), "frame")], TOLERANT)
    assert tie.value.code is ErrorCode.AMBIGUOUS and "cell 2 (code" in tie.value.message


def test_edits_in_a_batch_see_each_other() -> None:
    nb = parse_notebook(_text("jupyter_45_basic.ipynb"))
    edits = [Edit(OldText("print(len(df))"), "n = len(df)"), Edit(OldText("n = len(df)"), "n = 0")]
    change = edit_sources(nb, edits, TOLERANT)
    assert cell_source(change.cells[2]).endswith("n = 0")
    assert [r.cell for r in change.reports] == [2, 2]


def test_broken_json_is_named_with_its_line() -> None:
    with pytest.raises(PatchwrightError) as err:
        parse_notebook('{\n "cells": [\n  {"cell_type": "code",,}\n ]\n}\n', "bad.ipynb")
    assert err.value.code is ErrorCode.PARSE_ERROR and "line 3" in err.value.message


def test_outputs_are_summarised_in_one_bounded_line() -> None:
    nb = json.loads(_text("mixed_shapes_outputs.ipynb"))
    long_stream = output_summary(nb["cells"][1]["outputs"][0])
    assert long_stream == "stream stdout: line 0 | line 1 | line 2 | ... (50 lines)"
    html = output_summary(nb["cells"][0]["outputs"][0])
    assert html.startswith("execute_result: text/html (11 characters); text/plain: <IPython")


def test_the_diff_names_each_changed_cell() -> None:
    text = _text("jupyter_45_basic.ipynb")
    nb = parse_notebook(text)
    step = replace_cell(nb, 2, "df = load()\nprint(len(df))", None, clear_outputs=True).text
    final = delete_cell(parse_notebook(insert_cell(parse_notebook(step), 0, "# Top", "markdown")
                                       .text), 5).text  # fmt: skip
    diff = notebook_diff(text, final, "a/n.ipynb", "b/n.ipynb")
    assert diff is not None
    lines = diff.splitlines()
    assert lines[:2] == ["--- a/n.ipynb", "+++ b/n.ipynb"]
    heads = [line for line in lines if line.startswith("cell ")]
    assert heads[0].startswith("cell 0 (markdown, id ") and heads[0].endswith(": inserted")
    assert heads[1:] == [
        "cell 2 -> 3 (code, id a1b2c302): source changed; outputs 1 -> 0; "
        "execution_count 2 -> null",
        "cell 4 (markdown, id a1b2c304): deleted",
    ]
    assert "-df = pd.read_csv('sales.csv')" in lines and "+df = load()" in lines


sources = st.text(alphabet=st.sampled_from('ab \n\t"\\é☕{}'), max_size=30)


@settings(max_examples=60, deadline=None)
@given(source=sources, index=st.integers(0, 11), as_type=st.sampled_from(["code", "markdown"]))
def test_any_source_round_trips_in_every_layout(source: str, index: int, as_type: str) -> None:
    path = NOTEBOOKS[index % len(NOTEBOOKS)]
    text = path.read_bytes().decode("utf-8")
    nb = parse_notebook(text)
    change = insert_cell(nb, len(nb.cells), source, as_type)
    again = parse_notebook(change.text)
    assert cell_source(again.cells[-1]) == source
    assert again.cells[:-1] == nb.cells
    assert delete_cell(again, len(nb.cells)).text == text


ops = st.lists(
    st.tuples(
        st.sampled_from(["insert", "delete", "replace", "retype", "clear"]),
        st.integers(0, 50),
        sources,
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=60, deadline=None)
@given(index=st.integers(0, 11), steps=ops)
def test_any_sequence_of_cell_edits_gives_the_intended_valid_notebook(
    index: int, steps: list[tuple[str, int, str]]
) -> None:
    from patchwright.engine.notebook.write import schema_problem

    text = NOTEBOOKS[index % len(NOTEBOOKS)].read_bytes().decode("utf-8")
    nb = parse_notebook(text)
    for op, at, source in steps:
        n = len(nb.cells)
        if op == "insert" or not n:
            change = insert_cell(nb, at % (n + 1), source, "code" if at % 2 else "markdown")
            expected = [*nb.cells[: at % (n + 1)], change.cells[at % (n + 1)],
                        *nb.cells[at % (n + 1):]]  # fmt: skip
        elif op == "delete":
            change = delete_cell(nb, at % n)
            expected = nb.cells[: at % n] + nb.cells[at % n + 1 :]
        else:
            kind = {"retype": "raw" if at % 2 else "code"}.get(op)
            change = replace_cell(nb, at % n, source, kind, clear_outputs=op == "clear")
            assert cell_source(change.cells[at % n]) == source
            expected = [*nb.cells[: at % n], change.cells[at % n], *nb.cells[at % n + 1 :]]
        again = parse_notebook(change.text)
        assert again.cells == expected == change.cells
        assert {k: v for k, v in again.data.items() if k != "cells"} == {
            k: v for k, v in nb.data.items() if k != "cells"
        }
        assert schema_problem(again.data) is None
        # (escaping can only be told while an escaped character is left)
        assert replace(again.layout, ensure_ascii=nb.layout.ensure_ascii) == nb.layout
        nb = again


def test_a_result_nbformat_rejects_is_refused_unless_the_notebook_was_invalid() -> None:
    nb = parse_notebook(_text("jupyter_45_basic.ipynb"))
    with pytest.raises(PatchwrightError) as err:
        insert_cell(nb, 0, "x", "heading")  # nbformat 3's cell type
    assert err.value.code is ErrorCode.SYNTAX_ERROR
    assert err.value.message.startswith("The edited notebook would not be valid: nbformat's")
    assert err.value.message.endswith("No change was made.")
    data = json.loads(_text("jupyter_45_basic.ipynb"))
    data["cells"][1]["metadata"] = 5  # invalid already: the edit is not to blame
    change = insert_cell(parse_notebook(json.dumps(data, indent=1) + "\n"), 0, "x", "heading")
    assert json.loads(change.text)["cells"][0]["cell_type"] == "heading"


def test_only_the_new_and_changed_cells_meet_the_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    """The schema has no rule across cells: a valid notebook's kept cells need no second
    look, so one new cell in a notebook of many is all the check reads."""
    import patchwright.engine.notebook.write as write

    seen: list[int] = []
    real = write.schema_problem
    monkeypatch.setattr(
        write, "schema_problem", lambda data: seen.append(len(data["cells"])) or real(data)
    )
    nb = parse_notebook(_text("jupyter_45_basic.ipynb"))
    assert len(nb.cells) > 1
    insert_cell(nb, 0, "x = 1", "code")
    assert seen == [1]
    with pytest.raises(PatchwrightError):
        insert_cell(nb, 0, "x", "heading")  # refused: then the original is checked whole
    assert seen[1:] == [1, len(nb.cells)]


def test_a_text_that_does_not_read_back_is_refused_with_a_step_that_exists() -> None:
    from patchwright.engine.notebook.write import _check

    nb = parse_notebook(_text("jupyter_45_basic.ipynb"))
    with pytest.raises(PatchwrightError) as err:
        _check("{}", nb, [Slot(k, c) for k, c in enumerate(nb.cells)])
    assert err.value.code is ErrorCode.INTERNAL and "No change was made." in err.value.message
    assert err.value.hint.startswith("Ask the user to make this change")
