"""Old-text anchors: occurrences counted like ``str.find`` would, the last line included."""

from __future__ import annotations

import pytest
from engine_helpers import run
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from patchwright.engine import MatchOptions, apply_edits
from patchwright.model import Edit, ErrorCode, OldText, PatchwrightError, TextFile

STRICT = MatchOptions(mode="strict")
LINES = st.sampled_from(["foo", "bar", "", "  foo", "foo bar"])


def _occurrences(text: str, old: str) -> int:
    """Every position where ``old`` starts, overlapping ones included."""
    return sum(1 for i in range(len(text)) if text.startswith(old, i))


def _keep_final_newline(original: str, expected: str) -> str:
    # The engine's one deliberate difference from str.replace: a file that ended with
    # a newline keeps it unless the edit deleted everything.
    if original.endswith("\n") and expected and not expected.endswith("\n"):
        return expected + "\n"
    return expected


def _text(lines: list[str], final: bool) -> str:
    return "\n".join(lines) + ("\n" if final else "")


@settings(max_examples=400)
@given(
    st.lists(LINES, max_size=10),
    st.lists(LINES, min_size=1, max_size=3),
    st.booleans(),
    st.lists(LINES, max_size=3),
    st.booleans(),
)
def test_old_text_replaces_its_single_occurrence_or_refuses(
    file_lines: list[str],
    old_lines: list[str],
    old_final: bool,
    new_lines: list[str],
    new_final: bool,
) -> None:
    text = _text(file_lines, bool(file_lines))
    old = _text(old_lines, old_final)
    new = _text(new_lines, new_final and bool(new_lines))
    assume(old.strip() and old != new)
    count = _occurrences(text, old)
    try:
        result = apply_edits(TextFile.from_text(text), [Edit(OldText(old), new)], options=STRICT)
    except PatchwrightError as err:
        if count > 1:
            assert err.code == ErrorCode.AMBIGUOUS
        else:
            assert count == 0, f"{old!r} occurs once but was refused: {err}"
            assert err.code in (ErrorCode.NOT_FOUND, ErrorCode.ALREADY_APPLIED)
        return
    assert count == 1, f"{old!r} occurs {count} times but was replaced"
    assert result.file.text == _keep_final_newline(text, text.replace(old, new, 1))


@settings(max_examples=400)
@given(
    st.lists(LINES, max_size=10),
    st.lists(LINES, min_size=1, max_size=3),
    st.booleans(),
    st.lists(LINES, max_size=3),
    st.booleans(),
)
def test_replace_all_replaces_every_occurrence_like_str_replace(
    file_lines: list[str],
    old_lines: list[str],
    old_final: bool,
    new_lines: list[str],
    new_final: bool,
) -> None:
    text = _text(file_lines, bool(file_lines))
    old = _text(old_lines, old_final)
    new = _text(new_lines, new_final and bool(new_lines))
    assume(old.strip() and old != new)
    edit = Edit(OldText(old, replace_all=True), new)
    try:
        result = apply_edits(TextFile.from_text(text), [edit], options=STRICT)
    except PatchwrightError as err:
        assert text.count(old) == 0, f"{old!r} occurs but was refused: {err}"
        assert err.code in (ErrorCode.NOT_FOUND, ErrorCode.ALREADY_APPLIED)
        return
    assert result.file.text == _keep_final_newline(text, text.replace(old, new))
    assert result.reports[0].count == text.count(old)


def test_search_ending_in_newline_sees_the_last_line() -> None:
    with pytest.raises(PatchwrightError) as info:
        run("foo\nbar\nfoo\n", Edit(OldText("foo\n"), "baz\n"))
    assert info.value.code == ErrorCode.AMBIGUOUS
    assert info.value.details["lines"] == [1, 3]
    out = run("foo\nbar\nfoo\n", Edit(OldText("foo\n", replace_all=True), "baz\n"))
    assert out == "baz\nbar\nbaz\n"
    assert run("bar\nfoo\n", Edit(OldText("foo\n"), "baz\n")) == "bar\nbaz\n"


def test_equally_near_copies_stay_ambiguous_with_a_hint() -> None:
    with pytest.raises(PatchwrightError) as info:
        run("foo\ny\nfoo\n", Edit(OldText("foo\n", hint_line=2), "baz\n"))
    assert info.value.code == ErrorCode.AMBIGUOUS


def test_overlapping_copies_are_ambiguous() -> None:
    with pytest.raises(PatchwrightError) as info:
        run("a\na\na\n", Edit(OldText("a\na\n"), "b\n"))
    assert info.value.code == ErrorCode.AMBIGUOUS


def test_replace_all_twice_on_one_line_rewrites_it_once() -> None:
    result = apply_edits(
        TextFile.from_text("x = x + 1\n"), [Edit(OldText("x", replace_all=True), "y")]
    )
    assert result.file.text == "y = y + 1\n"
    assert result.reports[0].count == 2


def test_ambiguity_hint_names_replace_all_only_when_the_caller_has_it() -> None:
    text = "a = 1\nb = 2\na = 1\n"
    for old in ("a = 1", "a = 1\n", "  a = 1\n"):  # char path, last line, loose rung
        for supported in (False, True):
            anchor = OldText(old, replace_all_supported=supported)
            with pytest.raises(PatchwrightError) as info:
                run(text, Edit(anchor, "a = 3\n" if old.endswith("\n") else "a = 3"))
            err = info.value
            assert err.code == ErrorCode.AMBIGUOUS, old
            assert ("replace_all" in err.hint) is supported, (old, err.hint)
            assert "more surrounding lines" in err.hint


def test_numbered_replacement_is_stripped_with_the_search_text() -> None:
    text = "def f():\n    return 1\n"
    old = "     1\tdef f():\n     2\t    return 1\n"
    new = "     1\tdef f():\n     2\t    x = 1\n\n     3\t    return x\n"
    result = apply_edits(TextFile.from_text(text), [Edit(OldText(old), new)])
    assert result.file.text == "def f():\n    x = 1\n\n    return x\n"
    assert any("line-number prefixes" in w for w in result.warnings)
    arrow = apply_edits(
        TextFile.from_text(text), [Edit(OldText("2→    return 1"), "2→    return 2")]
    )
    assert arrow.file.text == "def f():\n    return 2\n"
    # a loose rung (trailing whitespace) through the whole-lines path
    loose = apply_edits(
        TextFile.from_text("def f():  \n    return 1\n"),
        [Edit(OldText("1\tdef f():\n2\t    return 1\n"), "1\tdef f():\n2\t    return 2\n")],
    )
    assert loose.file.text == "def f():  \n    return 2\n"
    assert any("line-number prefixes" in w for w in loose.warnings)


def test_numbered_lines_that_are_content_stay() -> None:
    text = "1\tone\n2\ttwo\n"
    # the file really holds numbered lines: nothing is stripped
    out = run(text, Edit(OldText("1\tone\n2\ttwo\n", whole_lines=True), "1\tuno\n2\ttwo\n"))
    assert out == "1\tuno\n2\ttwo\n"
    # an unnumbered replacement of a numbered search is kept as given
    assert run("a\nb\n", Edit(OldText("1\ta\n2\tb\n"), "c\n3\td\n")) == "c\n3\td\n"
