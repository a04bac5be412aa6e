"""OpenAI-patch and SEARCH/REPLACE cases that are clearer in code than as fixtures."""

from __future__ import annotations

import pytest

from patchwright.formats import parse_search_replace, parse_v4a
from patchwright.formats._sr_paths import path_from_fence, path_from_line
from patchwright.formats._v4a_markers import marker
from patchwright.model import ErrorCode, FileAction, Hunk, OldText, PatchwrightError


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("*** Begin Patch", ("begin patch", "")),
        ("***Update File:src/a.py", ("update file", "src/a.py")),
        ("*** update  file: a b.txt ", ("update file", "a b.txt")),
        ("*** End of File", ("end of file", "")),
        ("*** Move to: x", ("move to", "x")),
        ("*** Unknown: x", None),
        ("** Begin Patch", None),
        (" *** Begin Patch", None),  # a context line's text
        ("  *** Begin Patch", ("begin patch", "")),  # an indented patch
        ("\t*** End Patch", ("end patch", "")),
    ],
)
def test_marker(line: str, expected: tuple[str, str] | None) -> None:
    assert marker(line) == expected


def test_v4a_end_of_file_twice_keeps_at_eof() -> None:
    ps = parse_v4a(
        "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End of File\n"
        "*** End of File\n*** End Patch\n"
    )
    hunk = ps.files[0].edits[0].anchor
    assert isinstance(hunk, Hunk)
    assert hunk.at_eof


def test_v4a_add_file_without_lines_is_empty() -> None:
    ps = parse_v4a("*** Begin Patch\n*** Add File: e.txt\n*** End Patch\n")
    assert ps.files[0].action is FileAction.CREATE
    assert ps.files[0].content == ""


def test_v4a_blank_lines_before_move_to_are_skipped() -> None:
    ps = parse_v4a("*** Begin Patch\n*** Update File: a\n\n*** Move to: b\n*** End Patch\n")
    assert ps.files[0].move_to == "b"
    assert ps.files[0].edits == ()


def test_v4a_missing_end_with_a_second_begin() -> None:
    ps = parse_v4a(
        "*** Begin Patch\n*** Delete File: a\n*** Begin Patch\n*** Delete File: b\n*** End Patch\n"
    )
    assert [f.path for f in ps.files] == ["a", "b"]
    assert ps.warnings == ("line 1: the patch has no '*** End Patch'; read until line 3",)


def test_v4a_blank_lines_outside_hunks_are_not_context() -> None:
    text = "*** Begin Patch\n*** Update File: a\n\n@@\n-x\n+y\n*** End of File\n\n*** End Patch\n"
    ps = parse_v4a(text)
    assert [e.anchor.old_lines for e in ps.files[0].edits] == [["x"]]  # type: ignore[union-attr]
    assert ps.warnings == ()


def test_v4a_trailing_blank_context_is_kept() -> None:
    ps = parse_v4a("*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n\n*** End Patch\n")
    hunk = ps.files[0].edits[0].anchor
    assert isinstance(hunk, Hunk)
    assert hunk.old_lines == ["x", ""]


def test_v4a_hunks_of_one_file_stay_in_order_and_sequential() -> None:
    body = "".join(f"@@\n-{k}\n+{k}!\n" for k in range(5))
    ps = parse_v4a("*** Begin Patch\n*** Update File: a\n" + body + "*** End Patch\n")
    assert [e.label for e in ps.files[0].edits] == [f"hunk {k}" for k in range(1, 6)]
    assert [e.anchor.old_lines for e in ps.files[0].edits] == [[str(k)] for k in range(5)]  # type: ignore[union-attr]


# SEARCH/REPLACE -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "adjacent", "expected"),
    [
        ("src/app.py", False, "src/app.py"),
        ("`src/app.py`", False, "src/app.py"),
        ("`src/app.py`:", False, "src/app.py"),
        ("**src/app.py**", False, "src/app.py"),
        ("**`src/app.py`**", False, "src/app.py"),
        ("## src/app.py", False, "src/app.py"),
        ("File: src/app.py", False, "src/app.py"),
        ("filename: app.go", False, "app.go"),
        ("Path: `a b/c d.txt`", False, "a b/c d.txt"),
        (".gitignore", False, ".gitignore"),
        ("Makefile", True, "Makefile"),
        ("Makefile", False, None),
        ("`Dockerfile`", False, "Dockerfile"),
        ("Done.", True, None),
        ("Changes:", True, None),
        ("Here is the change to app.py", False, None),
        ("https://example.com/a.py", False, None),
        ("", True, None),
        ("<<<<<<< SEARCH", True, None),
        ("(see below)", True, None),
    ],
)
def test_path_from_line(line: str, adjacent: bool, expected: str | None) -> None:
    assert path_from_line(line, adjacent=adjacent) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("```python src/x.py", "src/x.py"),
        ("```src/x.py", "src/x.py"),
        ("```py title=app/main.py", "app/main.py"),
        ('```py title="app/main.py"', "app/main.py"),
        ("~~~ text notes.txt", "notes.txt"),
        ("```python", None),
        ("```", None),
        ("```diff", None),
    ],
)
def test_path_from_fence(line: str, expected: str | None) -> None:
    assert path_from_fence(line) == expected


def test_sr_divider_chosen_by_shared_lines_when_a_heading_is_added() -> None:
    text = "a.rst\n<<<<<<< SEARCH\nA\nB\n=======\nA\nTitle\n=======\nB\n>>>>>>> REPLACE\n"
    ps = parse_search_replace(text)
    edit = ps.files[0].edits[0]
    assert edit.anchor == OldText("A\nB\n", whole_lines=True)
    assert edit.replacement == "A\nTitle\n=======\nB\n"
    assert "the one at line 5" in ps.warnings[0]


def test_sr_divider_chosen_by_shared_lines_when_a_heading_is_removed() -> None:
    text = "a.rst\n<<<<<<< SEARCH\nA\nTitle\n=======\nB\n=======\nA\nB\n>>>>>>> REPLACE\n"
    edit = parse_search_replace(text).files[0].edits[0]
    assert edit.anchor == OldText("A\nTitle\n=======\nB\n", whole_lines=True)
    assert edit.replacement == "A\nB\n"


def test_sr_too_many_divider_lines_is_refused() -> None:
    block = "=======\n" * 70
    with pytest.raises(PatchwrightError) as info:
        parse_search_replace("a\n<<<<<<< SEARCH\n" + block + ">>>>>>> REPLACE\n")
    assert info.value.code is ErrorCode.PARSE_ERROR
    assert info.value.line == 2


def test_sr_indented_markers_are_accepted() -> None:
    text = "a.txt\n  <<<<<<< SEARCH\nx\n=======\ny\n  >>>>>>> REPLACE\n"
    assert parse_search_replace(text).files[0].edits[0].anchor == OldText("x\n", whole_lines=True)


def test_sr_content_that_looks_like_markers_of_other_formats_is_content() -> None:
    text = (
        "d.diff\n<<<<<<< SEARCH\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n"
        "=======\n*** Begin Patch\n>>>>>>> REPLACE\n"
    )
    edit = parse_search_replace(text).files[0].edits[0]
    assert edit.anchor == OldText("--- a/x\n+++ b/x\n@@ -1 +1 @@\n", whole_lines=True)
    assert edit.replacement == "*** Begin Patch\n"


def test_sr_path_line_resets_after_each_block() -> None:
    text = (
        "a.txt\n<<<<<<< SEARCH\n1\n=======\n2\n>>>>>>> REPLACE\n"
        "b.txt\n<<<<<<< SEARCH\n3\n=======\n4\n>>>>>>> REPLACE\n"
        "<<<<<<< SEARCH\n5\n=======\n6\n>>>>>>> REPLACE\n"
    )
    ps = parse_search_replace(text)
    assert [(f.path, [e.label for e in f.edits]) for f in ps.files] == [
        ("a.txt", ["block 1"]),
        ("b.txt", ["block 2", "block 3"]),
    ]
