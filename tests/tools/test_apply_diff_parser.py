"""Spec 002 verification, ``test_parser.py``: unified diffs as ``apply_diff`` reads them.

Each test parses with the formats layer (what the tool uses) and applies through the
tool, so a parsing fault shows up as a wrong file, not only as a wrong object.
"""

from __future__ import annotations

from pathlib import Path

from tool_helpers import ok, refused, write

from patchwright.formats import parse_unified
from patchwright.model import ErrorCode, FileAction, Hunk
from patchwright.tools import Toolbox

SIMPLE = """--- a/foo.py
+++ b/foo.py
@@ -1,3 +1,4 @@
 import os
+import sys

 def main():
"""


def _hunks(text: str) -> list[Hunk]:
    files = parse_unified(text).files
    return [e.anchor for f in files for e in f.edits if isinstance(e.anchor, Hunk)]


def test_parse_simple_hunk(toolbox: Toolbox, root: Path) -> None:
    (hunk,) = _hunks(SIMPLE)
    assert (hunk.old_start, hunk.old_count, hunk.new_start, hunk.new_count) == (1, 3, 1, 4)
    assert [hl.op for hl in hunk.lines] == [" ", "+", " ", " "]
    write(root, "foo.py", "import os\n\ndef main():\n    pass\n")
    ok(toolbox, "apply_diff", diff=SIMPLE, target="foo.py")
    assert (root / "foo.py").read_text() == "import os\nimport sys\n\ndef main():\n    pass\n"


def test_parse_multiple_hunks(toolbox: Toolbox, root: Path) -> None:
    diff = (
        "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
        "@@ -8,3 +8,3 @@\n h\n-i\n+I\n j\n"
    )
    assert len(_hunks(diff)) == 2
    write(root, "f.txt", "".join(f"{c}\n" for c in "abcdefghij"))
    result = ok(toolbox, "apply_diff", diff=diff, target="f.txt")
    assert result.text.startswith("Applied patch to f.txt: 2 hunks applied")
    assert (root / "f.txt").read_text() == "a\nB\nc\nd\ne\nf\ng\nh\nI\nj\n"


def test_parse_git_format(toolbox: Toolbox, root: Path) -> None:
    diff = (
        "diff --git a/src/m.py b/src/m.py\nindex 83db48f..bf269f4 100644\n"
        "--- a/src/m.py\n+++ b/src/m.py\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3\n"
    )
    (fp,) = parse_unified(diff).files
    assert fp.path == "src/m.py" and fp.action is FileAction.UPDATE
    write(root, "src/m.py", "x = 1\ny = 2\n")
    ok(toolbox, "apply_diff", diff=diff, target="src/m.py")
    assert (root / "src/m.py").read_text() == "x = 1\ny = 3\n"


def test_parse_context_only(toolbox: Toolbox, root: Path) -> None:
    diff = "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n b\n"
    (hunk,) = _hunks(diff)
    assert all(hl.op == " " for hl in hunk.lines)
    write(root, "f.txt", "a\nb\n")
    result = ok(toolbox, "apply_diff", diff=diff, target="f.txt")
    assert "batch_id" not in result.data  # nothing to write
    assert "nothing written" in result.text
    assert (root / "f.txt").read_text() == "a\nb\n"
    assert result.diff == ""


def test_malformed_header(toolbox: Toolbox, root: Path) -> None:
    write(root, "m.py", "a\nb\nc\n")
    # unreadable numbers are tolerated: the hunk is located by its content
    ok(
        toolbox,
        "apply_diff",
        diff="--- a/m.py\n+++ b/m.py\n@@ -x,3 +1,y @@\n a\n-b\n+B\n",
        target="m.py",
    )
    assert (root / "m.py").read_text() == "a\nB\nc\n"
    # a header with no body is a graceful refusal naming the line
    broken = refused(
        toolbox,
        "apply_diff",
        target="m.py",
        diff="--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n@@ -5,2 +5,2 @@\n a\n",
    )
    assert broken.error is not None and broken.error.code is ErrorCode.PARSE_ERROR
    assert broken.error.line == 3
    assert (root / "m.py").read_text() == "a\nB\nc\n"


def test_no_newline_at_eof(toolbox: Toolbox, root: Path) -> None:
    diff = "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"
    (hunk,) = _hunks(diff)
    assert hunk.no_newline_old and not hunk.no_newline_new
    write(root, "f.txt", "a\nb")
    ok(toolbox, "apply_diff", diff=diff, target="f.txt")
    assert (root / "f.txt").read_bytes() == b"a\nb\n"
