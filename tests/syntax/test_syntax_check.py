"""check_edit: policies, reports, warning and refusal texts, files without a parser."""

from __future__ import annotations

import subprocess
import sys
from typing import Any, cast

import pytest

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.syntax import (
    MAX_CHARS,
    SyntaxIssue,
    SyntaxReport,
    check,
    check_edit,
    language_for,
    stdlib_parsers,
)
from patchwright.syntax.check import forget_verdicts

BEFORE = """\
def area(width, height):
    if width < 0 or height < 0:
        raise ValueError("negative size")
    return width * height


def perimeter(width, height):
    return 2 * (width + height)
"""
# The body of the `if` loses its indentation: a typical broken edit.
RAISE = 'raise ValueError("negative size")'
BROKEN = BEFORE.replace("        " + RAISE, RAISE)


def test_broken_indentation_is_warned_with_line_column_and_excerpt() -> None:
    report = check_edit("geometry.py", BEFORE, BROKEN)
    assert report.checked and report.language == "python"
    assert [(i.line, i.message) for i in report.new_errors] == [
        (3, "expected an indented block after 'if' statement on line 2")
    ]
    text = report.warning_text()
    assert text.startswith(
        "Syntax check (python): your edit introduced a syntax error at line 3, column 1: "
        "expected an indented block after 'if' statement on line 2\n"
    )
    assert '> 3 | raise ValueError("negative size")' in text
    assert "  2 |     if width < 0 or height < 0:" in text
    assert report.elapsed_ms > 0
    assert report.to_dict()["new_errors"][0]["line"] == 3


def test_reject_policy_refuses_with_the_same_details_and_a_hint() -> None:
    with pytest.raises(PatchwrightError) as caught:
        check_edit("pkg/geometry.py", BEFORE, BROKEN, policy="reject")
    error = caught.value
    assert error.code is ErrorCode.SYNTAX_ERROR
    assert error.path == "pkg/geometry.py" and error.line == 3
    assert "refused the edit to pkg/geometry.py" in error.message
    # nothing is written: the file's lines, the one the edit would write marked "+"
    assert (
        "in the new text that would replace file line 3 (the line marked >, column 1): "
        "expected an indented block after 'if' statement on line 2\n"
    ) in error.message
    assert '> + | raise ValueError("negative size")' in error.message
    assert "  4 |     return width * height" in error.message
    assert "Nothing was written" in error.hint and "new line marked >" in error.hint
    issue = error.details["syntax"]["new_errors"][0]
    assert issue["line"] == 3 and issue["file_lines"] == [3, 3] and not issue["untouched"]


def test_refusal_numbers_lines_by_the_file_as_it_is() -> None:
    # Lines the edit adds above the error shift the text after it; a refusal leaves the
    # file as it was, so it names the file's lines: new lines are "+", not numbers.
    added = "import math\n\n\n"
    after = BROKEN.replace("def area", added + "def area")
    with pytest.raises(PatchwrightError) as caught:
        check_edit("geometry.py", BEFORE, after, policy="reject")
    text = caught.value.message
    assert "in the new text that would replace file line 3 (the line marked >" in text
    assert "statement on line 2" in text and "line 5" not in text and "line 6" not in text
    assert '> + | raise ValueError("negative size")' in text
    assert "  4 |     return width * height" in text
    # the warning of a written edit numbers the text after it: that is the file then
    warned = check_edit("geometry.py", BEFORE, after).warning_text()
    assert "at line 6, column 1" in warned and "statement on line 5" in warned


def test_refusal_names_an_untouched_file_line_by_its_own_number() -> None:
    with pytest.raises(PatchwrightError) as caught:
        check_edit("geometry.py", BEFORE, "if ready:\n" + BEFORE, policy="reject")
    error = caught.value
    assert "a syntax error at line 1, column 1: expected an indented block after 'if' " in (
        error.message
    )
    assert "statement on a new line" in error.message
    assert "  + | if ready:\n> 1 | def area(width, height):" in error.message
    assert error.line == 1 and "new text near line 1" in error.hint


def test_reject_policy_passes_a_clean_edit() -> None:
    after = BEFORE.replace("2 * (width + height)", "(width + height) * 2")
    report = check_edit("geometry.py", BEFORE, after, policy="reject")
    assert report.checked and report.ok and report.warning_text() == ""


def test_off_policy_returns_at_once_unchecked() -> None:
    report = check_edit("geometry.py", BEFORE, BROKEN, policy="off")
    assert not report.checked and report.new_errors == [] and report.elapsed_ms == 0.0
    assert report.reason == "the syntax check is off"


def test_unknown_policy_is_an_invalid_request() -> None:
    with pytest.raises(PatchwrightError) as caught:
        check_edit("geometry.py", BEFORE, BROKEN, policy=cast(Any, "strict"))
    assert caught.value.code is ErrorCode.INVALID_REQUEST
    assert "off, warn, reject" in caught.value.hint


def test_file_type_without_parser_is_not_checked_and_reports_nothing() -> None:
    report = check_edit("notes/todo.txt", "a (\n", "b )\n", policy="reject")
    assert report == SyntaxReport(
        None, False, report.elapsed_ms, reason="no parser for this file type"
    )
    assert report.elapsed_ms < 5
    assert language_for("notes/todo.txt") is None


def test_created_file_reports_all_its_errors_as_new() -> None:
    report = check_edit("new.py", None, "x = (1,\n")
    assert [i.line for i in report.new_errors] == [1]
    assert report.preexisting == 0 and report.scope == "file"


def test_unchanged_text_is_checked_without_parsing() -> None:
    report = check_edit("geometry.py", BROKEN, BROKEN)
    assert report.checked and report.scope == "unchanged" and report.new_errors == []


def test_compiler_warnings_are_not_errors_even_when_warnings_raise() -> None:
    # pytest runs with filterwarnings=error: an invalid escape must stay a warning.
    after = BEFORE.replace('"negative size"', '"negative \\d size"')
    report = check_edit("geometry.py", BEFORE, after)
    assert report.checked and report.new_errors == []
    report = check_edit("geometry.py", None, after)
    assert report.checked and report.new_errors == []


def test_null_byte_in_python_is_reported() -> None:
    report = check_edit("geometry.py", BEFORE, BEFORE.replace("2 * (", "2 *\0 ("))
    assert len(report.new_errors) == 1
    assert report.new_errors[0].line == 8
    assert "null" in report.new_errors[0].message


def test_error_at_end_of_file_is_placed_on_the_last_line() -> None:
    report = check_edit("geometry.py", BEFORE, BEFORE + "total = area(1,\n")
    issue = report.new_errors[0]
    assert issue.line == 9
    assert "> 9 | total = area(1," in issue.excerpt


def test_too_large_file_is_not_checked() -> None:
    huge = "x = 1\n" * (MAX_CHARS // 6 + 1)
    report = check_edit("big.py", huge, huge + "(\n")
    assert not report.checked and "too large" in report.reason


def test_several_new_errors_are_listed_then_counted() -> None:
    issues = [
        {"line": n, "column": 1, "message": "invalid syntax", "excerpt": f"> {n} | x"}
        for n in range(1, 6)
    ]
    report = SyntaxReport(
        "javascript",
        True,
        1.0,
        [SyntaxIssue(**cast(Any, issue)) for issue in issues],
        preexisting=2,
        scope="file",
    )
    text = report.warning_text()
    assert text.startswith("Syntax check (javascript): your edit introduced 5 syntax errors:")
    assert "line 3, column 1: invalid syntax" in text
    assert "line 4, column 1" not in text
    assert "... and 2 more." in text
    assert "(The file also has 2 syntax error(s) that were there before this edit.)" in text


def test_to_dict_is_json_ready() -> None:
    report = check_edit("geometry.py", BEFORE, BROKEN)
    data = report.to_dict()
    assert set(data) == {
        "language",
        "checked",
        "elapsed_ms",
        "new_errors",
        "preexisting",
        "scope",
    }
    assert data["scope"] == "region"  # the edited statements alone told
    assert check_edit("a.txt", "", "x").to_dict()["reason"] == "no parser for this file type"


def test_toml_without_a_parser_is_not_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    # Python 3.10 without tomli: nothing to parse TOML with.
    monkeypatch.setattr(stdlib_parsers, "toml_module", lambda: None)
    report = check_edit("pyproject.toml", "a = 1\n", "a = \n")
    assert not report.checked and report.new_errors == []
    assert "tomli" in report.reason


def test_crlf_and_tab_indented_files() -> None:
    source = "class A:\r\n\tdef f(self):\r\n\t\treturn 1\r\n\r\n\tdef g(self):\r\n\t\tpass\r\n"
    good = source.replace("return 1", "return 2")
    assert check_edit("a.py", source, good).scope == "region"
    bad = source.replace("\t\treturn 1", "  return 1")
    report = check_edit("a.py", source, bad)
    assert [issue.line for issue in report.new_errors] == [3]
    assert "\r" not in report.warning_text()


def test_checking_loads_no_parser_it_does_not_need() -> None:
    probe = (
        "import sys\n"
        "from patchwright.syntax import check_edit\n"
        "check_edit('a.py', 'x = 1\\n', 'x = 2\\n')\n"
        "check_edit('a.md', '', '# title')\n"
        "heavy = ('tree_sitter', 'difflib', 'json', 'tomllib')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def _module(functions: int) -> str:
    """A module large enough for the guard to remember its verdicts."""
    return "".join(
        f"def f{n}(a, b):\n    total = a + b\n    return {{\n        'total': total * {n},\n"
        "    }\n\n\n"
        for n in range(functions)
    )


def _count_whole_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the whole-text Python parses of the guard (each one's length)."""
    parsed: list[int] = []
    real = check.python_errors

    def counting(text: str) -> list[stdlib_parsers.ParseError]:
        parsed.append(len(text))
        return real(text)

    monkeypatch.setattr(check, "python_errors", counting)
    forget_verdicts()
    return parsed


def test_an_edit_breaking_the_indentation_is_judged_without_whole_parses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed = _count_whole_parses(monkeypatch)
    source = _module(400)
    broken = source.replace(
        "a + b\n    return {\n        'total': total * 200",
        "a + b\n  return {\n        'total': total * 200",
    )
    report = check_edit("big.py", source, broken)
    assert report.scope == "region" and parsed == []
    assert [(i.line, i.message) for i in report.new_errors] == [
        (1403, "unindent does not match any outer indentation level")
    ]


def test_a_quote_left_open_parses_only_the_new_text_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed = _count_whole_parses(monkeypatch)
    source = _module(400)
    broken = source.replace("total * 200,", "total * 200, 'x", 1)
    report = check_edit("big.py", source, broken)
    assert report.scope == "file" and parsed == [len(broken)]
    assert [(i.line, i.message) for i in report.new_errors] == [
        (1404, "unterminated string literal (detected at line 1404)")
    ]


def test_whole_text_verdicts_are_remembered_for_the_next_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed = _count_whole_parses(monkeypatch)
    source = _module(400)
    # Deleting the header with the line that opens the dict leaves its closing brace
    # unmatched (no statement can be delimited) and the error on an unchanged line: both
    # texts are parsed whole.
    broken = source.replace("def f200(a, b):\n    total = a + b\n    return {\n", "")
    first = check_edit("big.py", source, broken)
    assert first.scope == "file" and sorted(parsed) == sorted([len(source), len(broken)])
    assert [(i.line, i.message) for i in first.new_errors] == [(1401, "unexpected indent")]
    again = check_edit("big.py", source, broken)
    assert again.new_errors == first.new_errors and len(parsed) == 2
    forget_verdicts()
    check_edit("big.py", source, broken)
    assert len(parsed) == 4
