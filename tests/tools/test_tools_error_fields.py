"""Bad requests name the field and say how to fix it: every refusal below carries the
request field (as the tool's schema spells it) that holds the problem."""

from __future__ import annotations

from pathlib import Path

from tool_helpers import refused, sha, write

from patchwright.model import ErrorCode
from patchwright.tools import Toolbox

DIFF = "--- a/foo.py\n+++ b/foo.py\n@@ -1,2 +1,3 @@\n import os\n+import sys\n x = 1\n"


# apply_diff -------------------------------------------------------------------------------


def test_apply_diff_target_outside_the_root_names_target(toolbox: Toolbox, root: Path) -> None:
    result = refused(toolbox, "apply_diff", diff=DIFF, target="../foo.py")
    assert result.error is not None and result.error.code is ErrorCode.PATH_OUTSIDE_ROOT
    assert result.error.field == "target"


def test_apply_diff_diff_file_outside_the_root_names_diff_file(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "foo.py", "import os\nx = 1\n")
    result = refused(toolbox, "apply_diff", diff_file="../fix.diff", target="foo.py")
    assert result.error is not None and result.error.code is ErrorCode.PATH_OUTSIDE_ROOT
    assert result.error.field == "diff_file"


def test_apply_diff_parse_error_names_the_field_the_diff_came_in(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "foo.py", "import os\nx = 1\n")
    inline = refused(toolbox, "apply_diff", diff="hello world\n", target="foo.py")
    assert inline.error is not None and inline.error.code is ErrorCode.PARSE_ERROR
    assert inline.error.field == "diff"
    write(root, "fix.diff", "hello world\n")
    from_file = refused(toolbox, "apply_diff", diff_file="fix.diff", target="foo.py")
    assert from_file.error is not None and from_file.error.code is ErrorCode.PARSE_ERROR
    assert from_file.error.field == "diff_file"


def test_apply_diff_hunk_failure_from_a_diff_file_names_diff_file(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "foo.py", "import re\ny = 2\n")
    write(root, "fix.diff", DIFF)
    result = refused(toolbox, "apply_diff", diff_file="fix.diff", target="foo.py")
    assert result.error is not None and result.error.field == "diff_file"
    assert "Patch failed on foo.py" in result.text


# workspace_write_patch ----------------------------------------------------------------------


def test_write_patch_doc_path_outside_the_root_names_the_doc_path(
    toolbox: Toolbox, root: Path
) -> None:
    change = {"operation": "insert", "afterLine": 0, "newLines": ["x"]}
    for sha256 in (sha(b"x"), sha(b"")):  # an existing file, and a file to create
        result = refused(
            toolbox,
            "workspace_write_patch",
            files=[{"docPath": "../x.txt", "originalSha256": sha256, "changes": [change]}],
        )
        assert result.error is not None and result.error.code is ErrorCode.PATH_OUTSIDE_ROOT
        assert result.error.field == "files[0].docPath"
        assert result.data["errors"][0]["field"] == "files[0].docPath"


# get_patch_change: see test_history_tools.py (unknown ID names its field)


# patch (spec 000) ---------------------------------------------------------------------------


def test_patch_too_large_names_the_field_carrying_the_text(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\n")
    result = refused(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {"operation": "prepend_bof", "newText": "small"},
            {"operation": "append_eof", "newText": "x" * (60_000 * 4 + 8)},
        ],
    )
    assert result.error is not None and result.error.code is ErrorCode.TOO_LARGE
    assert result.error.field == "patches[1].newText"
    assert "patches[1].newText" in result.text


def test_patch_overlap_names_the_overlapping_patches(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "one\ntwo\nthree\n")
    result = refused(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {"operation": "replace", "oldText": "one\ntwo\n", "newText": "1\n2\n"},
            {"operation": "prepend_bof", "newText": "zero"},
            {"operation": "replace", "oldText": "two\nthree\n", "newText": "2\n3\n"},
        ],
    )
    assert result.error is not None and result.error.code is ErrorCode.OVERLAP
    assert result.error.field == "patches[2]"
    assert result.error.details["patches"] == [0, 2]
    assert "patches[0]" in result.text and "patches[2]" in result.text
    assert (root / "a.txt").read_text() == "one\ntwo\nthree\n"


def test_patch_overlap_after_a_copy_maps_to_request_indexes(toolbox: Toolbox, root: Path) -> None:
    # a copy has no edit of its own, so the engine's edit indexes differ from patches[i]
    write(root, "a.txt", "one\ntwo\nthree\n")
    result = refused(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {"operation": "replace", "oldText": "three", "toClipboard": "c", "fromClipboard": "c"},
            {"operation": "replace", "oldText": "one\ntwo\n", "newText": "1\n2\n"},
            {"operation": "replace", "oldText": "two\nthree\n", "newText": "2\n3\n"},
        ],
    )
    assert result.error is not None and result.error.code is ErrorCode.OVERLAP
    assert result.error.field == "patches[2]"
    assert result.error.details["patches"] == [1, 2]
