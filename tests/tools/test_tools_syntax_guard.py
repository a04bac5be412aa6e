"""The syntax guard after every writing tool: warn, reject, off."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tool_helpers import ok, refused, sha, write

from patchwright.model import ErrorCode
from patchwright.tools import Toolbox

GOOD = "def f():\n    return 1\n"
BROKEN_EDIT = {"old_string": "    return 1\n", "new_string": "    return (1\n"}


def test_warn_reports_new_error_with_data(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.py", GOOD)
    result = ok(toolbox, "edit_file", path="a.py", **BROKEN_EDIT)
    assert (root / "a.py").read_text() == "def f():\n    return (1\n"
    (warning,) = [w for w in result.warnings if w.startswith("Syntax check (python)")]
    assert "Warning: " + warning.splitlines()[0] in result.text
    report = result.data["syntax"]["a.py"]
    assert report["checked"] is True and report["new_errors"]
    assert isinstance(report["elapsed_ms"], float) and report["elapsed_ms"] >= 0


def test_clean_edit_has_report_but_no_warning(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.py", GOOD)
    result = ok(toolbox, "edit_file", path="a.py", old_string="return 1", new_string="return 2")
    assert result.warnings == []
    assert result.data["syntax"]["a.py"]["new_errors"] == []


def test_reject_refuses_and_writes_nothing(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    write(root, "a.py", GOOD)
    write(root, "b.json", '{"a": 1}\n')
    toolbox = make_toolbox(syntax_policy="reject")
    tries = [
        ("edit_file", {"path": "a.py", **BROKEN_EDIT}),
        (
            "patch",
            {"path": "a.py", "patches": [{"operation": "append_eof", "newText": "def g(:\n"}]},
        ),
        ("edit_lines", {"path": "a.py", "start_line": 2, "new_content": "  return )"}),
        ("apply_diff", {"target": "b.json", "diff": '@@ -1 +1 @@\n-{"a": 1}\n+{"a": 1,,}\n'}),
        (
            "workspace_write_patch",
            {
                "files": [
                    {
                        "docPath": "b.json",
                        "originalSha256": sha(b'{"a": 1}\n'),
                        "changes": [{"operation": "insert", "afterLine": 1, "newLines": ["]"]}],
                    }
                ]
            },
        ),
    ]
    for name, arguments in tries:
        result = refused(toolbox, name, **arguments)
        assert result.error is not None and result.error.code is ErrorCode.SYNTAX_ERROR, name
    assert (root / "a.py").read_text() == GOOD
    assert (root / "b.json").read_text() == '{"a": 1}\n'
    assert toolbox.workspace.history.list_batches() == []
    ok(toolbox, "edit_file", path="a.py", old_string="return 1", new_string="return 2")


def test_reject_lets_already_broken_files_be_edited_elsewhere(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    write(root, "a.py", "def f(:\n    pass\n\nx = 1\n")
    toolbox = make_toolbox(syntax_policy="reject")
    ok(toolbox, "edit_file", path="a.py", old_string="x = 1", new_string="x = 2")


def test_off_runs_no_check(make_toolbox: Callable[..., Toolbox], root: Path) -> None:
    write(root, "a.py", GOOD)
    result = ok(make_toolbox(syntax_policy="off"), "edit_file", path="a.py", **BROKEN_EDIT)
    assert result.warnings == [] and result.data["syntax"] == {}


def test_guard_runs_for_document_edit_and_reports_undo(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.py", GOOD)
    diff = "@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return (1\n"
    edit = ok(toolbox, "document_edit", path="a.py", document_version=sha(GOOD.encode()), diff=diff)
    assert edit.data["syntax"]["a.py"]["new_errors"]
    undo = ok(toolbox, "undo")
    assert (root / "a.py").read_text() == GOOD
    assert undo.data["syntax"]["a.py"]["checked"] is True


def test_recovered_placement_that_breaks_syntax_is_refused_under_warn(
    toolbox: Toolbox, root: Path
) -> None:
    # the file's line has trailing blanks the old text lacks: placed by recovery, not exactly
    before = "def f():\n    x = 1   \n    return x\n"
    write(root, "a.py", before)
    result = refused(
        toolbox, "edit_file", path="a.py", old_string="    x = 1\n", new_string="    x = (1\n"
    )
    assert result.error is not None and result.error.code is ErrorCode.SYNTAX_ERROR
    assert "trailing_whitespace" in result.text
    assert (root / "a.py").read_text() == before
