"""No input makes a parser raise anything but PatchwrightError.

Three sources of input: arbitrary text, lines drawn from the markers of every format
(the shapes that drive the parsers' state machines), and random mutations of the
valid fixture patches. Where parsing succeeds, the result must be well formed.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patchwright.formats import (
    detect_format,
    parse_patch,
    parse_search_replace,
    parse_unified,
    parse_v4a,
)
from patchwright.model import FileAction, Hunk, OldText, PatchSet, PatchwrightError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "formats"
SAMPLES = [
    p.read_bytes().decode("utf-8")
    for folder in ("unified", "v4a", "search_replace")
    for p in sorted((FIXTURES / folder).glob("*.patch"))
]
PARSERS = (parse_unified, parse_v4a, parse_search_replace, parse_patch)
VOCABULARY = [
    "diff --git a/x b/x",
    'diff --git "a/q\\"x" b/y',
    "diff --cc x",
    "--- a/x",
    "+++ b/x",
    "--- /dev/null",
    "+++ /dev/null",
    '--- "a/unterminated',
    "@@ -1,2 +1,2 @@",
    "@@ -0,0 +1 @@ section",
    "@@ -99999999999999999999 +1 @@",
    "@@",
    "@@ @@",
    "@@ def f():",
    "@@@ -1 -1 +1 @@@",
    " context",
    "-removed",
    "+added",
    "",
    "...",
    "\\ No newline at end of file",
    "new file mode 100644",
    "deleted file mode 100644",
    "old mode 100644",
    "rename from x",
    "rename to y",
    "similarity index 90%",
    "copy from x",
    "index 123..456 100644",
    "GIT binary patch",
    "literal 0",
    "Binary files a/x and b/x differ",
    "*** Begin Patch",
    "*** End Patch",
    "*** Update File: x",
    "*** Add File: y",
    "*** Delete File: z",
    "*** Move to: w",
    "*** End of File",
    "***************",
    "<<<<<<< SEARCH",
    "<<<<< ORIGINAL",
    "=======",
    "=====",
    ">>>>>>> REPLACE",
    ">>>>>>>>> UPDATED",
    "```",
    "```python x.py",
    "x.py",
    "`docs/a b.md`:",
    "Here is the patch:",
    "\r",
    "\ufeff",
]

line_strategy = st.one_of(st.sampled_from(VOCABULARY), st.text(max_size=12))
FUZZ = settings(
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _check(text: str) -> None:
    for parser in PARSERS:
        try:
            result = parser(text)
        except PatchwrightError as err:
            assert err.message
            assert err.code.value in ("parse_error", "unsupported")
            assert err.line is None or 1 <= err.line <= max(1, text.count("\n") + 1)
        else:
            _well_formed(result)
    with contextlib.suppress(PatchwrightError):
        assert detect_format(text) in ("unified", "v4a", "search-replace")


def _well_formed(ps: PatchSet) -> None:
    assert ps.files
    assert ps.format in ("unified", "v4a", "search-replace")
    for fp in ps.files:
        assert isinstance(fp.path, str)
        if fp.action is FileAction.CREATE and not fp.binary:
            assert isinstance(fp.content, str)
        for edit in fp.edits:
            assert edit.label
            if isinstance(edit.anchor, Hunk):
                assert edit.anchor.lines
                assert all(hl.op in (" ", "-", "+") for hl in edit.anchor.lines)
            else:
                assert isinstance(edit.anchor, OldText)


@FUZZ
@given(st.text())
def test_arbitrary_text(text: str) -> None:
    _check(text)


@FUZZ
@given(st.lists(line_strategy, max_size=40), st.sampled_from(["\n", "\r\n"]))
def test_marker_soup(lines: list[str], newline: str) -> None:
    _check(newline.join(lines))


@st.composite
def mutated_sample(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(SAMPLES)).split("\n")
    for _ in range(draw(st.integers(1, 6))):
        if not lines:
            break
        k = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "insert", "swap", "cut", "prefix"]))
        if op == "delete":
            del lines[k]
        elif op == "duplicate":
            lines.insert(k, lines[k])
        elif op == "insert":
            lines.insert(k, draw(line_strategy))
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[k], lines[j] = lines[j], lines[k]
        elif op == "cut":
            lines[k] = lines[k][: draw(st.integers(0, max(0, len(lines[k]) - 1)))]
        else:
            lines[k] = draw(st.sampled_from(["", " ", "-", "+", "\\", "@", "*", "<", ">", "="]))
            lines[k] += lines[k][1:]
    return "\n".join(lines)


@FUZZ
@given(mutated_sample())
def test_mutated_valid_patches(text: str) -> None:
    _check(text)


def test_samples_are_loaded() -> None:
    assert len(SAMPLES) >= 50
