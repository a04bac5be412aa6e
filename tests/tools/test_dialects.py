"""apply_patch, the Anthropic editor, Codex's apply_patch and Claude Code's tools: the
cases the MCP sessions do not play."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tool_helpers import write

from patchwright.tools import Toolbox
from patchwright.tools.codex.models import operation_patch

TWO_FILES = """*** Begin Patch
*** Update File: a.py
@@
-x = 1
+x = 2
*** Update File: b.py
@@
-nothing like this
+y = 3
*** End Patch
"""


def test_apply_patch_is_all_or_nothing_and_names_the_failing_hunk(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    write(root, "a.py", "x = 1\n")
    write(root, "b.py", "y = 1\n")
    toolbox = make_toolbox(preset="default")
    result = toolbox.call("apply_patch", {"patch": TWO_FILES})
    assert not result.ok and result.text.startswith("Patch failed on b.py:")
    assert "Hunk 1 failed" in result.text and "No changes made (atomic rollback)." in result.text
    assert result.error is not None and result.error.field == "patch"
    assert (root / "a.py").read_text() == "x = 1\n"
    # the refusal's per-file report rides in the error's details
    assert result.error.details["report"]["files"][0]["status"] == "ok"


def test_apply_patch_format_and_mode_options(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    write(root, "a.py", "def f():  \n    return 1\n")
    toolbox = make_toolbox(preset="default")
    loose = "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n"
    strict = toolbox.call("apply_patch", {"patch": loose, "mode": "strict"})
    assert not strict.ok and strict.error is not None
    assert (root / "a.py").read_text() == "def f():  \n    return 1\n"
    tolerant = toolbox.call("apply_patch", {"patch": loose, "mode": "tolerant"})
    assert tolerant.ok and "matched via trailing_whitespace recovery" in tolerant.text
    assert (root / "a.py").read_text() == "def f():  \n    return 2\n"
    wrong = toolbox.call("apply_patch", {"patch": loose, "format": "search-replace"})
    assert not wrong.ok
    restricted = make_toolbox(preset="default", mode="restricted")
    preview = restricted.call("apply_patch", {"patch": loose, "dry_run": True})
    # a retry of the patch the newest batch applied: checked even read-only, a success
    assert preview.ok and "Already applied (batch b-" in preview.text, preview.text
    assert (root / "a.py").read_text() == "def f():  \n    return 2\n"


def test_editor_view_range_insert_bounds_and_missing_fields(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    write(root, "a.txt", "one\ntwo\nthree\n")
    toolbox = make_toolbox(preset="anthropic")
    tool = "str_replace_based_edit_tool"
    tail = toolbox.call(tool, {"command": "view", "path": "a.txt", "view_range": [2, -1]})
    assert tail.ok and "     3\tthree" in tail.text and "     1\t" not in tail.text
    past = toolbox.call(tool, {"command": "view", "path": "a.txt", "view_range": [5, 6]})
    assert not past.ok and past.error is not None and past.error.field == "view_range"
    far = toolbox.call(tool, {"command": "insert", "path": "a.txt", "insert_line": 9,
                              "new_str": "x"})  # fmt: skip
    assert not far.ok and "between 0" in far.text
    bare = toolbox.call(tool, {"command": "create", "path": "b.txt"})
    assert not bare.ok and bare.error is not None and bare.error.field == "file_text"
    gone = toolbox.call(tool, {"command": "undo_edit", "path": "a.txt"})
    assert not gone.ok and "No edit of a.txt" in gone.text


def test_editor_views_in_restricted_mode_and_asks_the_user_to_write(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    write(root, "a.txt", "one\n")
    toolbox = make_toolbox(preset="anthropic", mode="restricted")
    tool = "str_replace_based_edit_tool"
    assert toolbox.call(tool, {"command": "view", "path": "a.txt"}).ok
    edit = toolbox.call(tool, {"command": "str_replace", "path": "a.txt", "old_str": "one",
                               "new_str": "two"})  # fmt: skip
    assert not edit.ok and "ask the user for write access" in edit.text


@pytest.mark.parametrize(
    ("operation", "expected"),
    [
        ({"type": "delete_file", "path": "a"}, "*** Delete File: a\n"),
        ({"type": "create_file", "path": "a", "diff": "+x\ny"}, "*** Add File: a\n+x\n+y\n"),
        ({"type": "update_file", "path": "a", "diff": "@@\n-x\n+y"}, "*** Update File: a\n@@"),
    ],
)
def test_hosted_operations_become_patch_text(operation: dict[str, str], expected: str) -> None:
    text = operation_patch(operation)
    assert text.startswith("*** Begin Patch\n") and text.endswith("*** End Patch\n")
    assert expected in text


def test_hosted_operation_refusals_name_the_field(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    toolbox = make_toolbox(preset="openai")
    bad = toolbox.call("apply_patch", {"operation": {"type": "rename_file", "path": "a"}})
    assert not bad.ok and bad.error is not None and bad.error.field == "operation.type"
    no_diff = toolbox.call("apply_patch", {"operation": {"type": "update_file", "path": "a"}})
    assert no_diff.error is not None and no_diff.error.field == "operation.diff"


def test_claude_code_read_pages_and_write_overwrites(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    write(root, "a.txt", "".join(f"line {n}\n" for n in range(1, 6)))
    toolbox = make_toolbox(preset="claude-code")
    page = toolbox.call("Read", {"file_path": "a.txt", "offset": 2, "limit": 2})
    assert page.ok and page.text.splitlines()[0] == "     2\tline 2"
    assert "Read again with offset=4" in page.text
    absolute = toolbox.call("Write", {"file_path": str(root / "a.txt"), "content": "new\n"})
    assert absolute.ok and absolute.text.startswith("Overwrote a.txt")
    assert (root / "a.txt").read_text() == "new\n"
