"""Telling new errors from old ones across shifted, edited and moved lines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patchwright.syntax.compare import LineMap, Origin, common_ends, split_errors
from patchwright.syntax.stdlib_parsers import ParseError

BEFORE = ["a", "b", "c", "d", "e", "f"]


def test_line_map_follows_insertions_and_replacements() -> None:
    after = ["new", "a", "b", "C", "C2", "d", "e", "f"]
    lines = LineMap(BEFORE, after)
    assert lines.origin(2) == Origin(True, 1, 1)  # "a" moved down by one
    assert lines.origin(1) == Origin(False, 1, 0)  # pure insertion: empty origin
    assert lines.origin(4) == Origin(False, 3, 3)  # "C" replaced "c"
    assert lines.origin(5) == Origin(False, 3, 3)
    assert lines.origin(8) == Origin(True, 6, 6)
    assert lines.kept(1) and not lines.kept(3)


def test_common_ends_never_overlap() -> None:
    assert common_ends(["x", "x"], ["x", "x", "x"]) == (2, 0)
    assert common_ends(["x", "a"], ["x", "b", "a"]) == (1, 1)
    assert common_ends(["a", "b"], ["a", "b"]) == (2, 0)
    assert common_ends([], ["a"]) == (0, 0)


def error(line: int, message: str = "syntax error") -> ParseError:
    return ParseError(line, 1, message)


def test_an_old_error_shifted_by_an_insertion_is_not_new() -> None:
    after = ["x", "y", *BEFORE]
    new, old = split_errors([error(4)], [error(6)], BEFORE, after, first_error_only=False)
    assert (new, old) == ([], 1)


def test_same_message_on_another_line_is_new() -> None:
    after = ["x", *BEFORE]
    new, old = split_errors([error(4)], [error(5), error(2)], BEFORE, after, first_error_only=False)
    assert new == [error(2)] and old == 1


def test_an_error_inside_the_region_that_replaced_a_broken_one_is_not_new() -> None:
    after = ["a", "b", "C", "C2", "d", "e", "f"]
    new, old = split_errors([error(3)], [error(4)], BEFORE, after, first_error_only=False)
    assert (new, old) == ([], 1)


def test_a_moved_broken_line_keeps_its_error() -> None:
    before = ["a", "broken(", "c", "d"]
    after = ["a", "c", "d", "broken("]
    new, old = split_errors([error(2)], [error(4)], before, after, first_error_only=False)
    assert (new, old) == ([], 1)


def test_messages_naming_other_lines_still_match_after_a_shift() -> None:
    before = ["if x:", "y"]
    after = ["", "if x:", "y"]
    message = "expected an indented block after 'if' statement on line {}"
    new, old = split_errors(
        [error(2, message.format(1))],
        [error(3, message.format(2))],
        before,
        after,
        first_error_only=True,
    )
    assert (new, old) == ([], 1)


def test_first_error_parsers_treat_later_untouched_errors_as_hidden_before() -> None:
    before = ["ok", "broken(", "c", "d", "other)"]
    after = ["ok", "fixed", "c", "d", "other)"]
    # The edit fixed line 2; the error now shown on line 5 was hidden behind it.
    new, old = split_errors([error(2, "a")], [error(5, "b")], before, after, first_error_only=True)
    assert (new, old) == ([], 1)
    # A parser that reports every error would have shown it before: so it is new.
    new, old = split_errors([error(2, "a")], [error(5, "b")], before, after, first_error_only=False)
    assert (new, old) == ([error(5, "b")], 0)


def test_first_error_parsers_report_errors_above_the_old_one() -> None:
    before = ["a", "b", "c", "broken("]
    after = ["a", "b(", "c", "broken("]
    new, _ = split_errors([error(4, "x")], [error(2, "y")], before, after, first_error_only=True)
    assert new == [error(2, "y")]


def test_inside_an_edited_region_only_the_kind_of_error_must_match() -> None:
    before = ["<% include('a') %>", "b"]
    after = ["<%- include('a') -%>", "b"]
    old = [error(1, 'invalid syntax near "<% include"')]
    changed = [error(1, 'invalid syntax near "<%- include"')]
    assert split_errors(old, changed, before, after, first_error_only=False) == ([], 1)
    # On an untouched line the whole message must match.
    moved = [error(2, 'invalid syntax near "c"')]
    new, _ = split_errors(
        [error(2, 'invalid syntax near "b"')], moved, before, after, first_error_only=False
    )
    assert new == moved


def test_a_file_with_several_errors_is_taken_as_a_dialect() -> None:
    before = [f"describe 'x{n}'" for n in range(4)]
    after = [*before, "describe 'new'"]
    old = [error(n + 1, 'missing ";"') for n in range(4)]
    added = [*old, error(5, 'missing ";"')]
    assert split_errors(old, added, before, after, first_error_only=False) == ([], 5)
    # A kind of error the file did not have is still new.
    other = [*old, error(5, "invalid syntax")]
    new, _ = split_errors(old, other, before, after, first_error_only=False)
    assert new == [error(5, "invalid syntax")]
    # With fewer errors before, nothing is excused.
    new, _ = split_errors(
        old[:2], [*old[:2], error(5, 'missing ";"')], before, after, first_error_only=False
    )
    assert new == [error(5, 'missing ";"')]


# -- a line map told from the caller's changed blocks -------------------------------------

_LONG = [f"line {i}" for i in range(400)]


Blocks = list[tuple[int, int, int, int]]


def _edited(lines: list[str], spots: list[int]) -> tuple[list[str], Blocks]:
    """Each spot's line changed in place, and the hunk blocks (3 lines of context) a diff
    of the change would name."""
    after = list(lines)
    blocks: Blocks = []
    for i in spots:
        after[i] = after[i] + " changed"
        a0, a1 = max(0, i - 3), min(len(lines), i + 4)
        if blocks and a0 <= blocks[-1][1]:
            blocks[-1] = (blocks[-1][0], a1, blocks[-1][0], a1)
        else:
            blocks.append((a0, a1, a0, a1))
    return after, blocks


def _origins(lines: LineMap, count: int) -> list[Origin]:
    return [lines.origin(n) for n in range(1, count + 1)]


def test_a_line_map_from_known_blocks_maps_as_the_whole_diff_does() -> None:
    after, blocks = _edited(_LONG, list(range(5, 400, 9)))
    told = LineMap(_LONG, after, blocks)
    found = LineMap(_LONG, after)
    assert _origins(told, len(after)) == _origins(found, len(after))
    assert [told.kept(n) for n in range(1, 401)] == [found.kept(n) for n in range(1, 401)]


def test_blocks_that_do_not_fit_the_texts_are_ignored() -> None:
    after, _ = _edited(_LONG, [10, 200])
    wrong = [(0, 5, 0, 5), (300, 310, 300, 310)]  # the changes lie outside them
    assert _origins(LineMap(_LONG, after, wrong), 400) == _origins(LineMap(_LONG, after), 400)


def test_known_blocks_spare_the_diff_of_everything_between_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import patchwright.engine.diff as diff

    after, blocks = _edited(_LONG, list(range(5, 400, 9)))
    widest: list[int] = []
    inner = diff._diff_range

    def counted(
        a: list[str], b: list[str], a0: int, a1: int, b0: int, b1: int
    ) -> list[diff.Opcode]:
        widest.append(a1 - a0)
        return inner(a, b, a0, a1, b0, b1)

    monkeypatch.setattr(diff, "_diff_range", counted)
    LineMap(_LONG, after, blocks)
    assert max(widest, default=0) <= 7  # no range wider than one hunk was diffed
    widest.clear()
    LineMap(_LONG, after)
    assert max(widest) > 300  # without them, the range between the first and last change


@st.composite
def _edits(draw: st.DrawFn) -> tuple[list[str], list[str], Blocks]:
    """Lines all different, edits (replaced, inserted, deleted lines) at spots in order,
    and the blocks of hunks with up to 3 lines of context around each."""
    count = draw(st.integers(20, 120))
    before = [f"line {i}" for i in range(count)]
    spots = sorted(set(draw(st.lists(st.integers(0, count - 1), min_size=1, max_size=12))))
    after: list[str] = []
    blocks: Blocks = []
    prev = 0
    for n, i in enumerate(spots):
        after += before[prev:i]
        added = draw(st.integers(0, 3))
        removed = draw(st.integers(0 if added else 1, 2))
        removed = min(removed, count - i)
        if n + 1 < len(spots):
            removed = min(removed, spots[n + 1] - i)
        a0, b0 = i, len(after)
        after += [f"new {i}.{k}" for k in range(added)]
        prev = i + removed
        lo, hi = min(3, a0, b0), min(3, count - prev)
        block = (a0 - lo, prev + hi, b0 - lo, len(after) + hi)
        if blocks and block[0] <= blocks[-1][1]:
            last = blocks.pop()
            block = (last[0], block[1], last[2], block[3])
        blocks.append(block)
    after += before[prev:]
    return before, after, blocks


@settings(max_examples=200, deadline=None)
@given(_edits())
def test_known_blocks_give_the_line_map_of_the_whole_diff(
    case: tuple[list[str], list[str], Blocks],
) -> None:
    before, after, blocks = case
    told, found = LineMap(before, after, blocks), LineMap(before, after)
    assert _origins(told, len(after)) == _origins(found, len(after))
    assert [told.kept(n) for n in range(1, len(before) + 1)] == [
        found.kept(n) for n in range(1, len(before) + 1)
    ]
