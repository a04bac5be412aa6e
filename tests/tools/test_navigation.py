"""``list_files`` and ``search_files``: sorted, ``.gitignore`` honoured, bounded."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from tool_helpers import write

from patchwright.tools import Toolbox
from patchwright.tools.navigation.search import search

TREE = {
    ".gitignore": "build/\n*.log\n",
    "app.py": "def main():\n    return helper()\n",
    "src/pkg/.gitignore": "secret.py\n",
    "src/pkg/core.py": "def helper():\n    return 42\n",
    "src/pkg/secret.py": "TOKEN = 'x'\n",
    "build/out.py": "def helper():\n    pass\n",
    "debug.log": "helper called\n",
    "data.bin": "\x00\x01helper",
}


def _tree(root: Path) -> None:
    for rel, text in TREE.items():
        write(root, rel, text)


def test_list_files_honours_every_gitignore_and_globs(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    _tree(root)
    toolbox = make_toolbox(preset="default")
    listed = toolbox.call("list_files", {})
    assert listed.ok and listed.data["files"] == [
        ".gitignore", "app.py", "data.bin", "src/pkg/.gitignore", "src/pkg/core.py"]  # fmt: skip
    assert toolbox.call("list_files", {"glob": "*.py"}).data["files"] == [
        "app.py", "src/pkg/core.py"]  # fmt: skip
    assert toolbox.call("list_files", {"path": "src"}).data["files"] == [
        "src/pkg/.gitignore", "src/pkg/core.py"]  # fmt: skip
    capped = toolbox.call("list_files", {"limit": 2})
    assert capped.data["truncated"] and "stopped at 2 files" in capped.text


def test_list_files_refusals_have_a_next_step(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    _tree(root)
    toolbox = make_toolbox(preset="default")
    missing = toolbox.call("list_files", {"path": "scr"})
    assert not missing.ok and "Did you mean 'src/'" in missing.text
    a_file = toolbox.call("list_files", {"path": "app.py"})
    assert not a_file.ok and "is a file, not a folder" in a_file.text
    escape = toolbox.call("list_files", {"path": "../x"})
    assert not escape.ok and escape.error is not None and escape.error.field == "path"


def test_search_files_literal_regex_case_and_skips(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    _tree(root)
    toolbox = make_toolbox(preset="default")
    found = toolbox.call("search_files", {"pattern": "helper()"})
    assert found.ok and [(m["path"], m["line"]) for m in found.data["matches"]] == [
        ("app.py", 2), ("src/pkg/core.py", 1)]  # fmt: skip
    regex = toolbox.call("search_files", {"pattern": r"return \d+", "regex": True})
    assert "src/pkg/core.py:2:     return 42" in regex.text
    loud = toolbox.call("search_files", {"pattern": "DEF MAIN", "ignore_case": True})
    assert loud.data["matches"][0]["path"] == "app.py"
    capped = toolbox.call("search_files", {"pattern": "e", "limit": 1})
    assert capped.data["truncated"] and "stopped at the 1 matching lines" in capped.text
    bad = toolbox.call("search_files", {"pattern": "(", "regex": True})
    assert not bad.ok and bad.error is not None and bad.error.field == "pattern"
    none = toolbox.call("search_files", {"pattern": "nowhere"})
    assert none.ok and none.text.startswith("No line matches")


def test_search_stops_at_its_time_limit(make_toolbox: Callable[..., Toolbox], root: Path) -> None:
    _tree(root)
    toolbox = make_toolbox(preset="default")
    ticks = iter(range(100))  # a clock that moves one second per look

    found = search(toolbox.workspace, "", re.compile("helper"), glob=None, limit=50,
                   seconds=2, clock=lambda: float(next(ticks)))  # fmt: skip
    assert found.stopped == "time limit of 2 s" and found.files_searched < 5
