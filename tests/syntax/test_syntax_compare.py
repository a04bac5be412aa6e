"""Telling new errors from old ones across shifted, edited and moved lines."""

from __future__ import annotations

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
