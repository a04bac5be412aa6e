"""Proving Python edits clean by compiling only the edited statements.

The property that matters: when ``edit_is_clean`` says yes, the whole text parses. It is
checked on handcrafted traps (each one a way the region could look fine alone while the
file breaks) and on random line edits of standard-library modules.
"""

from __future__ import annotations

import ast
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from patchwright.syntax import check_edit
from patchwright.syntax.check import _clamped, forget_verdicts
from patchwright.syntax.compare import split_errors
from patchwright.syntax.pyregion import clean_lines, edit_is_clean
from patchwright.syntax.stdlib_parsers import ParseError, python_errors

SOURCE = '''\
"""Module doc."""

import os


@register
class Reader:
    """Reads things.

    class NotReal:  # inside the docstring
    """

    def __init__(self, path):
        self.path = path
        self.items = [
            1,
            2,
        ]

    def read(self):
        try:
            data = open(self.path).read()
        finally:
            pass
        if data:
            return data
        return "x = ("


def helper(a, \\
           b):
    return a + b
'''


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def test_clean_lines_keeps_line_count_and_blanks_strings_and_comments() -> None:
    lines = clean_lines(SOURCE)
    assert len(lines) == SOURCE.count("\n") + 1
    assert lines[0] == "S"  # the module docstring
    assert all("NotReal" not in line for line in lines)
    assert lines[26] == "        return S"  # the string with a bracket is a placeholder
    assert lines[15].startswith("            1")  # inside brackets: kept, depth tracked
    assert lines[30].startswith("\x01")  # continued with a backslash


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("open(self.path).read()", "open(self.path).read(100)"),
        ("        self.path = path", "        self.path = str(path)\n        self.seen = 0"),
        ("            2,", "            2,\n            3,"),
        ("    return a + b", "    total = a + b\n    return total"),
        ("import os", "import os\nimport sys"),
        ("        if data:", "        if data and data.strip():"),
        ('        return "x = ("', "        return 'x = ('"),
    ],
)
def test_local_edits_are_proven_by_their_region(old: str, new: str) -> None:
    after = SOURCE.replace(old, new, 1)
    assert after != SOURCE
    assert edit_is_clean(SOURCE, after)
    assert check_edit("reader.py", SOURCE, after).scope == "region"


# Each trap: the edited statements compile alone, the file does not.
I4, I8, I12 = " " * 4, " " * 8, " " * 12
TRAPS = {
    "header left without body": (I12 + "pass\n", ""),
    "duplicated header": (I8 + "try:\n", I8 + "try:\n" + I8 + "try:\n"),
    "first statement pushed deeper": (I8 + "self.path = path\n", I12 + "self.path = path\n"),
    "deeper line after a simple statement": (
        I8 + "self.path = path\n",
        I8 + "self.path = path\n" + I12 + "self.other = 1\n",
    ),
    "dedent to no known level": (I8 + "if data:\n", "      if data:\n"),
    "finally clause deleted": (I8 + "finally:\n" + I12 + "pass\n", ""),
    "decorator left dangling": (I4 + "def read(self):", I4 + "@property\ndef read(self):"),
    "line of only a backslash": (I8 + "if data:\n", I8 + "if data:\n" + I4 + "\\\n"),
    "future import below the top": ("import os\n", "import os\nfrom __future__ import division\n"),
    "string opened and left open": (I8 + "if data:\n", I8 + "if data:\n" + I12 + 's = """\n'),
    "closing bracket deleted": (I8 + "]\n", ""),
    "body dedented under its header": (I12 + "return data\n", I8 + "return data\n"),
    # A line holding only a string is a statement: its indentation counts.
    "string statement at the margin": (I8 + "self.path = path\n", I8 + "self.path = path\n's'\n"),
    "return moved into the class body": (I8 + "return data\n", I4 + "return data\n"),
}


@pytest.mark.parametrize("name", sorted(TRAPS))
def test_traps_are_not_proven_and_are_reported(name: str) -> None:
    old, new = TRAPS[name]
    assert old in SOURCE
    after = SOURCE.replace(old, new, 1)
    assert not parses(after) or name in (
        "future import below the top",
        "return moved into the class body",
    )
    assert not edit_is_clean(SOURCE, after)
    report = check_edit("reader.py", SOURCE, after)
    assert report.scope in ("region", "file")
    # Judged by its region or by the whole file, the error is the one the file has.
    (whole,) = python_errors(after)
    assert [(i.line, i.column, i.message) for i in report.new_errors] == [
        (whole.line, whole.column, whole.message)
    ]


def test_a_quote_left_open_at_a_line_end_stops_the_lexer() -> None:
    assert clean_lines('x = f"{\n    y\n} items"\n') is None
    assert clean_lines("x = 'a'  # it's\n") == ["x = S  ", ""]


@pytest.mark.skipif(sys.version_info < (3, 12), reason="f-string fields span lines from 3.12")
def test_an_fstring_field_spanning_lines_is_left_to_the_whole_file() -> None:
    source = 'def f(items):\n    tail = f"{\n        len(items)\n    } items"\n    return tail\n'
    after = source.replace("        len(items)\n", "        len(items)\n        x = 1\n")
    assert parses(source) and not parses(after)
    assert not edit_is_clean(source, after)
    assert len(check_edit("a.py", source, after).new_errors) == 1


def _stdlib_modules() -> list[Path]:
    folder = Path(ast.__file__).parent
    names = ["textwrap.py", "shlex.py", "fnmatch.py", "netrc.py", "imghdr.py", "signal.py"]
    return [folder / name for name in names if (folder / name).exists()]


SNIPPETS = [
    "(", ")", "]", '"""', "'''", "else:", "except E:", "finally:", "@dec", "pass", "x = 1",
    "if x:", "def g():", "return 1", "\\", "'", "#", "x = (1,", "\t", "class K:", "try:",
]  # fmt: skip


def _mutate(rng: random.Random, lines: list[str]) -> list[str]:
    lines = list(lines)
    at = rng.randrange(len(lines))
    kind = rng.randrange(7)
    if kind == 0:
        del lines[at : at + rng.randrange(1, 5)]
    elif kind == 1:
        lines.insert(at, lines[rng.randrange(len(lines))])
    elif kind == 2:
        lines[at] = "    " + lines[at]
    elif kind == 3:
        lines[at] = lines[at][rng.choice([1, 2, 4]) :]
    elif kind == 4:
        indent = " " * rng.choice([0, 2, 4, 8, 12])
        lines.insert(at, indent + rng.choice(SNIPPETS))
    elif kind == 5:
        cut = rng.randrange(len(lines[at]) + 1)
        lines[at] = lines[at][:cut] + rng.choice(SNIPPETS) + lines[at][cut:]
    else:
        lines[at], lines[at - 1] = lines[at - 1], lines[at]
    return lines


def test_random_edits_of_real_modules_are_never_proven_wrongly() -> None:
    rng = random.Random(20240611)
    sources = [path.read_text(encoding="utf-8") for path in _stdlib_modules()]
    assert sources, "no standard-library module found to mutate"
    proven = valid = 0
    for _ in range(300):
        before = rng.choice(sources)
        lines = before.split("\n")
        for _ in range(rng.choice([1, 1, 2])):
            lines = _mutate(rng, lines)
        after = "\n".join(lines)
        clean = edit_is_clean(before, after)
        ok = parses(after)
        assert ok or not clean, f"proven clean but broken:\n{after}"
        proven += clean
        valid += ok
    # The region proof must also be useful: most edits that keep the syntax are proven.
    assert valid > 60
    assert proven > valid * 0.6


def _reference(before: str, after: str) -> list[tuple[int, int, str]]:
    """What the guard said before the region path judged errors: parse both texts whole."""
    before_lines, after_lines = before.split("\n"), after.split("\n")
    found = _clamped(python_errors(after), after_lines)
    if found:
        old = _clamped(python_errors(before), before_lines)
        found = split_errors(old, found, before_lines, after_lines, first_error_only=True)[0]
    return [(e.line, e.column, e.message) for e in found]


def test_random_edits_report_the_errors_whole_files_report() -> None:
    """Errors judged from the edited statements alone are the ones whole files give.

    When the file was already broken elsewhere, the region may also see an error the
    whole-file compile hides behind the old one: it must then be a real error.
    """
    rng = random.Random(20240612)
    sources = [path.read_text(encoding="utf-8") for path in _stdlib_modules()]
    scopes: Counter[str] = Counter()
    for _ in range(400):
        before = rng.choice(sources)
        lines = before.split("\n")
        broken_before = rng.random() < 0.25
        if broken_before:
            lines = _mutate(rng, lines)
            before = "\n".join(lines)
        for _ in range(rng.choice([1, 1, 2])):
            lines = _mutate(rng, lines)
        after = "\n".join(lines)
        forget_verdicts()
        report = check_edit("m.py", before, after)
        found = [(e.line, e.column, e.message) for e in report.new_errors]
        scopes[report.scope] += bool(found)
        if found:
            assert python_errors(after), (
                f"a syntax error reported in a text that compiles:\n{after}"
            )
        if python_errors(before):
            reference = _reference(before, after)
            assert not reference or found == reference
        else:
            assert found == _reference(before, after)
    # The point of it all: most broken edits are judged without compiling whole texts.
    assert scopes["region"] > 2 * scopes["file"]


def test_a_statement_moved_out_of_its_loop_is_caught_by_the_compiler_checks() -> None:
    # The run compiles below stand-ins for its headers, so scope checks still apply.
    source = (
        "class A:\n    def f(self):\n        for x in self:\n            print(x)\n"
        "            break\n"
    )
    moved = source.replace("            break\n", "        break\n")
    report = check_edit("a.py", source, moved)
    assert report.scope == "region"
    assert [(i.line, i.message) for i in report.new_errors] == [(5, "'break' outside loop")]
    assert check_edit("a.py", source, source.replace("print(x)", "yield x")).scope == "region"


def test_region_compiles_with_the_modules_future_imports() -> None:
    source = "from __future__ import annotations\n\nx: int = 1\n\ny = 2\n"
    after = source.replace("x: int = 1", "x: (z := int) = 1")
    (whole,) = python_errors(after)  # a walrus in an annotation, refused under PEP 563
    report = check_edit("a.py", source, after)
    assert report.scope == "region"
    assert [(i.line, i.message) for i in report.new_errors] == [(whole.line, whole.message)]


def _hunks(before: list[str], after: list[str]) -> list[tuple[int, int, int, int]]:
    """The changed blocks as a unified diff's hunks give them: with 3 lines of context."""
    import difflib

    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return [
        (group[0][1], group[-1][2], group[0][3], group[-1][4])
        for group in matcher.get_grouped_opcodes(3)
    ]


def test_hunks_with_context_judge_as_the_bare_edit() -> None:
    """The blocks of a diff's hunks (context lines included) only spare finding the
    changes: the verdict is the one the guard gives without them, and a clean verdict
    is never given to a text that does not compile."""
    rng = random.Random(20261124)
    sources = [path.read_text(encoding="utf-8") for path in _stdlib_modules()]
    stepped = 0
    for _ in range(250):
        before = rng.choice(sources)
        lines = before.split("\n")
        for _ in range(rng.choice([2, 2, 3, 4])):
            lines = _mutate(rng, lines)
        after = "\n".join(lines)
        blocks = _hunks(before.split("\n"), lines)
        forget_verdicts()
        hinted = check_edit("m.py", before, after, changed=blocks)
        forget_verdicts()
        bare = check_edit("m.py", before, after)
        # the verdict; where a moved line stands in the file may be told by either
        # alignment (the hunks' or the whole texts'), both true
        verdict = [(i.line, i.column, i.message, i.excerpt) for i in hinted.new_errors]
        assert verdict == [(i.line, i.column, i.message, i.excerpt) for i in bare.new_errors]
        if not hinted.new_errors and not python_errors(before):
            assert not python_errors(after), f"a broken text judged clean:\n{after}"
        stepped += hinted.scope == "region" and len(blocks) > 1
    assert stepped > 50


def _lexed_by_one_expression(text: str) -> list[str] | None:
    """The lexer as one regular expression splitting code, comments and strings: what
    :func:`clean_lines` must give (it finds the code runs with ``str.find`` instead)."""
    import re

    import patchwright.syntax.pyregion as pyregion

    tokens = re.compile(
        "|".join(
            (
                r"""(?P<c>[^"'#]+)""",
                r"#[^\n]*",
                "(?P<k>" + "|".join(pyregion._ONE_LINE_STRINGS + pyregion._LONG_STRINGS) + ")",
                r"""(?P<u>["'])[^\n]*""",
            )
        ),
        re.S,
    )
    parts = tokens.split(text)
    if any(parts[3::4]):
        return None  # a quote left open at the end of its line
    parts[2::4] = [
        kept if kept is None else "S" if "\n" not in kept else pyregion._placeholder(kept)
        for kept in parts[2::4]
    ]
    joined = "".join(filter(None, parts))
    return re.sub(r"\\\r?\n", "\\\\\n" + pyregion.MARK, joined).split("\n")


def test_the_lexer_gives_what_one_regular_expression_gives() -> None:
    pieces = ['"""', "'''", '"', "'", "\\", "\\\n", "\\\r\n", "#", "#'", "\n", "\r", "x", "(",
              "\x00", "a\x00b", " "]  # fmt: skip
    rng = random.Random(11)
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 14)))
        assert clean_lines(text) == _lexed_by_one_expression(text), repr(text)
    sources = [path.read_text(encoding="utf-8") for path in _stdlib_modules()]
    assert sources
    for source in sources:
        for text in (source, source.replace("\n", "\r\n"), source[: len(source) // 3]):
            assert clean_lines(text) == _lexed_by_one_expression(text)


def _compiled_lines(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The line counts of the texts the region check compiles from now on."""
    import patchwright.syntax.pyregion as pyregion

    counts: list[int] = []
    real = pyregion.compile_python

    def counted(text: str, *, ast_only: bool, future: int = 0) -> None:
        counts.append(text.count("\n") + 1)
        real(text, ast_only=ast_only, future=future)

    monkeypatch.setattr(pyregion, "compile_python", counted)
    return counts


def test_a_run_not_delimited_in_its_block_is_judged_one_block_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The last statement of a loop's body deleted: no run of the loop's body holds the
    # change, and the module level's run would be the whole class. The loop's own block
    # (the method's body) delimits it in a few lines.
    body = "".join(f"        total += {n}\n" for n in range(60))
    source = (
        "class A:\n    def f(self, items):\n        total = 0\n"
        "        for x in items:\n            print(x)\n            total += x\n"
        f"{body}        return total\n"
    )
    edited = source.replace("            total += x\n", "", 1)
    compiled = _compiled_lines(monkeypatch)
    forget_verdicts()
    report = check_edit("a.py", source, edited)
    assert report.scope == "region" and not report.new_errors
    assert compiled and max(compiled) < 10, compiled
    # broken the same way, the error is the one the whole file reports
    broken = source.replace("            print(x)\n            total += x\n", "", 1)
    forget_verdicts()
    report = check_edit("a.py", source, broken)
    (whole,) = python_errors(broken)
    assert [(i.line, i.message) for i in report.new_errors] == [(whole.line, whole.message)]


def _block_end_deleted(rng: random.Random, lines: list[str]) -> list[str]:
    """``lines`` without the last line of a nested block (a line followed by a less
    indented one), or by a random mutation when there is none."""
    ends = [
        index
        for index in range(len(lines) - 1)
        if lines[index].startswith("        ")
        and lines[index + 1].strip()
        and len(_indent_of(lines[index + 1])) < len(_indent_of(lines[index]))
    ]
    if not ends:
        return _mutate(rng, lines)
    at = rng.choice(ends)
    return lines[:at] + lines[at + 1 :]


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def test_runs_one_block_out_judge_as_the_whole_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deleting the last statement of a nested block: the verdict of the runs tried from
    the inside out is the whole files' (as is, with CRLF endings, cut), and such runs are
    used."""
    import patchwright.syntax.pyregion as pyregion

    tried: list[str] = []  # the indentations judged for one region, in turn
    judged_out = 0  # regions whose verdict came from a run neither innermost nor top level
    real_judge, real_verdict = pyregion._Edit.judge, pyregion._verdict

    def judge(edit: pyregion._Edit, indent: str) -> tuple[list[ParseError] | None, bool]:
        tried.append(indent)
        return real_judge(edit, indent)

    def verdict(edit: pyregion._Edit) -> list[ParseError] | None:
        nonlocal judged_out
        del tried[:]
        found = real_verdict(edit)
        judged_out += len(tried) > 1 and tried[-1] != "" and found == []
        return found

    monkeypatch.setattr(pyregion._Edit, "judge", judge)
    monkeypatch.setattr(pyregion, "_verdict", verdict)
    rng = random.Random(20261125)
    sources = [path.read_text(encoding="utf-8") for path in _stdlib_modules()]
    for _ in range(150):
        source = rng.choice(sources)
        for before in (source, source.replace("\n", "\r\n"), source[: rng.randrange(len(source))]):
            lines = before.split("\n")
            for _ in range(rng.choice([1, 1, 2])):
                lines = _block_end_deleted(rng, lines)
            after = "\n".join(lines)
            forget_verdicts()
            report = check_edit("m.py", before, after)
            found = [(e.line, e.column, e.message) for e in report.new_errors]
            if not python_errors(before):
                assert found == _reference(before, after), after
            elif found:
                assert python_errors(after)
    assert judged_out > 20, judged_out
