"""What each preset answers to a stale read and to a refusal with several places, as the
table "What each preset does" of docs/tools.md says (retries: tests/tools/test_retries.py
measures every writing tool; tokens and their rules: tests/tools/test_confirm.py; the
default and claude-code rebases over each writer: tests/tools/test_rebase_writers.py).

Each test plays one preset: the agent reads a file, another writer adds a line at its
top, and the agent's edit of other lines arrives; then an edit whose text stands at two
places. The claims checked are the table's cells for that preset.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tool_helpers import ok, refused, write

from patchwright.model import ErrorCode
from patchwright.tools import Toolbox
from patchwright.workspace import Workspace

MODULE = "def first():\n    x = 1\n    return x\n\n\ndef second():\n    y = 2\n    return y\n"
TWICE = "def a():\n    x = 1\n    return x\n\n\ndef b():\n    x = 1\n    return x\n"
REBASED = "had changed since you last read it (line 1 of the file now, by another writer)"


def _toolbox(root: Path, state: Path, preset: str) -> Toolbox:
    return Toolbox(Workspace(root, state_dir=state), preset=preset)


def _changed_by_another_writer(root: Path) -> None:
    (root / "mod.py").write_text("# header\n" + MODULE)


def _places(result: Any) -> list[int]:
    return [c["line"] for c in result.data["candidates"]]


def test_anthropic_rebases_str_replace_and_refuses_create_over_a_file(
    root: Path, state: Path
) -> None:
    write(root, "mod.py", MODULE)
    toolbox = _toolbox(root, state, "anthropic")
    tool = "str_replace_based_edit_tool"
    ok(toolbox, tool, command="view", path="mod.py")
    _changed_by_another_writer(root)
    text = ok(toolbox, tool, command="str_replace", path="mod.py", old_str="    y = 2",
              new_str="    y = 3").text  # fmt: skip
    assert REBASED in text
    # create never overwrites, read or not: the table names no rebase for it
    over = refused(toolbox, tool, command="create", path="mod.py", file_text="z = 0\n")
    assert over.error is not None and over.error.code is ErrorCode.FILE_EXISTS
    assert (root / "mod.py").read_text() == "# header\n" + MODULE.replace("y = 2", "y = 3")


def test_openai_locates_a_patch_by_its_context_and_shows_each_place_without_a_token(
    root: Path, state: Path
) -> None:
    write(root, "mod.py", MODULE)
    toolbox = _toolbox(root, state, "openai")
    ok(toolbox, "read_file", path="mod.py")
    _changed_by_another_writer(root)
    patch = (
        "*** Begin Patch\n*** Update File: mod.py\n@@ def second():\n-    y = 2\n+    y = 3\n"
        "     return y\n*** End Patch\n"
    )
    ok(toolbox, "apply_patch", input=patch)
    assert (root / "mod.py").read_text() == "# header\n" + MODULE.replace("y = 2", "y = 3")
    write(root, "two.py", TWICE)
    hunk = "@@\n     x = 1\n-    return x\n+    return x + 1\n"
    patch = f"*** Begin Patch\n*** Update File: two.py\n{hunk}*** End Patch\n"
    both = refused(toolbox, "apply_patch", input=patch)
    assert both.error is not None and both.error.code is ErrorCode.AMBIGUOUS
    assert _places(both) == [3, 8]
    assert all(set(c) == {"line", "diff"} for c in both.data["candidates"])  # no token
    assert "include more unchanged lines around the change" in both.text
    assert (root / "two.py").read_text() == TWICE


def test_cursor_places_a_snippet_by_its_lines_and_shows_a_candidate_unapplied(
    root: Path, state: Path
) -> None:
    write(root, "mod.py", MODULE)
    toolbox = _toolbox(root, state, "cursor")
    snippet = {"target_file": "mod.py", "instructions": "Make y three",
               "code_edit": "def second():\n    y = 3\n    return y\n"}  # fmt: skip
    ok(toolbox, "read_file", path="mod.py")
    _changed_by_another_writer(root)
    ok(toolbox, "edit_file", **snippet)
    assert (root / "mod.py").read_text() == "# header\n" + MODULE.replace("y = 2", "y = 3")
    again = ok(toolbox, "edit_file", **snippet)  # a retry: a success that writes nothing
    assert again.text.startswith("Already applied (batch b-")
    write(root, "two.py", TWICE)
    marker = "# ... existing code ...\n"
    both = refused(toolbox, "edit_file", target_file="two.py", instructions="Add one",
                   code_edit=f"{marker}    x = 1\n    return x + 1\n{marker}")  # fmt: skip
    assert "fit 2 places in original lines 1-8" in both.text
    assert "Candidate result (not applied):" in both.text and "Hint: Add one more" in both.text
    assert "candidates" not in both.data  # no token: the tool takes no extra field
    assert (root / "two.py").read_text() == TWICE


def test_spec_rebases_edit_file_and_gives_it_tokens(root: Path, state: Path) -> None:
    write(root, "mod.py", MODULE)
    toolbox = _toolbox(root, state, "spec")
    ok(toolbox, "read_file", path="mod.py")
    _changed_by_another_writer(root)
    assert REBASED in ok(toolbox, "edit_file", path="mod.py", old_string="y = 2",
                         new_string="y = 3").text  # fmt: skip
    write(root, "two.py", TWICE)
    both = refused(toolbox, "edit_file", path="two.py", old_string="    return x\n",
                   new_string="    return x + 1\n")  # fmt: skip
    assert _places(both) == [3, 8]
    ok(toolbox, "edit_file", confirm=both.data["candidates"][1]["token"])
    assert (root / "two.py").read_text() == TWICE[:-1] + " + 1\n"
    # the spec's patch tool keeps its contract's refusal: no candidates, how to be unique
    write(root, "three.py", TWICE)
    replace = {"operation": "replace", "oldText": "    return x\n", "newText": "    return 0\n"}
    plain = refused(toolbox, "patch", path="three.py", patches=[replace])
    assert "candidates" not in plain.data
    assert "so the text occurs exactly once" in plain.text
