"""Spec 002 verification, ``test_edit_file.py``: string replacement and batched edits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tool_helpers import ok, refused, write

from patchwright._records import replace
from patchwright.engine import apply_edits
from patchwright.model import EngineResult, ErrorCode
from patchwright.tools import Toolbox
from patchwright.tools.file_edits.edit_file import MIGRATION_MESSAGE

FOO = "import os\n\n\ndef foo():\n    x = 1\n    return x\n"


def test_string_replace_success(toolbox: Toolbox, root: Path) -> None:
    write(root, "foo.py", FOO)
    result = ok(toolbox, "edit_file", path="foo.py", old_string="x = 1", new_string="x = 2")
    assert (root / "foo.py").read_text() == FOO.replace("x = 1", "x = 2")
    assert result.text == 'Applied 1 edit to foo.py:\n  1. Replaced "x = 1" (line 5)'
    assert "-    x = 1\n+    x = 2\n" in result.diff


def test_string_replace_not_found(toolbox: Toolbox, root: Path) -> None:
    write(root, "foo.py", FOO)
    result = refused(toolbox, "edit_file", path="foo.py", old_string="def bar():", new_string="y")
    assert result.error is not None and result.error.code is ErrorCode.NOT_FOUND
    assert result.text.startswith(
        'Edit failed (no changes made):\n  Edit 1: "def bar():" not found in file'
    )
    assert (root / "foo.py").read_text() == FOO


def test_string_replace_ambiguous(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.py", "x = 1\ny = 2\nx = 1\nx = 1\n")
    result = refused(toolbox, "edit_file", path="a.py", old_string="x = 1", new_string="x = 9")
    assert result.error is not None and result.error.code is ErrorCode.AMBIGUOUS
    assert (
        'Edit 1: "x = 1" appears 3 times. Use replace_all=true or provide more context.'
        in result.text
    )
    assert "Found at lines 1, 3, 4." in result.text
    assert (root / "a.py").read_text() == "x = 1\ny = 2\nx = 1\nx = 1\n"


def test_string_replace_all(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.py", "x = 1\ny = 2\nx = 1\nx = 1\n")
    result = ok(
        toolbox, "edit_file", path="a.py", old_string="x = 1", new_string="x = 9", replace_all=True
    )
    assert (root / "a.py").read_text() == "x = 9\ny = 2\nx = 9\nx = 9\n"
    assert "3 occurrences" in result.text


def test_rejects_line_params(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.py", "a\n")
    for extra in ({"start_line": 1}, {"end_line": 2}, {"new_content": "x"}):
        result = toolbox.call("edit_file", {"path": "a.py", **extra})
        assert not result.ok and result.error is not None
        assert result.error.message == (
            "edit_file no longer supports line-based editing. Use edit_lines(path, start_line, "
            "new_content) instead."
        )
        assert result.error.message == MIGRATION_MESSAGE
        assert result.error.field == next(iter(extra))
    assert (root / "a.py").read_text() == "a\n"


def test_batch_success(toolbox: Toolbox, root: Path) -> None:
    write(root, "foo.py", "import os\n\ndef foo():\n    a = 0\n\n\n\n\n\n\n\n    return x\n")
    result = ok(
        toolbox,
        "edit_file",
        path="foo.py",
        edits=[
            {"old_string": "import os", "new_string": "import os\nimport sys"},
            {"old_string": "def foo():", "new_string": "def foo() -> None:"},
            {"old_string": "return x", "new_string": "return result"},
        ],
    )
    assert result.text == (
        "Applied 3 edits to foo.py:\n"
        '  1. Replaced "import os" (line 1)\n'
        '  2. Replaced "def foo():" (line 3)\n'
        '  3. Replaced "return x" (line 12)'
    )
    assert (root / "foo.py").read_text() == (
        "import os\nimport sys\n\ndef foo() -> None:\n    a = 0\n\n\n\n\n\n\n\n    return result\n"
    )


def test_batch_rollback(toolbox: Toolbox, root: Path) -> None:
    write(root, "foo.py", FOO)
    result = refused(
        toolbox,
        "edit_file",
        path="foo.py",
        edits=[
            {"old_string": "import os", "new_string": "import sys"},
            {"old_string": "def bar():", "new_string": "def baz():"},
        ],
    )
    assert result.text.startswith(
        'Batch edit failed (no changes made):\n  Edit 2: "def bar():" not found in file'
    )
    assert result.error is not None and result.error.field == "edits[1].old_string"
    assert (root / "foo.py").read_text() == FOO
    assert toolbox.workspace.history.list_batches() == []


def test_batch_order_matters(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "alpha\n")
    ok(
        toolbox,
        "edit_file",
        path="a.txt",
        edits=[
            {"old_string": "alpha", "new_string": "beta"},
            {"old_string": "beta", "new_string": "gamma"},
        ],
    )
    assert (root / "a.txt").read_text() == "gamma\n"
    write(root, "b.txt", "alpha\n")
    reversed_order = refused(
        toolbox,
        "edit_file",
        path="b.txt",
        edits=[
            {"old_string": "beta", "new_string": "gamma"},
            {"old_string": "alpha", "new_string": "beta"},
        ],
    )
    assert 'Edit 1: "beta" not found in file' in reversed_order.text
    assert (root / "b.txt").read_text() == "alpha\n"


def test_batch_mutual_exclusion(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "alpha\n")
    result = refused(
        toolbox,
        "edit_file",
        path="a.txt",
        old_string="alpha",
        new_string="x",
        edits=[{"old_string": "alpha", "new_string": "beta"}],
    )
    assert result.error is not None and result.error.field == "edits"
    assert "Cannot mix the edits array with single-edit parameters" in result.text
    assert (root / "a.txt").read_text() == "alpha\n"


def test_batch_line_numbers_refer_to_original_file(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "one\ntwo\nthree\nfour\n")
    result = ok(
        toolbox,
        "edit_file",
        path="a.txt",
        edits=[
            {"old_string": "one\n", "new_string": "zero\nhalf\none\n"},
            {"old_string": "four", "new_string": "FOUR"},
        ],
    )
    assert '2. Replaced "four" (line 4)' in result.text


def test_single_edit_needs_both_strings(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "alpha\n")
    result = refused(toolbox, "edit_file", path="a.txt", old_string="alpha")
    assert result.error is not None and result.error.field == "new_string"


def test_whitespace_recovery_is_reported(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.py", "def f():\n    x = 1   \n    return x\n")
    result = ok(
        toolbox,
        "edit_file",
        path="a.py",
        old_string="    x = 1\n    return x\n",
        new_string="    x = 2\n    return x\n",
    )
    assert "matched via trailing_whitespace recovery" in result.text
    assert (root / "a.py").read_text() == "def f():\n    x = 2\n    return x\n"


def test_empty_old_string_creates_missing_file(toolbox: Toolbox, root: Path) -> None:
    ok(toolbox, "edit_file", path="pkg/new.py", old_string="", new_string="x = 1\n")
    assert (root / "pkg/new.py").read_text() == "x = 1\n"
    empty_search = refused(toolbox, "edit_file", path="pkg/new.py", old_string="", new_string="y")
    assert empty_search.error is not None and empty_search.error.code is ErrorCode.EMPTY_SEARCH


def test_tolerant_trailing_whitespace_recovery_names_the_recovery_and_its_warnings(
    toolbox: Toolbox, root: Path
) -> None:
    # edit_file runs the engine in tolerant mode: the answer says which recovery found
    # old_string, and passes on every warning the engine's report carries
    write(root, "a.py", "def f():\n    x = 1   \n    return x\n")
    result = ok(
        toolbox, "edit_file", path="a.py", old_string="    x = 1\n", new_string="    x = 2\n"
    )
    assert "matched via trailing_whitespace recovery" in result.text
    (edit,) = result.data["edits"]
    assert edit["rung"] == "trailing_whitespace"
    for warning in edit["warnings"]:
        assert f"Warning: {warning}" in result.text and warning in result.warnings
    assert (root / "a.py").read_text() == "def f():\n    x = 2\n    return x\n"


def test_engine_report_warnings_surface_in_the_success_text(
    toolbox: Toolbox, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # whatever the engine warns about (e.g. a non-whitespace recovery in tolerant mode),
    # the model reads it in the answer and hosts find it in warnings
    def warning_engine(*args: Any, **kwargs: Any) -> EngineResult:
        result = apply_edits(*args, **kwargs)
        reports = [
            replace(r, warnings=(*r.warnings, "Edit 1: recovered loosely")) for r in result.reports
        ]
        return EngineResult(result.file, reports)

    monkeypatch.setattr("patchwright.tools.replace.apply_edits", warning_engine)
    write(root, "a.py", "x = 1\n")
    result = ok(toolbox, "edit_file", path="a.py", old_string="x = 1", new_string="x = 2")
    assert "  Warning: Edit 1: recovered loosely" in result.text.splitlines()
    assert "Edit 1: recovered loosely" in result.warnings
