"""Edits of comments and blank lines only, proven clean without compiling.

The property that matters: whenever the proof holds, Python reads the text after the edit
as it reads the text before it (both compile, or both fail with the same message). It is
checked on traps (comments that are not only comments to Python) and on random comment
edits of standard-library modules, and the guard's verdicts stay the ones of whole-file
compiles.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from patchwright.syntax import check_edit
from patchwright.syntax.check import forget_verdicts
from patchwright.syntax.comments import only_comments
from patchwright.syntax.pyregion import clean_lines
from patchwright.syntax.shared import shared_lines
from patchwright.syntax.stdlib_parsers import python_errors


def _proven(before: str, after: str) -> bool:
    """:func:`only_comments` on two whole texts, as the region check calls it."""
    old, new = clean_lines(before), clean_lines(after)
    assert old is not None and new is not None
    first, suffix = shared_lines(before, after)
    raw = (before.split("\n"), after.split("\n"))
    return only_comments(old, new, raw, first, (len(old) - suffix, len(new) - suffix))


def _verdict(text: str) -> str:
    try:
        compile(text, "<t>", "exec", dont_inherit=True)
    except SyntaxError as exc:
        return exc.msg or "error"
    except ValueError:
        return "unencodable"
    return "ok"


BASE = (
    "class A:\n    def f(self, x=1):\n        y = (x +\n             2)\n        return y\n"
    "\nz = 3\n"
)

PROVEN = [
    ("a comment appended to a header", "class A:", "class A:  # noqa"),
    ("a comment line above a method", "    def f(self, x=1):", "    # f\n    def f(self, x=1):"),
    ("blank lines added", "z = 3", "\n\n# done\nz = 3"),
    ("a comment inside brackets", "             2)", "             2)  # two"),
    ("a comment line inside brackets", "             2)", "             # two\n             2)"),
    ("a comment with quotes in it", "class A:", 'class A:  # it\'s "fine"'),
]
CRLF = BASE.replace("\n", "\r\n")
NOT_PROVEN = [
    ("a backslash before the comment", "return y", "return y \\# c"),
    ("a carriage return inside the comment", "return y", "return y  # a\rb = ("),
    ("code added", "return y", "return y  # c\n        y = 2"),
    ("a string changed", "z = 3", 'z = "3"'),
    ("a form feed", "return y", "return y  # \x0c"),
    ("a lone surrogate", "return y", "return y  # \ud800"),
    ("a comment turned into code", "z = 3", "z = 3  # c\nx = ("),
    ("an indentation changed", "        return y", "         return y"),
]


@pytest.mark.parametrize(("name", "old", "new"), PROVEN, ids=[c[0] for c in PROVEN])
def test_comment_edits_are_proven(name: str, old: str, new: str) -> None:
    after = BASE.replace(old, new, 1)
    assert after != BASE
    assert _proven(BASE, after), name
    assert _verdict(after) == "ok"


@pytest.mark.parametrize(("name", "old", "new"), PROVEN, ids=[c[0] for c in PROVEN])
def test_comment_edits_of_crlf_lines_are_proven(name: str, old: str, new: str) -> None:
    after = CRLF.replace(old, new.replace("\n", "\r\n"), 1)
    assert after != CRLF
    assert _proven(CRLF, after), name
    assert _verdict(after) == "ok"


@pytest.mark.parametrize(("name", "old", "new"), NOT_PROVEN, ids=[c[0] for c in NOT_PROVEN])
def test_edits_that_are_not_only_comments_are_not_proven(name: str, old: str, new: str) -> None:
    after = BASE.replace(old, new, 1)
    assert after != BASE
    assert not _proven(BASE, after), name


def test_a_comment_edit_of_a_class_header_compiles_nothing() -> None:
    import patchwright.syntax.pyregion as pyregion

    compiled: list[str] = []
    original = pyregion.compile_python

    def counting(text: str, **options: object) -> None:
        compiled.append(text)
        original(text, **options)  # type: ignore[arg-type]

    pyregion.compile_python = counting  # type: ignore[assignment]
    try:
        report = check_edit("m.py", BASE, BASE.replace("class A:", "class A:  # kept"))
    finally:
        pyregion.compile_python = original
    assert report.checked and report.scope == "region" and not report.new_errors
    assert compiled == []


def _stdlib_modules() -> list[Path]:
    folder = Path(ast.__file__).parent
    names = ["textwrap.py", "shlex.py", "fnmatch.py", "netrc.py", "imghdr.py", "signal.py"]
    return [folder / name for name in names if (folder / name).exists()]


COMMENTS = ["# c", "# it's", '# "q"', "#", "# \\", "# x = (", "# a\rb = (", "# é", "# \t"]


def _comment_edit(rng: random.Random, lines: list[str]) -> list[str]:
    """A random edit of comments or blank lines (sometimes with a risky character)."""
    lines = list(lines)
    at = rng.randrange(len(lines))
    kind = rng.randrange(5)
    comment = rng.choice(COMMENTS)
    if kind == 0:
        lines.insert(at, " " * rng.choice([0, 4, 8, 3]) + comment)
    elif kind == 1:
        lines[at] = lines[at] + rng.choice(["  ", "", " \\"]) + comment
    elif kind == 2:
        lines.insert(at, rng.choice(["", "   ", "\t"]))
    elif kind == 3 and lines[at].strip() == "":
        del lines[at]
    else:
        cut = lines[at].find("#")
        lines[at] = lines[at][:cut] + comment if cut >= 0 else lines[at]
    return lines


def test_random_comment_edits_never_prove_a_change_python_sees() -> None:
    rng = random.Random(20261124)
    sources = [path.read_text(encoding="utf-8") for path in _stdlib_modules()]
    assert sources, "no standard-library module found to edit"
    sources += [source.replace("\n", "\r\n") for source in sources]
    proven = 0
    for _ in range(600):
        before = rng.choice(sources)
        lines = before.split("\n")
        for _ in range(rng.choice([1, 1, 2])):
            lines = _comment_edit(rng, lines)
        if "\r\n" in before:  # every line of a CRLF text keeps its ending
            lines = [line if line.endswith("\r") else line + "\r" for line in lines[:-1]]
            lines.append(before.split("\n")[-1])
        after = "\n".join(lines)
        if after == before or clean_lines(after) is None:
            continue
        if _proven(before, after):
            proven += 1
            assert _verdict(after) == _verdict(before), f"proven, yet Python differs:\n{after}"
        forget_verdicts()
        report = check_edit("m.py", before, after)
        if report.new_errors:
            assert python_errors(after), f"an error reported in a text that compiles:\n{after}"
        elif report.checked:
            assert not python_errors(after), f"a broken text judged clean:\n{after}"
    assert proven > 100
