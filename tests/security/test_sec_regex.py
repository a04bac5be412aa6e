"""Patterns from a request or a committed file match in bounded time (issue 34, item 3).

``search_files`` with ``(a+)+$`` against 28 ``a``\\ s took 13 s, and a 14-pair
``*a*a...*b`` glob (or the same line in ``.gitignore``) over 90 s, with the whole server
stalled: one backtracking match cannot be interrupted. Every such pattern now matches
with RE2 (``workspace/patterns.py``), in time linear in the text. The slow cases below
use inputs on which a backtracking engine needs about 2**60 steps, so they finish only
with a linear engine; each runs in a child process so that, should that ever change,
the test fails at its time-out instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from patchwright.tools import Toolbox
from patchwright.workspace import OsFileSystem, Probe, Workspace
from patchwright.workspace.globs import GlobSet

TIMEOUT = 120
GLOB = "*a" * 14 + "*b"
NAME = "a" * 60 + "c"

CHILD = """
import json, sys
from patchwright.tools import Toolbox
from patchwright.workspace import OsFileSystem, Probe, Workspace
from patchwright.workspace.globs import GlobSet
root, state, tool, args = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
if tool == "deny":
    print(json.dumps({"ok": True, "text": str(GlobSet([args["glob"]]).match(args["path"]))}))
else:
    result = Toolbox(Workspace(root, state_dir=state)).call(tool, args)
    print(json.dumps({"ok": result.ok, "text": result.text}))
"""


def _child(tmp_path: Path, tool: str, args: dict[str, object]) -> dict[str, object]:
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "root"), str(tmp_path / "state"), tool,
         json.dumps(args)],
        capture_output=True, text=True, timeout=TIMEOUT, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # RE2 logs nothing of its own
    out: dict[str, object] = json.loads(proc.stdout)
    return out


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    (folder / "a.txt").write_text("a" * 60 + "b\nplain line\n")
    (folder / NAME).write_text("x\n")
    return folder


def test_a_catastrophic_regular_expression_ends_at_once(tmp_path: Path, root: Path) -> None:
    found = _child(tmp_path, "search_files", {"pattern": "(a+)+$", "regex": True})
    assert found["ok"] and "No line matches" in str(found["text"])
    nested = _child(tmp_path, "search_files", {"pattern": "^(a|aa)+c", "regex": True})
    assert nested["ok"] and "No line matches" in str(nested["text"])


def test_a_catastrophic_glob_ends_at_once(tmp_path: Path, root: Path) -> None:
    listed = _child(tmp_path, "list_files", {"glob": GLOB})
    assert listed["ok"] and "No files" in str(listed["text"])
    denied = _child(tmp_path, "deny", {"glob": GLOB, "path": f"d/{NAME}"})
    assert denied["text"] == "None"


def test_a_catastrophic_gitignore_line_ends_at_once(tmp_path: Path, root: Path) -> None:
    (root / ".gitignore").write_text(f"{GLOB}\n*.log\n")
    (root / "x.log").write_text("log\n")
    listed = _child(tmp_path, "list_files", {})
    assert listed["ok"]
    assert str(listed["text"]).split("\n")[1:] == [".gitignore", "a.txt", NAME]


@pytest.mark.parametrize(
    ("pattern", "named", "rewrite"),
    [
        (r"(a)\1", "a backreference", "write the repeated text itself"),
        (r"(?P<q>')x(?P=q)", "a backreference", "write the repeated text itself"),
        ("foo(?=bar)", "a lookahead or lookbehind", "foo(?=bar) -> foobar"),
        ("(?<!x)foo", "a lookahead or lookbehind", "match the surrounding text"),
        ("a++b", "an atomic group or a possessive quantifier", "use the plain group"),
        ("(?>ab)c", "an atomic group or a possessive quantifier", "use the plain group"),
        (r"end\Z", "\\Z", "use \\z or $"),
    ],
)
def test_a_construct_re2_lacks_is_named_with_its_rewrite(
    tmp_path: Path, pattern: str, named: str, rewrite: str
) -> None:
    tools = Toolbox(Workspace(str(tmp_path), state_dir=str(tmp_path / ".." / "st")))
    result = tools.call("search_files", {"pattern": pattern, "regex": True})
    assert not result.ok and result.error is not None
    assert result.error.code.value == "invalid_request" and result.error.field == "pattern"
    assert f"pattern uses {named}" in result.error.message
    assert rewrite in (result.error.hint or "")


def test_regular_expressions_and_literal_text_still_match(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def Foo(a, b):\n    return a.(b)\nx = 12\n")
    tools = Toolbox(Workspace(str(tmp_path), state_dir=str(tmp_path / ".." / "st")))
    regex = tools.call("search_files", {"pattern": r"^def (\w+)\(", "regex": True})
    assert regex.ok and "m.py:1: def Foo(a, b):" in regex.text
    literal = tools.call("search_files", {"pattern": "a.(b)"})
    assert literal.ok and "m.py:2:" in literal.text and "1 matching line" in literal.text
    folded = tools.call("search_files", {"pattern": "FOO", "ignore_case": True})
    assert folded.ok and "m.py:1:" in folded.text
    broken = tools.call("search_files", {"pattern": "(unclosed", "regex": True})
    assert not broken.ok and broken.error is not None
    assert "not a valid regular expression (RE2 syntax)" in broken.error.message


def test_globs_keep_their_meaning_under_re2() -> None:
    rules = GlobSet(["**/.git", "build/", "*.[ch]", "[!a]*.txt", "my dir/*.py"])
    assert rules.match("x/.git/config") == "**/.git"
    assert rules.match("build/out/z.o") == "build/"
    assert rules.match("src/m.h") is None and rules.match("m.h") == "*.[ch]"
    assert rules.match("b.txt") == "[!a]*.txt" and rules.match("a.txt") is None
    assert rules.match("my dir/x.py") == "my dir/*.py"
    assert GlobSet([".GIT"], ignore_case=True).match(".git/HEAD") == ".GIT"


class _HeldSearch(OsFileSystem):
    """The search's read of ``held.txt`` waits until released: a search in flight."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def read_file(self, path: str, limit: int) -> Probe:
        if path.endswith("held.txt"):
            self.entered.set()
            assert self.release.wait(60)
        return super().read_file(path, limit)


def test_a_search_in_flight_holds_up_no_other_call(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "held.txt").write_text("needle\n")
    (root / "other.txt").write_text("one\n")
    fs = _HeldSearch()
    tools = Toolbox(Workspace(str(root), state_dir=str(tmp_path / "state"), fs=fs))
    found: list[object] = []
    search = threading.Thread(
        target=lambda: found.append(tools.call("search_files", {"pattern": "needle"}))
    )
    search.start()
    try:
        assert fs.entered.wait(60)
        # while the search is held mid-file, other calls (reads and writes) go through
        assert tools.call("read_file", {"path": "other.txt"}).ok
        assert tools.call("list_files", {}).ok
        edit = {"path": "other.txt", "old_string": "one", "new_string": "two"}
        assert tools.call("edit_file", edit).ok
        assert search.is_alive() and not found
    finally:
        fs.release.set()
        search.join(60)
    assert len(found) == 1 and "held.txt:1: needle" in found[0].text  # type: ignore[attr-defined]
