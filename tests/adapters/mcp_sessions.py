"""One scripted agent session per preset, as data: the calls, what each must answer, and
the tree they leave. test_mcp_presets.py plays them over the real MCP SDK client and
writes (or checks) the transcript pages in docs/presets/.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

APP = (
    'def greet(name):\n    print("Hello, " + name)\n\n\n'
    'if __name__ == "__main__":\n    greet("world")\n'
)
UTIL = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
FILES = {
    "app.py": APP,
    "util.py": UTIL,
    "legacy.py": 'def legacy():\n    return "old"\n',
    "old.txt": "obsolete\n",
    "notes/todo.txt": "write docs\n",
    ".gitignore": "build/\n*.log\n",
    "build/out.py": "generated = True\n",
    "debug.log": "greet called\n",
}

OLD, NEW = 'print("Hello, " + name)', 'print(f"Hello, {name}!")'

FOUR_FILES = """*** Begin Patch
*** Update File: util.py
@@ def sub(a, b):
-    return a - b
+    return a - b  # difference
*** Add File: docs/usage.md
+# Usage
+
+Run app.py.
*** Delete File: old.txt
*** Update File: legacy.py
*** Move to: pkg/legacy.py
@@
 def legacy():
-    return "old"
+    return "moved"
*** End Patch
"""
CURSOR_SNIPPET = """def greet(name):
    print(f"Hello, {name}!")


if __name__ == "__main__":
# ... existing code ...
"""
SEARCH_REPLACE = """app.py
<<<<<<< SEARCH
def greet(name):
=======
def greet(name: str) -> None:
>>>>>>> REPLACE
"""
UNIFIED = """--- a/util.py
+++ b/util.py
@@ -1,2 +1,2 @@
 def add(a, b):
-    return a + b
+    return b + a
"""
NOTEBOOK = (
    '{\n "cells": [\n  {\n   "cell_type": "code",\n   "execution_count": 1,\n'
    '   "id": "c1",\n   "metadata": {},\n   "outputs": [],\n'
    '   "source": [\n    "from app import greet\\n",\n    "greet(\\"world\\")"\n   ]\n'
    '  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}\n'
)
HOSTED_UPDATE = {
    "type": "update_file",
    "path": "app.py",
    "diff": "@@\n-" + "    " + OLD + "\n+    " + NEW + "\n",
}


@dataclass(frozen=True)
class Step:
    """One call: the tool, its arguments, and what the answer must be.

    Attributes:
        code: the error code of an expected refusal (``None``: the call succeeds).
        says: texts the answer (message and hint) must contain.
        why: one sentence for the transcript.
    """

    tool: str
    args: dict[str, Any]
    why: str
    code: str | None = None
    says: tuple[str, ...] = ()


@dataclass(frozen=True)
class Session:
    """A preset's session and the tree it leaves (path -> a text the file holds, or
    ``None`` for a file that must be gone)."""

    steps: tuple[Step, ...]
    after: dict[str, str | None] = field(default_factory=dict)


SESSIONS: dict[str, Session] = {
    "default": Session(
        (
            Step("list_files", {}, "List the workspace (build/ and *.log are ignored).",
                 says=("app.py", "notes/todo.txt")),
            Step("search_files", {"pattern": "greet", "glob": "*.py"}, "Find a name.",
                 says=("app.py:1: def greet(name):",)),
            Step("read_file", {"path": "app.py"}, "Read the file to edit.", says=("     2\t",)),
            Step("edit_file", {"path": "app.py", "old_string": OLD, "new_string": NEW},
                 "Replace one line.", says=("Replaced",)),
            Step("edit_file", {"path": "app.py", "old_string": OLD, "new_string": NEW},
                 "The same call again (a retry after a time-out).",
                 says=("Already applied (batch b-", "nothing changed")),
            Step("edit_file", {"path": "app.py", "old_str": 'greet("world")',
                               "new_str": 'greet("patchwright")'},
                 "Anthropic's names for the same fields work too.", says=("line 6",)),
            Step("apply_patch", {"patch": FOUR_FILES},
                 "One patch: update, add, delete and move.",
                 says=("update util.py", "add docs/usage.md", "delete old.txt",
                       "move legacy.py -> pkg/legacy.py")),
            Step("apply_patch", {"patch": SEARCH_REPLACE}, "SEARCH/REPLACE blocks.",
                 says=("(search-replace)",)),
            Step("apply_patch", {"patch": UNIFIED, "dry_run": True},
                 "A unified diff, checked first: the preview is in the answer.",
                 says=("Dry run", "+    return b + a")),
            Step("apply_patch", {"patch": UNIFIED}, "Then applied.", says=("(unified)",)),
            Step("read_file", {"path": "ap.py"}, "A misspelt path.", code="file_not_found",
                 says=("Did you mean 'app.py'",)),
            Step("read_file", {"path": "notes"}, "A folder.", code="not_a_file",
                 says=("It holds: todo.txt",)),
            Step("read_file", {"path": "notes\\todo.txt"}, "Windows separators.",
                 says=("write docs",)),
            Step("undo", {}, "Take the last change back.", says=("Reverted batch",)),
        ),
        {"app.py": "def greet(name: str) -> None:\n    " + NEW, "util.py": "return a + b",
         "docs/usage.md": "# Usage", "pkg/legacy.py": '"moved"', "old.txt": None,
         "legacy.py": None},
    ),
    "anthropic": Session(
        (
            Step("str_replace_based_edit_tool", {"command": "view", "path": "."},
                 "View the root folder.", says=("app.py", "notes/todo.txt")),
            Step("str_replace_based_edit_tool",
                 {"command": "view", "path": "app.py", "view_range": [1, 2]},
                 "View two lines.", says=("     2\t",)),
            Step("str_replace_based_edit_tool",
                 {"command": "str_replace", "path": "app.py", "old_str": OLD, "new_str": NEW},
                 "Replace one line.", says=("Replaced",)),
            Step("str_replace_based_edit_tool",
                 {"command": "str_replace", "path": "app.py", "old_str": OLD, "new_str": NEW},
                 "The same call again.", says=("Already applied (batch b-",)),
            Step("str_replace_based_edit_tool",
                 {"command": "insert", "path": "app.py", "insert_line": 0,
                  "new_str": "import sys\n"},
                 "Insert at the top.", says=("after line 0",)),
            Step("str_replace_based_edit_tool",
                 {"command": "create", "path": "docs/usage.md", "file_text": "# Usage\n"},
                 "Create a file.", says=("Created docs/usage.md",)),
            Step("str_replace_based_edit_tool",
                 {"command": "create", "path": "docs/usage.md", "file_text": "# Usage\n"},
                 "Created twice.", says=("Already applied (batch b-",)),
            Step("str_replace_based_edit_tool", {"command": "view", "path": "ap.py"},
                 "A misspelt path.", code="file_not_found", says=("Did you mean 'app.py'",)),
            Step("str_replace_based_edit_tool",
                 {"command": "str_replace", "path": "notes", "old_str": "x", "new_str": "y"},
                 "A folder where a file belongs.", code="not_a_file", says=("todo.txt",)),
            Step("str_replace_based_edit_tool", {"command": "view", "path": "notes\\todo.txt"},
                 "Windows separators.", says=("write docs",)),
            Step("str_replace_based_edit_tool", {"command": "undo_edit", "path": "app.py"},
                 "Undo the last edit of app.py (the insert).", says=("undone",)),
        ),
        {"app.py": "def greet(name):\n    " + NEW, "docs/usage.md": "# Usage"},
    ),
    "openai": Session(
        (
            Step("list_files", {"glob": "*.py"}, "Python files.", says=("util.py",)),
            Step("search_files", {"pattern": r"def \w+\(", "regex": True},
                 "Every function.", says=("util.py:5: def sub(a, b):",)),
            Step("read_file", {"path": "util.py"}, "Read before patching.",
                 says=("     6\t",)),
            Step("apply_patch", {"input": FOUR_FILES},
                 "Codex's patch: update, add, delete and move in one call.",
                 says=("update util.py", "add docs/usage.md", "delete old.txt",
                       "move legacy.py -> pkg/legacy.py")),
            Step("apply_patch", {"operation": HOSTED_UPDATE},
                 "The hosted tool's update_file operation.", says=("update app.py",)),
            Step("apply_patch", {"operation": HOSTED_UPDATE}, "The same operation again.",
                 says=("Already applied (batch b-",)),
            Step("apply_patch",
                 {"operation": {"type": "create_file", "path": "notes/done.txt",
                                "diff": "+tests\n"}},
                 "create_file.", says=("add notes/done.txt",)),
            Step("apply_patch", {"operation": {"type": "delete_file", "path": "notes/todo.txt"}},
                 "delete_file.", says=("delete notes/todo.txt",)),
            Step("apply_patch",
                 {"input": "*** Begin Patch\n*** Update File: utils.py\n@@\n-x\n+y\n"
                           "*** End Patch\n"},
                 "A misspelt path.", code="file_not_found", says=("Did you mean 'util.py'",)),
        ),
        {"app.py": NEW, "docs/usage.md": "# Usage", "pkg/legacy.py": '"moved"',
         "notes/done.txt": "tests", "notes/todo.txt": None, "old.txt": None},
    ),
    "claude-code": Session(
        (
            Step("Read", {"file_path": "app.py"}, "Read the file.", says=("     2\t",)),
            Step("Edit", {"file_path": "app.py", "old_string": OLD, "new_string": NEW},
                 "Replace one line.", says=("Replaced",)),
            Step("Edit", {"file_path": "app.py", "old_string": OLD, "new_string": NEW},
                 "The same call again.", says=("Already applied (batch b-",)),
            Step("MultiEdit", {"file_path": "app.py", "edits": [
                {"old_string": "def greet(name):", "new_string": "def greet(name: str) -> None:"},
                {"old_string": 'greet("world")', "new_string": 'greet("you")'}]},
                 "Two edits, all or none.", says=("Applied 2 edits",)),
            Step("Write", {"file_path": "docs/usage.md", "content": "# Usage\n"},
                 "Write a new file.", says=("Created docs/usage.md",)),
            Step("Write", {"file_path": "docs/usage.md", "content": "# Usage\n"},
                 "Written twice.", says=("Already applied (batch b-",)),
            Step("Read", {"file_path": "notes"}, "A folder.", code="not_a_file",
                 says=("It holds: todo.txt",)),
            Step("Edit", {"file_path": "ap.py", "old_string": "a", "new_string": "b"},
                 "A misspelt path.", code="file_not_found", says=("Did you mean 'app.py'",)),
            Step("Read", {"file_path": "notes\\todo.txt"}, "Windows separators.",
                 says=("write docs",)),
            Step("Write", {"file_path": "demo.ipynb", "content": NOTEBOOK},
                 "Write a small notebook.", says=("Created demo.ipynb",)),
            Step("Read", {"file_path": "demo.ipynb"}, "A notebook reads as cells.",
                 says=('<cell id="c1" index=0 type=code',)),
            Step("NotebookEdit", {"notebook_path": "demo.ipynb", "cell_id": "c1",
                                  "edit_mode": "insert", "cell_type": "markdown",
                                  "new_source": "# Demo"},
                 "Insert a markdown cell after it.", says=("Inserted cell 1 (markdown",)),
            Step("Edit", {"file_path": "demo.ipynb", "old_string": 'greet("world")',
                          "new_string": 'greet("notebook")'},
                 "Edit inside a cell.", says=("cell 0, line 2",)),
            Step("NotebookEdit", {"notebook_path": "demo.ipynb", "cell_id": "c9",
                                  "new_source": "x"},
                 "A cell that does not exist.", code="not_found", says=("Its cell ids: c1",)),
        ),
        {"app.py": 'greet("you")', "docs/usage.md": "# Usage", "demo.ipynb": "# Demo"},
    ),
    "cursor": Session(
        (
            Step("read_file", {"path": "app.py"}, "Read the file to edit.", says=("     2\t",)),
            Step("edit_file", {"target_file": "app.py", "instructions": "Greet with an f-string",
                               "code_edit": CURSOR_SNIPPET},
                 "A lazy snippet: the changed line, its neighbours, a marker for the rest.",
                 says=("Merged",)),
            Step("edit_file", {"target_file": "app.py", "instructions": "Greet with an f-string",
                               "code_edit": CURSOR_SNIPPET},
                 "The same call again (a retry after a time-out).",
                 says=("Already applied (batch b-",)),
            Step("edit_file", {"target_file": "app.py", "instructions": "Log the greeting",
                               "code_edit": "print(1)\n# ... existing code ...\nprint(2)\n"},
                 "Lines that stand nowhere in the file.", code="ambiguous",
                 says=("line",)),
            Step("edit_file", {"target_file": "docs/usage.md", "instructions": "Add usage notes",
                               "code_edit": "# Usage\n\nRun app.py.\n"},
                 "A file that does not exist yet is created.", says=("Created docs/usage.md",)),
        ),
        {"app.py": 'print(f"Hello, {name}!")', "docs/usage.md": "# Usage"},
    ),
    "spec": Session(
        (
            Step("read_file", {"path": "app.py"}, "Read the file.", says=("sha256:",)),
            Step("patch", {"path": "app.py", "patches": [
                {"operation": "replace", "oldText": OLD, "newText": NEW}]},
                 "Spec 000's patch.", says=("Applied 1 patch",)),
            Step("edit_file", {"path": "app.py", "old_string": OLD, "new_string": NEW},
                 "The same change through edit_file: the batch that made it is named.",
                 says=("Already applied (batch b-",)),
            Step("apply_diff", {"target": "util.py", "diff": UNIFIED}, "Spec 002's diff tool.",
                 says=("1 hunk applied",)),
            Step("undo", {}, "Take the diff back.", says=("Reverted batch",)),
        ),
        {"app.py": NEW, "util.py": "return a + b"},
    ),
}  # fmt: skip

_BATCH = re.compile(r"\bb-[0-9a-f]{8}\b")


def stable(text: str, seen: dict[str, str]) -> str:
    """``text`` with batch IDs numbered in order of first appearance in the session
    (``seen`` carries the numbering from call to call; real IDs differ per run)."""

    def number(m: re.Match[str]) -> str:
        return seen.setdefault(m.group(0), f"b-{len(seen) + 1:08d}")

    return _BATCH.sub(number, text)
