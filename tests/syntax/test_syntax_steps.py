"""A diff's changes judged one at a time, each step lexed from the one before it.

The steps of a chain are judged on their lines (:class:`pyregion._Chain`) when neither
the text before the edit nor a line a step writes holds the lexer's marker, a NUL or
``__future__``; otherwise on their joined texts. Both ways must give the same report
on every edit, with or without the caller's lines, and what a chain keeps about the
text after the edit must be what lexing that text gives.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from test_syntax_pyregion import _hunks, _mutate

from patchwright.syntax import check_edit, lexcache, pyregion
from patchwright.syntax.check import forget_verdicts
from patchwright.syntax.lexcache import forget_lexed
from patchwright.syntax.report import SyntaxReport
from patchwright.syntax.stdlib_parsers import ParseError, python_errors
from patchwright.syntax.steps import Block, Step, max_steps, stepwise


def _sources() -> list[str]:
    folder = Path(ast.__file__).parent
    names = ["textwrap.py", "shlex.py", "fnmatch.py", "netrc.py", "signal.py", "glob.py"]
    found = [(folder / name).read_text(encoding="utf-8") for name in names]
    # the premises' other side: a text with __future__ or a NUL is judged on joined texts
    found.append("from __future__ import annotations\n" + found[0])
    found.append(found[1].replace("import ", "import \x00", 1))
    return found


# lines a step may write that a chain cannot judge on lines (it then judges on texts)
_MARKED = ["from __future__ import annotations", "x = 1  # \x01", "y = '\x00'"]


def _edit(rng: random.Random, before: str) -> tuple[str, list[tuple[int, int, int, int]]]:
    lines = before.split("\n")
    for _ in range(rng.choice([2, 2, 3, 4, 6])):
        lines = _mutate(rng, lines)
    if rng.random() < 0.15:
        lines.insert(rng.randrange(len(lines)), rng.choice(_MARKED))
    return "\n".join(lines), _hunks(before.split("\n"), lines)


def _cold(before: str, after: str, blocks: object, **kw: object) -> SyntaxReport:
    forget_verdicts()
    forget_lexed()
    return check_edit("m.py", before, after, changed=blocks, **kw)  # type: ignore[arg-type]


def _seen(report: SyntaxReport) -> tuple[object, ...]:
    return (
        report.scope,
        report.preexisting,
        [(e.line, e.column, e.message) for e in report.new_errors],
    )


def test_steps_on_lines_report_what_steps_on_texts_report(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(20261124)
    sources = _sources()
    chained = 0
    for _ in range(300):
        before = rng.choice(sources)
        after, blocks = _edit(rng, before)
        split = (before.split("\n"), after.split("\n"))
        on_lines = _cold(before, after, blocks)
        given = _cold(before, after, blocks, split=split)
        with monkeypatch.context() as patched:
            patched.setattr(pyregion._Chain, "holds", staticmethod(lambda _text: False))
            on_texts = _cold(before, after, blocks)
        assert _seen(on_lines) == _seen(on_texts) == _seen(given), after
        if not on_lines.new_errors and not python_errors(before):
            assert not python_errors(after), f"a broken text judged clean:\n{after}"
        chained += on_lines.scope == "region" and pyregion._Chain.holds(before)
    assert chained > 60  # the chain is the common path, not a rare one


def test_what_a_chain_keeps_is_what_lexing_gives() -> None:
    rng = random.Random(7)
    sources = _sources()[:6]
    kept = 0
    for _ in range(150):
        before = rng.choice(sources)
        after, blocks = _edit(rng, before)
        _cold(before, after, blocks)
        for text, lines in lexcache._RECENT._found:  # every result kept, by its text
            # lines lexed lazily are lexed to the end here: the same lines, or None
            assert lexcache.whole(lines) == pyregion.clean_lines(text)
            kept += text is after
    assert kept > 30


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("a\nb\n", "a\nc\n"),
        ("a\nb", "a\nb\nc"),
        ("", "x\n"),
        ("a\r\nb\r\n", "a\r\nc\r\n"),
        ("a\nb\r\n", "a\nc\n"),
        ("a\rb\n", "a\rc\n"),
    ],
)
def test_the_write_path_gives_the_guard_its_texts_split_exactly(before: str, after: str) -> None:
    from patchwright.model import TextFile
    from patchwright.writing.guard import _lf_split

    old, new = TextFile.from_text(before), TextFile.from_text(after)
    found = _lf_split(old, new)
    if "\r" in before + after:  # some ending is not a line feed: the guard splits the texts
        assert found is None
    else:
        assert found is not None
        assert found == (old.text.split("\n"), new.text.split("\n"))
        assert (old.text, new.text) == (before, after)


def _changed_module(
    lines: int, spots: range, change: str = " + 1"
) -> tuple[list[str], list[str], list[Block]]:
    """A module of ``lines`` assignments, the same with ``change`` appended at each spot,
    and each change's block (old start, old end, new start, new end)."""
    before = [f"x{i} = {i}" for i in range(lines)]
    after = list(before)
    for i in spots:
        after[i] += change
    return before, after, [(i, i + 1, i, i + 1) for i in spots]


def _collecting() -> tuple[Callable[[Step], list[ParseError]], list[Step]]:
    """A judge that keeps every step it is given and finds each one keeping the syntax."""
    judged: list[Step] = []

    def judge(step: Step) -> list[ParseError]:
        judged.append(step)
        return []

    return judge, judged


def test_more_changes_than_steps_are_not_found_again_from_the_texts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import patchwright.engine.diff as diff

    before, after, blocks = _changed_module(1000, range(5, 1000, 10))  # 100 changes
    calls: list[int] = []
    inner = diff.line_opcodes

    def counted(a: list[str], b: list[str]) -> list[diff.Opcode]:
        calls.append(len(a))
        return inner(a, b)

    monkeypatch.setattr(diff, "line_opcodes", counted)
    judge, judged = _collecting()
    verdict = stepwise((before, after), judge, blocks)
    assert verdict is None  # not proven: the whole edit is judged as one
    assert calls == [] and judged == []


def test_more_changes_than_steps_go_to_the_whole_compile_without_a_region(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 80 changes spread over the whole module
    before_lines, after_lines, blocks = _changed_module(2000, range(5, 2000, 25), "  # changed")
    before, after = "\n".join(before_lines), "\n".join(after_lines)
    regions: list[int] = []
    inner = pyregion._one_region

    def counted(*args: object) -> list[ParseError] | None:
        regions.append(1)
        return inner(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(pyregion, "_one_region", counted)
    report = check_edit("m.py", before, after, changed=blocks)
    assert (report.checked, report.new_errors, report.scope) == (True, [], "file")
    assert regions == []  # one run around all 80 would span the module: not delimited
    broken = list(after_lines)
    broken[1000] = "x1000 = ("
    report = check_edit(
        "m.py", before, "\n".join(broken), changed=[*blocks, (1000, 1001, 1000, 1001)]
    )
    assert [issue.line for issue in report.new_errors] == [1001] and regions == []


@pytest.mark.parametrize(("lines", "stepped"), [(5_000, False), (20_000, True)])
def test_a_larger_text_steps_through_more_changes(lines: int, stepped: bool) -> None:
    before, after, blocks = _changed_module(lines, range(10, 10 + 150 * 30, 30))  # 150
    judge, judged = _collecting()
    verdict = stepwise((before, after), judge, blocks)
    assert max_steps(lines) == (200 if stepped else 64)
    assert (verdict, len(judged)) == (([], 150) if stepped else (None, 0))
