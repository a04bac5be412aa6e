"""Simultaneous and sequential composition, anchors other than text, and diffs."""

from __future__ import annotations

import pytest
from engine_helpers import run

from patchwright.engine import apply_edits, apply_file_patch, unified_diff
from patchwright.model import (
    BeginningOfFile,
    Composition,
    Edit,
    EndOfFile,
    ErrorCode,
    FileAction,
    FilePatch,
    LineRange,
    OldText,
    PatchwrightError,
    TextFile,
    WholeFile,
)

TEXT = "alpha\nbeta\ngamma\ndelta\n"
SIM = Composition.SIMULTANEOUS


def test_simultaneous_edits_resolve_against_original() -> None:
    out = run(TEXT, Edit(OldText("alpha"), "beta"), Edit(OldText("beta"), "B"), composition=SIM)
    assert out == "beta\nB\ngamma\ndelta\n"


def test_sequential_edits_see_previous_result() -> None:
    out = run(TEXT, Edit(OldText("alpha"), "omega"), Edit(OldText("omega\nbeta"), "x\ny"))
    assert out == "x\ny\ngamma\ndelta\n"


def test_simultaneous_overlap_names_both_edits() -> None:
    with pytest.raises(PatchwrightError) as info:
        run(
            TEXT,
            Edit(OldText("beta\ngamma"), "x", label="patches[0]"),
            Edit(OldText("gamma\ndelta"), "y", label="patches[1]"),
            composition=SIM,
        )
    err = info.value
    assert err.code == ErrorCode.OVERLAP
    assert "patches[0]" in err.message and "patches[1]" in err.message


def test_sequential_failure_changes_nothing_and_names_edit() -> None:
    f = TextFile.from_text(TEXT)
    with pytest.raises(PatchwrightError) as info:
        apply_edits(f, [Edit(OldText("alpha"), "A"), Edit(OldText("missing text here"), "B")])
    assert info.value.details["edit_index"] == 1
    assert f.text == TEXT


def test_sequential_reports_original_line_numbers() -> None:
    result = apply_edits(
        TextFile.from_text(TEXT),
        [Edit(OldText("alpha\n"), "a1\na2\na3\n"), Edit(OldText("delta"), "D")],
    )
    assert [(r.orig_start, r.orig_end) for r in result.reports] == [(1, 1), (4, 4)]
    assert result.reports[1].old_start == 6  # where it was in the text it saw
    assert (result.reports[1].new_start, result.reports[1].new_end) == (6, 6)


def test_line_range_with_expected_lines() -> None:
    out = run(TEXT, Edit(LineRange(2, 3, ("beta", "gamma")), "B\nG\n"))
    assert out == "alpha\nB\nG\ndelta\n"
    with pytest.raises(PatchwrightError) as info:
        run(TEXT, Edit(LineRange(2, 2, ("BETA",)), "x\n"))
    assert info.value.code == ErrorCode.EXPECTED_MISMATCH
    assert "expected 'BETA', found 'beta'" in info.value.message


def test_line_range_insert_and_bounds() -> None:
    assert run(TEXT, Edit(LineRange(1, 0), "zero")) == "zero\n" + TEXT
    assert run(TEXT, Edit(LineRange(5, 4), "end")) == TEXT + "end\n"
    with pytest.raises(PatchwrightError) as info:
        run(TEXT, Edit(LineRange(9, 9), "x"))
    assert info.value.code == ErrorCode.OUT_OF_RANGE


def test_line_range_keeps_missing_final_newline() -> None:
    assert run("a\nb", Edit(LineRange(2, 2), "B")) == "a\nB"
    assert run("a\nb", Edit(LineRange(2, 2), "")) == "a"


def test_bof_eof_whole_file() -> None:
    assert run(TEXT, Edit(BeginningOfFile(), "# head")) == "# head\n" + TEXT
    assert run(TEXT, Edit(EndOfFile(), "omega\n")) == TEXT + "omega\n"
    assert run("x", Edit(EndOfFile(), "y")) == "x\ny"
    assert run(TEXT, Edit(WholeFile(), "new\n")) == "new\n"


def test_new_lines_take_dominant_newline() -> None:
    out = run(b"a\r\nb\r\n", Edit(OldText("a"), "x\ny"))
    assert out == "x\r\ny\r\nb\r\n"


def test_bom_and_utf16_survive_edits() -> None:
    data = "\ufeffname = 'x'\r\n".encode("utf-16-le")
    f = TextFile.decode(b"\xff\xfe" + data[2:])
    result = apply_edits(f, [Edit(OldText("'x'"), "'y'")])
    assert result.file.encode() == b"\xff\xfe" + "name = 'y'\r\n".encode("utf-16-le")


def test_file_patch_create_delete_update() -> None:
    created, _ = apply_file_patch(None, FilePatch("n.txt", FileAction.CREATE, content="hi\n"))
    assert created is not None and created.text == "hi\n"
    with pytest.raises(PatchwrightError) as info:
        apply_file_patch(TextFile.from_text("x"), FilePatch("n.txt", FileAction.CREATE, content=""))
    assert info.value.code == ErrorCode.FILE_EXISTS
    with pytest.raises(PatchwrightError) as info:
        apply_file_patch(None, FilePatch("n.txt", FileAction.DELETE))
    assert info.value.code == ErrorCode.FILE_NOT_FOUND
    gone, _ = apply_file_patch(TextFile.from_text("x"), FilePatch("n.txt", FileAction.DELETE))
    assert gone is None
    made, _ = apply_file_patch(None, FilePatch("n.txt", edits=(Edit(OldText(""), "new\n"),)))
    assert made is not None and made.text == "new\n"


def test_unified_diff_rendering() -> None:
    diff = unified_diff("a\nb\nc\n", "a\nB\nc", "a/f", "b/f")
    assert diff == (
        "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n-c\n+B\n+c\n\\ No newline at end of file\n"
    )
    assert unified_diff("same\n", "same\n") == ""
    assert unified_diff("", "x\n", "a/n", "b/n") == "--- a/n\n+++ b/n\n@@ -0,0 +1 @@\n+x\n"


def test_unified_diff_separates_distant_hunks() -> None:
    old = "".join(f"{i}\n" for i in range(30))
    new = old.replace("2\n", "two\n", 1).replace("25\n", "twenty-five\n")
    diff = unified_diff(old, new)
    assert diff.count("@@ -") == 2
    assert "@@ -1,6 +1,6 @@" in diff and "@@ -23,7 +23,7 @@" in diff
