"""Every patch case folder, through apply_patch and through a DocumentSession."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from patchwright.documents import (
    DocumentSession,
    PatchApplyError,
    Span,
    apply_patch,
    create_patch_directive,
    document_version,
)
from patchwright.documents.patches import _spans
from patchwright.model import MatchReport

CASES = Path(__file__).parent / "fixtures" / "patches"


def _read(path: Path) -> str:
    with path.open(encoding="utf-8", newline="") as handle:
        return handle.read()


def _cases(kind: str) -> list[Any]:
    found = []
    for folder in sorted(p for p in CASES.iterdir() if p.is_dir()):
        if (folder / kind).exists():
            found.append(pytest.param(folder, id=folder.name))
    return found


@pytest.mark.parametrize("folder", _cases("after.txt"))
def test_patch_case_applies(folder: Path) -> None:
    before, diff, after = (_read(folder / n) for n in ("before.txt", "patch.diff", "after.txt"))
    result = apply_patch(before, diff)
    assert result.text == after
    # The spans account for every changed character and nothing else.
    rebuilt, cursor = [], 0
    for span in result.spans:
        rebuilt.append(before[cursor : span.old_start])
        rebuilt.append(after[span.new_start : span.new_end])
        cursor = span.old_end
    rebuilt.append(before[cursor:])
    assert "".join(rebuilt) == after
    assert result.spans, "a successful patch changes something"


@pytest.mark.parametrize("folder", _cases("after.txt"))
def test_patch_case_through_session(folder: Path) -> None:
    before, diff, after = (_read(folder / n) for n in ("before.txt", "patch.diff", "after.txt"))
    session = DocumentSession(before)
    result = session.apply(create_patch_directive(diff, session.version))
    assert session.text == after == result.text
    assert result.version == document_version(after)
    assert result.previous_version == document_version(before)
    last = result.spans[-1]
    assert (session.selection.start, session.selection.end) == (last.new_start, last.new_end)
    session.undo()
    assert session.text == before


@pytest.mark.parametrize("folder", _cases("error.json"))
def test_patch_case_refused(folder: Path) -> None:
    before, diff = _read(folder / "before.txt"), _read(folder / "patch.diff")
    expected = json.loads(_read(folder / "error.json"))
    with pytest.raises(PatchApplyError) as caught:
        apply_patch(before, diff)
    error = caught.value
    assert error.reason.value == expected["reason"]
    assert error.code.value == expected["code"]
    assert error.field == "diff"
    for key in ("expected_snippet", "actual_snippet"):
        if key in expected:
            assert getattr(error, key) == expected[key]
    assert error.to_dict()["details"]["reason"] == expected["reason"]


@pytest.mark.parametrize("folder", _cases("error.json"))
def test_refused_patch_leaves_document_untouched(folder: Path) -> None:
    before, diff = _read(folder / "before.txt"), _read(folder / "patch.diff")
    session = DocumentSession(before, selection=(0, min(3, len(before))))
    state = session.state
    with pytest.raises(PatchApplyError) as caught:
        session.apply({"action": "patch", "diff": diff, "document_version": session.version})
    assert session.state == state
    assert not session.can_undo
    versions = caught.value.version_comparison
    assert versions == {"expected": state.version, "actual": state.version, "match": True}
    metrics = session.metrics()
    assert (metrics.patch_conflicts, metrics.total_patches) == (1, 0)
    assert metrics.last_failure is not None
    assert metrics.last_diff_summary == metrics.last_failure["summary"]
    assert str(metrics.last_diff_summary).startswith(f"failed: {caught.value.reason.value} (patch")


def _report(orig: tuple[int, int], new: tuple[int, int]) -> MatchReport:
    return MatchReport(0, "hunk", "exact", 1.0, *orig, *orig, *new)


def test_spans_fall_back_to_one_span_when_reports_disagree_with_the_text() -> None:
    old, new = "a\nb\nc\n", "a\nB\nc\n"
    # A report pointing at line 1 cannot explain a change on line 2: the spans are
    # verified against the texts and replaced by one covering span.
    assert _spans(old, new, [_report((1, 2), (1, 1))]) == (Span(2, 3, 2, 3),)
    # Offsets that do not line up (old line 1 against new line 2) are caught as well.
    assert _spans(old, new, [_report((1, 1), (2, 2))]) == (Span(2, 3, 2, 3),)


def test_spans_drop_hunks_that_changed_nothing() -> None:
    old, new = "a\nb\nc\n", "a\nB\nc\n"
    reports = [_report((1, 1), (1, 1)), _report((2, 2), (2, 2))]
    assert _spans(old, new, reports) == (Span(2, 3, 2, 3),)


@pytest.mark.parametrize("folder", _cases("error.json"))
def test_mismatch_and_overlap_refusals_show_both_snippets(folder: Path) -> None:
    # Spec 003 section 6: a refusal carries the expected vs actual context snippet.
    before, diff = _read(folder / "before.txt"), _read(folder / "patch.diff")
    with pytest.raises(PatchApplyError) as caught:
        apply_patch(before, diff)
    error = caught.value
    if error.reason.value in ("context mismatch", "overlapping edits"):
        assert error.expected_snippet is not None and error.actual_snippet is not None
        assert error.details["actual_snippet"] == error.actual_snippet


@pytest.mark.parametrize(
    ("header", "actual"),
    [
        ("@@ -4,2 +4,2 @@", "four\nfive"),  # the lines at the header's position
        ("@@", "one\ntwo"),  # no line numbers: the start of the document
        ("@@ -40,2 +40,2 @@", "ten"),  # past the end: the last line
    ],
)
def test_context_absent_shows_the_lines_at_the_hunks_position(header: str, actual: str) -> None:
    before = (CASES / "102_context_absent" / "before.txt").read_text()  # one ... ten
    with pytest.raises(PatchApplyError) as caught:
        apply_patch(before, f"{header}\n zwei\n-drei\n+3\n")
    assert caught.value.reason.value == "context mismatch"
    assert (caught.value.expected_snippet, caught.value.actual_snippet) == ("zwei\ndrei", actual)
