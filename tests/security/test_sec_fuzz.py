"""Fuzzing that stays on: parsers, engine and tool dispatcher under a bounded profile.

The ``patchwright-fuzz`` hypothesis profile bounds each property to
``PATCHWRIGHT_FUZZ_EXAMPLES`` examples (default 150) with no per-example deadline, so
it runs in CI on a busy machine; raise the figure for a longer local run. For runs of
hours, fuzz/atheris_harness.py drives the same three targets with coverage guidance
(see docs/security.md).

The properties: a parser raises nothing but PatchwrightError; the engine, applying
whatever parsed to whatever text, raises nothing but PatchwrightError; the dispatcher,
given any tool name and any JSON arguments, returns a result (never raises) and never
an ``internal`` one; the diff line splitter gives one row per line of the text model,
whatever breaks ``str.splitlines`` knows the lines hold; the terminal quoting leaves no
control character raw, keeps every row, and quotes a name so that it reads back.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patchwright.adapters.diffstat import classify, hunk_start
from patchwright.engine import apply_file_patch
from patchwright.engine.diff import unified_diff
from patchwright.formats import parse_patch
from patchwright.formats._diff_paths import unquote_c
from patchwright.model import PatchwrightError
from patchwright.model.quoting import quote_name, visible, visible_lines
from patchwright.model.text import TextFile, split_lines
from patchwright.tools import TOOL_NAMES, Toolbox
from patchwright.workspace import Workspace

settings.register_profile(
    "patchwright-fuzz",
    max_examples=int(os.environ.get("PATCHWRIGHT_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
FUZZ = settings.get_profile("patchwright-fuzz")

LINES = st.sampled_from(
    [
        "--- a/x.txt", "+++ b/x.txt", "--- /dev/null", "+++ /dev/null", "@@ -1,2 +1,2 @@",
        "@@ -1 +1 @@", "@@", " a", "-a", "+b", " ", "", "\\ No newline at end of file",
        "*** Begin Patch", "*** End Patch", "*** Update File: x.txt", "*** Add File: y.txt",
        "*** Delete File: x.txt", "*** Move to: z.txt", "*** End of File",
        "x.txt", "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "```", "a", "b\r",
        "diff --git a/x.txt b/x.txt", "new file mode 100644", "rename from x.txt",
    ]
)  # fmt: skip
PATCH_TEXT = st.one_of(st.text(max_size=400), st.lists(LINES, max_size=30).map("\n".join))
FILE_TEXT = st.lists(st.sampled_from(["a", "b", " a", "", "\t", "c\r"]), max_size=12).map("\n".join)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    ["path", "patches", "old_string", "new_string", "start_line", "end_line", "new_content",
     "diff", "target", "batchId", "files", "id", "content", "action", "edits", "limit"]
)  # fmt: skip


@FUZZ
@given(PATCH_TEXT)
def test_parsers_raise_only_patchwright_errors(text: str) -> None:
    with contextlib.suppress(PatchwrightError):
        parse_patch(text)


@FUZZ
@given(PATCH_TEXT, FILE_TEXT)
def test_engine_raises_only_patchwright_errors(text: str, original: str) -> None:
    try:
        patches = parse_patch(text).files
    except PatchwrightError:
        return
    file = TextFile.decode(original.encode())
    for patch in patches:
        with contextlib.suppress(PatchwrightError):
            apply_file_patch(file, patch)


@pytest.fixture(scope="module")
def toolbox(tmp_path_factory: pytest.TempPathFactory) -> Toolbox:
    """One workspace for every example: a fresh one each time would dominate the run."""
    base = tmp_path_factory.mktemp("fuzz")
    root = base / "root"
    root.mkdir()
    (root / "a.txt").write_text("one\ntwo\nthree\n")
    (root / "d").mkdir()
    (root / "d" / "b.py").write_text("def f():\n    return 1\n")
    return Toolbox(Workspace(root, state_dir=base / "state"))


@FUZZ
@given(
    name=st.one_of(st.sampled_from(list(TOOL_NAMES)), st.text(max_size=20)),
    arguments=st.one_of(st.dictionaries(FIELDS, JSON, max_size=5), JSON),
)
def test_dispatcher_answers_every_call_and_never_internal(
    toolbox: Toolbox, name: str, arguments: Any
) -> None:
    result = toolbox.call(name, arguments)
    code = result.error.code.value if result.error is not None else None
    assert code != "internal", (name, arguments, result.text)


# every break str.splitlines knows, escapes, and the endings the text model keeps
TRICKY = st.lists(
    st.sampled_from(
        [*'ab -+@\\"\t', "\n", "\r", "\r\n", "\f", "\v", "\x1b", "\x1c", "\x1d", "\x1e",
         "\x85", "\u2028", "\u2029", "\x00", "\x7f", "\u202e"]
    ),
    max_size=60,
).map("".join)  # fmt: skip


@FUZZ
@given(TRICKY, TRICKY)
def test_the_diff_splitter_gives_one_row_per_line_of_the_text_model(old: str, new: str) -> None:
    diff = unified_diff(old, new, "a/x", "b/x")
    old_lines, new_lines = set(split_lines(old)[0]), set(split_lines(new)[0])
    rows = list(classify(diff))
    expected = None
    for kind, row in rows:
        if kind == "hunk":
            assert expected in (None, (0, 0))
            (_, _), counts = hunk_start(row), row.split(" ")[1:3]
            sizes = [int(c.split(",")[1]) if "," in c else 1 for c in counts]
            expected = (sizes[0], sizes[1])
        elif kind in ("context", "del", "add"):
            assert expected is not None
            old_left, new_left = expected
            old_left -= kind in ("context", "del")
            new_left -= kind in ("context", "add")
            expected = (old_left, new_left)
            line = row[1:]
            assert line in (
                old_lines
                if kind == "del"
                else new_lines
                if kind == "add"
                else old_lines | new_lines
            ), (kind, row)
    assert expected in (None, (0, 0))  # every hunk holds exactly the rows it announced


@FUZZ
@given(TRICKY)
def test_the_terminal_quoting_leaves_nothing_raw_and_keeps_the_rows(text: str) -> None:
    shown = visible_lines(text)
    assert shown.count("\n") == text.count("\n")
    for row in shown.split("\n"):
        body = row[:-1] if row.endswith("\r") else row
        assert all(ch == "\t" or (ch.isprintable() and ch != "\u202e") for ch in body), row
    line = visible(text)
    assert "\n" not in line and "\r" not in line and "\x1b" not in line
    name = quote_name(text)
    assert all(ch.isprintable() and ch not in "\u202e" for ch in name)
    if name != text:
        assert unquote_c(name, 0, 1) == (text, len(name))
