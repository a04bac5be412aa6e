"""A file that did not parse before the edit is judged in its own dialect: errors of the
kind it already had (Python 2 forms, mixed tabs) or any error of a file with several
(a template, code split by the preprocessor) are not blamed on the edit, and the report
says why."""

from __future__ import annotations

from patchwright.syntax import check_edit

PY2 = (
    "import os\n\n\ndef f():\n    try:\n        g()\n    except ValueError, e:\n"
    "        log(e)\n    return 1\n\n\ndef h():\n    return 2\n"
)


def test_python_2_form_the_file_already_has_is_not_blamed() -> None:
    after = PY2.replace(
        "    return 2\n", "    try:\n        h()\n    except KeyError, e:\n        pass\n"
    )
    report = check_edit("m.py", PY2, after, policy="reject")
    assert report.ok and report.preexisting == 1
    assert "did not parse as python before this edit" in report.note
    assert "line 7: multiple exception types must be parenthesized" in report.note
    assert "another dialect" in report.warning_text()


def test_python_2_form_in_a_file_that_parsed_is_still_new() -> None:
    before = PY2.replace("except ValueError, e:", "except ValueError as e:")
    after = before.replace(
        "    return 2\n", "    try:\n        h()\n    except KeyError, e:\n        pass\n"
    )
    report = check_edit("m.py", before, after)
    assert [i.message for i in report.new_errors] == [
        "multiple exception types must be parenthesized"
    ]
    assert report.note == ""


def test_tab_error_already_in_the_file_is_not_blamed() -> None:
    before = "def f():\n    if x:\n\ty = 1\n    return 2\n\n\ndef h():\n\tif y:\n        z = 1\n"
    after = before.replace("\ty = 1\n", "\ty = 5\n")
    report = check_edit("m.py", before, after)
    assert report.ok


def test_a_file_with_many_errors_is_another_dialect() -> None:
    before = (
        "\nuse(Express.Cookie)\n\ndescribe 'Express'\n  describe 'Cookie'\n    before_each\n"
        "      Express.routes = []\n    end\n\n    describe 'settings'\n      it 'should maxAge'\n"
        "        Express.settings.cookie.maxAge.should.be_a Number\n"
        "      end\n    end\n  end\nend\n"
    )
    after = before.replace("\nuse(Express.Cookie)\n", "")
    report = check_edit("spec.js", before, after)
    assert report.ok
    assert "did not parse as javascript before this edit" in report.warning_text()
