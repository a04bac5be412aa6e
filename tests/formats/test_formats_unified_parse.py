"""Unified-diff parsing cases that are clearer in code than as fixture files."""

from __future__ import annotations

import time

import pytest

from patchwright.formats import parse_unified
from patchwright.formats._diff_paths import (
    binary_line_paths,
    git_line_paths,
    header_path,
    strip_prefixes,
    unquote_c,
)
from patchwright.model import ErrorCode, FileAction, Hunk, HunkLine, PatchwrightError


def _hunks(text: str, file_index: int = 0) -> list[Hunk]:
    fp = parse_unified(text).files[file_index]
    hunks = [e.anchor for e in fp.edits]
    assert all(isinstance(h, Hunk) for h in hunks)
    return hunks  # type: ignore[return-value]


def test_crlf_endings_are_dropped_but_inner_carriage_returns_kept() -> None:
    text = "--- a/x\r\n+++ b/x\r\n@@ -1,2 +1,2 @@\r\n a\rb\r\n-c\r\n+d\r\n"
    (hunk,) = _hunks(text)
    assert hunk.lines == (HunkLine(" ", "a\rb"), HunkLine("-", "c"), HunkLine("+", "d"))
    assert parse_unified(text).warnings == ()


def test_leading_bom_is_ignored() -> None:
    ps = parse_unified("\ufeff--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n")
    assert ps.files[0].path == "x"


def test_last_line_without_newline_is_read() -> None:
    (hunk,) = _hunks("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b")
    assert hunk.new_lines == ["b"]


@pytest.mark.parametrize("text", ["", "\n\n", "\ufeff"])
def test_empty_text_is_a_parse_error(text: str) -> None:
    with pytest.raises(PatchwrightError) as info:
        parse_unified(text)
    assert info.value.code is ErrorCode.PARSE_ERROR


def test_non_text_input_is_a_parse_error() -> None:
    with pytest.raises(PatchwrightError) as info:
        parse_unified(b"--- a/x\n")  # type: ignore[arg-type]
    assert info.value.code is ErrorCode.PARSE_ERROR
    assert "bytes" in info.value.message


def test_file_header_after_hunk_with_counts_too_high_starts_next_file() -> None:
    text = "--- a/x\n+++ b/x\n@@ -1,9 +1,9 @@\n-a\n+b\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-c\n+d\n"
    ps = parse_unified(text)
    assert [f.path for f in ps.files] == ["x", "y"]
    assert ps.files[0].edits[0].anchor == Hunk(
        lines=(HunkLine("-", "a"), HunkLine("+", "b")),
        old_start=1,
        old_count=1,
        new_start=1,
        new_count=1,
        source_line=3,
    )


def test_unprefixed_lines_in_a_numberless_hunk_are_context() -> None:
    ps = parse_unified("--- a/x\n+++ b/x\n@@\n a\nb\n\nc\n-d\n+e\n")
    (hunk,) = _hunks("--- a/x\n+++ b/x\n@@\n a\nb\n\nc\n-d\n+e\n")
    assert hunk.old_lines == ["a", "b", "", "c", "d"]
    assert len(ps.warnings) == 2  # b and c; the empty line is a blank context line


def test_unprefixed_text_at_hunk_end_is_not_taken() -> None:
    (hunk,) = _hunks("--- a/x\n+++ b/x\n@@\n a\n-b\n+c\nThat's the change.\n")
    assert hunk.old_lines == ["a", "b"]


def test_empty_lines_between_prefixed_lines_after_complete_counts_are_context() -> None:
    # The counts say the hunk ended, but more hunk lines follow the blank line.
    (hunk,) = _hunks("--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+b\n\n c\n")
    assert hunk.lines[-2:] == (HunkLine(" ", ""), HunkLine(" ", "c"))


def test_marker_before_any_line_is_ignored_with_a_warning() -> None:
    ps = parse_unified("--- a/x\n+++ b/x\n@@\n\\ No newline at end of file\n-a\n+b\n")
    hunk = ps.files[0].edits[0].anchor
    assert isinstance(hunk, Hunk)
    assert not hunk.no_newline_old
    assert not hunk.no_newline_new
    assert "marker before any hunk line" in ps.warnings[0]


def test_localised_no_newline_marker_is_understood() -> None:
    (hunk,) = _hunks("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n\\ Kein Zeilenumbruch am Dateiende.\n+b\n")
    assert hunk.no_newline_old
    assert not hunk.no_newline_new


def test_section_heading_is_not_an_anchor() -> None:
    (hunk,) = _hunks("--- a/x\n+++ b/x\n@@ -3,1 +3,1 @@ def f():\n-a\n+b\n")
    assert hunk.anchors == ()
    assert hunk.old_start == 3


def test_new_file_from_several_hunks() -> None:
    ps = parse_unified("--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+a\n@@ -0,0 +2 @@\n+b\n")
    assert ps.files[0].action is FileAction.CREATE
    assert ps.files[0].content == "a\nb\n"


def test_git_line_alone_is_refused() -> None:
    with pytest.raises(PatchwrightError) as info:
        parse_unified("diff --git a/x b/x\n")
    assert info.value.code is ErrorCode.PARSE_ERROR
    assert info.value.line == 1


def test_git_line_with_no_paths_and_no_headers_is_refused() -> None:
    with pytest.raises(PatchwrightError) as info:
        parse_unified("diff --git \nnew file mode 100644\n")
    assert "names no file" in info.value.message


def test_delete_with_no_hunks_and_plain_headers() -> None:
    ps = parse_unified("--- a/gone.txt\n+++ /dev/null\n")
    assert ps.files[0].action is FileAction.DELETE
    assert ps.files[0].path == "gone.txt"


def test_unified_diff_inside_a_v4a_envelope_is_still_found() -> None:
    ps = parse_unified("*** Begin Patch\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n")
    assert ps.files[0].path == "x"


def test_many_hunks_are_numbered_in_order() -> None:
    body = "".join(f"@@ -{k},1 +{k},1 @@\n-{k}\n+{k}!\n" for k in range(1, 51))
    ps = parse_unified("--- a/x\n+++ b/x\n" + body)
    assert [e.label for e in ps.files[0].edits] == [f"hunk {k}" for k in range(1, 51)]


@pytest.mark.parametrize(
    "header",
    ["a" + " " * 100_000 + "b", "a" + " " * 100_000, "a" + " 2024-01-01" * 10_000],
)
def test_long_blank_runs_in_headers_parse_in_linear_time(header: str) -> None:
    # A timestamp pattern tried at every blank of a long run would take minutes.
    start = time.perf_counter()
    ps = parse_unified(f"--- a/{header}\n+++ b/x\n@@\n-a\n+b\n")
    assert ps.files[0].path == "x"
    assert time.perf_counter() - start < 2.0


# path helpers --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "path"),
    [
        ("a/x.py", "a/x.py"),
        ("a/x.py\t2024-01-01 00:00:00.000000000 +0000", "a/x.py"),
        ("a/my file.py  2024-01-01 10:00:00", "a/my file.py"),
        ("a/x.py  2024-01-01T10:00:00Z", "a/x.py"),
        ("x.c\tMon Jan  1 10:00:00 2024", "x.c"),
        ("old.c  Mon Jan  1 10:00:00 2024", "old.c"),
        ("a/x.py   ", "a/x.py"),
        ("/dev/null", None),
        ("/dev/null\t1970-01-01 00:00:00 +0000", None),
        ('"a/tab\\there"', "a/tab\there"),
    ],
)
def test_header_path(raw: str, path: str | None) -> None:
    assert header_path(raw, 1) == path


def test_unquote_all_escapes() -> None:
    decoded, end = unquote_c('"\\a\\b\\t\\n\\v\\f\\r\\"\\\\\\303\\251" rest', 0, 1)
    assert decoded == '\a\b\t\n\v\f\r"\\é'
    assert end == len('"\\a\\b\\t\\n\\v\\f\\r\\"\\\\\\303\\251"')


def test_unquote_backslash_at_end_is_unterminated() -> None:
    with pytest.raises(PatchwrightError):
        unquote_c('"abc\\', 0, 4)


@pytest.mark.parametrize(
    ("old", "new", "git", "expected"),
    [
        ("a/x", "b/x", False, ("x", "x")),
        ("a/x", "a/x", False, ("a/x", "a/x")),
        (None, "b/x", False, (None, "x")),
        ("a/x", None, False, ("x", None)),
        ("x", "b/x", True, ("x", "x")),
        ("x", "y", False, ("x", "y")),
    ],
)
def test_strip_prefixes(
    old: str | None, new: str | None, git: bool, expected: tuple[str | None, str | None]
) -> None:
    assert strip_prefixes(old, new, git_prefixed=git) == expected


@pytest.mark.parametrize(
    ("rest", "expected"),
    [
        ("a/x b/x", ("a/x", "b/x")),
        ("a/my file b/my file", ("a/my file", "b/my file")),
        ("a/old b/new", ("a/old", "b/new")),
        ('"a/t\\tx" "b/t\\tx"', ("a/t\tx", "b/t\tx")),
        ('a/plain "b/q\\"uote"', ("a/plain", 'b/q"uote')),
        ('"a/q" b/plain', ("a/q", "b/plain")),
        ('"a/only"', None),
        ("nothing", None),
    ],
)
def test_git_line_paths(rest: str, expected: tuple[str, str] | None) -> None:
    assert git_line_paths(rest, 1) == expected


def test_binary_line_paths() -> None:
    assert binary_line_paths("Binary files a/x and /dev/null differ") == ("a/x", None)
    assert binary_line_paths("Binary files differ") is None


def test_plain_binary_lines() -> None:
    ps = parse_unified(
        "Binary files a/x.png and b/x.png differ\nBinary files a/y.png and /dev/null differ\n"
    )
    assert [(f.path, f.action, f.binary) for f in ps.files] == [
        ("x.png", FileAction.UPDATE, True),
        ("y.png", FileAction.DELETE, True),
    ]


def test_binary_line_without_names_is_refused() -> None:
    with pytest.raises(PatchwrightError) as info:
        parse_unified("Binary files differ\n")
    assert info.value.line == 1
