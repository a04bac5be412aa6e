"""get_patch_change (spec 001's introspection by ID) and undo."""

from __future__ import annotations

from pathlib import Path

from tool_helpers import ok, refused, sha, write

from patchwright.model import ErrorCode
from patchwright.tools import Toolbox


def _batch(toolbox: Toolbox, root: Path) -> dict[str, object]:
    write(root, "a.txt", "one\ntwo\nthree\nfour\n")
    result = ok(
        toolbox,
        "workspace_write_patch",
        batchKey="bk",
        batchLabel="Two changes",
        files=[
            {
                "docPath": "a.txt",
                "originalSha256": sha((root / "a.txt").read_bytes()),
                "fileKey": "fk",
                "fileLabel": "the file",
                "changes": [
                    {
                        "operation": "replace",
                        "startLine": 1,
                        "endLine": 1,
                        "expectedOriginalLines": ["one"],
                        "newLines": ["ONE"],
                        "changeKey": "up",
                        "description": "shout",
                    },
                    {
                        "operation": "delete",
                        "startLine": 3,
                        "endLine": 3,
                        "expectedOriginalLines": ["three"],
                        "changeKey": "drop",
                    },
                ],
            }
        ],
    )
    res: dict[str, object] = result.data["result"]
    return res


def test_get_change_by_change_id_shows_that_change_alone(toolbox: Toolbox, root: Path) -> None:
    res = _batch(toolbox, root)
    change_id = res["files"][0]["changes"][1]["changeId"]  # type: ignore[index]
    result = ok(toolbox, "get_patch_change", changeId=change_id)
    assert result.data["kind"] == "change"
    assert (result.data["key"], result.data["op"]) == ("drop", "delete")
    assert result.diff == "--- a/a.txt\n+++ b/a.txt\n@@ -1,4 +1,3 @@\n one\n two\n-three\n four\n"
    assert "ONE" not in result.diff  # the other change is not part of this one's diff
    assert result.data["created_at"] and result.data["batch"]["tool"] == "workspace_write_patch"
    assert result.text.splitlines()[0] == f"change {change_id} (key drop) delete line 3 -> removed"


def test_get_change_by_batch_and_file_ids(toolbox: Toolbox, root: Path) -> None:
    res = _batch(toolbox, root)
    batch = ok(toolbox, "get_patch_change", id=res["batchId"])
    assert batch.data["kind"] == "batch" and batch.data["key"] == "bk"
    assert "-one\n+ONE" in batch.diff and "-three" in batch.diff
    assert "Two changes" in batch.text and "in effect" in batch.text
    file_id = res["files"][0]["filePatchId"]  # type: ignore[index]
    file = ok(toolbox, "get_patch_change", filePatchId=file_id)
    assert file.data["kind"] == "file" and file.data["label"] == "the file"
    assert [c["key"] for c in file.data["changes"]] == ["up", "drop"]
    assert "shout" in file.text


def test_get_change_refusals(toolbox: Toolbox, root: Path) -> None:
    _batch(toolbox, root)
    unknown = refused(toolbox, "get_patch_change", id="c-deadbeef")
    assert unknown.error is not None and unknown.error.code is ErrorCode.HISTORY
    none = refused(toolbox, "get_patch_change")
    assert none.error is not None and none.error.field == "id"
    wrong_kind = refused(toolbox, "get_patch_change", batchId="c-deadbeef")
    assert wrong_kind.error is not None and wrong_kind.error.field == "batchId"


def test_undo_latest_then_by_id(toolbox: Toolbox, root: Path) -> None:
    write(root, "b.txt", "x\n")
    first = ok(toolbox, "edit_file", path="b.txt", old_string="x", new_string="y")
    ok(toolbox, "edit_file", path="b.txt", old_string="y", new_string="z")
    undone = ok(toolbox, "undo")
    assert (root / "b.txt").read_text() == "y\n"
    assert undone.diff == "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-z\n+y\n"
    ok(toolbox, "undo", batchId=first.data["batch_id"])
    assert (root / "b.txt").read_text() == "x\n"
    again = refused(toolbox, "undo", batchId=first.data["batch_id"])
    assert "already undone" in again.text


def test_undo_refuses_when_file_changed_since(toolbox: Toolbox, root: Path) -> None:
    write(root, "c.txt", "x\n")
    first = ok(toolbox, "edit_file", path="c.txt", old_string="x", new_string="y")
    (root / "c.txt").write_text("edited by hand\n")
    result = refused(toolbox, "undo", batchId=first.data["batch_id"])
    assert result.error is not None and result.error.code is ErrorCode.CONFLICT
    assert "changed after batch" in result.text
    assert (root / "c.txt").read_text() == "edited by hand\n"


def test_undo_reverts_created_file_and_shows_in_get(toolbox: Toolbox, root: Path) -> None:
    created = ok(
        toolbox, "patch", path="n/new.txt", patches=[{"operation": "overwrite", "newText": "hi\n"}]
    )
    undo = ok(toolbox, "undo")
    assert not (root / "n/new.txt").exists()
    look = ok(toolbox, "get_patch_change", id=created.data["batch_id"])
    assert f"undone by batch {undo.data['batch_id']}" in look.text


def _sha_of(root: Path, rel: str) -> str:
    return sha((root / rel).read_bytes())


def test_get_change_diff_of_insert_after_last_line_without_final_newline(
    toolbox: Toolbox, root: Path
) -> None:
    # The old last line lacked an ending; spliced mid-text it must get one, and the
    # change's diff must be the file's own diff, not the whole file removed and re-added.
    write(root, "f.txt", "a\nb\nc")
    result = ok(
        toolbox,
        "workspace_write_patch",
        files=[
            {
                "docPath": "f.txt",
                "originalSha256": _sha_of(root, "f.txt"),
                "changes": [{"operation": "insert", "afterLine": 3, "newLines": ["d"]}],
            }
        ],
    )
    assert (root / "f.txt").read_text() == "a\nb\nc\nd"
    change_id = result.data["result"]["files"][0]["changes"][0]["changeId"]
    change = ok(toolbox, "get_patch_change", changeId=change_id)
    expected = (
        "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,4 @@\n a\n b\n-c\n"
        "\\ No newline at end of file\n+c\n+d\n\\ No newline at end of file\n"
    )
    assert change.diff == expected == result.diff


def test_get_change_diffs_of_two_changes_at_the_end_of_a_file_without_final_newline(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "f.txt", "a\nb\nc")
    result = ok(
        toolbox,
        "workspace_write_patch",
        files=[
            {
                "docPath": "f.txt",
                "originalSha256": _sha_of(root, "f.txt"),
                "changes": [
                    {
                        "operation": "replace",
                        "startLine": 3,
                        "endLine": 3,
                        "expectedOriginalLines": ["c"],
                        "newLines": ["C"],
                    },
                    {"operation": "insert", "afterLine": 3, "newLines": ["d"]},
                ],
            }
        ],
    )
    assert (root / "f.txt").read_text() == "a\nb\nC\nd"
    replace_id, insert_id = (c["changeId"] for c in result.data["result"]["files"][0]["changes"])
    # each change alone: the file keeps its missing final newline
    replaced = ok(toolbox, "get_patch_change", changeId=replace_id)
    assert replaced.diff == (
        "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n b\n-c\n"
        "\\ No newline at end of file\n+C\n\\ No newline at end of file\n"
    )
    inserted = ok(toolbox, "get_patch_change", changeId=insert_id)
    assert inserted.diff == (
        "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,4 @@\n a\n b\n-c\n"
        "\\ No newline at end of file\n+c\n+d\n\\ No newline at end of file\n"
    )


def test_get_change_diff_of_deleting_the_last_line_without_final_newline(
    toolbox: Toolbox, root: Path
) -> None:
    write(root, "f.txt", "a\nb\nc")
    result = ok(
        toolbox,
        "workspace_write_patch",
        files=[
            {
                "docPath": "f.txt",
                "originalSha256": _sha_of(root, "f.txt"),
                "changes": [
                    {
                        "operation": "delete",
                        "startLine": 3,
                        "endLine": 3,
                        "expectedOriginalLines": ["c"],
                    }
                ],
            }
        ],
    )
    change_id = result.data["result"]["files"][0]["changes"][0]["changeId"]
    change = ok(toolbox, "get_patch_change", changeId=change_id)
    assert change.diff == result.diff


def test_get_change_unknown_id_names_the_field_that_carried_it(
    toolbox: Toolbox, root: Path
) -> None:
    _batch(toolbox, root)
    for field, value in (
        ("id", "c-deadbeef"),
        ("changeId", "c-deadbeef"),
        ("batchId", "b-deadbeef"),
        ("filePatchId", "f-deadbeef"),
    ):
        unknown = refused(toolbox, "get_patch_change", **{field: value})
        assert unknown.error is not None and unknown.error.code is ErrorCode.HISTORY
        assert unknown.error.field == field, field
