"""``patchwright.apply_patch_text``: plan everything, then write once (or not at all)."""

from __future__ import annotations

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


def test_dry_run_writes_nothing(root: Path) -> None:
    report = apply_patch_text(TWO_FILES, workspace=ws(root), dry_run=True)
    assert report.ok and not report.applied
    assert (root / "a.txt").read_text() == "one\ntwo\nthree\n"
    assert "would apply" in report.summary()


def test_create_delete_and_move(root: Path) -> None:
    patch = """\
*** Begin Patch
*** Add File: new/c.txt
+created
*** Delete File: b.txt
*** Update File: a.txt
*** Move to: moved/a.txt
@@
 one
-two
+2
*** End Patch
"""
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.ok, report.error
    assert (root / "new" / "c.txt").read_text() == "created\n"
    assert not (root / "b.txt").exists()
    assert not (root / "a.txt").exists()
    assert (root / "moved" / "a.txt").read_text() == "one\n2\nthree\n"


def test_adding_an_existing_file_is_refused(root: Path) -> None:
    patch = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch\n"
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.error is not None and report.error.code == ErrorCode.FILE_EXISTS


def test_path_escaping_the_root_is_refused(root: Path) -> None:
    patch = "--- a/../x.txt\n+++ b/../x.txt\n@@ -0,0 +1 @@\n+x\n"
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.error is not None and report.error.code == ErrorCode.PATH_OUTSIDE_ROOT
    assert not (root.parent / "x.txt").exists()


def test_search_replace_creates_missing_file(root: Path) -> None:
    patch = "notes/todo.md\n<<<<<<< SEARCH\n=======\n# Todo\n>>>>>>> REPLACE\n"
    report = apply_patch_text(patch, workspace=ws(root))
    assert report.ok, report.error
    assert (root / "notes" / "todo.md").read_text() == "# Todo\n"


def test_crlf_file_with_lf_patch_keeps_crlf(root: Path) -> None:
    (root / "a.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    report = apply_patch_text(TWO_FILES.split("--- a/b.txt")[0], workspace=ws(root))
    assert report.ok
    assert (root / "a.txt").read_bytes() == b"one\r\nTWO\r\nthree\r\n"


def test_bad_options_are_reported_not_raised(root: Path) -> None:
    report = apply_patch_text(TWO_FILES, workspace=ws(root), fuzzy_threshold=2.0)
    assert report.error is not None and report.error.field == "fuzzy_threshold"


def test_empty_patch_is_a_parse_error(root: Path) -> None:
    report = apply_patch_text("just some prose\n", workspace=ws(root))
    assert report.error is not None
    assert report.error.code == ErrorCode.PARSE_ERROR
