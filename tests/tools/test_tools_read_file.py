"""read_file: numbered lines, the facts edits need, paging without silent truncation."""

from __future__ import annotations

import codecs
from collections.abc import Callable
from pathlib import Path

from tool_helpers import ok, refused, sha, write

from patchwright.model import ErrorCode
from patchwright.tools import Toolbox


def test_numbered_lines_and_facts(toolbox: Toolbox, root: Path) -> None:
    data = b"alpha\n\tbeta\ngamma\n"
    write(root, "src/a.py", data)
    result = ok(toolbox, "read_file", path="src/a.py")
    assert result.text == (
        f"path: src/a.py\nsha256: {sha(data)}\nlines: 3 (showing 1-3)\n"
        "newline: lf; encoding: utf-8\n     1\talpha\n     2\t\tbeta\n     3\tgamma"
    )
    facts = result.data
    assert (facts["sha256"], facts["line_count"], facts["size"]) == (sha(data), 3, len(data))
    assert (facts["newline"], facts["ends_with_newline"], facts["encoding"], facts["bom"]) == (
        "lf",
        True,
        "utf-8",
        False,
    )
    assert facts["next_start_line"] is None and facts["truncated"] is False


def test_line_range(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "".join(f"l{i}\n" for i in range(1, 11)))
    result = ok(toolbox, "read_file", path="a.txt", start_line=4, end_line=6)
    assert result.text.endswith("     4\tl4\n     5\tl5\n     6\tl6")
    assert "lines: 10 (showing 4-6)" in result.text
    assert (result.data["start_line"], result.data["end_line"]) == (4, 6)
    past = refused(toolbox, "read_file", path="a.txt", start_line=11)
    assert past.error is not None and past.error.code is ErrorCode.OUT_OF_RANGE
    backwards = refused(toolbox, "read_file", path="a.txt", start_line=5, end_line=2)
    assert backwards.error is not None and backwards.error.field == "end_line"


def test_large_files_are_paged_never_silently_cut(toolbox: Toolbox, root: Path) -> None:
    write(root, "big.txt", "".join(f"line {i}\n" for i in range(1, 2501)))
    first = ok(toolbox, "read_file", path="big.txt")
    assert first.data["end_line"] == 2000 and first.data["next_start_line"] == 2001
    assert first.text.endswith(
        "[lines 2001-2500 not shown: call read_file again with start_line=2001]"
    )
    second = ok(toolbox, "read_file", path="big.txt", start_line=2001)
    assert second.data["end_line"] == 2500 and second.data["next_start_line"] is None
    small = ok(toolbox, "read_file", path="big.txt", limit=10)
    assert small.data["end_line"] == 10 and small.data["truncated"] is True
    wide = "x" * 60_000
    write(root, "wide.txt", f"{wide}\n{wide}\n{wide}\n")
    page = ok(toolbox, "read_file", path="wide.txt")
    assert page.data["end_line"] == 1 and page.data["next_start_line"] == 2
    assert wide in page.text  # a line is never shortened


def test_crlf_bom_and_no_final_newline(toolbox: Toolbox, root: Path) -> None:
    write(root, "w.txt", codecs.BOM_UTF8 + b"a\r\nb")
    facts = ok(toolbox, "read_file", path="w.txt").data
    assert (facts["newline"], facts["ends_with_newline"], facts["bom"]) == ("crlf", False, True)
    write(root, "m.txt", b"a\r\nb\nc\n")
    assert ok(toolbox, "read_file", path="m.txt").data["newline"] == "mixed"
    write(root, "e.txt", b"")
    empty = ok(toolbox, "read_file", path="e.txt")
    assert "lines: 0 (the file is empty)" in empty.text and empty.data["line_count"] == 0


def test_path_letter_case_and_refusals(toolbox: Toolbox, root: Path) -> None:
    write(root, "Src/Main.py", "x\n")
    result = ok(toolbox, "read_file", path="src/main.py")
    assert result.data["path"] == "Src/Main.py" and result.data["requested_path"] == "src/main.py"
    missing = refused(toolbox, "read_file", path="nope.py")
    assert missing.error is not None and missing.error.code is ErrorCode.FILE_NOT_FOUND
    write(root, "bin.dat", b"\x00\x01\x02")
    binary = refused(toolbox, "read_file", path="bin.dat")
    assert binary.error is not None and binary.error.code is ErrorCode.BINARY_FILE
    outside = refused(toolbox, "read_file", path="../secret")
    assert outside.error is not None and outside.error.code is ErrorCode.PATH_OUTSIDE_ROOT


def test_read_is_allowed_in_restricted_mode(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    write(root, "a.txt", "x\n")
    assert make_toolbox(mode="restricted").call("read_file", {"path": "a.txt"}).ok
