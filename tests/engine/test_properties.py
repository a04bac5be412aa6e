"""Properties: edits derived from (old, new) turn old into exactly new."""

from __future__ import annotations

from difflib import SequenceMatcher

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from patchwright._records import replace
from patchwright.engine import MatchOptions, apply_edits, unified_diff
from patchwright.engine import apply as apply_module
from patchwright.engine import diff as diff_module
from patchwright.formats import parse_patch
from patchwright.model import (
    Composition,
    Edit,
    ErrorCode,
    Hunk,
    HunkLine,
    LineRange,
    PatchwrightError,
    TextFile,
)

EXACT = MatchOptions(mode="strict")
WORDS = st.sampled_from(["a", "b", "  a", "\tb", "x = 1", "", "y  ", "“q”", "..."])
LINES = st.lists(WORDS, max_size=25)
# New text without "...": a placeholder line the old text lacks is expanded or refused,
# never written (engine/replacing/placeholders.py; tests/engine/test_placeholders.py)
NEW_LINES = st.lists(
    st.sampled_from(["a", "b", "  a", "\tb", "x = 1", "", "y  ", "“q”"]), max_size=25
)


def _text(lines: list[str], newline: str, final: bool) -> str:
    body = newline.join(lines)
    return body + newline if (lines and final) else body


def _line_range_edits(old: list[str], new: list[str]) -> list[Edit]:
    edits = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal":
            text = "".join(line + "\n" for line in new[j1:j2])
            edits.append(Edit(LineRange(i1 + 1, i2, tuple(old[i1:i2])), text))
    return edits


@given(LINES, NEW_LINES, st.sampled_from(["\n", "\r\n"]))
def test_line_ranges_derived_from_diff_give_new_text(
    old: list[str], new: list[str], newline: str
) -> None:
    source = TextFile.from_text(_text(old, newline, True))
    edits = _line_range_edits(old, new)
    result = apply_edits(source, edits, composition=Composition.SIMULTANEOUS)
    # an empty file has no newline style of its own: new lines get LF
    expected = _text(new, newline if old else "\n", True)
    assert result.file.text == expected


def _hunks(old: list[str], new: list[str], context: int) -> list[Edit]:
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    edits = []
    for n, group in enumerate(matcher.get_grouped_opcodes(context)):
        body: list[HunkLine] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                body.extend(HunkLine(" ", t) for t in old[i1:i2])
                continue
            body.extend(HunkLine("-", t) for t in old[i1:i2])
            body.extend(HunkLine("+", t) for t in new[j1:j2])
        start = group[0][1] + 1
        edits.append(Edit(Hunk(tuple(body), old_start=start), label=f"hunk {n + 1}"))
    return edits


@settings(max_examples=300)
@given(LINES, NEW_LINES, st.sampled_from(["\n", "\r\n"]))
def test_hunks_derived_from_diff_give_new_text_or_refuse(
    old: list[str], new: list[str], newline: str
) -> None:
    source = TextFile.from_text(_text(old, newline, True))
    edits = _hunks(old, new, 3)
    try:
        result = apply_edits(source, edits)
    except PatchwrightError as err:
        # Repetitive random text can be ambiguous; refusing is allowed, being wrong is not.
        assert err.code in (ErrorCode.AMBIGUOUS, ErrorCode.OVERLAP, ErrorCode.ALREADY_APPLIED)
        return
    assert result.file.text == _text(new, newline if old else "\n", True)


@given(st.lists(st.sampled_from(["def f():", "    return 1", "x = 2", "", "# c"]), min_size=1))
def test_unique_lines_always_apply(lines: list[str]) -> None:
    old = [f"{line}  # {i}" for i, line in enumerate(lines)]
    new = [line.upper() if i % 3 == 0 else line for i, line in enumerate(old)]
    result = apply_edits(TextFile.from_text(_text(old, "\n", True)), _hunks(old, new, 2))
    assert result.file.text == _text(new, "\n", True)


@given(LINES, LINES)
def test_diff_round_trip_counts(old: list[str], new: list[str]) -> None:
    diff = unified_diff(_text(old, "\n", True), _text(new, "\n", True))
    added = sum(1 for r in diff.splitlines() if r.startswith("+") and not r.startswith("+++"))
    removed = sum(1 for r in diff.splitlines() if r.startswith("-") and not r.startswith("---"))
    assert len(old) - removed + added == len(new)


@settings(max_examples=200)
@given(st.lists(WORDS, max_size=60), st.lists(WORDS, max_size=60), st.integers(0, 50))
def test_anchored_diff_reconstructs_new_text(old: list[str], new: list[str], salt: int) -> None:
    # Unique lines make anchors; a tiny threshold forces the anchored path everywhere.
    a = [f"{w} {i % (salt + 1)}" for i, w in enumerate(old)]
    b = [f"{w} {i % (salt + 2)}" for i, w in enumerate(new)]
    saved = diff_module._SMALL
    diff_module._SMALL = 4
    try:
        ops = diff_module.line_opcodes(a, b)
    finally:
        diff_module._SMALL = saved
    rebuilt: list[str] = []
    pos_a = pos_b = 0
    for tag, i1, i2, j1, j2 in ops:
        assert (i1, j1) == (pos_a, pos_b)
        rebuilt.extend(a[i1:i2] if tag == "equal" else b[j1:j2])
        if tag == "equal":
            assert a[i1:i2] == b[j1:j2]
        pos_a, pos_b = i2, j2
    assert (pos_a, pos_b) == (len(a), len(b))
    assert rebuilt == b


@given(LINES, NEW_LINES, st.sampled_from(["\n", "\r\n"]), st.booleans())
@example(old=["a"] * 4, new=["a"] * 5, newline="\n", final=True)  # open at the end
def test_diff_with_known_regions_equals_full_diff(
    old: list[str], new: list[str], newline: str, final: bool
) -> None:
    assume(old)  # an empty file has no newline style for the new lines to follow
    a, b = _text(old, newline, True), _text(new, newline, final)
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    regions = [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]
    for diff in (unified_diff(a, b, regions=regions), unified_diff(a, b, regions=[(0, 0, 0, 1)])):
        # Either diff may align repeated lines differently; both must rebuild ``b``.
        if not diff:
            assert a == b
            continue
        patch = parse_patch(diff.replace("--- a\n+++ b\n", "--- a/f\n+++ b/f\n", 1))
        rebuilt = apply_edits(TextFile.from_text(a), patch.files[0].edits, options=EXACT)
        assert rebuilt.file.text == b


@settings(max_examples=300)
@given(
    st.lists(WORDS, min_size=8, max_size=80),
    st.lists(st.tuples(st.integers(0, 79), st.sampled_from(["-", "+", "~"])), max_size=8),
    st.integers(1, 9),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
    st.integers(-2, 2),
)
def test_exact_hint_fast_path_agrees_with_the_ladder(
    words: list[str],
    changes: list[tuple[int, str]],
    period: int,
    newline: str,
    final: bool,
    drift: int,
) -> None:
    # Hunks whose old lines stand right at their (possibly shifted) line numbers take a
    # shortcut in the engine; it must give what the whole ladder gives, or defer to it.
    # Line suffixes repeat with ``period``, so copies of blocks occur near each other.
    old = [f"{w} {i % period}" for i, w in enumerate(words)]
    new = list(old)
    for at, op in sorted(changes, reverse=True):
        at = min(at, len(new) - 1)
        if op == "-":
            del new[at]
        elif op == "+":
            new.insert(at, f"added {at}")
        else:
            new[at] = new[at].upper()
    source = TextFile.from_text(_text(old, newline, final))
    edits = [
        Edit(replace(e.anchor, old_start=max(1, e.anchor.old_start + drift)), label=e.label)
        for e in _hunks(old, new, 3)
        if isinstance(e.anchor, Hunk) and e.anchor.old_start is not None
    ]

    def outcome() -> tuple[str, list[tuple[int, int, int, int, str]]] | str:
        try:
            result = apply_edits(source, edits)
        except PatchwrightError as err:
            return err.code
        spans = [(r.old_start, r.old_end, r.new_start, r.new_end, r.rung) for r in result.reports]
        return result.file.text, spans

    fast = outcome()
    saved = apply_module._exact_at_hint
    apply_module._exact_at_hint = lambda *_: None
    try:
        slow = outcome()
    finally:
        apply_module._exact_at_hint = saved
    assert fast == slow
