"""The numbered excerpt shown with each error."""

from __future__ import annotations

from patchwright.syntax.excerpt import MAX_WIDTH, excerpt


def test_excerpt_marks_the_line_and_column() -> None:
    lines = [f"line {n}" for n in range(1, 13)]
    assert excerpt(lines, 10, 3) == "\n".join(
        [
            "   8 | line 8",
            "   9 | line 9",
            "> 10 | line 10",
            "     |   ^",
            "  11 | line 11",
            "  12 | line 12",
        ]
    )


def test_excerpt_at_the_first_line_and_with_tabs() -> None:
    text = excerpt(["\tx = (", "y"], 1, 6)
    assert text.splitlines() == ["> 1 | \tx = (", "    | \t    ^", "  2 | y"]


def test_long_lines_show_a_window_around_the_column() -> None:
    line = "a" * 1000 + "!" + "b" * 1000
    text = excerpt([line], 1, 1001)
    shown, caret = text.splitlines()
    assert len(shown) < MAX_WIDTH + 20
    assert shown.startswith("> 1 | …a") and shown.endswith("b…")
    assert shown[caret.index("^")] == "!"


def test_long_context_lines_are_cut() -> None:
    text = excerpt(["c" * 500, "x"], 2, 1)
    first = text.splitlines()[0]
    assert first.endswith("…") and len(first) == len("  1 | ") + MAX_WIDTH
