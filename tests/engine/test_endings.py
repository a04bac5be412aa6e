"""Line endings per line, byte for byte: a replaced line keeps its own ending, new
lines take their neighbour's, a hunk whose removed lines end in CR and added lines do
not (or the reverse) converts them. Every other byte stays."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from patchwright.engine import apply_edits
from patchwright.formats import parse_patch
from patchwright.model import Composition, Edit, Hunk, HunkLine, TextFile

ENDINGS = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def mixed_files(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """Distinct line contents (so every hunk has one place) with mixed endings."""
    size = draw(st.integers(min_value=1, max_value=12))
    lines = [f"line {i} {draw(st.sampled_from(['a', 'b', 'c']))}" for i in range(size)]
    endings = [draw(ENDINGS) for _ in range(size)]
    if draw(st.booleans()):
        endings[-1] = ""  # no final newline
    return lines, endings


def _bytes(lines: list[str], endings: list[str]) -> bytes:
    return "".join(a + b for a, b in zip(lines, endings)).encode()


def _apply(lines: list[str], endings: list[str], hunk: Hunk) -> bytes:
    source = TextFile.decode(_bytes(lines, endings))
    result = apply_edits(source, [Edit(hunk, "")], composition=Composition.SEQUENTIAL)
    return result.file.encode()


@given(mixed_files(), st.data())
def test_a_replaced_line_keeps_its_own_ending(
    file: tuple[list[str], list[str]], data: st.DataObject
) -> None:
    lines, endings = file
    i = data.draw(st.integers(min_value=0, max_value=len(lines) - 1))
    body = [HunkLine(" ", t) for t in lines[:i]]
    body += [HunkLine("-", lines[i]), HunkLine("+", "changed")]
    body += [HunkLine(" ", t) for t in lines[i + 1 :]]
    got = _apply(lines, endings, Hunk(tuple(body), old_start=1))
    want = [*lines[:i], "changed", *lines[i + 1 :]]
    assert got == _bytes(want, endings)


@given(mixed_files(), st.data(), st.integers(min_value=1, max_value=3))
def test_new_lines_take_the_ending_of_the_line_before_them(
    file: tuple[list[str], list[str]], data: st.DataObject, count: int
) -> None:
    lines, endings = file
    i = data.draw(st.integers(min_value=1, max_value=len(lines) - 1)) if len(lines) > 1 else 1
    if endings[i - 1] == "":
        return  # appending after a last line without newline: the EOF rules decide
    body = [HunkLine(" ", t) for t in lines[:i]]
    body += [HunkLine("+", f"new {k}") for k in range(count)]
    body += [HunkLine(" ", t) for t in lines[i:]]
    got = _apply(lines, endings, Hunk(tuple(body), old_start=1))
    new_lines = lines[:i] + [f"new {k}" for k in range(count)] + lines[i:]
    new_endings = endings[:i] + [endings[i - 1]] * count + endings[i:]
    assert got == _bytes(new_lines, new_endings)


@given(mixed_files(), st.data(), st.sampled_from(["\n", "\r\n"]))
def test_a_hunk_that_changes_only_endings_converts_them(
    file: tuple[list[str], list[str]], data: st.DataObject, target: str
) -> None:
    lines, endings = file
    # Every line has an ending a patch can carry (a bare CR does not end a patch line).
    endings = [e if e in ("\n", "\r\n") else "\n" for e in endings]
    i = data.draw(st.integers(min_value=0, max_value=len(lines) - 1))
    source = "\r\n" if target == "\n" else "\n"
    endings[i] = source
    ctx = [f" {t}{e}" for t, e in zip(lines, endings)]
    patch = (
        "--- a/f.txt\n+++ b/f.txt\n"
        f"@@ -1,{len(lines)} +1,{len(lines)} @@\n"
        + "".join(ctx[:i])
        + f"-{lines[i]}{source}+{lines[i]}{target}"
        + "".join(ctx[i + 1 :])
    )
    hunk = parse_patch(patch).files[0].edits[0]
    got = TextFile.decode(_bytes(lines, endings))
    result = apply_edits(got, [hunk], composition=Composition.SEQUENTIAL)
    want = [*endings[:i], target, *endings[i + 1 :]]
    assert result.file.encode() == _bytes(lines, want)
