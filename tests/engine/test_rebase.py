"""The three-way rebase (engine/rebase.py): disjoint changes merge, overlapping ones are
named by the lines they have now."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from patchwright.engine.rebase import rebase
from patchwright.model import TextFile

BASE = "".join(f"line {n}\n" for n in range(1, 11))


def _file(text: str) -> TextFile:
    return TextFile.from_text(text)


def _replace(text: str, number: int, new: str) -> str:
    lines = text.splitlines(True)
    lines[number - 1] = new
    return "".join(lines)


def test_disjoint_changes_both_land() -> None:
    theirs = _replace(BASE, 2, "LINE 2 reformatted\n")
    mine = _replace(BASE, 8, "line 8 edited\n")
    result = rebase(_file(BASE), _file(theirs), _file(mine))
    assert result.clean and result.file is not None
    assert result.file.text == _replace(theirs, 8, "line 8 edited\n")
    assert result.changed == ((2, 2),) and result.overlaps == ()


def test_lines_added_above_shift_the_edit() -> None:
    theirs = "import os\nimport sys\n" + BASE
    mine = _replace(BASE, 5, "line 5 edited\n")
    result = rebase(_file(BASE), _file(theirs), _file(mine))
    assert result.file is not None
    assert result.file.text == "import os\nimport sys\n" + mine
    assert result.changed == ((1, 2),)


def test_an_overlap_is_refused_with_the_lines_it_has_now() -> None:
    theirs = _replace(BASE, 5, "line 5 by someone else\n")
    mine = _replace(BASE, 5, "line 5 by me\n")
    result = rebase(_file(BASE), _file(theirs), _file(mine))
    assert not result.clean and result.file is None
    assert result.overlaps == ((5, 5),)


def test_two_insertions_at_one_place_overlap() -> None:
    lines = BASE.splitlines(True)
    theirs = "".join([*lines[:3], "theirs\n", *lines[3:]])
    mine = "".join([*lines[:3], "mine\n", *lines[3:]])
    assert not rebase(_file(BASE), _file(theirs), _file(mine)).clean


def test_an_insertion_next_to_a_change_is_not_an_overlap() -> None:
    lines = BASE.splitlines(True)
    theirs = _replace(BASE, 4, "line 4 changed\n")
    mine = "".join([*lines[:4], "after four\n", *lines[4:]])
    result = rebase(_file(BASE), _file(theirs), _file(mine))
    assert result.file is not None
    assert result.file.text == "".join([*lines[:3], "line 4 changed\n", "after four\n", *lines[4:]])


def test_the_current_encoding_and_endings_are_kept() -> None:
    crlf = BASE.replace("\n", "\r\n")
    base = TextFile.from_text(crlf, encoding="utf-16-le", bom=b"\xff\xfe")
    theirs = TextFile.from_text(_replace(crlf, 1, "first\r\n"), encoding="utf-16-le",
                                bom=b"\xff\xfe")  # fmt: skip
    mine = TextFile.from_text(_replace(crlf, 9, "ninth\r\n"))
    result = rebase(base, theirs, mine)
    assert result.file is not None
    assert result.file.encoding == "utf-16-le" and result.file.bom == b"\xff\xfe"
    assert set(result.file.endings) == {"\r\n"}


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 9), min_size=1, max_size=4, unique=True),
    st.data(),
)
def test_changes_to_disjoint_lines_commute(theirs_lines: list[int], data: st.DataObject) -> None:
    """Each side rewrites its own lines: the rebase equals both rewrites made on the base."""
    free = [n for n in range(10) if n not in theirs_lines]
    mine_lines = data.draw(st.lists(st.sampled_from(free), min_size=1, max_size=3, unique=True))
    base = BASE.splitlines(True)
    theirs = [f"theirs {n}\n" if n in theirs_lines else line for n, line in enumerate(base)]
    mine = [f"mine {n}\n" if n in mine_lines else line for n, line in enumerate(base)]
    both = [
        f"theirs {n}\n" if n in theirs_lines else f"mine {n}\n" if n in mine_lines else line
        for n, line in enumerate(base)
    ]
    result = rebase(_file(BASE), _file("".join(theirs)), _file("".join(mine)))
    assert result.file is not None and result.file.text == "".join(both)
