"""The diff builder, and the snapshot -> diff -> patch handshake."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patchwright.documents import (
    ConflictReason,
    DocumentSession,
    PatchApplyError,
    build_diff,
    create_patch_directive,
    document_version,
)
from patchwright.model import ErrorCode, PatchwrightError

DOC = (
    "# Notes\n"
    "\n"
    "The quick brown fox\n"
    "jumps over the lazy dog.\n"
    "\n"
    "## Todo\n"
    "- write tests\n"
    "- ship it\n"
)


def test_snapshot_diff_apply_handshake() -> None:
    session = DocumentSession(DOC)
    snap = session.snapshot()
    start = snap.line_offsets[2]
    original = "The quick brown fox\n"
    assert snap.text[start : start + len(original)] == original
    diff = build_diff(original, "The quick red fox\n", document=snap.text, start=start)
    assert diff.startswith("--- a/document\n+++ b/document\n@@ -1,6 +1,6 @@\n")
    result = session.apply(create_patch_directive(diff, snap.version, "recolour").to_dict())
    expected = DOC.replace("brown", "red")
    assert session.text == result.text == expected
    assert result.version == document_version(expected) == session.version
    assert result.previous_version == snap.version
    (span,) = result.spans
    assert DOC[span.old_start : span.old_end] == "brown"
    assert expected[span.new_start : span.new_end] == "red"
    assert session.selection.start == span.new_start
    # The same diff sent again is stale: the handshake must start from a new snapshot.
    with pytest.raises(PatchApplyError) as caught:
        session.apply(create_patch_directive(diff, snap.version))
    assert caught.value.reason is ConflictReason.STALE_VERSION


def test_builder_handles_a_slice_that_starts_and_ends_mid_line() -> None:
    session = DocumentSession(DOC)
    snap = session.snapshot()
    diff = build_diff("lazy dog.\n\n## To", "sleepy cat.\n\n## To", document=snap.text)
    session.apply(create_patch_directive(diff, snap.version))
    assert session.text == DOC.replace("lazy dog", "sleepy cat")


def test_builder_slices_without_document_are_whole_lines() -> None:
    diff = build_diff("- write tests", "- write more tests")
    assert "No newline" not in diff
    session = DocumentSession(DOC)
    session.apply(create_patch_directive(diff, session.version))
    assert session.text == DOC.replace("write tests", "write more tests")


def test_builder_insertion_needs_a_position() -> None:
    snap = DocumentSession(DOC).snapshot()
    at = snap.line_offsets[7]
    diff = build_diff("", "- review\n", document=snap.text, start=at)
    session = DocumentSession(DOC)
    session.apply(create_patch_directive(diff, snap.version))
    assert session.text == DOC.replace("- ship it", "- review\n- ship it")
    with pytest.raises(PatchwrightError) as caught:
        build_diff("", "x\n", document=DOC)
    assert caught.value.field == "start"
    with pytest.raises(PatchwrightError) as caught:
        build_diff("", "x\n")
    assert caught.value.field == "original"


@pytest.mark.parametrize(
    ("kwargs", "code", "field"),
    [
        ({"original": "same", "updated": "same"}, ErrorCode.INVALID_REQUEST, "updated"),
        ({"original": "a", "updated": "b", "context": -1}, ErrorCode.INVALID_REQUEST, "context"),
        ({"original": "a", "updated": "b", "start": 0}, ErrorCode.INVALID_REQUEST, "start"),
        ({"original": "cat", "updated": "dog", "document": DOC}, ErrorCode.NOT_FOUND, "original"),
        ({"original": "\n", "updated": "\n\n", "document": DOC}, ErrorCode.AMBIGUOUS, "original"),
        (
            {"original": "fox", "updated": "cat", "document": DOC, "start": 3},
            ErrorCode.NOT_FOUND,
            "start",
        ),
        (
            {"original": "fox", "updated": "cat", "document": DOC, "start": -1},
            ErrorCode.NOT_FOUND,
            "start",
        ),
    ],
)
def test_builder_refusals(kwargs: dict[str, object], code: ErrorCode, field: str) -> None:
    with pytest.raises(PatchwrightError) as caught:
        build_diff(**kwargs)  # type: ignore[arg-type]
    assert caught.value.code is code and caught.value.field == field


def test_builder_path_and_context() -> None:
    diff = build_diff("ship", "release", document=DOC, path="notes.md", context=0)
    assert diff == "--- a/notes.md\n+++ b/notes.md\n@@ -8 +8 @@\n-- ship it\n+- release it\n"


def test_builder_keeps_missing_final_newline() -> None:
    doc = "a\nb"
    session = DocumentSession(doc)
    diff = build_diff("b", "B", document=doc)
    assert "\\ No newline at end of file" in diff
    session.apply(create_patch_directive(diff, session.version))
    assert session.text == "a\nB"


def test_builder_on_crlf_document() -> None:
    doc = "one\r\ntwo\r\nthree\r\n"
    session = DocumentSession(doc)
    session.apply(create_patch_directive(build_diff("two", "2", document=doc), session.version))
    assert session.text == "one\r\n2\r\nthree\r\n"


_LINES = st.lists(st.sampled_from(["a", "b", "c", "", "  d", "e\t"]), max_size=12)


@settings(max_examples=60, deadline=None)
@given(_LINES, _LINES, st.booleans())
def test_any_built_diff_applies_back(old: list[str], new: list[str], final_newline: bool) -> None:
    tail = "\n" if final_newline else ""
    before = "\n".join(old) + (tail if old else "")
    after = "\n".join(new) + (tail if new else "")
    if before == after:
        return
    session = DocumentSession(before)
    diff = build_diff(before, after, document=before)
    result = session.apply(create_patch_directive(diff, session.version))
    assert session.text == after
    rebuilt, cursor = [], 0
    for span in result.spans:
        rebuilt += [before[cursor : span.old_start], after[span.new_start : span.new_end]]
        cursor = span.old_end
    assert "".join([*rebuilt, before[cursor:]]) == after
