"""A placeholder line ("# ... rest of the function unchanged ...") in the new text of
every tool and format: expanded from the old text it replaces, or refused; never written.

The issue's case: the old text is a whole function, the new text its header, one changed
line and the placeholder. Whether the changed line replaces the first body line or is
added above it cannot be told, so every tool refuses and the file stays as it was. With
the header changed instead (the body shown from its first line), the placeholder keeps
the rest of the body.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tool_helpers import write

from patchwright.tools import Toolbox

FILE = (
    "def total(items):\n"
    "    count = 0\n"
    "    for item in items:\n"
    "        count += item.price\n"
    "    return count\n"
    "\n"
    "\n"
    "def other():\n"
    "    return 1\n"
)
FUNCTION = FILE[: FILE.index("\n\n\n") + 1]
MARKER = "    # ... rest of the function unchanged ...\n"
CHANGED_LINE = "def total(items):\n    count = 0.0\n" + MARKER
CHANGED_HEADER = "def total(items, tax=0):\n    count = 0\n" + MARKER
KEPT = FILE.replace("def total(items):", "def total(items, tax=0):")


def _sr(new: str) -> str:
    return f"a.py\n<<<<<<< SEARCH\n{FUNCTION}=======\n{new}>>>>>>> REPLACE\n"


def _udiff(new: str) -> str:
    old = FUNCTION.splitlines()
    added = new.splitlines()
    body = "".join(f"-{line}\n" for line in old) + "".join(f"+{line}\n" for line in added)
    return f"--- a/a.py\n+++ b/a.py\n@@ -1,{len(old)} +1,{len(added)} @@\n{body}"


def _v4a(new: str) -> str:
    old = "".join(f"-{line}\n" for line in FUNCTION.splitlines())
    added = "".join(f"+{line}\n" for line in new.splitlines())
    return f"*** Begin Patch\n*** Update File: a.py\n@@\n{old}{added}*** End Patch\n"


# tool, preset, arguments for a new text
CALLS: dict[str, tuple[str, str, Callable[[str], dict[str, Any]]]] = {
    "edit_file": (
        "edit_file",
        "default",
        lambda new: {"path": "a.py", "old_string": FUNCTION, "new_string": new},
    ),
    "search_replace": (
        "apply_patch",
        "default",
        lambda new: {"patch": _sr(new), "format": "search-replace"},
    ),
    "unified_diff": ("apply_patch", "default", lambda new: {"patch": _udiff(new)}),
    "codex_apply_patch": ("apply_patch", "openai", lambda new: {"input": _v4a(new)}),
    "spec_patch": (
        "patch",
        "spec",
        lambda new: {
            "path": "a.py",
            "patches": [{"operation": "replace", "oldText": FUNCTION, "newText": new}],
        },
    ),
    "anthropic_str_replace": (
        "str_replace_based_edit_tool",
        "anthropic",
        lambda new: {"command": "str_replace", "path": "a.py", "old_str": FUNCTION, "new_str": new},
    ),
    "claude_code_edit": (
        "Edit",
        "claude-code",
        lambda new: {"file_path": "a.py", "old_string": FUNCTION, "new_string": new},
    ),
}


def _call(make_toolbox: Callable[..., Toolbox], root: Path, which: str, new: str) -> Any:
    write(root, "a.py", FILE)
    tool, preset, arguments = CALLS[which]
    toolbox = make_toolbox(preset=preset)
    if preset == "claude-code":
        assert toolbox.call("Read", {"file_path": "a.py"}).ok  # Edit wants the file read
    return toolbox.call(tool, arguments(new))


@pytest.mark.parametrize("which", sorted(CALLS))
def test_a_changed_line_beside_a_placeholder_is_refused(
    make_toolbox: Callable[..., Toolbox], root: Path, which: str
) -> None:
    result = _call(make_toolbox, root, which, CHANGED_LINE)
    assert not result.ok, result.text
    assert "rest of the function unchanged" in result.text
    assert "original line 2" in result.text  # the line it may replace, named
    assert (root / "a.py").read_text() == FILE


@pytest.mark.parametrize("which", sorted(CALLS))
def test_a_placeholder_keeps_the_body_it_stands_for(
    make_toolbox: Callable[..., Toolbox], root: Path, which: str
) -> None:
    result = _call(make_toolbox, root, which, CHANGED_HEADER)
    assert result.ok, result.text
    assert (root / "a.py").read_text() == KEPT


STUB = (
    "class Shape(Protocol):\n"
    "    def area(self) -> float:\n"
    "        ...\n"
    "\n"
    "\n"
    "def example() -> None:\n"
    '    """Example::\n'
    "\n"
    "        ctx = make()\n"
    "        ...\n"
    '    """\n'
)


@pytest.mark.parametrize(
    ("tool", "preset", "arguments"),
    [
        ("str_replace_based_edit_tool", "anthropic",
         {"command": "create", "path": "new.py", "file_text": STUB}),
        ("Write", "claude-code", {"file_path": "new.py", "content": STUB}),
    ],
)  # fmt: skip
def test_a_new_file_keeps_its_ellipsis_lines(
    make_toolbox: Callable[..., Toolbox],
    root: Path,
    tool: str,
    preset: str,
    arguments: dict[str, Any],
) -> None:
    """A new file has no lines a placeholder could stand for: a bare ``...`` there (a
    protocol's body, a docstring's elided example) is text, written as sent."""
    result = make_toolbox(preset=preset).call(tool, arguments)
    assert result.ok, result.text
    assert "placeholder" not in result.text
    assert (root / "new.py").read_text() == STUB


def test_a_worded_placeholder_in_a_new_file_is_refused(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    text = "import os\n# ... existing code ...\ndef f():\n    pass\n"
    result = make_toolbox(preset="anthropic").call(
        "str_replace_based_edit_tool", {"command": "create", "path": "new.py", "file_text": text}
    )
    assert not result.ok
    assert "'# ... existing code ...'" in result.text
    assert "the file has no lines yet" in result.text
    assert not (root / "new.py").exists()


def test_an_ellipsis_body_added_to_a_file_is_text_not_a_placeholder(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    """A new protocol method's ``...`` body is Python, so the answer says nothing of a
    placeholder keeping lines (it kept none)."""
    write(root, "a.py", FILE)
    added = FUNCTION + "\n\ndef stub():\n    ...\n"
    result = make_toolbox().call(
        "edit_file", {"path": "a.py", "old_string": FUNCTION, "new_string": added}
    )
    assert result.ok, result.text
    assert "placeholder" not in result.text
    assert (root / "a.py").read_text() == FILE.replace(FUNCTION, added, 1)
