"""DocumentSession: routing, results, versions, undo/redo, annotations and metrics."""

from __future__ import annotations

import pytest

from patchwright.documents import (
    ActionType,
    ConflictReason,
    DocumentSession,
    PatchApplyError,
    Span,
    TextRange,
    create_patch_directive,
    document_version,
    text_fingerprint,
)
from patchwright.engine import MatchOptions
from patchwright.model import ErrorCode, PatchwrightError

TEXT = "alpha\nbeta\ngamma\n"
DIFF = "--- a/doc\n+++ b/doc\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma\n"


class FakeClock:
    """Advances 2 ms per reading, so latencies are exact."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.002
        return self.now


def test_snapshot_reports_text_version_offsets_and_selection_hash() -> None:
    session = DocumentSession(TEXT, selection=(6, 10))
    snap = session.snapshot()
    assert snap.version == document_version(TEXT) == session.version
    assert snap.line_offsets == [0, 6, 11, 17]
    assert snap.selection_text == "beta"
    assert snap.selection_hash == text_fingerprint("beta")
    other = session.snapshot((0, 5))
    assert other.selection_hash == text_fingerprint("alpha")
    data = snap.to_dict()
    assert data["selection"] == [6, 10] and data["length"] == len(TEXT)


def test_snapshot_refuses_a_selection_past_the_end() -> None:
    session = DocumentSession(TEXT)
    with pytest.raises(PatchwrightError) as caught:
        session.snapshot((0, 99))
    assert caught.value.code is ErrorCode.OUT_OF_RANGE
    with pytest.raises(PatchwrightError) as caught:
        session.snapshot((0, "5"))  # type: ignore[arg-type]
    assert caught.value.field == "selection"


def test_patch_routes_to_the_diff_applier() -> None:
    session = DocumentSession(TEXT)
    result = session.apply({"action": "patch", "diff": DIFF, "document_version": session.version})
    assert result.action is ActionType.PATCH
    assert result.text == session.text == "alpha\nBETA\ngamma\n"
    assert result.spans == (Span(6, 10, 6, 10),)
    assert result.selection_hint == TextRange(6, 10) == session.selection
    assert result.summary == f"applied: +0 chars (patch, version={session.version})"


def test_patch_summary_counts_characters() -> None:
    session = DocumentSession(TEXT)
    diff = "@@ -2 +2,2 @@\n-beta\n+beta\n+" + "x" * 119 + "\n"
    result = session.apply(create_patch_directive(diff, session.version))
    assert result.chars_delta == 120
    assert result.summary.startswith("applied: +120 chars (patch, version=sha256:")
    assert result.to_dict()["chars_delta"] == 120


def test_replace_swaps_the_range() -> None:
    session = DocumentSession(TEXT)
    result = session.apply({"action": "replace", "content": "B", "target_range": [6, 10]})
    assert session.text == "alpha\nB\ngamma\n"
    assert result.spans == (Span(6, 10, 6, 7),)
    assert result.selection_hint == TextRange(6, 7)
    assert result.summary == f"applied: -3 chars (replace, version={session.version})"


def test_replace_without_range_uses_the_selection() -> None:
    session = DocumentSession(TEXT, selection=(0, 5))
    session.apply({"action": "replace", "content": ""})
    assert session.text == "\nbeta\ngamma\n"
    assert session.selection == TextRange(0, 0)


def test_insert_goes_to_the_range_or_the_caret() -> None:
    session = DocumentSession(TEXT, selection=(0, 5))
    session.apply({"action": "insert", "content": "!"})
    assert session.text == "alpha!\nbeta\ngamma\n"
    result = session.apply({"action": "insert", "content": ">> ", "target_range": [0, 0]})
    assert session.text == ">> alpha!\nbeta\ngamma\n"
    assert result.spans == (Span(0, 0, 0, 3),)


def test_fingerprint_is_checked_for_range_actions() -> None:
    session = DocumentSession(TEXT)
    ok = {
        "action": "replace",
        "content": "B",
        "target_range": [6, 10],
        "selection_fingerprint": text_fingerprint("beta"),
    }
    bad = dict(ok, selection_fingerprint=text_fingerprint("gamma"))
    with pytest.raises(PatchApplyError) as caught:
        session.apply(bad)
    error = caught.value
    assert error.reason is ConflictReason.FINGERPRINT_MISMATCH
    assert error.code is ErrorCode.EXPECTED_MISMATCH
    assert error.actual_snippet == "beta"
    assert session.text == TEXT
    session.apply(ok)
    assert session.text == "alpha\nB\ngamma\n"


def test_range_past_the_end_is_refused() -> None:
    session = DocumentSession(TEXT)
    with pytest.raises(PatchApplyError) as caught:
        session.apply({"action": "replace", "content": "x", "target_range": [10, 40]})
    assert caught.value.reason is ConflictReason.RANGE_OUT_OF_BOUNDS
    assert caught.value.field == "target_range"


def test_replacement_equal_to_the_text_is_refused() -> None:
    session = DocumentSession(TEXT)
    with pytest.raises(PatchApplyError) as caught:
        session.apply({"action": "replace", "content": "beta", "target_range": [6, 10]})
    assert caught.value.reason is ConflictReason.ALREADY_APPLIED
    assert not session.can_undo


def test_stale_version_is_refused_before_any_work() -> None:
    session = DocumentSession(TEXT)
    old = session.version
    session.apply({"action": "insert", "content": "# ", "target_range": [0, 0]})
    state = session.state
    # The diff is not even a diff: the version check comes first.
    with pytest.raises(PatchApplyError) as caught:
        session.apply({"action": "patch", "diff": "not a diff", "document_version": old})
    error = caught.value
    assert error.reason is ConflictReason.STALE_VERSION
    assert error.code is ErrorCode.STALE
    assert error.version_comparison == {"expected": old, "actual": session.version, "match": False}
    assert session.state == state
    assert session.metrics().last_diff_summary == (
        f"failed: stale version (patch, sent {old} vs {session.version})"
    )


def test_legacy_action_with_stale_version_is_refused() -> None:
    session = DocumentSession(TEXT)
    with pytest.raises(PatchApplyError) as caught:
        session.apply(
            {
                "action": "replace",
                "content": "x",
                "target_range": [0, 1],
                "document_version": document_version("something else"),
            }
        )
    assert caught.value.reason is ConflictReason.STALE_VERSION


def test_full_digest_and_prefix_versions_are_accepted() -> None:
    import hashlib

    session = DocumentSession(TEXT)
    full = hashlib.sha256(TEXT.encode()).hexdigest()
    session.apply(create_patch_directive(DIFF, full))
    prefix = hashlib.sha256(session.text.encode()).hexdigest()[:12]
    session.apply({"action": "replace", "content": "b", "target_range": [6, 10], "version": prefix})
    assert session.text == "alpha\nb\ngamma\n"


def test_each_patch_is_one_undo_step_and_redo_restores_it() -> None:
    session = DocumentSession(TEXT, selection=(0, 0))
    v0 = session.version
    diff = "@@ -1,3 +1,3 @@\n-alpha\n+ALPHA\n beta\n-gamma\n+GAMMA\n"  # two changes, one hunk
    result = session.apply(create_patch_directive(diff, v0))
    assert len(result.spans) == 1
    v1, sel1 = session.version, session.selection
    two_hunks = "@@ -1 +1 @@\n-ALPHA\n+A\n@@ -3 +3 @@\n-GAMMA\n+G\n"
    result = session.apply(create_patch_directive(two_hunks, v1))
    assert [s.to_dict() for s in result.spans] == [
        {"old": [1, 5], "new": [1, 1]},  # "ALPHA" -> "A": the "A" stayed
        {"old": [12, 16], "new": [8, 8]},
    ]
    assert session.selection == TextRange(8, 8)  # a caret where the last deletion was
    assert session.text == "A\nbeta\nG\n"
    restored = session.undo()
    assert (restored.text, restored.version, restored.selection) == (
        "ALPHA\nbeta\nGAMMA\n",
        v1,
        sel1,
    )
    session.undo()
    assert (session.text, session.version, session.selection) == (TEXT, v0, TextRange(0, 0))
    assert not session.can_undo and session.can_redo
    with pytest.raises(PatchwrightError) as caught:
        session.undo()
    assert caught.value.code is ErrorCode.HISTORY
    assert session.redo().version == v1
    assert session.redo().text == "A\nbeta\nG\n"
    assert not session.can_redo


def test_new_directive_clears_redo() -> None:
    session = DocumentSession(TEXT)
    session.apply({"action": "insert", "content": "x", "target_range": [0, 0]})
    session.undo()
    session.apply({"action": "insert", "content": "y", "target_range": [0, 0]})
    assert not session.can_redo
    with pytest.raises(PatchwrightError):
        session.redo()


def test_history_limit_drops_the_oldest_steps() -> None:
    session = DocumentSession("", history_limit=2)
    for ch in "abc":
        session.apply({"action": "insert", "content": ch})
    session.undo()
    session.undo()
    assert session.text == "a" and not session.can_undo
    with pytest.raises(PatchwrightError):
        DocumentSession("", history_limit=0)


def test_annotate_stores_a_note_without_changing_text() -> None:
    session = DocumentSession(TEXT)
    version = session.version
    result = session.apply(
        {"action": "annotate", "content": "rename?", "target_range": [6, 10], "rationale": "naming"}
    )
    assert session.text == TEXT and session.version == version
    assert result.spans == () and result.selection_hint == TextRange(6, 10)
    assert result.annotation is not None and result.annotation.id == "ann-1"
    assert result.summary == f"applied: note ann-1 on [6, 10] (annotate, version={version})"
    (note,) = session.annotations
    assert (note.start, note.end, note.note, note.version) == (6, 10, "rename?", version)
    assert session.snapshot().to_dict()["annotations"][0]["note"] == "rename?"
    session.undo()
    assert len(session.annotations) == 0
    session.redo()
    assert session.state.annotations == (note,)


def test_annotations_follow_later_edits() -> None:
    session = DocumentSession(TEXT)
    session.apply({"action": "annotate", "content": "n", "target_range": [11, 16]})  # gamma
    session.apply({"action": "insert", "content": ">>>", "target_range": [0, 0]})
    (note,) = session.annotations
    assert session.text[note.start : note.end] == "gamma"
    session.apply(create_patch_directive("@@ -2 +2 @@\n-beta\n+b\n", session.version))
    (note,) = session.annotations
    assert session.text[note.start : note.end] == "gamma"


def test_set_text_is_an_undoable_host_edit() -> None:
    session = DocumentSession(TEXT)
    session.apply({"action": "annotate", "content": "n", "target_range": [0, 5]})
    version = session.set_text("new text")
    assert version == document_version("new text") == session.version
    assert session.selection == TextRange(8, 8) and session.annotations == ()
    session.undo()
    assert session.text == TEXT and len(session.annotations) == 1


def test_set_selection() -> None:
    session = DocumentSession(TEXT)
    session.set_selection((6, 10))
    assert session.snapshot().selection_text == "beta"
    assert not session.can_undo
    with pytest.raises(PatchwrightError):
        session.set_selection((6, 100))


def test_invalid_payload_changes_nothing_and_is_counted() -> None:
    session = DocumentSession(TEXT)
    with pytest.raises(PatchwrightError) as caught:
        session.apply({"action": "patch", "diff": DIFF})
    assert not isinstance(caught.value, PatchApplyError)
    metrics = session.metrics()
    assert (metrics.invalid, metrics.conflicts) == (1, 0)
    assert (
        metrics.last_diff_summary
        == "failed: invalid directive (`document_version`: invalid_request)"
    )
    assert metrics.last_failure is not None and metrics.last_failure["action"] == "patch"


def test_metrics_count_patches_conflicts_and_latency() -> None:
    session = DocumentSession(TEXT, clock=FakeClock())
    session.apply(create_patch_directive(DIFF, session.version))
    session.apply({"action": "insert", "content": "x"})
    with pytest.raises(PatchApplyError):
        session.apply(create_patch_directive("@@ -1 +1 @@\n-nope\n+yes\n", session.version))
    metrics = session.metrics()
    assert metrics.total_patches == 1
    assert metrics.total_directives == 2
    assert metrics.patch_conflicts == metrics.conflicts == 1
    assert metrics.avg_apply_latency_ms == pytest.approx(2.0)
    assert metrics.avg_patch_latency_ms == pytest.approx(2.0)
    assert metrics.last_failure is not None
    assert metrics.last_failure["error"]["code"] == "not_found"
    assert str(metrics.last_diff_summary).startswith("failed: context mismatch (patch, version=")
    data = metrics.to_dict()
    assert data["total_patches"] == 1 and data["avg_patch_latency_ms"] == 2.0


def test_fuzzy_matching_only_when_asked() -> None:
    text = "one\ntwo\nthree\nfour\nfive\n"
    diff = "@@ -2,4 +2,4 @@\n two\n thre\n-four\n+4\n five\n"
    with pytest.raises(PatchApplyError):
        DocumentSession(text).apply(create_patch_directive(diff, document_version(text)))
    fuzzy = DocumentSession(text, match_options=MatchOptions(mode="fuzzy"))
    result = fuzzy.apply(create_patch_directive(diff, fuzzy.version))
    assert fuzzy.text == "one\ntwo\nthree\n4\nfive\n"
    assert any("fuzzy" in w for w in result.warnings)


def test_result_to_dict_is_json_ready() -> None:
    import json

    session = DocumentSession(TEXT)
    result = session.apply(create_patch_directive(DIFF, session.version, "caps"))
    data = json.loads(json.dumps(result.to_dict()))
    assert data["status"] == "applied" and data["rationale"] == "caps"
    assert data["spans"] == [{"old": [6, 10], "new": [6, 10]}]
    assert data["previous_version"] == document_version(TEXT)


def test_conflict_error_renders_evidence() -> None:
    session = DocumentSession(TEXT)
    diff = "@@ -1,3 +1,3 @@\n alpha\n-BETA\n+b\n gamma\n"
    with pytest.raises(PatchApplyError) as caught:
        session.apply(create_patch_directive(diff, session.version))
    data = caught.value.to_dict()
    assert data["code"] == "not_found"
    assert data["details"]["reason"] == "context mismatch"
    assert data["details"]["expected_snippet"] == "alpha\nBETA\ngamma"
    assert data["details"]["actual_snippet"] == "alpha\nbeta\ngamma"
    assert data["details"]["versions"]["match"] is True


def test_conflict_without_version_reports_no_version_comparison() -> None:
    session = DocumentSession(TEXT)
    with pytest.raises(PatchApplyError) as caught:
        session.apply({"action": "replace", "content": "x", "target_range": [0, 99]})
    assert caught.value.version_comparison == {
        "expected": None,
        "actual": session.version,
        "match": None,
    }
    assert repr(caught.value) == f"PatchApplyError('range out of bounds', {caught.value.message!r})"
    assert session.metrics().last_diff_summary == (
        f"failed: range out of bounds (replace, version={session.version})"
    )


def test_payload_that_is_not_an_object_is_counted_without_action() -> None:
    session = DocumentSession(TEXT)
    with pytest.raises(PatchwrightError) as caught:
        session.apply(["insert"])  # type: ignore[arg-type]
    assert caught.value.code is ErrorCode.INVALID_REQUEST
    failure = session.metrics().last_failure
    assert failure is not None and failure["action"] is None
    assert failure["summary"] == "failed: invalid directive (payload: invalid_request)"


def test_selection_may_be_a_text_range_and_set_text_to_same_text_is_no_step() -> None:
    session = DocumentSession(TEXT, selection=TextRange(1, 2))
    assert session.snapshot().selection_text == "l"
    session.set_text(TEXT, selection=TextRange(0, 0))
    assert not session.can_undo and session.selection == TextRange(0, 0)
