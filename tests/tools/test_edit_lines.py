"""Spec 002 verification, ``test_edit_lines.py``: line-number replacement."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tool_helpers import ok, refused, write

from patchwright.model import ErrorCode
from patchwright.tools import Toolbox
from patchwright.tools.file_edits.edit_lines import STRING_PARAMS_MESSAGE

TEXT = "one\ntwo\nthree\nfour\nfive\n"


def test_single_line_replace(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", TEXT)
    result = ok(toolbox, "edit_lines", path="a.txt", start_line=2, new_content="TWO")
    assert (root / "a.txt").read_text() == "one\nTWO\nthree\nfour\nfive\n"
    assert result.text == "Replaced line 2 of a.txt with 1 line (now line 2)."
    assert result.data["new_lines"] == [2, 2]


def test_range_replace(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", TEXT)
    ok(toolbox, "edit_lines", path="a.txt", start_line=2, end_line=4, new_content="X\nY\n")
    assert (root / "a.txt").read_text() == "one\nX\nY\nfive\n"
    deleted = ok(toolbox, "edit_lines", path="a.txt", start_line=2, end_line=3, new_content="")
    assert deleted.text == "Deleted lines 2-3 of a.txt."
    assert (root / "a.txt").read_text() == "one\nfive\n"


def test_start_line_validation(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", TEXT)
    for bad in (0, -3):
        result = refused(toolbox, "edit_lines", path="a.txt", start_line=bad, new_content="x")
        assert result.error is not None and result.error.field == "start_line"
        assert "start_line must be >= 1" in result.text
    assert (root / "a.txt").read_text() == TEXT


def test_end_line_validation(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", TEXT)
    result = refused(toolbox, "edit_lines", path="a.txt", start_line=4, end_line=2, new_content="x")
    assert result.error is not None and result.error.field == "end_line"
    assert "end_line (2) must be >= start_line (4)" in result.text


def test_line_out_of_bounds(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", TEXT)
    start = refused(toolbox, "edit_lines", path="a.txt", start_line=6, new_content="x")
    assert start.error is not None and start.error.code is ErrorCode.OUT_OF_RANGE
    assert "start_line 6 is beyond the end of a.txt, which has 5 lines" in start.text
    end = refused(toolbox, "edit_lines", path="a.txt", start_line=4, end_line=9, new_content="x")
    assert end.error is not None and end.error.field == "end_line"
    assert (root / "a.txt").read_text() == TEXT


def test_newline_handling(toolbox: Toolbox, root: Path) -> None:
    # a missing final newline in new_content is supplied
    write(root, "a.txt", "a\nb\nc\n")
    ok(toolbox, "edit_lines", path="a.txt", start_line=2, new_content="B")
    assert (root / "a.txt").read_bytes() == b"a\nB\nc\n"
    # the file's own newline style is used (CRLF)
    write(root, "crlf.txt", "a\r\nb\r\nc\r\n")
    ok(toolbox, "edit_lines", path="crlf.txt", start_line=2, new_content="B1\nB2\n")
    assert (root / "crlf.txt").read_bytes() == b"a\r\nB1\r\nB2\r\nc\r\n"
    # replacing the last line of a file without a final newline keeps it without one
    write(root, "noeol.txt", "a\nb")
    ok(toolbox, "edit_lines", path="noeol.txt", start_line=2, new_content="B\n")
    assert (root / "noeol.txt").read_bytes() == b"a\nB"


def test_rejects_string_params(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", TEXT)
    result = refused(
        toolbox, "edit_lines", path="a.txt", start_line=1, new_content="x", old_string="one"
    )
    assert result.error is not None and result.error.message == STRING_PARAMS_MESSAGE
    assert result.error.field == "old_string"
    assert "Use edit_file(path, old_string, new_string)" in result.text
    assert (root / "a.txt").read_text() == TEXT


def test_line_out_of_bounds_hint_names_only_tools_the_host_exposes(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    write(root, "a.txt", TEXT)
    call = {"path": "a.txt", "start_line": 6, "new_content": "six"}
    # every tool exposed: the spec 000 patch tool can append
    every = make_toolbox().call("edit_lines", call)
    assert every.error is not None and every.error.code is ErrorCode.OUT_OF_RANGE
    assert "replace line 5 (start_line=5) with its current text followed by" in every.error.hint
    assert "patch with operation append_eof" in every.error.hint
    # renamed: the hint uses the exposed name
    renamed = make_toolbox(rename={"patch": "patch_file"}).call("edit_lines", call)
    assert renamed.error is not None
    assert "patch_file with operation append_eof" in renamed.error.hint
    # hidden, with another tool exposed as "patch" (spec 002's diff tool): no append_eof
    for toolbox in (
        make_toolbox(tools=["read_file", "edit_file", "edit_lines"]),
        make_toolbox(tools=["edit_lines", "apply_diff"], rename={"apply_diff": "patch"}),
    ):
        hidden = toolbox.call("edit_lines", call)
        assert hidden.error is not None and hidden.error.code is ErrorCode.OUT_OF_RANGE
        assert "append_eof" not in hidden.text and "edit_file" not in hidden.text
        assert "replace line 5" in hidden.error.hint
    assert (root / "a.txt").read_text() == TEXT


def test_line_out_of_bounds_in_an_empty_file(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    write(root, "e.txt", "")
    call = {"path": "e.txt", "start_line": 1, "new_content": "x"}
    hidden = make_toolbox(tools=["edit_lines"]).call("edit_lines", call)
    assert hidden.error is not None and hidden.error.code is ErrorCode.OUT_OF_RANGE
    assert "which has 0 lines" in hidden.text
    assert "The file is empty" in hidden.error.hint and "replace line" not in hidden.error.hint
    shown = make_toolbox().call("edit_lines", call)
    assert shown.error is not None and "patch with operation append_eof" in shown.error.hint
