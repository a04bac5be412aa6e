"""The ``cursor`` preset: Cursor's ``edit_file`` merging lazy snippets on a real folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from patchwright.tools import Toolbox, select_specs

APP = (
    "import os\n\n\n"
    "def greet(name):\n"
    '    message = "Hello, " + name\n'
    "    print(message)\n"
    "    return message\n\n\n"
    "def main():\n"
    '    greet("world")\n'
)
SNIPPET = (
    "# ... existing code ...\n"
    "def greet(name):\n"
    '    message = f"Hello, {name}!"\n'
    "    print(message)\n"
    "# ... existing code ...\n"
)


@pytest.fixture
def cursor(make_toolbox: Callable[..., Toolbox], root: Path) -> Toolbox:
    (root / "app.py").write_text(APP)
    return make_toolbox(preset="cursor")


def _edit(toolbox: Toolbox, code_edit: str, target: str = "app.py") -> dict[str, object]:
    result = toolbox.call(
        "edit_file",
        {"target_file": target, "instructions": "Greet with an f-string", "code_edit": code_edit},
    )
    return result.to_dict()


def test_the_preset_exposes_cursors_shape() -> None:
    specs = select_specs(preset="cursor")
    assert [s.name for s in specs] == ["read_file", "list_files", "search_files", "edit_file"]
    edit = next(s for s in specs if s.name == "edit_file")
    assert edit.canonical == "cursor_edit_file"
    assert set(edit.request_model.model_fields) == {"target_file", "instructions", "code_edit"}


def test_a_snippet_is_merged_and_its_recovery_reported(cursor: Toolbox, root: Path) -> None:
    result = _edit(cursor, SNIPPET)
    assert result["ok"], result
    assert (root / "app.py").read_text() == APP.replace('"Hello, " + name', 'f"Hello, {name}!"')
    data = result["data"]
    assert isinstance(data, dict)
    report = data["snippet"]
    assert report["edges"] == {"top": "marker", "bottom": "marker"}
    assert [g["how"] for g in report["gaps"]] == ["kept", "kept"]
    assert report["added"] == 1 and report["deleted"] == 1
    assert data["batch_id"]


def test_the_same_snippet_again_changes_nothing(cursor: Toolbox, root: Path) -> None:
    assert _edit(cursor, SNIPPET)["ok"]
    written = (root / "app.py").read_bytes()
    again = _edit(cursor, SNIPPET)
    assert again["ok"]
    assert str(again["text"]).startswith("Already applied (batch b-")
    assert (root / "app.py").read_bytes() == written


def test_a_retried_snippet_without_a_top_marker_deletes_nothing(
    cursor: Toolbox, root: Path
) -> None:
    """Merged again, the snippet's lines change nothing where they stand, which reads as
    "the lines above go" when no marker keeps them: the history tells the retry first."""
    tail = "def main():\n    greet('world')\n"
    first = _edit(cursor, tail)
    assert first["ok"] and "file lines 1-9 were kept as they are" in str(first["text"])
    written = (root / "app.py").read_bytes()
    assert written.decode() == APP.replace('greet("world")', "greet('world')")
    again = _edit(cursor, tail)
    assert again["ok"] and str(again["text"]).startswith("Already applied (batch b-")
    assert (root / "app.py").read_bytes() == written


def test_an_ambiguous_snippet_is_refused_and_nothing_written(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    (root / "twice.py").write_text("x = 1\nprint(x)\nx = 1\nprint(x)\n")
    toolbox = make_toolbox(preset="cursor")
    result = _edit(toolbox, "x = 1\nprint(x + 1)\n", target="twice.py")
    assert not result["ok"]
    error = result["error"]
    assert isinstance(error, dict)
    assert error["code"] in {"ambiguous", "not_found"}
    assert "line" in str(error["message"])
    assert (root / "twice.py").read_text() == "x = 1\nprint(x)\nx = 1\nprint(x)\n"


def test_a_missing_file_is_created_from_a_snippet_without_markers(
    cursor: Toolbox, root: Path
) -> None:
    result = _edit(cursor, "VALUE = 3\n", target="pkg/new.py")
    assert result["ok"], result
    assert (root / "pkg" / "new.py").read_text() == "VALUE = 3\n"


def test_a_marker_in_a_file_to_create_is_refused(cursor: Toolbox, root: Path) -> None:
    result = _edit(cursor, "# ... existing code ...\nVALUE = 3\n", target="new.py")
    assert not result["ok"]
    error = result["error"]
    assert isinstance(error, dict)
    assert error["field"] == "code_edit"
    assert "line 1 of code_edit" in str(error["message"])
    assert not (root / "new.py").exists()


def test_a_bare_ellipsis_in_a_file_to_create_is_text(cursor: Toolbox, root: Path) -> None:
    """The same rule as every tool's new file: a docstring's ``...`` line stands for
    nothing there and is written as sent; a worded marker is refused (above)."""
    text = 'def f():\n    """Example::\n\n        ctx.push()\n        ...\n    """\n'
    result = _edit(cursor, text, target="doc.py")
    assert result["ok"], result
    assert (root / "doc.py").read_text() == text
