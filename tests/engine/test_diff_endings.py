"""The report's diff shows a change of line endings, whatever the two texts' endings.

Lines are compared without their endings when every line of a text ends alike; two
texts that end their lines alike but differently (all LF against all CRLF), or one of
them mixed, must still show each line whose ending changed, and only those.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from patchwright.api import apply_patch_text
from patchwright.engine.diff import unified_diff
from patchwright.model import TextFile


def test_all_lf_against_all_crlf_is_a_change() -> None:
    assert unified_diff("x\ny\n", "x\r\ny\r\n") == (
        "--- a\n+++ b\n@@ -1,2 +1,2 @@\n-x\n-y\n+x\r\n+y\r\n"
    )
    assert unified_diff("x\r\ny", "x\ny").startswith("--- a\n+++ b\n@@ -1,2 +1,2 @@\n-x\r\n+x\n")


def test_one_line_of_an_lf_file_given_a_crlf_shows_that_line_only() -> None:
    old = "".join(f"line {k}\n" for k in range(10))
    new = old.replace("line 5\n", "line 5\r\n")
    assert unified_diff(old, new) == (
        "--- a\n+++ b\n@@ -3,7 +3,7 @@\n line 2\n line 3\n line 4\n-line 5\n+line 5\r\n"
        " line 6\n line 7\n line 8\n"
    )


ENDINGS = st.sampled_from(["\n", "\r\n", "\r", ""])


@settings(max_examples=300)
@given(st.lists(st.tuples(st.sampled_from("abc"), ENDINGS), max_size=6), st.data())
def test_a_diff_is_empty_only_for_the_same_text(
    rows: list[tuple[str, str]], data: st.DataObject
) -> None:
    old = "".join(line + end for line, end in rows)
    new_rows = [(line, data.draw(ENDINGS)) for line, _ in rows]
    new = "".join(line + end for line, end in new_rows)
    a, b = TextFile.from_text(old), TextFile.from_text(new)
    same = a.lines == b.lines and a.endings == b.endings
    assert (unified_diff(a, b) == "") == same


def test_a_patch_converting_every_ending_reports_its_diff(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_bytes(b"a\r\nb\r\n")
    patch = "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-a\r\n-b\r\n+a\n+b\n"
    report = apply_patch_text(patch, tmp_path, history=False)
    assert report.applied
    assert (tmp_path / "f.txt").read_bytes() == b"a\nb\n"
    assert report.files[0].diff == "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-a\r\n-b\r\n+a\n+b\n"
