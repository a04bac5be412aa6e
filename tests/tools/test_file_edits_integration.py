"""Spec 002 verification, integration tests (and the rest of the ``patch`` skill contract,
served here by the ``apply_diff`` tool)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tool_helpers import ok, refused, write

from patchwright.model import ErrorCode
from patchwright.tools import Toolbox
from patchwright.workspace import OsFileSystem

DIFF = "--- a/foo.py\n+++ b/foo.py\n@@ -1,2 +1,3 @@\n import os\n+import sys\n x = 1\n"


class _RecordingFs(OsFileSystem):
    """Records writes and renames; optionally fails the rename onto the target."""

    def __init__(self, fail_replace: bool = False) -> None:
        self.calls: list[tuple[str, str]] = []
        self.fail_replace = fail_replace

    def write_new(self, path: str, data: bytes, mode_bits: int | None) -> None:
        self.calls.append(("write_new", path))
        super().write_new(path, data, mode_bits)

    def replace(self, src: str, dst: str) -> None:
        self.calls.append(("replace", dst))
        if self.fail_replace and "/journal/" not in dst:
            raise OSError(28, "No space left on device")
        super().replace(src, dst)


def test_edit_lines_atomic_write(make_toolbox: Callable[..., Toolbox], root: Path) -> None:
    write(root, "a.txt", "one\ntwo\n")
    fs = _RecordingFs()
    toolbox = make_toolbox(fs=fs)
    ok(toolbox, "edit_lines", path="a.txt", start_line=2, new_content="TWO")
    target = str(root / "a.txt")
    temps = [p for op, p in fs.calls if op == "write_new" and p.startswith(str(root))]
    assert temps and all(p != target for p in temps), "written to a temp file first"
    assert ("replace", target) in fs.calls, "then renamed over the target"
    assert (root / "a.txt").read_text() == "one\nTWO\n"
    assert not [p for p in root.iterdir() if p.name != "a.txt"], "no temp file left behind"


def test_batch_edit_atomic_rollback(make_toolbox: Callable[..., Toolbox], root: Path) -> None:
    write(root, "a.txt", "alpha\nbeta\n")
    toolbox = make_toolbox(fs=_RecordingFs(fail_replace=True))
    result = refused(
        toolbox,
        "edit_file",
        path="a.txt",
        edits=[
            {"old_string": "alpha", "new_string": "ALPHA"},
            {"old_string": "beta", "new_string": "BETA"},
        ],
    )
    assert result.error is not None and result.error.code is ErrorCode.IO_ERROR
    assert (root / "a.txt").read_text() == "alpha\nbeta\n"
    assert sorted(p.name for p in root.iterdir()) == ["a.txt"]


def test_patch_inline_diff(toolbox: Toolbox, root: Path) -> None:
    write(root, "foo.py", "import os\nx = 1\n")
    result = ok(toolbox, "apply_diff", diff=DIFF, target="foo.py")
    assert result.text.startswith("Applied patch to foo.py: 1 hunk applied")
    assert (root / "foo.py").read_text() == "import os\nimport sys\nx = 1\n"
    assert result.diff.startswith("--- a/foo.py\n+++ b/foo.py\n")


def test_patch_from_file(toolbox: Toolbox, root: Path) -> None:
    write(root, "foo.py", "import os\nx = 1\n")
    write(root, "changes/fix.diff", DIFF)
    ok(toolbox, "apply_diff", diff_file="changes/fix.diff", target="foo.py")
    assert (root / "foo.py").read_text() == "import os\nimport sys\nx = 1\n"
    missing = refused(toolbox, "apply_diff", diff_file="changes/none.diff", target="foo.py")
    assert missing.error is not None and missing.error.field == "diff_file"


def test_patch_permission_enforcement(make_toolbox: Callable[..., Toolbox], root: Path) -> None:
    write(root, "src/foo.py", "import os\nx = 1\n")
    write(root, "secret.py", "import os\nx = 1\n")
    toolbox = make_toolbox(allow=["src/**", "*.diff"])
    denied = refused(toolbox, "apply_diff", diff=DIFF, target="secret.py")
    assert denied.error is not None and denied.error.code is ErrorCode.PATH_DENIED
    outside = refused(toolbox, "apply_diff", diff=DIFF, target="../elsewhere.py")
    assert outside.error is not None and outside.error.code is ErrorCode.PATH_OUTSIDE_ROOT
    climbing = DIFF.replace("a/foo.py", "a/../../etc/foo.py")
    dots = refused(toolbox, "apply_diff", diff=climbing, target="src/foo.py")
    assert dots.error is not None and dots.error.code is ErrorCode.PATH_OUTSIDE_ROOT
    diff_out = refused(toolbox, "apply_diff", diff_file="../x.diff", target="src/foo.py")
    assert diff_out.error is not None and diff_out.error.code is ErrorCode.PATH_OUTSIDE_ROOT
    assert (root / "secret.py").read_text() == "import os\nx = 1\n"
    assert (root / "src/foo.py").read_text() == "import os\nx = 1\n"


def test_patch_dry_run_changes_nothing(toolbox: Toolbox, root: Path) -> None:
    write(root, "foo.py", "import os\nx = 1\n")
    result = ok(toolbox, "apply_diff", diff=DIFF, target="foo.py", dry_run=True)
    assert result.text == "Dry run - no changes made:\n  foo.py: 1 hunk would apply"
    assert result.data["dry_run"] is True
    assert (root / "foo.py").read_text() == "import os\nx = 1\n"
    assert toolbox.workspace.history.list_batches() == []


def test_patch_dry_run_allowed_in_restricted_mode(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    write(root, "foo.py", "import os\nx = 1\n")
    toolbox = make_toolbox(mode="restricted")
    ok(toolbox, "apply_diff", diff=DIFF, target="foo.py", dry_run=True)
    real = refused(toolbox, "apply_diff", diff=DIFF, target="foo.py")
    assert real.error is not None and real.error.code is ErrorCode.RESTRICTED


def test_patch_multi_file_diff_filtered_to_target(toolbox: Toolbox, root: Path) -> None:
    write(root, "src/foo.py", "import os\nx = 1\n")
    write(root, "bar.py", "a\n")
    diff = (
        "--- a/bar.py\n+++ b/bar.py\n@@ -1 +1 @@\n-a\n+b\n"
        + DIFF.replace("foo.py", "src/foo.py")
        + "--- a/baz.py\n+++ b/baz.py\n@@ -1 +1 @@\n-c\n+d\n"
    )
    result = ok(toolbox, "apply_diff", diff=diff, target="src/foo.py")
    assert "Warning: Diff contains 3 files, applying only hunks for foo.py" in result.text
    assert (root / "src/foo.py").read_text() == "import os\nimport sys\nx = 1\n"
    assert (root / "bar.py").read_text() == "a\n"


def test_patch_diff_and_diff_file_are_exclusive(toolbox: Toolbox, root: Path) -> None:
    write(root, "foo.py", "import os\nx = 1\n")
    both = refused(toolbox, "apply_diff", diff=DIFF, diff_file="x.diff", target="foo.py")
    assert both.error is not None and both.error.field == "diff_file"
    neither = refused(toolbox, "apply_diff", target="foo.py")
    assert neither.error is not None and neither.error.field == "diff"
    no_target = refused(toolbox, "apply_diff", diff=DIFF)
    assert no_target.error is not None and no_target.error.field == "target"


def test_patch_header_is_informational(toolbox: Toolbox, root: Path) -> None:
    write(root, "real.py", "import os\nx = 1\n")
    result = ok(toolbox, "apply_diff", diff=DIFF, target="real.py")
    assert "header names foo.py, not real.py" in result.text
    assert (root / "real.py").read_text() == "import os\nimport sys\nx = 1\n"


def test_patch_bare_hunks_and_new_file(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "one\ntwo\n")
    ok(toolbox, "apply_diff", diff="@@ -1,2 +1,2 @@\n one\n-two\n+2\n", target="a.txt")
    assert (root / "a.txt").read_text() == "one\n2\n"
    created = ok(
        toolbox,
        "apply_diff",
        target="new/b.txt",
        diff="--- /dev/null\n+++ b/new/b.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n",
    )
    assert created.data["created"] is True
    assert (root / "new/b.txt").read_text() == "hello\nworld\n"


def test_patch_deletion_is_refused(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "one\n")
    result = refused(
        toolbox,
        "apply_diff",
        target="a.txt",
        diff="--- a/a.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-one\n",
    )
    assert result.error is not None and result.error.code is ErrorCode.UNSUPPORTED
    assert (root / "a.txt").exists()


def test_patch_recounts_wrong_header_counts_with_warning(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "one\ntwo\nthree\n")
    result = ok(
        toolbox,
        "apply_diff",
        target="a.txt",
        diff="--- a/a.txt\n+++ b/a.txt\n@@ -1,7 +1,9 @@\n one\n-two\n+2\n three\n",
    )
    assert (root / "a.txt").read_text() == "one\n2\nthree\n"
    assert any("count" in w.lower() for w in result.warnings), result.warnings
