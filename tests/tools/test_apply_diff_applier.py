"""Spec 002 verification, ``test_applier.py``: strict / tolerant / fuzzy application."""

from __future__ import annotations

from pathlib import Path

from tool_helpers import ok, refused, write

from patchwright.model import ErrorCode
from patchwright.tools import Toolbox

CODE = "def f():\n    a = 1\n    b = 2\n    return a + b\n"
DIFF = (
    "--- a/c.py\n+++ b/c.py\n@@ -1,4 +1,4 @@\n"
    " def f():\n     a = 1\n-    b = 2\n+    b = 3\n     return a + b\n"
)


def test_strict_exact_match(toolbox: Toolbox, root: Path) -> None:
    write(root, "c.py", CODE)
    result = ok(toolbox, "apply_diff", diff=DIFF, target="c.py", mode="strict")
    assert result.text.startswith("Applied patch to c.py: 1 hunk applied")
    assert (root / "c.py").read_text() == CODE.replace("b = 2", "b = 3")


def test_strict_context_mismatch(toolbox: Toolbox, root: Path) -> None:
    write(root, "c.py", CODE.replace("    a = 1", "    a = 1  "))
    result = refused(toolbox, "apply_diff", diff=DIFF, target="c.py", mode="strict")
    assert result.error is not None and result.error.code is ErrorCode.NOT_FOUND
    assert result.text.startswith(
        "Patch failed on c.py:\n  Hunk 1 failed: context mismatch at line 2"
    )
    assert '    Expected: "    a = 1"' in result.text
    assert '    Found:    "    a = 1  "' in result.text
    assert "No changes made (atomic rollback)." in result.text


def test_tolerant_whitespace(toolbox: Toolbox, root: Path) -> None:
    write(root, "c.py", CODE.replace("    a = 1", "    a = 1  "))
    ok(toolbox, "apply_diff", diff=DIFF, target="c.py", mode="tolerant")
    # the context line keeps the file's own bytes (its trailing blanks)
    assert (root / "c.py").read_text() == "def f():\n    a = 1  \n    b = 3\n    return a + b\n"


def test_fuzzy_threshold(toolbox: Toolbox, root: Path) -> None:
    text = "".join(f"line number {i} of the file\n" for i in range(1, 21))
    drifted = text.replace("line number 10 of the file", "line numbr 10 of the fil")
    diff = (
        "--- a/f.txt\n+++ b/f.txt\n@@ -9,3 +9,3 @@\n line number 9 of the file\n"
        " line number 10 of the file\n-line number 11 of the file\n+LINE ELEVEN\n"
    )
    write(root, "f.txt", drifted)
    refused(toolbox, "apply_diff", diff=diff, target="f.txt", mode="tolerant")
    refused(toolbox, "apply_diff", diff=diff, target="f.txt", mode="fuzzy", fuzzy_threshold=0.99)
    result = ok(toolbox, "apply_diff", diff=diff, target="f.txt", mode="fuzzy", fuzzy_threshold=0.8)
    assert "Warning: Hunk 1 applied via fuzzy match" in result.text
    assert (root / "f.txt").read_text() == drifted.replace(
        "line number 11 of the file", "LINE ELEVEN"
    )
    bad = refused(
        toolbox, "apply_diff", diff=diff, target="f.txt", mode="fuzzy", fuzzy_threshold=0.3
    )
    assert bad.error is not None and bad.error.field == "fuzzy_threshold"


def test_offset_tracking(toolbox: Toolbox, root: Path) -> None:
    text = "".join(f"{i}\n" for i in range(1, 61))
    diff = (
        "--- a/n.txt\n+++ b/n.txt\n"
        "@@ -10,3 +10,5 @@\n 9\n+9a\n+9b\n 10\n 11\n"  # hunk 1 adds 2 lines
        "@@ -50,3 +52,2 @@\n 50\n-51\n 52\n"  # hunk 2 now sits 2 lines lower
    )
    write(root, "n.txt", text)
    result = ok(toolbox, "apply_diff", diff=diff, target="n.txt")
    lines = (root / "n.txt").read_text().splitlines()
    assert lines[9:11] == ["9a", "9b"] and "51" not in lines and len(lines) == 61
    assert [h["old_lines"] for h in result.data["hunks"]] == [[9, 11], [50, 52]]


def test_rollback_on_failure(toolbox: Toolbox, root: Path) -> None:
    text = "".join(f"{i}\n" for i in range(1, 31))
    diff = (
        "--- a/n.txt\n+++ b/n.txt\n@@ -2,3 +2,3 @@\n 2\n-3\n+three\n 4\n"
        "@@ -10,3 +10,3 @@\n 10\n-11\n+eleven\n 12\n"
        "@@ -20,3 +20,3 @@\n 20\n-twenty-one\n+21!\n 22\n"
    )
    write(root, "n.txt", text)
    result = refused(toolbox, "apply_diff", diff=diff, target="n.txt", mode="strict")
    assert "  Hunks 1-2: would have applied; nothing was written\n  Hunk 3 failed" in result.text
    assert result.error is not None and result.error.details["failed_hunk"] == 3
    assert (root / "n.txt").read_text() == text
