"""What loose matching tells the model: already applied, anchors, refusals, warnings."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_helpers import run

from patchwright.engine import MatchOptions, apply_edits, apply_file_patch
from patchwright.formats import parse_patch
from patchwright.model import Edit, ErrorCode, Hunk, HunkLine, OldText, PatchwrightError, TextFile

TOLERANT = MatchOptions(mode="tolerant")


def _apply(text: str, *edits: Edit, mode: str = "fuzzy") -> tuple[str, list[str]]:
    options = MatchOptions(mode=mode)  # type: ignore[arg-type]
    result = apply_edits(TextFile.from_text(text), list(edits), options=options)
    return result.file.text, result.warnings


# ------------------------------------------------------------------ already applied

LOADER = (
    "def first(path):\n"
    "    if not path:\n"
    "        return None\n"
    "    return path\n"
    "\n"
    "\n"
    "def load(path):\n"
    "    with open(path) as fh:\n"
    "        data = fh.read()\n"
    "    result = parse(data)\n"
    "    return result\n"
)
TYPO = (  # one typo: 99% similar to lines 8-11
    "    with open(path) as fh:\n        data = fh.read()\n    result = parse(dat)\n"
    "    return result\n"
)


def test_short_replacement_found_elsewhere_does_not_block_a_fuzzy_match() -> None:
    out, warnings = _apply(LOADER, Edit(OldText(TYPO), "    return None\n"))
    assert out.endswith("def load(path):\n    return None\n")
    assert any("fuzzy" in w for w in warnings)


def test_short_replacement_found_elsewhere_is_not_already_applied() -> None:
    with pytest.raises(PatchwrightError) as info:
        run(LOADER, Edit(OldText(TYPO), "    return None\n"), mode="tolerant")
    assert info.value.code == ErrorCode.NOT_FOUND


def test_new_block_where_the_edit_would_go_is_already_applied() -> None:
    after = (
        "def total():\n    a = compute(1)\n    b = compute(2)\n    c = compute(3)\n"
        '    log("done")\n    return a + b + c\n'
    )
    old = "    a = compute(1)\n    b = compute(2)\n    c = compute(3)\n    return a + b\n"
    new = '    a = compute(1)\n    b = compute(2)\n    c = compute(3)\n    log("done")\n'
    new += "    return a + b + c\n"
    for mode in ("strict", "tolerant", "fuzzy"):
        with pytest.raises(PatchwrightError) as info:
            run(after, Edit(OldText(old), new), mode=mode)
        assert info.value.code == ErrorCode.ALREADY_APPLIED, mode


# ------------------------------------------------------------------ @@ anchors

CLASSES = (
    "class A:\n"
    "    def f(self):\n"
    "        return 1\n"
    "\n"
    "    def g(self):\n"
    "        return 1\n"
    "\n"
    "\n"
    "class B:\n"
    "    def f(self):\n"
    "        return 1\n"
)


def _anchored(*anchors: str) -> Edit:
    body = (HunkLine("-", "        return 1"), HunkLine("+", "        return 2"))
    return Edit(Hunk(body, anchors=anchors), label="hunk 1")


@pytest.mark.parametrize(
    ("anchors", "line"),
    [
        (("class A:", "def f(self):"), 3),
        (("class A:", "def g(self):"), 6),
        (("class B:", "def f(self):"), 11),
        (("def f(self):",), 3),
    ],
)
def test_nested_anchors_pick_the_first_block_in_their_region(
    anchors: tuple[str, ...], line: int
) -> None:
    out, warnings = _apply(CLASSES, _anchored(*anchors))
    changed = [i + 1 for i, row in enumerate(out.splitlines()) if row.endswith("return 2")]
    assert changed == [line]
    assert warnings == []


def test_first_block_after_the_anchor_must_lie_before_the_anchor_recurs() -> None:
    # After A.f's anchor, the first "return 1" is in B.f, past the next "def f(self):".
    text = "class A:\n    def f(self):\n        pass\n\nclass B:\n    def f(self):\n"
    text += "        return 1\n    def h(self):\n        return 1\n"
    with pytest.raises(PatchwrightError) as info:
        run(text, _anchored("class A:", "def f(self):"))
    assert info.value.code == ErrorCode.AMBIGUOUS
    assert "replace_all" not in info.value.hint  # a diff has none


def test_missing_anchor_is_reported_not_dropped() -> None:
    with pytest.raises(PatchwrightError) as info:
        run(CLASSES, _anchored("class A:", "def missing(self):"))
    err = info.value
    assert err.code == ErrorCode.AMBIGUOUS
    assert "'def missing(self):'" in err.message and "not found" in err.message
    text = "class A:\n    def f(self):\n        return 1\n"
    out, warnings = _apply(text, _anchored("class Q:"))
    assert out.endswith("return 2\n")
    assert any("'class Q:'" in w and "not found" in w for w in warnings)


# ------------------------------------------------------------------ fuzzy refusals


def test_fuzzy_refusal_says_why_the_close_region_was_not_accepted() -> None:
    text = (
        "def load(path):\n    with open(path) as handle:\n        data = handle.read()\n"
        "    result = parse_all(data)\n    return result\n"
    )
    old = (
        "def load(path):\n    with open(path) as handel:\n        data = handel.read()\n"
        "    result = parse_al(data)\n    return result\n"
    )
    with pytest.raises(PatchwrightError) as info:
        run(text, Edit(OldText(old), "x = 1\n"))
    err = info.value
    assert err.code == ErrorCode.NOT_FOUND
    assert "The closest region (lines 1-5, 98% similar) was not accepted" in err.message
    assert "fewer than half of its lines match exactly" in err.message
    assert "Include more unchanged lines or fix the differing ones" in err.hint
    assert err.details["rejected"]


# ------------------------------------------------------------------ tolerated damage


def test_whitespace_recovery_adds_no_warning() -> None:
    text = "def f():\n    x = 1  \n    return x\n"
    for old in ("    x = 1\n    return x\n", "\tx = 1\n\treturn x\n"):
        new = old.replace("1", "2")
        out, warnings = _apply(text, Edit(OldText(old), new), mode="tolerant")
        assert out == "def f():\n    x = 2\n    return x\n"
        assert warnings == [] or all("re-indented" in w for w in warnings), warnings


def test_trimmed_edge_says_which_line_stood_for_what() -> None:
    text = "def compute(a, b):\n    total = a + b\n    total *= 2\n    return total\n"
    old = "def compute(a):\n    total = a + b\n    total *= 2\n"
    new = "def compute(a):\n    total = a + b\n    total *= 3\n"
    out, warnings = _apply(text, Edit(OldText(old), new), mode="tolerant")
    assert "total *= 3" in out
    assert any("first line differs" in w and "line 1" in w for w in warnings), warnings


def test_punctuation_recovery_is_reported() -> None:
    text = "msg = \u201chello\u201d\nx = 1\ny = 2\nz = 3\n"
    out, warnings = _apply(
        text, Edit(OldText('msg = "hello"\nx = 1\n'), 'msg = "hello"\nx = 10\n'), mode="tolerant"
    )
    # unchanged lines keep the file's punctuation, mid-file as at the end of the file
    assert out == "msg = \u201chello\u201d\nx = 10\ny = 2\nz = 3\n"
    assert any("typographic punctuation" in w for w in warnings), warnings
    _, fragment = _apply("say(\u201chi\u201d)\n", Edit(OldText('say("hi")'), 'say("bye")'))
    assert any("typographic punctuation" in w for w in fragment)


def test_elision_is_reported() -> None:
    text = "".join(f"line {i}\n" for i in range(1, 11))
    old = "line 2\n...\nline 6\nline 7\n"
    new = "line 2\n...\nline 6\nLINE 7\n"
    out, warnings = _apply(text, Edit(OldText(old), new), mode="tolerant")
    assert "LINE 7" in out and "line 4\n" in out
    assert any("'...'" in w and "3 line(s)" in w for w in warnings), warnings


# ------------------------------------------------------------------ dedent recovery

METHOD = "class A:\n    def f(self):\n        x = 1\n        return x\n"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("    x = 1\n    return x\n", "    y = 2\n    return y\n"),
        ("x = 1\nreturn x\n", "y = 2\nreturn y\n"),
    ],
)
def test_new_text_at_the_old_texts_indentation_moves_with_it(old: str, new: str) -> None:
    out, warnings = _apply(METHOD, Edit(OldText(old), new))
    assert out == "class A:\n    def f(self):\n        y = 2\n        return y\n"
    assert any("re-indented" in w for w in warnings)


def test_new_text_at_another_indentation_is_still_refused() -> None:
    with pytest.raises(PatchwrightError) as info:
        run(METHOD, Edit(OldText("    x = 1\n    return x\n"), "y = 2\nreturn y\n"))
    assert info.value.code == ErrorCode.AMBIGUOUS


# ------------------------------------------------------------------ the patch's own frame


def _case_parts(name: str) -> tuple[str, str, str]:
    """The input, patch and expected text of one engine case file."""
    text = (Path(__file__).parent.parent / "fixtures" / "cases" / f"{name}.case").read_text()
    parts = text.split("=== ")
    found = {p.split("\n", 1)[0].strip(): p.split("\n", 1)[1] for p in parts[1:]}
    return found["input"], found["patch"], found["expected"]


def test_a_frame_taken_from_the_patch_s_other_hunks_is_said_in_the_report() -> None:
    """A hunk whose own indentation evidence is balanced writes its new lines as the
    other hunks of the patch did: the report says what it assumed and from which hunk."""
    source, patch, expected = _case_parts("indent_frame_earlier_hunk_shifted_alike")
    (fp,) = parse_patch(patch, "v4a").files
    out, reports = apply_file_patch(TextFile.from_text(source), fp, MatchOptions(mode="fuzzy"))
    assert out is not None and out.text == expected
    told = [r.assumption for r in reports if "shifted alike" in r.assumption]
    assert told == [
        "new lines kept as written (the old lines were shifted: -4 columns), as in hunk 1, "
        "whose old lines were shifted alike"
    ]
