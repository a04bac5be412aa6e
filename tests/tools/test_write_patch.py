"""Spec 001 (workspace_write_patch): section 10's test expectations and every validation
of sections 4 to 6."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pytest
from tool_helpers import ok, refused, sha, write

from patchwright.model import ErrorCode
from patchwright.tools import Toolbox, catalogue, input_schema

ORCH = "class Orchestrator\n{\n    public string ConversationId { get; set; }\n}\n"
TESTS = "// tests\n[Test]\npublic void Runs() { }\n"


def _file(root: Path, rel: str, changes: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    data = (root / rel).read_bytes()
    return {"docPath": rel, "originalSha256": sha(data), "changes": changes, **extra}


ADD_PROP = {
    "changeKey": "add-systemprompt-property",
    "operation": "replace",
    "description": "Extend with SystemPrompt.",
    "startLine": 3,
    "endLine": 3,
    "expectedOriginalLines": ["    public string ConversationId { get; set; }"],
    "newLines": [
        "    public string ConversationId { get; set; }",
        "    public string SystemPrompt { get; set; }",
    ],
}


# section 10 ------------------------------------------------------------------------------


def test_single_file_happy_path(toolbox: Toolbox, root: Path) -> None:
    write(root, "src/orch.cs", ORCH)
    result = ok(toolbox, "workspace_write_patch", files=[_file(root, "src/orch.cs", [ADD_PROP])])
    assert (root / "src/orch.cs").read_text() == ORCH.replace(
        "{ get; set; }\n", "{ get; set; }\n    public string SystemPrompt { get; set; }\n"
    )
    env = result.data
    assert env["successful"] is True and env["errors"] == []
    (f,) = env["result"]["files"]
    assert f["newSha256"] == sha((root / "src/orch.cs").read_bytes())
    (c,) = f["changes"]
    assert (c["startLine"], c["endLine"], c["newStartLine"], c["newEndLine"]) == (3, 3, 3, 4)
    assert result.diff.startswith("--- a/src/orch.cs\n+++ b/src/orch.cs\n")


def test_multi_file_batch(toolbox: Toolbox, root: Path) -> None:
    write(root, "src/orch.cs", ORCH)
    write(root, "tests/orch.tests.cs", TESTS)
    result = ok(
        toolbox,
        "workspace_write_patch",
        batchLabel="SystemPrompt",
        files=[
            _file(root, "src/orch.cs", [ADD_PROP], fileKey="orchestrator", fileLabel="wire it"),
            _file(
                root,
                "tests/orch.tests.cs",
                [
                    {
                        "operation": "insert",
                        "afterLine": 3,
                        "newLines": ["[Test]", "public void Prompt() { }"],
                    },
                    {
                        "operation": "delete",
                        "startLine": 1,
                        "endLine": 1,
                        "expectedOriginalLines": ["// tests"],
                    },
                ][::-1],
                fileKey="tests",
            ),
        ],
    )
    files = result.data["result"]["files"]
    assert [f["docPath"] for f in files] == ["src/orch.cs", "tests/orch.tests.cs"]
    assert [f["fileKey"] for f in files] == ["orchestrator", "tests"]
    assert files[0]["fileLabel"] == "wire it" and files[1]["fileLabel"] is None
    assert (root / "tests/orch.tests.cs").read_text() == (
        "[Test]\npublic void Runs() { }\n[Test]\npublic void Prompt() { }\n"
    )
    record = toolbox.workspace.history.get(result.data["result"]["batchId"])
    assert [f["path"] for f in record["files"]] == ["src/orch.cs", "tests/orch.tests.cs"]


def test_line_validation_rejects_overlapping_changes(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "".join(f"l{i}\n" for i in range(1, 21)))
    before = (root / "a.txt").read_bytes()
    result = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            _file(
                root,
                "a.txt",
                [
                    {
                        "operation": "delete",
                        "startLine": 10,
                        "endLine": 12,
                        "expectedOriginalLines": ["l10", "l11", "l12"],
                    },
                    {
                        "operation": "replace",
                        "startLine": 11,
                        "endLine": 11,
                        "expectedOriginalLines": ["l11"],
                        "newLines": ["x"],
                    },
                ],
            )
        ],
    )
    assert result.error is not None and result.error.code is ErrorCode.OVERLAP
    assert result.error.field == "files[0].changes[1]"
    assert "overlaps files[0].changes[0] (delete lines 10-12)" in result.text
    assert (root / "a.txt").read_bytes() == before
    inside = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            _file(
                root,
                "a.txt",
                [
                    {
                        "operation": "delete",
                        "startLine": 10,
                        "endLine": 12,
                        "expectedOriginalLines": ["l10", "l11", "l12"],
                    },
                    {"operation": "insert", "afterLine": 11, "newLines": ["x"]},
                ],
            )
        ],
    )
    assert inside.error is not None and inside.error.code is ErrorCode.OVERLAP


def test_line_validation_rejects_invalid_ranges(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\nb\nc\n")
    cases = [
        (
            {
                "operation": "replace",
                "startLine": 0,
                "endLine": 1,
                "expectedOriginalLines": ["a"],
                "newLines": ["x"],
            },
            "files[0].changes[0].startLine",
        ),
        (
            {"operation": "delete", "startLine": 3, "endLine": 2, "expectedOriginalLines": []},
            "files[0].changes[0].endLine",
        ),
        (
            {"operation": "insert", "afterLine": -1, "newLines": ["x"]},
            "files[0].changes[0].afterLine",
        ),
        (
            {
                "operation": "delete",
                "startLine": 3,
                "endLine": 5,
                "expectedOriginalLines": ["c", "", ""],
            },
            "files[0].changes[0].endLine",
        ),
        (
            {"operation": "insert", "afterLine": 4, "newLines": ["x"]},
            "files[0].changes[0].afterLine",
        ),
        (
            {
                "operation": "replace",
                "startLine": 1,
                "endLine": 2,
                "expectedOriginalLines": ["a"],
                "newLines": ["x"],
            },
            "files[0].changes[0].expectedOriginalLines",
        ),
    ]
    for change, field in cases:
        result = refused(toolbox, "workspace_write_patch", files=[_file(root, "a.txt", [change])])
        assert result.error is not None and result.error.field == field, result.text
    assert (root / "a.txt").read_text() == "a\nb\nc\n"


def test_sha_validation_rejects_invalid_format(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\n")
    for bad in ("abc", "z" * 64, sha(b"a\n")[:-1], ""):
        result = refused(
            toolbox,
            "workspace_write_patch",
            files=[
                {
                    "docPath": "a.txt",
                    "originalSha256": bad,
                    "changes": [{"operation": "insert", "afterLine": 0, "newLines": ["x"]}],
                }
            ],
        )
        assert result.error is not None and result.error.code is ErrorCode.INVALID_REQUEST
        assert result.error.field == "files[0].originalSha256"
        assert "hex SHA256" in result.text
    assert (root / "a.txt").read_text() == "a\n"


def test_sha_mismatch_against_file_on_disk_is_stale(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\n")
    result = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            {
                "docPath": "a.txt",
                "originalSha256": sha(b"something else\n"),
                "changes": [{"operation": "insert", "afterLine": 0, "newLines": ["x"]}],
            }
        ],
    )
    assert result.error is not None and result.error.code is ErrorCode.STALE
    assert sha(b"a\n") in result.text and "changed since it was read" in result.text
    assert (root / "a.txt").read_text() == "a\n"


@pytest.mark.parametrize(
    ("other_line", "verdict"),
    [
        (1, "A rebase would apply cleanly: the file changed at line 1 (by another writer), "
            "none of them lines of these changes."),
        (3, "A rebase would not apply: the change (by another writer) overlaps these changes "
            "at line 3 of the file now."),
    ],
)  # fmt: skip
def test_a_stale_sha_says_whether_a_rebase_would_apply(
    toolbox: Toolbox, root: Path, other_line: int, verdict: str
) -> None:
    write(root, "a.txt", "one\ntwo\nthree\n")
    read = ok(toolbox, "read_file", path="a.txt")
    lines = ["one", "two", "three"]
    lines[other_line - 1] = "changed"
    changed = "".join(f"{line}\n" for line in lines)
    (root / "a.txt").write_text(changed)
    change = {"operation": "replace", "startLine": 3, "endLine": 3,
              "expectedOriginalLines": ["three"], "newLines": ["THREE"]}  # fmt: skip
    result = refused(toolbox, "workspace_write_patch", files=[
        {"docPath": "a.txt", "originalSha256": read.data["sha256"], "changes": [change]}
    ])  # fmt: skip
    assert result.error is not None and result.error.code is ErrorCode.STALE
    assert verdict in result.text, result.text
    assert (root / "a.txt").read_text() == changed


def test_id_assignment_present_and_request_may_omit_them(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\nb\n")
    result = ok(
        toolbox,
        "workspace_write_patch",
        files=[
            _file(
                root,
                "a.txt",
                [
                    {"operation": "insert", "afterLine": 0, "newLines": ["top"]},
                    {
                        "operation": "delete",
                        "startLine": 2,
                        "endLine": 2,
                        "expectedOriginalLines": ["b"],
                    },
                ],
            )
        ],
    )
    res = result.data["result"]
    assert res["batchId"].startswith("b-")
    (f,) = res["files"]
    assert f["filePatchId"].startswith("f-")
    ids = [c["changeId"] for c in f["changes"]]
    assert all(i.startswith("c-") for i in ids) and len(set(ids)) == 2
    for i in (res["batchId"], f["filePatchId"], *ids):
        assert i in result.text
    # IDs sent in a request are ignored: the server assigns fresh ones
    again = ok(
        toolbox,
        "workspace_write_patch",
        batchId="b-00000000",
        files=[
            _file(
                root,
                "a.txt",
                [
                    {
                        "operation": "insert",
                        "afterLine": 0,
                        "newLines": ["again"],
                        "changeId": "c-00000000",
                    },
                ],
                filePatchId="f-00000000",
            )
        ],
    )
    new = again.data["result"]
    assert new["batchId"] != "b-00000000"
    assert new["files"][0]["changes"][0]["changeId"] != "c-00000000"


def test_descriptive_metadata_round_trip(toolbox: Toolbox, root: Path) -> None:
    write(root, "src/orch.cs", ORCH)
    result = ok(
        toolbox,
        "workspace_write_patch",
        batchKey="add-systemprompt",
        batchLabel="Add SystemPrompt",
        files=[
            _file(
                root,
                "src/orch.cs",
                [ADD_PROP],
                fileKey="orchestrator",
                fileLabel="Orchestrator: wire SystemPrompt through",
            )
        ],
    )
    res = result.data["result"]
    assert (res["batchKey"], res["batchLabel"]) == ("add-systemprompt", "Add SystemPrompt")
    f = res["files"][0]
    assert (f["fileKey"], f["fileLabel"]) == (
        "orchestrator",
        "Orchestrator: wire SystemPrompt through",
    )
    c = f["changes"][0]
    assert (c["changeKey"], c["description"]) == (
        "add-systemprompt-property",
        "Extend with SystemPrompt.",
    )
    stored = toolbox.workspace.history.get(c["changeId"])
    assert (stored["key"], stored["description"]) == (c["changeKey"], c["description"])
    batch = toolbox.workspace.history.get(res["batchId"])
    assert (batch["key"], batch["label"], batch["tool"]) == (
        "add-systemprompt",
        "Add SystemPrompt",
        "workspace_write_patch",
    )


# sections 4 to 6 -------------------------------------------------------------------------


def test_doc_path_at_most_once(toolbox: Toolbox, root: Path) -> None:
    write(root, "src/Orch.cs", ORCH)
    change = {"operation": "insert", "afterLine": 0, "newLines": ["// x"]}
    result = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            _file(root, "src/Orch.cs", [change]),
            {**_file(root, "src/Orch.cs", [change]), "docPath": "src/orch.cs"},
        ],
    )
    assert result.error is not None and result.error.field == "files[1].docPath"
    assert "at most once" in result.text


def test_doc_path_matches_case_insensitively(toolbox: Toolbox, root: Path) -> None:
    write(root, "MyRepo/Src/Agent.cs", ORCH)
    data = (root / "MyRepo/Src/Agent.cs").read_bytes()
    result = ok(
        toolbox,
        "workspace_write_patch",
        files=[
            {
                "docPath": "myrepo/src/agent.cs",
                "originalSha256": sha(data),
                "changes": [ADD_PROP],
            }
        ],
    )
    f = result.data["result"]["files"][0]
    assert (f["docPath"], f["path"]) == ("myrepo/src/agent.cs", "MyRepo/Src/Agent.cs")
    assert "SystemPrompt" in (root / "MyRepo/Src/Agent.cs").read_text()


def test_ambiguous_doc_path_is_an_error(toolbox: Toolbox, root: Path) -> None:
    write(root, "Dup/A.txt", "x\n")
    write(root, "dup/a.TXT", "x\n")
    if len(os.listdir(root)) < 2:
        pytest.skip("case-insensitive file system: the two spellings are one file")
    result = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            {
                "docPath": "dup/a.txt",
                "originalSha256": sha(b"x\n"),
                "changes": [{"operation": "insert", "afterLine": 0, "newLines": ["y"]}],
            }
        ],
    )
    assert result.error is not None and result.error.code is ErrorCode.AMBIGUOUS
    assert "Dup/A.txt" in result.text and "dup/a.TXT" in result.text


def test_changes_must_be_ordered_top_to_bottom(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\nb\nc\nd\n")
    result = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            _file(
                root,
                "a.txt",
                [
                    {
                        "operation": "replace",
                        "startLine": 3,
                        "endLine": 3,
                        "expectedOriginalLines": ["c"],
                        "newLines": ["C"],
                    },
                    {"operation": "insert", "afterLine": 1, "newLines": ["a2"]},
                ],
            )
        ],
    )
    assert result.error is not None and result.error.field == "files[0].changes[1]"
    assert "comes before files[0].changes[0]" in result.text


def test_changes_must_not_be_empty(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\n")
    result = refused(toolbox, "workspace_write_patch", files=[_file(root, "a.txt", [])])
    assert result.error is not None and result.error.field == "files[0].changes"
    assert result.text.startswith("files[0].changes: must not be empty.")
    empty = refused(toolbox, "workspace_write_patch", files=[])
    assert empty.error is not None and empty.error.field == "files"
    assert empty.text.startswith("files: must not be empty.")


def test_schema_files_one_or_more_and_changes_non_empty_min_items() -> None:
    # section 4.1.1 "One or more per-file patch objects", 4.2.1 "MUST be non-empty"
    schema = input_schema(catalogue()["workspace_write_patch"])
    files = schema["properties"]["files"]
    assert files["minItems"] == 1
    assert files["items"]["properties"]["changes"]["minItems"] == 1


def test_full_line_rule(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\nb\n")
    result = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            _file(
                root,
                "a.txt",
                [
                    {"operation": "insert", "afterLine": 1, "newLines": ["x\ny"]},
                ],
            )
        ],
    )
    assert result.error is not None and result.error.field == "files[0].changes[0].newLines[0]"
    assert "full-line rule" in result.text


def test_expected_original_lines_must_match_exactly(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "    indented\nb\n")
    result = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            _file(
                root,
                "a.txt",
                [
                    {
                        "operation": "replace",
                        "startLine": 1,
                        "endLine": 1,
                        "expectedOriginalLines": ["  indented"],
                        "newLines": ["x"],
                    },
                ],
            )
        ],
    )
    assert result.error is not None and result.error.code is ErrorCode.EXPECTED_MISMATCH
    assert "expected '  indented', found '    indented'" in result.text
    assert (root / "a.txt").read_text() == "    indented\nb\n"


def test_new_lines_forbidden_on_delete(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\nb\n")
    result = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            _file(
                root,
                "a.txt",
                [
                    {
                        "operation": "delete",
                        "startLine": 1,
                        "endLine": 1,
                        "expectedOriginalLines": ["a"],
                        "newLines": ["x"],
                    },
                ],
            )
        ],
    )
    assert result.error is not None and result.error.field == "files[0].changes[0].newLines"
    assert "must not be present for operation delete" in result.text


def test_operation_specific_fields_required(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\n")
    result = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            _file(
                root,
                "a.txt",
                [
                    {"operation": "replace", "startLine": 1, "endLine": 1, "newLines": ["x"]},
                    {"operation": "upsert", "afterLine": 1},
                ],
            )
        ],
    )
    assert result.error is not None
    assert result.error.field == "files[0].changes[1].operation"  # the schema is checked first
    missing = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            _file(
                root,
                "a.txt",
                [
                    {"operation": "replace", "startLine": 1, "endLine": 1, "newLines": ["x"]},
                ],
            )
        ],
    )
    assert missing.error is not None
    assert missing.error.field == "files[0].changes[0].expectedOriginalLines"


def test_every_problem_is_listed_and_nothing_written(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\n")
    write(root, "b.txt", "b\n")
    good = _file(root, "a.txt", [{"operation": "insert", "afterLine": 1, "newLines": ["x"]}])
    result = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            good,
            {
                "docPath": "b.txt",
                "originalSha256": "nope",
                "changes": [
                    {
                        "operation": "delete",
                        "startLine": 1,
                        "endLine": 1,
                        "expectedOriginalLines": ["b"],
                        "newLines": ["q"],
                    }
                ],
            },
        ],
    )
    env = result.data
    assert env["successful"] is False and env["result"] is None
    fields = [e["field"] for e in env["errors"]]
    assert fields == ["files[1].originalSha256", "files[1].changes[0].newLines"]
    assert (root / "a.txt").read_text() == "a\n"


def test_atomic_across_files(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "a\n")
    write(root, "b.txt", "b\n")
    result = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            _file(root, "a.txt", [{"operation": "insert", "afterLine": 1, "newLines": ["x"]}]),
            _file(
                root,
                "b.txt",
                [
                    {
                        "operation": "replace",
                        "startLine": 1,
                        "endLine": 1,
                        "expectedOriginalLines": ["not b"],
                        "newLines": ["y"],
                    }
                ],
            ),
        ],
    )
    assert result.error is not None and result.error.code is ErrorCode.EXPECTED_MISMATCH
    assert (root / "a.txt").read_text() == "a\n" and (root / "b.txt").read_text() == "b\n"


def test_missing_file_created_from_empty_sha(toolbox: Toolbox, root: Path) -> None:
    result = ok(
        toolbox,
        "workspace_write_patch",
        files=[
            {
                "docPath": "new/file.txt",
                "originalSha256": sha(b""),
                "changes": [{"operation": "insert", "afterLine": 0, "newLines": ["hello"]}],
            }
        ],
    )
    assert (root / "new/file.txt").read_text() == "hello\n"
    assert result.data["result"]["files"][0]["path"] == "new/file.txt"
    missing = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            {
                "docPath": "other.txt",
                "originalSha256": sha(b"x"),
                "changes": [{"operation": "insert", "afterLine": 0, "newLines": ["hello"]}],
            }
        ],
    )
    assert missing.error is not None and missing.error.code is ErrorCode.FILE_NOT_FOUND


def test_text_fidelity_crlf_and_missing_final_newline(toolbox: Toolbox, root: Path) -> None:
    write(root, "w.txt", b"a\r\nb\r\nc")
    ok(
        toolbox,
        "workspace_write_patch",
        files=[
            _file(
                root,
                "w.txt",
                [
                    {"operation": "insert", "afterLine": 1, "newLines": ["a2"]},
                    {
                        "operation": "replace",
                        "startLine": 3,
                        "endLine": 3,
                        "expectedOriginalLines": ["c"],
                        "newLines": ["C"],
                    },
                ],
            )
        ],
    )
    assert (root / "w.txt").read_bytes() == b"a\r\na2\r\nb\r\nC"


def test_log_events(toolbox: Toolbox, root: Path, caplog: pytest.LogCaptureFixture) -> None:
    write(root, "a.txt", "a\n")
    caplog.set_level(logging.INFO, logger="patchwright.tools.workspace_write_patch")
    good = ok(
        toolbox,
        "workspace_write_patch",
        batchKey="k",
        files=[_file(root, "a.txt", [{"operation": "insert", "afterLine": 1, "newLines": ["x"]}])],
    )
    refused(
        toolbox,
        "workspace_write_patch",
        files=[{"docPath": "a.txt", "originalSha256": "bad", "changes": []}],
    )
    events = [getattr(r, "event", None) for r in caplog.records]
    assert events == [
        "patch_batch_received",
        "patch_batch_stored",
        "patch_batch_received",
        "patch_batch_failed",
    ]
    stored = caplog.records[1]
    assert stored.batch_id == good.data["result"]["batchId"]
    assert (stored.files, stored.changes) == (1, 1)
    failed = caplog.records[3]
    assert failed.levelno == logging.WARNING
    assert failed.reason == "invalid_request"
    assert any("originalSha256" in f for f in failed.failures)


# section 9: error handling and logging ----------------------------------------------------

_LOGGER = "patchwright.tools.workspace_write_patch"


def _failed_events(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if getattr(r, "event", None) == "patch_batch_failed"]


def test_section_9_validation_failure_envelope_and_error_event_name_the_doc_path(
    toolbox: Toolbox, root: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write(root, "a.txt", "a\nb\n")
    write(root, "b.txt", "b\n")
    caplog.set_level(logging.INFO, logger=_LOGGER)
    change = {"operation": "insert", "afterLine": 0, "newLines": ["x"]}
    result = refused(
        toolbox,
        "workspace_write_patch",
        files=[
            _file(root, "a.txt", [change]),
            {"docPath": "b.txt", "originalSha256": "not-a-sha", "changes": [change]},
        ],
    )
    # a failed InvokeResult, not an exception: successful false, no result, every problem
    assert result.error is not None and result.error.code is ErrorCode.INVALID_REQUEST
    env = result.data
    assert env["successful"] is False and env["result"] is None and env["warnings"] == []
    (problem,) = env["errors"]
    assert problem["code"] == "invalid_request"
    assert problem["field"] == "files[1].originalSha256"
    assert problem["path"] == "b.txt"  # a structural problem still names its file
    assert problem["message"].startswith("files[1].originalSha256: must be a hex SHA256")
    assert problem["hint"]
    # the error event: reason, docPath of the failing file, the validation failures
    (event,) = _failed_events(caplog)
    assert event.levelno == logging.WARNING  # an expected refusal, not a server fault
    assert event.reason == "invalid_request"
    assert event.doc_path == "b.txt" and event.doc_paths == ["b.txt"]
    assert event.failures == [problem["message"]]
    assert "docPath=b.txt" in event.getMessage()
    assert (root / "a.txt").read_text() == "a\nb\n"


def test_section_9_error_event_lists_every_failing_doc_path(
    toolbox: Toolbox, root: Path, caplog: pytest.LogCaptureFixture
) -> None:
    write(root, "a.txt", "a\n")
    write(root, "b.txt", "b\n")
    caplog.set_level(logging.INFO, logger=_LOGGER)
    bad_range = {
        "operation": "delete",
        "startLine": 2,
        "endLine": 1,
        "expectedOriginalLines": [],
    }
    mismatch = {
        "operation": "replace",
        "startLine": 1,
        "endLine": 1,
        "expectedOriginalLines": ["B"],
        "newLines": ["c"],
    }
    refused(
        toolbox,
        "workspace_write_patch",
        files=[_file(root, "a.txt", [bad_range]), _file(root, "b.txt", [mismatch])],
    )
    (event,) = _failed_events(caplog)
    assert event.doc_path == "a.txt" and event.doc_paths == ["a.txt"]
    refused(toolbox, "workspace_write_patch", files=[_file(root, "b.txt", [mismatch])])
    later = _failed_events(caplog)[-1]
    assert later.reason == "expected_mismatch" and later.doc_path == "b.txt"


def test_section_9_unexpected_exception_is_logged_and_returns_a_generic_error(
    toolbox: Toolbox, root: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(root, "a.txt", "a\n")
    caplog.set_level(logging.INFO, logger="patchwright.tools")

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internal detail")

    monkeypatch.setattr("patchwright.tools.write_patch.tool.apply_edits", broken)
    change = {"operation": "insert", "afterLine": 1, "newLines": ["x"]}
    result = refused(toolbox, "workspace_write_patch", files=[_file(root, "a.txt", [change])])
    assert result.error is not None and result.error.code is ErrorCode.INTERNAL
    env = result.data
    assert env["successful"] is False and env["result"] is None
    (problem,) = env["errors"]
    assert problem["code"] == "internal"
    # generic: no exception text reaches the model
    assert "secret internal detail" not in result.text
    assert "secret internal detail" not in problem["message"]
    (event,) = _failed_events(caplog)
    assert event.levelno == logging.ERROR and event.reason == "internal"
    # the dispatcher logs the traceback (AGN-005: unexpected exceptions are logged)
    tracebacks = [r for r in caplog.records if r.exc_info and r.levelno == logging.ERROR]
    assert tracebacks and "secret internal detail" in str(tracebacks[0].exc_info[1])
    assert (root / "a.txt").read_text() == "a\n"
