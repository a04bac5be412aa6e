"""``patchwright.apply_patch_text``: plan everything, then write once (or not at all).

Whole-tree behaviour (several files, adds, deletes, moves, refusals leaving the tree as
it was) lives in the scenario folders of tests/fixtures/scenarios (test_scenarios.py);
the tests here check the report and the history."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from patchwright import ErrorCode, apply_patch_text
from patchwright.workspace import Workspace

TWO_FILES = """\
--- a/a.txt
+++ b/a.txt
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three
--- a/b.txt
+++ b/b.txt
@@ -1,2 +1,2 @@
 alpha
-beta
+BETA
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "a.txt").write_text("one\ntwo\nthree\n")
    (tmp_path / "b.txt").write_text("alpha\nbeta\n")
    return tmp_path


def ws(root: Path) -> Workspace:
    return Workspace(root, state_dir=root.parent / "state")


def test_multi_file_patch_applies_and_is_recorded(root: Path) -> None:
    report = apply_patch_text(TWO_FILES, workspace=ws(root))
    assert report.ok and report.applied
    assert (root / "a.txt").read_text() == "one\nTWO\nthree\n"
    assert (root / "b.txt").read_text() == "alpha\nBETA\n"
    assert [f.path for f in report.files] == ["a.txt", "b.txt"]
    assert report.batch_id and report.batch_id.startswith("b-")
    assert "+TWO" in report.diff and "+BETA" in report.diff
    assert ws(root).history.get(report.batch_id)["tool"] == "apply"


def test_one_failing_file_writes_nothing(root: Path) -> None:
    broken = TWO_FILES.replace("-beta", "-gamma")
    report = apply_patch_text(broken, workspace=ws(root))
    assert not report.ok and not report.applied
    assert report.error is not None and report.error.path == "b.txt"
    assert (root / "a.txt").read_text() == "one\ntwo\nthree\n"
    assert "No changes made" in report.summary()


def test_bad_options_are_reported_not_raised(root: Path) -> None:
    report = apply_patch_text(TWO_FILES, workspace=ws(root), fuzzy_threshold=2.0)
    assert report.error is not None and report.error.field == "fuzzy_threshold"


def test_empty_patch_is_a_parse_error(root: Path) -> None:
    report = apply_patch_text("just some prose\n", workspace=ws(root))
    assert report.error is not None
    assert report.error.code == ErrorCode.PARSE_ERROR


# --- history: one change per hunk -------------------------------------------------------------
def test_each_hunk_is_recorded_as_a_change(root: Path) -> None:
    (root / "n.txt").write_text("".join(f"{i}\n" for i in range(1, 11)))
    patch = (
        "--- a/n.txt\n+++ b/n.txt\n@@ -1,3 +1,3 @@\n 1\n-2\n+TWO\n 3\n"
        "@@ -8,3 +8,4 @@\n 8\n 9\n+9.5\n 10\n"
    )
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.ok, report.error
    assert report.batch_id is not None
    (file,) = ws(root).history.get(report.batch_id)["files"]
    changes = [
        (c["description"], c["op"], c["old_start"], c["old_end"], c["new_start"], c["new_end"])
        for c in file["changes"]
    ]
    assert changes == [
        ("@@ -1,3 +1,3 @@", "hunk", 1, 3, 1, 3),
        ("@@ -8,3 +8,4 @@", "hunk", 8, 10, 8, 11),
    ]
    assert [c["meta"] for c in file["changes"]] == [{"rung": "exact"}, {"rung": "exact"}]


def test_openai_patch_records_its_anchor_and_deletions(root: Path) -> None:
    patch = (
        "*** Begin Patch\n*** Update File: a.txt\n@@ one\n-two\n+2\n"
        "*** Delete File: b.txt\n*** End Patch\n"
    )
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.ok, report.error
    assert report.batch_id is not None
    files = ws(root).history.get(report.batch_id)["files"]
    by_path = {f["path"]: f["changes"] for f in files}
    assert [c["description"] for c in by_path["a.txt"]] == ["@@ one"]
    assert [(c["op"], c["old_start"], c["old_end"]) for c in by_path["b.txt"]] == [("delete", 1, 2)]


# --- failure: spec 002's form, per-hunk results -----------------------------------------------
THREE_HUNKS = """\
--- a/n.txt
+++ b/n.txt
@@ -1,3 +1,3 @@
 l1
-l2
+L2
 l3
@@ -5,3 +5,3 @@
 l5
-l6
+L6
 l7
@@ -9,3 +9,3 @@
 l9
-l10 was here
+L10
 l11
--- a/a.txt
+++ b/a.txt
@@ -1,2 +1,2 @@
-one
+ONE
 two
"""


def test_failed_hunk_is_reported_in_spec_002_form(root: Path) -> None:
    (root / "n.txt").write_text("".join(f"l{i}\n" for i in range(1, 13)))
    report = apply_patch_text(THREE_HUNKS, workspace=ws(root), mode="strict")
    assert not report.ok and report.error is not None
    assert (root / "n.txt").read_text().startswith("l1\nl2\n")
    text = report.summary()
    assert text.splitlines()[:5] == [
        "Patch failed on n.txt:",
        "  Hunks 1-2: would have applied; nothing was written",
        "  Hunk 3 failed: context mismatch at line 10",
        '    Expected: "l10 was here"',
        '    Found:    "l10"',
    ]
    assert text.endswith("No changes made (atomic rollback).")
    failed, unchecked = report.files
    assert (failed.status, unchecked.status) == ("failed", "not_checked")
    hunks = failed.to_dict()["hunks"]
    assert [(h["hunk"], h["status"]) for h in hunks] == [
        (1, "would_apply"),
        (2, "would_apply"),
        (3, "failed"),
    ]
    assert hunks[0]["rung"] == "exact" and hunks[0]["similarity"] == 1.0
    assert hunks[2]["line"] == 10 and hunks[2]["reason"] == "context mismatch"
    assert hunks[2]["closest_lines"] == [9, 11] and 0 < hunks[2]["similarity"] < 1
    assert report.to_dict()["files"][1] == {
        "path": "a.txt",
        "action": "update",
        "move_to": None,
        "status": "not_checked",
        "hunks": [],
        "mode": None,
        "syntax": None,
        "warnings": [],
        "diff": "",
    }


def test_first_hunk_failing_lists_later_hunks_as_not_tried(root: Path) -> None:
    patch = "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-zero\n+0\n@@ -3 +3 @@\n-three\n+3\n"
    report = apply_patch_text(patch, workspace=ws(root), mode="strict")
    assert report.error is not None
    assert "Hunks 1-" not in report.summary() and "Hunk 1 failed" in report.summary()
    hunks = report.files[0].to_dict()["hunks"]
    assert [(h["hunk"], h["status"]) for h in hunks] == [(1, "failed"), (2, "not_tried")]


def test_refusal_without_a_hunk_keeps_message_and_hint(root: Path) -> None:
    patch = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n"
    report = apply_patch_text(patch, workspace=ws(root))
    text = report.summary()
    assert text.startswith("Patch failed on a.txt:\n  ")
    assert "already exists" in text and "  Hint: " in text
    assert report.files[0].status == "failed"


# --- git modes --------------------------------------------------------------------------------
def _mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_mode_only_diff_sets_the_executable_bits_and_undo_clears_them(root: Path) -> None:
    script = root / "run.sh"
    script.write_text("echo hi\n")
    script.chmod(0o640)
    patch = "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.ok and report.applied, report.error
    assert _mode(script) == 0o750  # x wherever r was: group and other bits kept
    assert script.read_text() == "echo hi\n"
    assert "old mode 100644\nnew mode 100755\n" in report.diff
    assert report.batch_id is not None
    (file,) = ws(root).history.get(report.batch_id)["files"]
    assert (file["before_mode"], file["after_mode"]) == (0o640, 0o750)
    assert [c["op"] for c in file["changes"]] == ["mode"]
    again = apply_patch_text(patch, workspace=ws(root))
    assert again.error is not None and again.error.code == ErrorCode.ALREADY_APPLIED
    ws(root).undo()
    assert _mode(script) == 0o640


def test_mode_change_with_hunks_and_back_to_regular(root: Path) -> None:
    (root / "a.txt").chmod(0o755)
    patch = (
        "diff --git a/a.txt b/a.txt\nold mode 100755\nnew mode 100644\n"
        "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"
    )
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.ok, report.error
    assert _mode(root / "a.txt") == 0o644
    assert (root / "a.txt").read_text() == "one\nTWO\nthree\n"
    assert report.files[0].new_mode == "100644"


def test_new_file_mode_creates_an_executable(root: Path) -> None:
    patch = (
        "diff --git a/bin/go b/bin/go\nnew file mode 100755\n--- /dev/null\n+++ b/bin/go\n"
        "@@ -0,0 +1 @@\n+#!/bin/sh\n"
    )
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.ok, report.error
    assert _mode(root / "bin" / "go") & 0o100


def test_symlink_mode_is_refused_and_nothing_changes(root: Path) -> None:
    patch = "diff --git a/a.txt b/a.txt\nold mode 100644\nnew mode 120000\n"
    before = _mode(root / "a.txt")
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.error is not None and report.error.code == ErrorCode.UNSUPPORTED
    assert "120000" in report.error.message and not report.applied
    assert _mode(root / "a.txt") == before


def test_mode_already_set_is_refused_as_applied(root: Path) -> None:
    (root / "a.txt").chmod(0o755)
    patch = "diff --git a/a.txt b/a.txt\nold mode 100644\nnew mode 100755\n"
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.error is not None and report.error.code == ErrorCode.ALREADY_APPLIED
    assert not report.applied


def test_mode_differing_from_old_mode_is_a_warning(root: Path) -> None:
    patch = (
        "diff --git a/a.txt b/a.txt\nold mode 100755\nnew mode 100644\n"
        "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+1\n"
    )
    (root / "a.txt").chmod(0o644)
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.ok, report.error
    assert any("has mode 100644, not 100755" in w for w in report.warnings)


# --- special files, history off, root ---------------------------------------------------------
def test_patch_for_a_fifo_is_refused_as_not_a_file(root: Path) -> None:
    os.mkfifo(root / "pipe")
    patch = "--- a/pipe\n+++ b/pipe\n@@ -1 +1 @@\n-a\n+b\n"
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.error is not None and report.error.code == ErrorCode.NOT_A_FILE
    assert "FIFO" in report.error.message


def test_without_history_no_undo_is_offered(root: Path) -> None:
    report = apply_patch_text(TWO_FILES, root, history=False)
    assert report.ok and report.applied and not report.recorded
    assert "undo" not in report.summary().replace("cannot be undone", "")
    assert report.to_dict()["recorded"] is False
    back = TWO_FILES.split("--- a/b.txt")[0].replace("-two\n+TWO", "-TWO\n+two")
    recorded = apply_patch_text(back, workspace=ws(root))
    assert recorded.recorded and "undo with: patchwright undo" in recorded.summary()


def test_missing_root_is_a_usage_error(tmp_path: Path) -> None:
    report = apply_patch_text(TWO_FILES, tmp_path / "nowhere")
    assert report.error is not None and report.error.field == "root"


# --- syntax guard -----------------------------------------------------------------------------
BREAK_PY = "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n-x = 1\n+x = (1\n y = 2\n"


def test_syntax_warn_reports_the_new_error(root: Path) -> None:
    (root / "m.py").write_text("x = 1\ny = 2\n")
    report = apply_patch_text(BREAK_PY, workspace=ws(root))
    assert report.ok and report.applied
    assert any("Syntax check (python)" in w for w in report.warnings)
    syntax = report.to_dict()["files"][0]["syntax"]
    assert syntax["checked"] and syntax["new_errors"][0]["line"] == 1
    assert "Syntax check (python)" in report.summary()


def test_syntax_reject_writes_nothing(root: Path) -> None:
    (root / "m.py").write_text("x = 1\ny = 2\n")
    report = apply_patch_text(TWO_FILES + BREAK_PY, workspace=ws(root), syntax="reject")
    assert report.error is not None and report.error.code == ErrorCode.SYNTAX_ERROR
    assert (root / "m.py").read_text() == "x = 1\ny = 2\n"
    assert (root / "a.txt").read_text() == "one\ntwo\nthree\n"
    assert "No changes made (atomic rollback)." in report.summary()


def test_syntax_off_and_files_without_parser_are_not_checked(root: Path) -> None:
    (root / "m.py").write_text("x = 1\ny = 2\n")
    report = apply_patch_text(TWO_FILES + BREAK_PY, workspace=ws(root), syntax="off")
    assert report.ok and [f.syntax for f in report.files] == [None, None, None]
    assert not any("Syntax" in w for w in report.warnings)


def test_clean_edit_gets_a_clean_syntax_report(root: Path) -> None:
    (root / "m.py").write_text("x = 1\ny = 2\n")
    fine = BREAK_PY.replace("+x = (1", "+x = (1)")
    report = apply_patch_text(fine, workspace=ws(root))
    assert report.ok and report.warnings == []
    assert report.files[0].syntax is not None and report.files[0].syntax["new_errors"] == []


def test_unknown_syntax_policy_is_a_usage_error(root: Path) -> None:
    report = apply_patch_text(TWO_FILES, workspace=ws(root), syntax="strict")
    assert report.error is not None and report.error.field == "syntax"


# --- large files: pieces encoded, bytes kept ----------------------------------------------------
@pytest.mark.parametrize(
    ("encoding", "bom", "newline"),
    [("utf-8", b"", "\r\n"), ("utf-8", b"\xef\xbb\xbf", "\n"), ("utf-16-le", b"\xff\xfe", "\n")],
)
def test_large_file_keeps_every_byte(root: Path, encoding: str, bom: bytes, newline: str) -> None:
    lines = [f"line {i} é" for i in range(40_000)]
    lines[20_000] = "mixed ending"
    body = newline.join(lines[:20_000]) + newline + "mixed ending\r" + newline.join(lines[20_001:])
    (root / "big.txt").write_bytes(bom + body.encode(encoding))
    patch = (
        "--- a/big.txt\n+++ b/big.txt\n@@ -30001,2 +30001,2 @@\n"
        "-line 30000 é\n+LINE\n line 30001 é\n"
    )
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.ok, report.error
    want = body.replace("line 30000 é", "LINE")
    assert (root / "big.txt").read_bytes() == bom + want.encode(encoding)


def _planning() -> bool:
    """Whether a patch is being parsed, planned or committed (by the functions on the
    stack)."""
    import sys

    working = {"parse_patch", "_plan", "_changes", "run_commit"}
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name in working:
            return True
        frame = frame.f_back  # type: ignore[assignment]
    return False


def test_the_garbage_collector_is_paused_only_during_the_call(root: Path) -> None:
    import gc

    during: list[bool] = []
    thresholds = gc.get_threshold()
    gc.set_threshold(1)  # running, it collects at nearly every allocation
    gc.callbacks.append(lambda phase, info: during.append(_planning()))
    try:
        report = apply_patch_text(TWO_FILES, root, workspace=ws(root))
        stale = TWO_FILES.replace("-two\n+TWO\n", "-zwei\n+ZWEI\n")  # not there
        refused = apply_patch_text(stale, root, workspace=ws(root))
        assert report.applied and not refused.ok
        assert during and True not in during  # collections around the call, none inside
        assert gc.isenabled()  # running again after a success and after a refusal
        gc.disable()  # a caller's own pause is left as it was
        try:
            apply_patch_text("not a patch", root, workspace=ws(root))
            assert not gc.isenabled()
        finally:
            gc.enable()
    finally:
        gc.callbacks.pop()
        gc.set_threshold(*thresholds)


def test_a_patch_that_gives_back_the_file_s_own_bytes_says_so(root: Path) -> None:
    """The patch only adds a final newline the file already ends with: its hunk matches,
    and the answer says the bytes are unchanged rather than only "applied"."""
    (root / "c.txt").write_text("x\n}\n")
    patch = "--- a/c.txt\n+++ b/c.txt\n@@ -1,2 +1,2 @@\n x\n-}\n\\ No newline at end of file\n+}\n"
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.ok and report.diff == ""
    assert "the file already reads as the patch makes it" in report.summary()
    assert (root / "c.txt").read_text() == "x\n}\n"
