"""Spec 000 (patch tool): one test per "WHEN ... THE SYSTEM SHALL ..." clause.

Test names start with the requirement they check (``test_req_patch_003_...``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

from tool_helpers import ok, refused, write

from patchwright.model import ErrorCode
from patchwright.tools import Toolbox, catalogue, input_schema
from patchwright.workspace import RESTRICTED_MESSAGE, OsFileSystem, Probe
from patchwright.writing.guard import estimate_tokens

SOURCE = "def main():\n    print('hi')\n    return 0\n"


def _patch(toolbox: Toolbox, path: str, *patches: dict[str, object]) -> object:
    return toolbox.call("patch", {"path": path, "patches": list(patches)})


# REQ-PATCH-001 ---------------------------------------------------------------------------


def test_req_patch_001_supports_four_operations(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.py", SOURCE)
    ok(
        toolbox,
        "patch",
        path="a.py",
        patches=[
            {"operation": "replace", "oldText": "print('hi')", "newText": "print('hello')"},
            {"operation": "prepend_bof", "newText": "import sys"},
            {"operation": "append_eof", "newText": "main()\n"},
        ],
    )
    assert (root / "a.py").read_text() == (
        "import sys\ndef main():\n    print('hello')\n    return 0\nmain()\n"
    )
    ok(toolbox, "patch", path="a.py", patches=[{"operation": "overwrite", "newText": "x = 1\n"}])
    assert (root / "a.py").read_text() == "x = 1\n"


def test_req_patch_001_overwrite_creates_missing_file(toolbox: Toolbox, root: Path) -> None:
    result = ok(
        toolbox, "patch", path="new.txt", patches=[{"operation": "overwrite", "newText": "hello\n"}]
    )
    assert (root / "new.txt").read_text() == "hello\n"
    assert result.data["created"] is True


def test_req_patch_001_replace_requires_exactly_one_occurrence(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "a.txt", "x = 1\ny = 2\nx = 1\n")
    twice = refused(
        toolbox,
        "patch",
        path="a.txt",
        patches=[{"operation": "replace", "oldText": "x = 1", "newText": "x = 3"}],
    )
    assert twice.error is not None and twice.error.code is ErrorCode.AMBIGUOUS
    assert "appears 2 times" in twice.text
    absent = refused(
        toolbox,
        "patch",
        path="a.txt",
        patches=[{"operation": "replace", "oldText": "zzz = 9", "newText": "q"}],
    )
    assert absent.error is not None and absent.error.code is ErrorCode.NOT_FOUND
    assert (root / "a.txt").read_text() == "x = 1\ny = 2\nx = 1\n"


def test_req_patch_001_missing_file_refuses_replace(toolbox: Toolbox, root: Path) -> None:
    result = refused(
        toolbox,
        "patch",
        path="nope.txt",
        patches=[{"operation": "replace", "oldText": "a", "newText": "b"}],
    )
    assert result.error is not None and result.error.code is ErrorCode.FILE_NOT_FOUND
    assert result.error.field == "patches[0].operation"
    assert not (root / "nope.txt").exists()


def test_req_patch_001_missing_file_allows_append_prepend_and_creates_parents(
    toolbox: Toolbox, root: Path
) -> None:
    ok(
        toolbox,
        "patch",
        path="deep/er/a.txt",
        patches=[{"operation": "append_eof", "newText": "end"}],
    )
    assert (root / "deep/er/a.txt").read_text() == "end\n"
    ok(
        toolbox,
        "patch",
        path="other/b.txt",
        patches=[{"operation": "prepend_bof", "newText": "top"}],
    )
    assert (root / "other/b.txt").read_text() == "top\n"


# REQ-PATCH-002 ---------------------------------------------------------------------------


def test_req_patch_002_patches_resolve_against_original_simultaneously(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "a.txt", "alpha\nbeta\n")
    # Patch 1 writes "beta" into line 1; patch 2's oldText "beta" still means the original
    # line 2 (resolved against the original text, not the result of patch 1).
    ok(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {"operation": "replace", "oldText": "alpha", "newText": "beta-ish"},
            {"operation": "replace", "oldText": "beta\n", "newText": "gamma\n"},
        ],
    )
    assert (root / "a.txt").read_text() == "beta-ish\ngamma\n"


def test_req_patch_002_any_failure_rejects_all_and_leaves_file_unchanged(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "a.txt", "one\ntwo\nthree\n")
    result = refused(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {"operation": "replace", "oldText": "one", "newText": "ONE"},
            {"operation": "replace", "oldText": "four", "newText": "FOUR"},
        ],
    )
    assert result.error is not None and result.error.field == "patches[1].oldText"
    assert (root / "a.txt").read_text() == "one\ntwo\nthree\n"
    assert toolbox.workspace.history.list_batches() == []


# REQ-PATCH-003 ---------------------------------------------------------------------------


def test_req_patch_003_to_clipboard_stores_old_text_and_replaces(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "a.txt", "keep\nmove me\nkeep too\n")
    result = ok(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {"operation": "replace", "oldText": "move me\n", "newText": "", "toClipboard": "c"},
        ],
    )
    assert (root / "a.txt").read_text() == "keep\nkeep too\n"
    assert toolbox.session.clipboards["c"] == "move me\n"
    assert "cut to clipboard 'c'" in result.text


def test_req_patch_003_from_clipboard_replaces_new_text(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "A\nB\n")
    toolbox.session.set_clipboard("snippet", "from clipboard\n")
    ok(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {"operation": "append_eof", "newText": "IGNORED", "fromClipboard": "snippet"},
        ],
    )
    assert (root / "a.txt").read_text() == "A\nB\nfrom clipboard\n"


def test_req_patch_003_missing_clipboard_is_an_error(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "A\n")
    result = refused(
        toolbox,
        "patch",
        path="a.txt",
        patches=[{"operation": "append_eof", "fromClipboard": "nothing"}],
    )
    assert result.error is not None and result.error.code is ErrorCode.CLIPBOARD_MISSING
    assert "Clipboard 'nothing' does not exist" in result.text
    assert result.error.field == "patches[0].fromClipboard"


def test_req_patch_003_same_clipboard_both_ways_copies(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "head\nblock line\ntail\n")
    result = ok(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {
                "operation": "replace",
                "oldText": "block line\n",
                "toClipboard": "k",
                "fromClipboard": "k",
            },
        ],
    )
    assert (root / "a.txt").read_text() == "head\nblock line\ntail\n"
    assert toolbox.session.clipboards["k"] == "block line\n"
    assert result.data["patches"][0]["operation"] == "copy"


def test_req_patch_003_clipboard_filled_earlier_in_call_is_pasted_later(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "a.txt", "first\nsecond\nthird\n")
    ok(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {"operation": "replace", "oldText": "first\n", "newText": "", "toClipboard": "m"},
            {"operation": "append_eof", "fromClipboard": "m"},
        ],
    )
    assert (root / "a.txt").read_text() == "second\nthird\nfirst\n"


# REQ-PATCH-004 ---------------------------------------------------------------------------


def test_req_patch_004_strip_prefix_from_each_non_empty_line(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.py", "x = 1\n")
    ok(
        toolbox,
        "patch",
        path="a.py",
        patches=[
            {
                "operation": "append_eof",
                "newText": "    if x:\n\n        y = 2\n",
                "reindent": {"strip": "    "},
            }
        ],
    )
    assert (root / "a.py").read_text() == "x = 1\nif x:\n\n    y = 2\n"


def test_req_patch_004_add_prefix_to_each_non_empty_line(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.py", "def f():\n    pass\n")
    ok(
        toolbox,
        "patch",
        path="a.py",
        patches=[
            {
                "operation": "replace",
                "oldText": "    pass\n",
                "newText": "a = 1\n\nreturn a\n",
                "reindent": {"add": "    "},
            }
        ],
    )
    assert (root / "a.py").read_text() == "def f():\n    a = 1\n\n    return a\n"


def test_req_patch_004_strip_precondition_failure_is_an_error(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.py", "x = 1\n")
    result = refused(
        toolbox,
        "patch",
        path="a.py",
        patches=[
            {
                "operation": "append_eof",
                "newText": "    ok\nnot indented\n",
                "reindent": {"strip": "    "},
            }
        ],
    )
    assert result.error is not None and result.error.code is ErrorCode.REINDENT_FAILED
    assert "strip precondition failed" in result.text
    assert "line 2" in result.text
    assert (root / "a.py").read_text() == "x = 1\n"


# REQ-PATCH-005 ---------------------------------------------------------------------------


def test_req_patch_005_recovers_dedented_old_text(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.py", "class A:\n    def f(self):\n        a = 1\n        return a\n")
    result = ok(
        toolbox,
        "patch",
        path="a.py",
        patches=[
            {
                "operation": "replace",
                "oldText": "def f(self):\n    a = 1\n    return a\n",
                "newText": "def f(self):\n    a = 1\n    return a + 1\n",
            }
        ],
    )
    assert (root / "a.py").read_text() == (
        "class A:\n    def f(self):\n        a = 1\n        return a + 1\n"
    )
    assert result.data["patches"][0]["rung"] == "indentation"


def test_req_patch_005_recovers_by_trimming_first_and_last_lines(
    toolbox: Toolbox, root: Path
) -> None:
    source = "def compute(values):\n    total = 0\n    for v in values:\n        total += v\n"
    write(root, "a.py", source + "    return total\n")
    # the first line is paraphrased ("vals"): the inner lines decide, the file's line stays
    result = ok(
        toolbox,
        "patch",
        path="a.py",
        patches=[
            {
                "operation": "replace",
                "oldText": "def compute(vals):\n" + source.split("\n", 1)[1],
                "newText": "def compute(vals):\n"
                + source.split("\n", 1)[1].replace("+= v", "+= 2 * v"),
                "toClipboard": "orig",
            }
        ],
    )
    assert (root / "a.py").read_text() == source.replace("+= v", "+= 2 * v") + "    return total\n"
    assert result.data["patches"][0]["rung"] == "trimmed_edges"
    assert toolbox.session.clipboards["orig"] == source


def test_req_patch_005_recovered_match_updates_clipboard_with_matched_text(
    toolbox: Toolbox, root: Path
) -> None:
    # a text file: cutting an if-body from Python is refused when placed by recovery
    write(root, "a.txt", "if x:\n        a = 1\n        b = 2\nrest\n")
    ok(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {
                "operation": "replace",
                "oldText": "a = 1\nb = 2\n",
                "newText": "",
                "toClipboard": "blk",
            }
        ],
    )
    assert (root / "a.txt").read_text() == "if x:\nrest\n"
    assert toolbox.session.clipboards["blk"] == "        a = 1\n        b = 2\n"


def test_req_patch_005_all_attempts_failing_reports_old_text_not_found(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "a.txt", "alpha\nbeta\n")
    result = refused(
        toolbox,
        "patch",
        path="a.txt",
        patches=[{"operation": "replace", "oldText": "omega psi", "newText": "x"}],
    )
    assert "old text not found" in result.text


# REQ-PATCH-006 ---------------------------------------------------------------------------


def test_req_patch_006_schema_has_path_and_patches(toolbox: Toolbox) -> None:
    schema = input_schema(toolbox.spec("patch"))
    assert schema["required"] == ["path", "patches"]
    assert schema["properties"]["path"]["type"] == "string"
    assert schema["properties"]["patches"]["type"] == "array"


def test_req_patch_006_operation_fields(toolbox: Toolbox) -> None:
    item = input_schema(toolbox.spec("patch"))["properties"]["patches"]["items"]
    assert item["required"] == ["operation"]
    assert item["properties"]["operation"]["enum"] == [
        "replace",
        "append_eof",
        "prepend_bof",
        "overwrite",
    ]
    for key in ("oldText", "newText", "toClipboard", "fromClipboard"):
        assert item["properties"][key]["type"] == "string"
    assert set(item["properties"]["reindent"]["properties"]) == {"strip", "add"}


def test_req_patch_006_replace_without_old_text_is_refused(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\n")
    result = refused(
        toolbox, "patch", path="a.txt", patches=[{"operation": "replace", "newText": "b"}]
    )
    assert result.error is not None and result.error.field == "patches[0].oldText"


# REQ-PATCH-007 ---------------------------------------------------------------------------


def test_req_patch_007_success_returns_confirmation_and_unified_diff(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "a.txt", "one\ntwo\n")
    result = ok(
        toolbox,
        "patch",
        path="a.txt",
        patches=[{"operation": "replace", "oldText": "two", "newText": "2"}],
    )
    assert result.text.startswith("Applied 1 patch to a.txt")
    assert result.diff == "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"


def test_req_patch_007_autogenerated_file_warns_and_applies(toolbox: Toolbox, root: Path) -> None:
    write(root, "gen.go", "// Code generated by protoc-gen-go. DO NOT EDIT.\npackage x\n")
    result = ok(
        toolbox,
        "patch",
        path="gen.go",
        patches=[{"operation": "append_eof", "newText": "var y = 1"}],
    )
    assert any("looks autogenerated" in w for w in result.warnings)
    assert (root / "gen.go").read_text().endswith("var y = 1\n")
    write(root, "package-lock.json", "{}\n")
    named = ok(
        toolbox,
        "patch",
        path="package-lock.json",
        patches=[{"operation": "overwrite", "newText": '{"a": 1}\n'}],
    )
    assert any("package-lock.json" in w and "autogenerated" in w for w in named.warnings)


def test_req_patch_007_clipboard_modified_by_recovery_is_notified(
    toolbox: Toolbox, root: Path
) -> None:
    # a text file: cutting an if-body from Python is refused when placed by recovery
    write(root, "a.txt", "if x:\n        a = 1\n        b = 2\nrest\n")
    result = ok(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {
                "operation": "replace",
                "oldText": "a = 1\nb = 2\n",
                "newText": "",
                "toClipboard": "blk",
            }
        ],
    )
    notice = [w for w in result.warnings if "Clipboard 'blk' was updated" in w]
    assert notice and "differs from your oldText" in notice[0]
    assert notice[0] in result.text


# REQ-PATCH-008 ---------------------------------------------------------------------------


def test_req_patch_008_input_above_60k_tokens_is_rejected(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\n")
    big = "x" * (60_000 * 4 + 8)
    result = refused(
        toolbox, "patch", path="a.txt", patches=[{"operation": "append_eof", "newText": big}]
    )
    assert result.error is not None and result.error.code is ErrorCode.TOO_LARGE
    assert "60,000 tokens" in result.text
    assert "smaller patches" in result.text
    assert (root / "a.txt").read_text() == "a\n"


def test_req_patch_008_input_just_below_the_limit_is_accepted(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\n")
    ok(
        toolbox,
        "patch",
        path="a.txt",
        patches=[{"operation": "append_eof", "newText": "y" * (60_000 * 4 - 4)}],
    )


# REQ-PATCH-009 ---------------------------------------------------------------------------


def test_req_patch_009_restricted_mode_disables_patch_with_exact_error(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    write(root, "a.txt", "a\n")
    toolbox = make_toolbox(mode="restricted")
    result = toolbox.call("patch", {"path": "a.txt", "patches": []})  # even an invalid call
    assert not result.ok and result.error is not None
    assert result.error.code is ErrorCode.RESTRICTED
    assert result.error.message == (
        "Patch tool is disabled in Restricted mode. Use request_mode_upgrade to request write "
        "access."
    )
    # the spec's sentence, then a next step that exists: ask the user
    assert result.text == f"{RESTRICTED_MESSAGE}\nHint: {result.error.hint}"
    assert "ask the user for write access" in result.error.hint
    assert (root / "a.txt").read_text() == "a\n"


def test_req_patch_009_unrestricted_mode_enables_patch(toolbox: Toolbox, root: Path) -> None:
    assert toolbox.workspace.mode == "unrestricted"
    ok(toolbox, "patch", path="a.txt", patches=[{"operation": "overwrite", "newText": "b\n"}])


class _BlockingFs(OsFileSystem):
    """Blocks the first read of a path ending in ``slow.txt`` until released."""

    def __init__(self) -> None:
        self.reading = threading.Event()
        self.release = threading.Event()

    def read_file(self, path: str, limit: int) -> Probe:
        if path.endswith("slow.txt") and not self.reading.is_set():
            self.reading.set()
            assert self.release.wait(10)
        return super().read_file(path, limit)


def test_req_patch_009_mode_change_waits_for_in_flight_call_then_disables(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    write(root, "slow.txt", "before\n")
    fs = _BlockingFs()
    toolbox = make_toolbox(fs=fs)
    results = []
    call = threading.Thread(
        target=lambda: results.append(
            toolbox.call(
                "patch",
                {
                    "path": "slow.txt",
                    "patches": [{"operation": "replace", "oldText": "before", "newText": "after"}],
                },
            )
        )
    )
    call.start()
    assert fs.reading.wait(10)
    switch = threading.Thread(target=toolbox.set_mode, args=("restricted",))
    switch.start()
    time.sleep(0.2)
    assert switch.is_alive(), "the mode change must wait for the call in flight"
    assert toolbox.workspace.mode == "unrestricted"
    fs.release.set()
    call.join(10)
    switch.join(10)
    assert results[0].ok, results[0].text
    assert (root / "slow.txt").read_text() == "after\n"
    assert toolbox.workspace.mode == "restricted"
    later = toolbox.call(
        "patch",
        {
            "path": "slow.txt",
            "patches": [{"operation": "replace", "oldText": "after", "newText": "again"}],
        },
    )
    assert not later.ok and later.text.startswith(RESTRICTED_MESSAGE + "\nHint: ")


def test_operation_shape_rules(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\n")
    alone = refused(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {"operation": "overwrite", "newText": "b\n"},
            {"operation": "append_eof", "newText": "c"},
        ],
    )
    assert alone.error is not None and alone.error.field == "patches[0].operation"
    misplaced = refused(
        toolbox,
        "patch",
        path="a.txt",
        patches=[{"operation": "append_eof", "newText": "c", "toClipboard": "x"}],
    )
    assert misplaced.error is not None and misplaced.error.field == "patches[0].toClipboard"
    nothing = refused(toolbox, "patch", path="a.txt", patches=[{"operation": "prepend_bof"}])
    assert nothing.error is not None and nothing.error.field == "patches[0].newText"
    assert (root / "a.txt").read_text() == "a\n"


def test_req_patch_009_restricted_error_whatever_the_arguments(
    make_toolbox: Callable[..., Toolbox],
) -> None:
    toolbox = make_toolbox(mode="restricted")
    for arguments in ({}, {"dry_run": True}, '{"path": 1}'):
        result = toolbox.call("patch", arguments)
        assert result.text.startswith(RESTRICTED_MESSAGE + "\nHint: ")


# REQ-PATCH-002: overwrite among several patches of one call -------------------------------


def test_req_patch_002_overwrite_with_other_changes_to_the_same_file_is_refused(
    toolbox: Toolbox, root: Path
) -> None:
    # every patch of a call edits the one file `path` names, against its original text:
    # another change to that file contradicts replacing all of it
    write(root, "a.txt", "one\ntwo\n")
    for other in (
        {"operation": "replace", "oldText": "one", "newText": "1"},
        {"operation": "replace", "oldText": "one", "newText": "", "toClipboard": "cut"},
        {"operation": "append_eof", "newText": "three"},
        {"operation": "prepend_bof", "newText": "zero"},
        {"operation": "overwrite", "newText": "other\n"},
    ):
        result = refused(
            toolbox,
            "patch",
            path="a.txt",
            patches=[other, {"operation": "overwrite", "newText": "new\n"}],
        )
        assert result.error is not None and result.error.code is ErrorCode.INVALID_REQUEST
        assert result.error.field in ("patches[0].operation", "patches[1].operation")
        assert "cannot be combined with other changes to the same file" in result.text
        assert "patches[0]" in result.text and "patches[1]" in result.text
    assert (root / "a.txt").read_text() == "one\ntwo\n"
    assert "cut" not in toolbox.session.clipboards


def test_req_patch_002_overwrite_with_a_copy_of_the_original_text_is_allowed(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "a.txt", "keep me\nold\n")
    ok(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {
                "operation": "replace",
                "oldText": "keep me\n",
                "toClipboard": "k",
                "fromClipboard": "k",
            },
            {"operation": "overwrite", "newText": "new\n"},
        ],
    )
    assert (root / "a.txt").read_text() == "new\n"
    ok(toolbox, "patch", path="b.txt", patches=[{"operation": "overwrite", "fromClipboard": "k"}])
    assert (root / "b.txt").read_text() == "keep me\n"


# REQ-PATCH-004: whitespace-only lines are non-empty ---------------------------------------


def test_req_patch_004_whitespace_only_line_is_non_empty_and_needs_the_strip_prefix(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "a.py", "x = 1\n")
    result = refused(
        toolbox,
        "patch",
        path="a.py",
        patches=[
            {
                "operation": "append_eof",
                "newText": "    if x:\n  \n        y = 2\n",
                "reindent": {"strip": "    "},
            }
        ],
    )
    assert result.error is not None and result.error.code is ErrorCode.REINDENT_FAILED
    assert result.error.line == 2 and result.error.field == "patches[0].reindent.strip"
    assert (root / "a.py").read_text() == "x = 1\n"


def test_req_patch_004_whitespace_only_lines_are_stripped_and_indented_empty_lines_not(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "a.py", "x = 1\n")
    ok(
        toolbox,
        "patch",
        path="a.py",
        patches=[
            {
                "operation": "append_eof",
                "newText": "    if x:\n      \n\n        y = 2\n",
                "reindent": {"strip": "    ", "add": "\t"},
            }
        ],
    )
    assert (root / "a.py").read_text() == "x = 1\n\tif x:\n\t  \n\n\t    y = 2\n"


# REQ-PATCH-008: how tokens are counted ----------------------------------------------------


def test_req_patch_008_token_estimate_counts_each_non_ascii_character_as_a_token() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("abcd") == 1 and estimate_tokens("abcde") == 2
    assert estimate_tokens("日本語") == 3  # 9 UTF-8 bytes, but (at least) one token each
    assert estimate_tokens("ab日", "cd") == 2  # 4 ASCII characters + 1 non-ASCII
    assert estimate_tokens("é" * 8) == 8
    # never below the bytes / 4 ratio, whatever the script
    for text in ("日本語のテキスト", "emoji 😀😀", "Ελληνικά", "x" * 10):
        assert estimate_tokens(text) >= -(-len(text.encode("utf-8")) // 4)


def test_req_patch_008_cjk_input_above_60k_tokens_is_rejected(toolbox: Toolbox, root: Path) -> None:
    # 60,001 CJK characters: 180,003 bytes, which a 4-bytes-per-token ratio let through
    write(root, "a.txt", "a\n")
    result = refused(
        toolbox,
        "patch",
        path="a.txt",
        patches=[{"operation": "append_eof", "newText": "字" * 60_001}],
    )
    assert result.error is not None and result.error.code is ErrorCode.TOO_LARGE
    assert result.error.details["estimated_tokens"] == 60_001
    assert (root / "a.txt").read_text() == "a\n"


def test_req_patch_008_clipboard_text_a_call_pastes_counts(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\n")
    toolbox.session.set_clipboard("big", "x" * (35_000 * 4))  # 35k tokens per paste
    paste = {"operation": "append_eof", "fromClipboard": "big"}
    ok(toolbox, "patch", path="a.txt", patches=[paste])
    result = refused(toolbox, "patch", path="a.txt", patches=[paste, paste])
    assert result.error is not None and result.error.code is ErrorCode.TOO_LARGE
    assert result.error.field == "patches[0].fromClipboard"
    assert result.error.details["estimated_tokens"] == 70_000


def test_req_patch_008_clipboard_cut_in_the_same_call_counts(toolbox: Toolbox, root: Path) -> None:
    # oldText (35k tokens) passes the first check; its paste, known once the cut is
    # planned, doubles what the call inserts
    block = "y" * (35_000 * 4)
    write(root, "a.txt", f"{block}\nrest\n")
    result = refused(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {"operation": "replace", "oldText": f"{block}\n", "newText": "", "toClipboard": "b"},
            {"operation": "append_eof", "fromClipboard": "b"},
        ],
    )
    assert result.error is not None and result.error.code is ErrorCode.TOO_LARGE
    assert result.error.details["estimated_tokens"] > 60_000
    assert (root / "a.txt").read_text() == f"{block}\nrest\n"
    assert "b" not in toolbox.session.clipboards


def test_req_patch_008_description_says_how_tokens_are_counted() -> None:
    description = catalogue()["patch"].description
    assert "60,000 tokens" in description
    assert "one token per non-ASCII character plus one per 4 ASCII characters" in description
    assert "clipboard text" in description
