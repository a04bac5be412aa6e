"""Hunk anchors: context kept from the file, hints, offsets, end-of-file newlines."""

from __future__ import annotations

import pytest
from engine_helpers import run

from patchwright.engine import MatchOptions, apply_edits
from patchwright.model import Edit, ErrorCode, Hunk, HunkLine, PatchwrightError, TextFile


def hunk(body: str, old_start: int | None = None, **kw: object) -> Edit:
    lines = tuple(HunkLine(row[0], row[1:]) for row in body.split("\n"))  # type: ignore[arg-type]
    return Edit(Hunk(lines, old_start=old_start, **kw), label="hunk")  # type: ignore[arg-type]


TEXT = "".join(f"line {i}\n" for i in range(1, 41))


def test_hunk_exact_with_correct_numbers() -> None:
    out = run(TEXT, hunk(" line 9\n-line 10\n+line ten\n line 11", old_start=9))
    assert "line 9\nline ten\nline 11\n" in out


def test_hunk_with_wrong_numbers_still_unique() -> None:
    out = run(TEXT, hunk(" line 9\n-line 10\n+line ten\n line 11", old_start=30))
    assert "line ten" in out


def test_hint_picks_nearest_when_clearly_closer() -> None:
    text = "a\nb\nc\n" + "x\n" * 40 + "a\nb\nc\n"
    out = run(text, hunk(" a\n-b\n+B\n c", old_start=44))
    assert out.startswith("a\nb\nc\n") and out.endswith("a\nB\nc\n")


def test_hint_does_not_pick_when_distances_are_close() -> None:
    text = "a\nb\nc\n" + "x\n" * 4 + "a\nb\nc\n"
    with pytest.raises(PatchwrightError) as info:
        run(text, hunk(" a\n-b\n+B\n c", old_start=4))
    assert info.value.code == ErrorCode.AMBIGUOUS


def test_several_hunks_track_offsets() -> None:
    edits = [
        hunk(" line 2\n+new a\n+new b\n line 3", old_start=2),
        hunk(" line 20\n-line 21\n line 22", old_start=20),
    ]
    out = run(TEXT, *edits)
    assert "line 2\nnew a\nnew b\nline 3\n" in out
    assert "line 20\nline 22\n" in out


def test_hunks_out_of_order_apply() -> None:
    edits = [
        hunk(" line 30\n-line 31\n+X\n line 32", old_start=30),
        hunk(" line 2\n-line 3\n+Y\n line 4", old_start=2),
    ]
    out = run(TEXT, *edits)
    assert "line 2\nY\nline 4" in out and "line 30\nX\nline 32" in out


def test_crlf_file_lf_hunk_keeps_crlf() -> None:
    data = TEXT.replace("\n", "\r\n").encode()
    out = run(data, hunk(" line 9\n-line 10\n+line ten\n line 11", old_start=9))
    assert out == TEXT.replace("line 10\n", "line ten\n").replace("\n", "\r\n")


def test_no_newline_at_end_of_file_is_kept() -> None:
    text = "a\nb\nc"
    out = run(text, hunk(" a\n-b\n+B\n c"))
    assert out == "a\nB\nc"
    out = run(text, hunk(" b\n c\n+d"))
    assert out == "a\nb\nc\nd"


def test_no_newline_markers_add_and_remove_final_newline() -> None:
    assert run("a\nb", hunk(" a\n-b\n+b", no_newline_old=True)) == "a\nb\n"
    assert run("a\nb\n", hunk(" a\n-b\n+b", no_newline_new=True)) == "a\nb"


WORDS = ["alpha()", "bravo()", "charlie()", "delta()", "echo()", "foxtrot()", "golf()", "hotel()"]


def test_context_dropped_next_to_replacement() -> None:
    text = "".join(w + "\n" for w in WORDS)
    # 'delta()' (context before the change) left out; 'echo()' is replaced
    out = run(text, hunk(" bravo()\n charlie()\n-echo()\n+ECHO()\n foxtrot()\n golf()"))
    assert out == text.replace("echo()", "ECHO()")


def test_context_dropped_next_to_pure_insertion_goes_by_context_counts() -> None:
    text = "".join(w + "\n" for w in WORDS)
    # Two context lines before the insertion, three after: the short side lost
    # 'delta()', so it stays before the new line.
    out = run(text, hunk(" bravo()\n charlie()\n+NEW()\n echo()\n foxtrot()\n golf()"))
    assert out == text.replace("delta()\n", "delta()\nNEW()\n")
    out = run(text, hunk(" bravo()\n charlie()\n delta()\n+NEW()\n foxtrot()\n golf()"))
    assert out == text.replace("echo()\n", "NEW()\necho()\n")


def test_context_dropped_after_a_growing_replacement_goes_by_context_counts() -> None:
    text = "".join(w + "\n" for w in WORDS)
    # 'echo()' replaced by two lines; the context after the change is one line short
    # ('foxtrot()' left out): it stays after the new lines.
    body = " bravo()\n charlie()\n delta()\n-echo()\n+E1()\n+E2()\n golf()\n"
    out = run(text + "india()\n", hunk(body + " hotel()"))
    assert out == text.replace("echo()\n", "E1()\nE2()\n") + "india()\n"


def test_context_dropped_next_to_pure_insertion_with_even_counts_is_refused() -> None:
    text = "".join(w + "\n" for w in WORDS)
    with pytest.raises(PatchwrightError) as info:
        run(text, hunk(" bravo()\n charlie()\n+NEW()\n echo()\n foxtrot()"))
    assert info.value.code == ErrorCode.AMBIGUOUS
    assert "could go before or after" in info.value.message


def test_elided_context_line() -> None:
    out = run(TEXT, hunk(" line 5\n ...\n line 9\n-line 10\n+X\n line 11", old_start=5))
    assert "line 8\nline 9\nX\nline 11" in out


def test_outdented_hunk_framed_by_its_neighbours() -> None:
    text = "class A:\n    def f(self):\n        a = 1\n        b = 2\n        return a\n"
    # Shifted like the old lines, the new lines stand level with the file lines right
    # before and after them; as written they line up with neither.
    out = run(text, hunk(" a = 1\n-b = 2\n+b = 3\n+c = 4\n return a"))
    assert out == text.replace("        b = 2\n", "        b = 3\n        c = 4\n")


def test_outdented_hunk_kept_within_its_margin() -> None:
    text = "class A:\n    def f(self):\n        a = 1\n        b = 2\n\n        return a\n"
    # Only the line before the new lines can be compared (a blank line follows them),
    # but as written "b = 3" would stand at column 0, left of every line the hunk
    # shows (out of the function): shifted like the old lines, it stays inside.
    out = run(text, hunk(" a = 1\n-b = 2\n+b = 3\n+c = 4\n \n return a"))
    assert out == text.replace("        b = 2\n", "        b = 3\n        c = 4\n")


def test_partly_outdented_hunk_without_evidence_is_refused() -> None:
    text = (
        "class A:\n    def f(self):\n        a = 1\n        if a:\n            b = 2\n\n"
        "        return a\n"
    )
    # The hunk is 4 columns short (not dedented to column 0), and its new line could
    # be one level inside "b = 2" as written or level with it shifted: both readings
    # stay inside the hunk's lines and land on the file's levels, and only the line
    # before the new one can be compared. Refusing beats guessing.
    body = "     a = 1\n     if a:\n         b = 2\n+        log()\n \n     return a"
    with pytest.raises(PatchwrightError) as info:
        run(text, hunk(body))
    assert info.value.code == ErrorCode.AMBIGUOUS
    assert "indented differently" in info.value.message


def test_outdented_hunk_is_reindented() -> None:
    text = "class A:\n    def f(self):\n        a = 1\n        b = 2\n        return a\n"
    # "a = 1" is repeated among the new lines with the hunk's indentation: evidence.
    out = run(text, hunk("-a = 1\n-b = 2\n+b = 3\n+c = 4\n+a = 1\n return a"))
    body = "        b = 3\n        c = 4\n        a = 1\n        return a\n"
    assert out == "class A:\n    def f(self):\n" + body


def test_over_indented_context_with_right_added_lines() -> None:
    text = "def f():\n    a = 1\n    b = 2\n    return a\n"
    # context and removed lines 2 columns too far, added line right (models do this)
    out = run(text, hunk("   def f():\n       a = 1\n-      b = 2\n+    b = 3\n       return a"))
    assert out == "def f():\n    a = 1\n    b = 3\n    return a\n"


def test_trailing_whitespace_context_keeps_file_bytes() -> None:
    text = "a  \nb\t\nc\n"
    assert run(text, hunk(" a\n-b\n+B\n c")) == "a  \nB\nc\n"


def test_pure_insertion_with_line_number() -> None:
    assert run("a\nb\n", hunk("+x", old_start=1, old_count=0)) == "a\nx\nb\n"
    assert run("a\nb\n", hunk("+x", old_start=0, old_count=0)) == "x\na\nb\n"


def test_not_found_names_closest_region_and_cause() -> None:
    text = "def f():\n\tif x:\n\t\treturn 1\n\treturn 2\n"
    # the hunk disagrees with the file on a word, so no rung matches
    with pytest.raises(PatchwrightError) as info:
        run(text, hunk(" def f():\n-    if y:\n+    if z:\n         return 1"), mode="strict")
    err = info.value
    assert err.code == ErrorCode.NOT_FOUND
    assert err.details["closest"]["start"] == 1
    assert "lines 1-" in err.message
    assert "No change was made" in err.message


def test_already_applied_is_recognised() -> None:
    text = "a\nb\nB2\nc\n"
    with pytest.raises(PatchwrightError) as info:
        run(text, hunk(" a\n-b\n+b\n+B2\n c\n-gone\n"[:-1]))
    assert info.value.code in (ErrorCode.ALREADY_APPLIED, ErrorCode.NOT_FOUND)
    with pytest.raises(PatchwrightError) as info:
        run("x\nnew line\ny\n", hunk(" x\n-old line\n+new line\n y"))
    assert info.value.code == ErrorCode.ALREADY_APPLIED
    assert "already applied" in info.value.message


def test_reports_line_ranges() -> None:
    result = apply_edits(
        TextFile.from_text(TEXT),
        [hunk(" line 9\n-line 10\n+ten\n+TEN\n line 11", old_start=9)],
    )
    rep = result.reports[0]
    assert (rep.orig_start, rep.orig_end) == (9, 11)
    assert (rep.new_start, rep.new_end) == (9, 12)
    assert rep.rung == "exact" and rep.similarity == 1.0


def test_a_refusal_without_explanation_is_one_plain_sentence() -> None:
    """A caller that only asks whether an edit applies (a retry replayed on older
    content) gets the refusal without the nearest region or the already-applied check."""
    text = "def f():\n\tif x:\n\t\treturn 1\n\treturn 2\n"
    edit = hunk(" def f():\n-    if y:\n+    if z:\n         return 1")
    for mode, explained in (("strict", True), ("strict", False), ("fuzzy", False)):
        options = MatchOptions(mode=mode, explain=explained)  # type: ignore[arg-type]
        with pytest.raises(PatchwrightError) as info:
            apply_edits(TextFile.from_text(text), [edit], options=options)
        err = info.value
        assert err.code == ErrorCode.NOT_FOUND
        assert ("closest" in err.details) is explained
        assert "No change was made" in err.message
    # an edit that stands applied is only said to be so when explained
    done = hunk(" x\n-old line\n+new line\n y")
    with pytest.raises(PatchwrightError) as info:
        apply_edits(TextFile.from_text("x\nnew line\ny\n"), [done],
                    options=MatchOptions(explain=False))  # fmt: skip
    assert info.value.code == ErrorCode.NOT_FOUND
