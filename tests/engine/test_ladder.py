"""Each rung of the matching ladder, and the refusals around it."""

from __future__ import annotations

import pytest
from engine_helpers import run

from patchwright.engine import MatchOptions, apply_edits
from patchwright.model import Edit, ErrorCode, OldText, PatchwrightError, TextFile

SOURCE = (
    "def load(path):\n"
    "    with open(path) as fh:\n"
    "        data = fh.read()\n"
    "    return data\n"
    "\n"
    "\n"
    "def save(path, data):\n"
    "    with open(path, 'w') as fh:\n"
    "        fh.write(data)\n"
)


def rung_of(text: str, old: str, new: str, mode: str = "fuzzy") -> str:
    result = apply_edits(
        TextFile.from_text(text),
        [Edit(OldText(old), new)],
        options=MatchOptions(mode=mode),  # type: ignore[arg-type]
    )
    return result.reports[0].rung


def test_exact_substring_mid_line() -> None:
    out = run(SOURCE, Edit(OldText("fh.read()"), "fh.read().strip()"))
    assert "        data = fh.read().strip()\n" in out
    assert rung_of(SOURCE, "fh.read()", "x") == "exact"


def test_newline_rung_crlf_file_lf_search() -> None:
    crlf = SOURCE.replace("\n", "\r\n").encode()
    out = run(crlf, Edit(OldText("    return data\n\n"), "    return data.upper()\n\n"))
    assert out == SOURCE.replace("return data\n", "return data.upper()\n").replace("\n", "\r\n")
    assert rung_of(SOURCE.replace("\n", "\r\n"), "    return data\n", "x\n") == "newline"


def test_trailing_whitespace_rung_keeps_file_bytes_of_context() -> None:
    text = "a = 1   \nb = 2\t\nc = 3\n"
    out = run(text, Edit(OldText("a = 1\nb = 2\nc = 3\n"), "a = 1\nb = 20\nc = 3\n"))
    # context lines keep their trailing blanks; only the changed line is replaced
    assert out == "a = 1   \nb = 20\nc = 3\n"
    assert rung_of(text, "a = 1\nb = 2\nc = 3\n", "x\n") == "trailing_whitespace"


def test_indentation_rung_shifts_new_text_by_the_same_amount() -> None:
    old = "with open(path) as fh:\n    data = fh.read()\n"
    new = "with open(path) as fh:\n    data = fh.read()\n    data = data.strip()\n"
    out = run(SOURCE, Edit(OldText(old), new))
    assert "        data = fh.read()\n        data = data.strip()\n    return data\n" in out
    assert rung_of(SOURCE, old, new) == "indentation"


def test_search_dedented_as_a_whole_moves_its_replacement() -> None:
    # The added line is deeper than the line after it: that line's indentation agrees
    # with the file's frame while the copied line agrees with the model's. But the
    # search text stands at column 0 where every file line it matched is indented:
    # the block was quoted dedented as a whole, its replacement too.
    old = "with open(path) as fh:\n    data = fh.read()\nreturn data\n"
    new = "with open(path) as fh:\n    data = fh.read()\n    data = data.strip()\nreturn data\n"
    out = run(SOURCE, Edit(OldText(old), new))
    assert "        data = fh.read()\n        data = data.strip()\n    return data\n" in out


def test_indentation_rung_tabs_file_spaces_search() -> None:
    text = "func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n"
    old = "    if x {\n        return 1\n    }\n"
    new = "    if x {\n        return 2\n    }\n"
    out = run(text, Edit(OldText(old), new))
    assert out == "func f() {\n\tif x {\n\t\treturn 2\n\t}\n}\n"  # tabs stay tabs


def test_unicode_rung_keeps_file_punctuation_in_context() -> None:
    text = "msg = \u201chello\u201d\nx = 1\ny = 2\n"
    out = run(
        text, Edit(OldText('msg = "hello"\nx = 1\ny = 2\n'), 'msg = "hello"\nx = 10\ny = 2\n')
    )
    assert out == "msg = \u201chello\u201d\nx = 10\ny = 2\n"


def test_unicode_single_line_fragment() -> None:
    text = "say(\u201chi\u201d)  # greet\n"
    out = run(text, Edit(OldText('say("hi")'), 'say("bye")'))
    assert out == 'say("bye")  # greet\n'


def test_trimmed_edges_partial_first_line_keeps_rest_of_line() -> None:
    text = "x = compute(a,\n    b)\nprint(x)\ndone()\n"
    old = "compute(a,\n    b)\nprint(x)\n"
    edit = Edit(OldText(old, whole_lines=True), "compute(a,\n    c)\nprint(x)\n")
    assert run(text, edit) == "x = compute(a,\n    c)\nprint(x)\ndone()\n"


def test_elision_in_search_text() -> None:
    text = "".join(f"line {i}\n" for i in range(20))
    old = "line 3\nline 4\n...\nline 9\n"
    new = "line 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9 changed\n"
    out = run(text, Edit(OldText(old), new))
    assert "line 8\nline 9 changed\nline 10\n" in out
    assert out.count("line 5\n") == 1


def test_fuzzy_rung_reports_similarity_and_warns() -> None:
    text = "".join(f"value_{i} = compute({i}, {i * 2})\n" for i in range(30))
    old = "".join(f"value_{i} = compute({i}, {i * 2})\n" for i in range(10, 16))
    old = old.replace("value_12", "valu_12")  # one damaged line
    new = old.replace("value_13 = compute(13, 26)", "value_13 = compute(13, 99)")
    result = apply_edits(TextFile.from_text(text), [Edit(OldText(old), new)])
    report = result.reports[0]
    assert report.rung == "fuzzy"
    assert 0.8 <= report.similarity < 1.0
    assert any("fuzzy" in w for w in report.warnings)
    assert "value_13 = compute(13, 99)\n" in result.file.text
    assert "value_12 = compute(12, 24)\n" in result.file.text  # context kept from the file


def test_strict_mode_refuses_what_tolerant_accepts() -> None:
    old = "with open(path) as fh:\n    data = fh.read()\n"
    new = "with open(path, 'rb') as fh:\n    data = fh.read()\n"
    with pytest.raises(PatchwrightError) as info:
        rung_of(SOURCE, old, new, mode="strict")
    assert info.value.code == ErrorCode.NOT_FOUND
    assert rung_of(SOURCE, old, new, mode="tolerant") == "indentation"


def test_identical_old_and_new_text_is_refused() -> None:
    with pytest.raises(PatchwrightError) as info:
        run(SOURCE, Edit(OldText("return data"), "return data"))
    assert info.value.code == ErrorCode.INVALID_REQUEST


def test_ambiguous_exact_lists_lines() -> None:
    with pytest.raises(PatchwrightError) as info:
        run(SOURCE, Edit(OldText("with open(path"), "with open(p"))
    err = info.value
    assert err.code == ErrorCode.AMBIGUOUS
    assert err.details["lines"] == [2, 8]
    assert "2 times" in err.message and "more surrounding lines" in err.hint


def test_ambiguous_loose_rung_lists_lines() -> None:
    text = "if a:\n    go()\n    stop()\nif b:\n    go()\n    stop()\n"
    with pytest.raises(PatchwrightError) as info:
        run(text, Edit(OldText("go()\nstop()\n"), "run()\nstop()\n"))
    assert info.value.code == ErrorCode.AMBIGUOUS
    assert info.value.details["lines"] == [2, 5]


def test_hint_line_settles_ambiguity_only_when_clear() -> None:
    text = "x = 1\n" + "pass\n" * 50 + "x = 1\n"
    out = run(text, Edit(OldText("x = 1", hint_line=52), "x = 2"))
    assert out.endswith("x = 2\n") and out.startswith("x = 1\n")


def test_replace_all() -> None:
    result = apply_edits(
        TextFile.from_text(SOURCE), [Edit(OldText("fh", replace_all=True), "handle")]
    )
    assert "fh" not in result.file.text
    assert result.reports[0].count == 4


def test_empty_search_on_non_empty_file_is_refused() -> None:
    with pytest.raises(PatchwrightError) as info:
        run(SOURCE, Edit(OldText(""), "x"))
    assert info.value.code == ErrorCode.EMPTY_SEARCH


def test_empty_search_on_empty_file_inserts() -> None:
    assert run("", Edit(OldText(""), "hello\n")) == "hello\n"


def test_line_number_prefixes_are_stripped() -> None:
    old = "     2\t    with open(path) as fh:\n     3\t        data = fh.read()\n"
    out = run(
        SOURCE, Edit(OldText(old), "    with open(path) as fh:\n        data = fh.read(10)\n")
    )
    assert "data = fh.read(10)" in out
    arrow = "2→    with open(path) as fh:\n3→        data = fh.read()"
    out = run(SOURCE, Edit(OldText(arrow), "    with open(path) as fh:\n        data = None"))
    assert "        data = None\n" in out


def test_non_consecutive_numbers_are_content() -> None:
    text = "7\tseven\n3\tthree\n"
    assert run(text, Edit(OldText("7\tseven\n3\tthree\n"), "x\n")) == "x\n"


def test_fuzzy_refuses_short_or_mostly_different_text() -> None:
    text = "def f():\n    x = 1\n    return x\n"
    with pytest.raises(PatchwrightError) as info:
        run(text, Edit(OldText("def g():\n    y = 1\n"), "z\n"))
    assert info.value.code == ErrorCode.NOT_FOUND


def test_inconsistent_indentation_is_refused() -> None:
    text = "def f():\n    x = 1\n    return x\n"
    with pytest.raises(PatchwrightError) as info:
        run(text, Edit(OldText("def f():\nx = 1\nreturn x\n"), "def f():\nx = 2\nreturn x\n"))
    assert info.value.code == ErrorCode.AMBIGUOUS


def test_indent_unit_scaled() -> None:
    text = "def f():\n    x = 1\n    return x\n"
    old = "def f():\n  x = 1\n  return x\n"
    new = "def f():\n  x = 2\n  return x\n"
    out = run(text, Edit(OldText(old), new))
    assert out == "def f():\n    x = 2\n    return x\n"


def test_left_out_line_rung_reads_each_line_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A long block with one line left out is placed by the left-out-line rung with work
    linear in the block: each file and block line keyed a bounded number of times (a
    search per split point keyed the block's head again for every one)."""
    import patchwright.engine.matching.rungs as rungs

    calls = [0]
    real = rungs.unicode_key

    def counted(line: str) -> str:
        calls[0] += 1
        return real(line)

    monkeypatch.setattr(rungs, "unicode_key", counted)
    monkeypatch.setitem(rungs.KEYED, rungs.Rung.UNICODE, counted)
    lines = [f"value_{i} = compute({i}, limit={i % 7})" for i in range(6_000)]
    block = lines[1_000:3_000]
    search = block[:900] + block[901:]  # line 1,901 of the file left out
    new = [*block[:10], "inserted = True", *block[10:]]
    result = apply_edits(
        TextFile.from_text("\n".join(lines) + "\n"),
        [Edit(OldText("\n".join(search) + "\n"), "\n".join(new) + "\n")],
        options=MatchOptions(mode="tolerant"),
    )
    assert result.reports[0].rung == "omitted_line"
    assert result.file.lines == [*lines[:1_010], "inserted = True", *lines[1_010:]]
    assert calls[0] <= 4 * (len(lines) + len(search))
