"""Old texts found only when read loosely: over-escaped, other blanks inside lines, a
sub-line text without the blanks at its lines' edges. One copy is taken with what was
assumed in the report; several copies, or a reading that is not one-sided, are refused
with what was found where."""

from __future__ import annotations

import pytest

from patchwright.engine import MatchOptions, apply_edits
from patchwright.model import Edit, ErrorCode, OldText, PatchwrightError, TextFile
from patchwright.model.reports import Rung


def _edit(text: str, old: str, new: str, mode: str = "fuzzy") -> tuple[str, list[str]]:
    result = apply_edits(
        TextFile.from_text(text),
        [Edit(OldText(old, replace_all_supported=True), new, label="Edit 1")],
        options=MatchOptions(mode=mode),  # type: ignore[arg-type]
    )
    assert all(r.rung == Rung.BLANKS for r in result.reports)
    return result.file.text, [r.assumption for r in result.reports]


def _refused(text: str, old: str, new: str, mode: str = "fuzzy") -> PatchwrightError:
    with pytest.raises(PatchwrightError) as info:
        apply_edits(
            TextFile.from_text(text),
            [Edit(OldText(old, replace_all_supported=True), new, label="Edit 1")],
            options=MatchOptions(mode=mode),  # type: ignore[arg-type]
        )
    return info.value


def test_over_escaped_text_is_read_unescaped() -> None:
    out, assumed = _edit(
        "def f():\n    print('a')\n    x = 1\n",
        "print(\\'a\\')\\n    x = 1",
        "print(\\'b\\')\\n    x = 2",
    )
    assert out == "def f():\n    print('b')\n    x = 2\n"
    assert assumed == ["over-escaped text read unescaped (\\', \\n)"]


def test_over_escaped_text_is_refused_where_the_file_has_such_escapes() -> None:
    # the file writes "\n" itself: an escaped old text may mean either
    err = _refused("a = \"x\\n\"\nprint('a')\nb = 1\n", "print(\\'a\\')\\nb = 1", "c")
    assert err.code == ErrorCode.NOT_FOUND


def test_runs_of_blanks_inside_a_line_are_collapsed() -> None:
    out, assumed = _edit("def f():\n    x = foo(a, b) + 1\n", "foo(a,  b)", "foo(a, c)")
    assert out == "def f():\n    x = foo(a, c) + 1\n"
    assert assumed == ["runs of blanks inside lines ignored"]


def test_collapsed_blanks_matching_twice_are_refused_naming_both_lines() -> None:
    err = _refused("x = foo(a, b)\ny = foo(a, b)\n", "foo(a,  b)", "foo(a, c)")
    assert err.code == ErrorCode.NOT_FOUND
    assert "occurs 2 times (lines 1, 2)" in err.message


def test_blanks_removed_inside_a_line_are_told_not_taken() -> None:
    err = _refused("def f():\n    x = foo(a,b) + 1\n", "foo(a, b)", "foo(a, c)")
    assert err.code == ErrorCode.NOT_FOUND
    assert "stands at line 2 as 'foo(a,b)'" in err.message


def test_sub_line_text_without_its_edge_blanks_keeps_the_file_indentation() -> None:
    out, assumed = _edit("x = call(a,\n         b)\ny = 2\n", "call(a,\nb)", "call(a,\nc)")
    assert out == "x = call(a,\n         c)\ny = 2\n"
    assert assumed == ["blanks at the edges of the lines it spans ignored"]


def test_sub_line_text_with_other_line_count_is_refused() -> None:
    err = _refused("x = call(a,\n         b)\ny = 2\n", "call(a,\nb)", "call(a,\nc,\nd)")
    assert err.code == ErrorCode.NOT_FOUND
    assert "stands at line 1" in err.message and "another number of lines" in err.message


def test_strict_mode_tells_but_does_not_take() -> None:
    err = _refused("x = foo(a, b) + 1\n", "foo(a,  b)", "foo(a, c)", mode="strict")
    assert err.code == ErrorCode.NOT_FOUND
    assert "with runs of blanks inside lines ignored it stands at line 1" in err.message
