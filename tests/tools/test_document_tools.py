"""Spec 003 agent tools over workspace files: snapshot -> diff -> apply, legacy actions,
the use_patch_edits setting, build_diff, telemetry, and the prompt regression."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from tool_helpers import ok, refused, sha, write

from patchwright.documents import document_version
from patchwright.model import ErrorCode
from patchwright.tools import Toolbox, input_schema, select_specs

DOC = "# Title\n\nFirst paragraph.\nSecond line.\n"


def _diff(old: str, new: str) -> str:
    return (
        f"--- a/doc.md\n+++ b/doc.md\n@@ -1,4 +1,4 @@\n # Title\n \n-{old}\n+{new}\n Second line.\n"
    )


def test_snapshot_gives_text_version_offsets(toolbox: Toolbox, root: Path) -> None:
    write(root, "doc.md", DOC)
    snap = ok(toolbox, "document_snapshot", path="doc.md", selection=[2, 7])
    data = snap.data
    assert data["text"] == DOC and data["document_version"] == sha(DOC.encode())
    assert data["line_offsets"][:4] == [0, 8, 9, 26]
    assert data["selection_text"] == "Title" and data["selection_hash"].startswith("sha256:")
    assert DOC.rstrip("\n") in snap.text
    assert f"document_version: {sha(DOC.encode())}" in snap.text


def test_snapshot_diff_apply_workflow(toolbox: Toolbox, root: Path) -> None:
    write(root, "doc.md", DOC)
    version = ok(toolbox, "document_snapshot", path="doc.md").data["document_version"]
    result = ok(
        toolbox,
        "document_edit",
        path="doc.md",
        action="patch",
        document_version=version,
        diff=_diff("First paragraph.", "First paragraph, edited."),
    )
    assert (root / "doc.md").read_text() == DOC.replace("paragraph.", "paragraph, edited.")
    new_version = sha((root / "doc.md").read_bytes())
    assert result.text.startswith(f"applied: +8 chars (patch, version={new_version})")
    assert result.data["document_version"] == new_version
    assert result.data["previous_version"] == version
    assert result.data["spans"] and result.data["batch_id"].startswith("b-")
    # action defaults to patch, and a 12-digit prefix of the version is accepted
    ok(
        toolbox,
        "document_edit",
        path="doc.md",
        document_version=new_version[:12],
        diff=_diff("First paragraph, edited.", "Done."),
    )
    assert "Done." in (root / "doc.md").read_text()


def test_stale_version_is_refused_before_anything(toolbox: Toolbox, root: Path) -> None:
    write(root, "doc.md", DOC)
    old = sha(DOC.encode())
    (root / "doc.md").write_text(DOC + "More.\n")
    result = refused(
        toolbox,
        "document_edit",
        path="doc.md",
        document_version=old,
        diff=_diff("First paragraph.", "X"),
    )
    assert result.error is not None and result.error.code is ErrorCode.STALE
    assert result.data["reason"] == "stale version"
    assert result.data["summary"].startswith(f"failed: stale version (patch, sent {old} vs ")
    assert "Take a fresh snapshot" in result.text
    assert (root / "doc.md").read_text() == DOC + "More.\n"


def test_context_mismatch_leaves_file_untouched(toolbox: Toolbox, root: Path) -> None:
    write(root, "doc.md", DOC)
    version = sha(DOC.encode())
    diff = "@@ -1,2 +1,2 @@\n Nonexistent line\n-Other\n+Thing\n"
    result = refused(toolbox, "document_edit", path="doc.md", document_version=version, diff=diff)
    assert result.data["reason"] == "context mismatch"
    assert (root / "doc.md").read_text() == DOC


def test_patch_requires_version_and_forbids_range(toolbox: Toolbox, root: Path) -> None:
    write(root, "doc.md", DOC)
    version = sha(DOC.encode())
    no_version = refused(
        toolbox, "document_edit", path="doc.md", diff=_diff("First paragraph.", "X")
    )
    assert no_version.error is not None and no_version.error.field == "document_version"
    mixed = refused(
        toolbox,
        "document_edit",
        path="doc.md",
        document_version=version,
        diff=_diff("First paragraph.", "X"),
        target_range=[0, 1],
    )
    assert mixed.error is not None and mixed.error.field == "target_range"
    assert (root / "doc.md").read_text() == DOC


def test_legacy_actions_insert_replace_annotate(toolbox: Toolbox, root: Path) -> None:
    write(root, "doc.md", DOC)
    ok(
        toolbox,
        "document_edit",
        path="doc.md",
        action="replace",
        target_range=[2, 7],
        content="Heading",
        document_version=sha(DOC.encode()),
    )
    text = (root / "doc.md").read_text()
    assert text == DOC.replace("Title", "Heading")
    ok(
        toolbox,
        "document_edit",
        path="doc.md",
        action="insert",
        target_range=[0, 0],
        content="<!-- top -->\n",
    )
    assert (root / "doc.md").read_text() == "<!-- top -->\n" + text
    before = (root / "doc.md").read_bytes()
    note = ok(
        toolbox,
        "document_edit",
        path="doc.md",
        action="annotate",
        target_range=[0, 4],
        content="check this",
    )
    assert (root / "doc.md").read_bytes() == before
    assert note.data["note"]["note"] == "check this"
    snap = ok(toolbox, "document_snapshot", path="doc.md")
    assert snap.data["notes"][0]["current"] is True and "check this" in snap.text
    no_range = refused(toolbox, "document_edit", path="doc.md", action="replace", content="x")
    assert no_range.error is not None and no_range.error.field == "target_range"


def test_legacy_content_takes_file_newline_style(toolbox: Toolbox, root: Path) -> None:
    write(root, "w.txt", b"a\r\nb\r\n")
    ok(
        toolbox,
        "document_edit",
        path="w.txt",
        action="insert",
        target_range=[3, 3],
        content="x\ny\n",
    )
    assert (root / "w.txt").read_bytes() == b"a\r\nx\r\ny\r\nb\r\n"


def test_use_patch_edits_setting(make_toolbox: Callable[..., Toolbox], root: Path) -> None:
    write(root, "doc.md", DOC)
    legacy = make_toolbox(use_patch_edits=False)
    schema = input_schema(legacy.spec("document_edit"))
    assert schema["properties"]["action"]["enum"] == ["insert", "replace", "annotate"]
    assert "diff" not in schema["properties"] and "action" in schema["required"]
    refused(
        legacy,
        "document_edit",
        path="doc.md",
        action="patch",
        diff=_diff("a", "b"),
        document_version=sha(DOC.encode()),
    )
    patching = make_toolbox()
    schema = input_schema(patching.spec("document_edit"))
    assert schema["properties"]["action"]["default"] == "patch"
    assert "diff" in schema["properties"]


def test_build_diff_tool(toolbox: Toolbox, root: Path) -> None:
    write(root, "doc.md", DOC)
    built = ok(toolbox, "build_diff", path="doc.md", original="Second line.", updated="Line two.")
    assert built.text == (
        "--- a/doc.md\n+++ b/doc.md\n@@ -1,4 +1,4 @@\n # Title\n \n First paragraph.\n"
        "-Second line.\n+Line two.\n"
    )
    assert built.diff == "" and (root / "doc.md").read_text() == DOC
    version = built.data["document_version"]
    ok(toolbox, "document_edit", path="doc.md", document_version=version, diff=built.text)
    assert (root / "doc.md").read_text() == DOC.replace("Second line.", "Line two.")
    slices = ok(toolbox, "build_diff", original="a\nb\n", updated="a\nc\n")
    assert slices.text == "--- a/document\n+++ b/document\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
    missing = refused(toolbox, "build_diff", path="doc.md", original="absent", updated="x")
    assert missing.error is not None and missing.error.code is ErrorCode.NOT_FOUND


def test_patch_telemetry_in_session(toolbox: Toolbox, root: Path) -> None:
    write(root, "doc.md", DOC)
    ok(
        toolbox,
        "document_edit",
        path="doc.md",
        document_version=sha(DOC.encode()),
        diff=_diff("First paragraph.", "One."),
    )
    refused(
        toolbox,
        "document_edit",
        path="doc.md",
        document_version=sha(DOC.encode()),
        diff=_diff("One.", "Two."),
    )
    metrics = toolbox.session.metrics
    assert (metrics["total_patches"], metrics["patch_conflicts"]) == (1, 1)
    assert metrics["last_diff_summary"].startswith("failed: stale version (patch")
    result = ok(
        toolbox,
        "document_edit",
        path="doc.md",
        document_version=sha((root / "doc.md").read_bytes()),
        diff=_diff("One.", "Two."),
    )
    assert result.data["metrics"]["total_patches"] == 2
    assert result.data["metrics"]["avg_patch_latency_ms"] > 0


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"], ids=["plain", "bom"])
def test_results_speak_the_version_the_agent_holds(
    toolbox: Toolbox, root: Path, bom: bytes
) -> None:
    # The agent holds the file's SHA256 from document_snapshot; a BOM makes it differ from
    # the digest of the decoded text, which must never show up in a result.
    write(root, "doc.md", bom + DOC.encode())
    version = ok(toolbox, "document_snapshot", path="doc.md").data["document_version"]
    assert version == sha((root / "doc.md").read_bytes())
    text_digest = document_version(DOC)
    sent = version[:16]
    missing = refused(
        toolbox,
        "document_edit",
        path="doc.md",
        document_version=sent,
        diff="@@ -1,2 +1,2 @@\n Nonexistent line\n-Other\n+Thing\n",
    )
    assert missing.data["versions"] == {"expected": sent, "actual": version, "match": True}
    assert missing.data["summary"] == f"failed: context mismatch (patch, version={version})"
    bad_range = refused(
        toolbox,
        "document_edit",
        path="doc.md",
        action="replace",
        target_range=[0, 999],
        content="x",
        document_version=version,
    )
    assert bad_range.data["versions"] == {"expected": version, "actual": version, "match": True}
    assert version in bad_range.data["summary"]
    applied = ok(
        toolbox,
        "document_edit",
        path="doc.md",
        document_version=sent,
        diff=_diff("First paragraph.", "One."),
    )
    new_version = sha((root / "doc.md").read_bytes())
    assert (root / "doc.md").read_bytes().startswith(bom + b"# Title")
    assert applied.data["versions"] == {"expected": sent, "actual": version, "match": True}
    assert applied.data["summary"] == f"applied: -12 chars (patch, version={new_version})"
    assert applied.data["document_version"] == new_version
    stale = refused(
        toolbox, "document_edit", path="doc.md", document_version=version, diff=_diff("One.", "2.")
    )
    assert stale.data["versions"] == {"expected": version, "actual": new_version, "match": False}
    for result in (missing, bad_range, applied, stale):
        shown = json.dumps(result.data) + result.text
        assert (
            text_digest not in shown
            and document_version(DOC.replace("First paragraph.", "One.")) not in shown
        )


def test_last_failure_is_kept_apart_from_the_last_summary(toolbox: Toolbox, root: Path) -> None:
    write(root, "doc.md", DOC)
    version = sha(DOC.encode())
    refused(
        toolbox,
        "document_edit",
        path="doc.md",
        document_version=version,
        diff="@@ -1,2 +1,2 @@\n Nonexistent line\n-Other\n+Thing\n",
    )
    failure = toolbox.session.metrics["last_failure"]
    assert failure["summary"] == f"failed: context mismatch (patch, version={version})"
    assert failure["action"] == "patch" and failure["error"]["code"] == "not_found"
    assert failure["error"]["details"]["actual_snippet"] == "# Title\n"
    applied = ok(
        toolbox,
        "document_edit",
        path="doc.md",
        document_version=version,
        diff=_diff("First paragraph.", "One."),
    )
    metrics = toolbox.session.metrics
    assert metrics["last_diff_summary"].startswith("applied: ")
    assert metrics["last_failure"] == failure  # a success does not erase the last refusal
    assert applied.data["metrics"]["last_failure"] == failure


TOOLS_DOC = Path(__file__).resolve().parents[2] / "docs" / "tools.md"
APP = "import os\n\n\ndef main():\n    return 1\n"
_BATCH = re.compile(r"b-[0-9a-f]{8}")


def _json_after(text: str, lead: str) -> object:
    """The JSON block that follows ``lead`` in ``text``."""
    block = text[text.index(lead) :].split("```json\n", 1)[1].split("```", 1)[0]
    return json.loads(block)


def test_docs_examples_of_snapshot_edit_and_undo_are_real_output(
    toolbox: Toolbox, root: Path
) -> None:
    # docs/tools.md shows these calls with the output they really give.
    doc = TOOLS_DOC.read_text(encoding="utf-8")
    section = doc[doc.index("## document_snapshot and document_edit") :]
    write(root, "app.py", APP)
    snap = ok(toolbox, "document_snapshot", path="app.py", selection=[28, 36])
    assert '{"path": "app.py", "selection": [28, 36]}' in section
    assert f"```\n{snap.text}\n```" in section
    assert _json_after(section, "with `data`:") == snap.data
    version = snap.data["document_version"]
    diff = (
        "--- a/app.py\n+++ b/app.py\n@@ -4,2 +4,2 @@\n def main():\n-    return 1\n+    return 4\n"
    )
    edited = ok(toolbox, "document_edit", path="app.py", document_version=version, diff=diff)
    assert f"```\n{edited.text}\n```" in section
    again = ok(toolbox, "document_edit", path="app.py", document_version=version, diff=diff)
    assert f"```\n{_BATCH.sub('b-ID', again.text)}\n```" in _BATCH.sub("b-ID", section)
    other = diff.replace("return 4", "return 2")
    stale = refused(toolbox, "document_edit", path="app.py", document_version=version, diff=other)
    assert f"```\n{stale.text}\n```" in section
    new_version = edited.data["document_version"]
    old_context = diff.split("\n", 2)[2].replace("return 4", "return 5")
    mismatch = refused(
        toolbox, "document_edit", path="app.py", document_version=new_version, diff=old_context
    )
    assert _json_after(section, "but the old context") == mismatch.data
    undo_section = doc[doc.index("## undo") : doc.index("## build_diff")]
    undone = ok(toolbox, "undo", batchId=edited.data["batch_id"])
    assert _BATCH.sub("b-ID", undone.text) in _BATCH.sub("b-ID", undo_section)
    assert (root / "app.py").read_text() == APP


# prompt regression: the descriptions must keep teaching snapshot -> diff -> apply --------


def _order(text: str, *words: str) -> bool:
    positions = [text.find(w) for w in words]
    return -1 not in positions and positions == sorted(positions)


def _workflow(text: str) -> str:
    found = re.search(r"Workflow: [^\n]*", text)
    assert found, "the description states the workflow"
    return found.group(0)


def test_prompt_regression_descriptions_teach_snapshot_diff_apply() -> None:
    specs = {s.name: s for s in select_specs(preset="spec")}
    for name in ("document_snapshot", "document_edit"):
        text = specs[name].description
        flow = _workflow(text)
        assert re.search(r"snapshot\s*->\s*compute a unified diff.*->.*patch", flow), name
        assert _order(
            flow,
            "snapshot",
            "diff",
            "build_diff",
            "document_edit" if name == "document_snapshot" else "this tool",
            "patch",
            "document_version",
        )
        assert "stale" in text and "fresh snapshot" in text
    edit = specs["document_edit"].description
    assert _order(_workflow(edit), "document_snapshot", "build_diff", '`action: "patch"`')
    assert "Legacy actions" in edit


def test_prompt_regression_follows_renames_and_legacy_setting() -> None:
    renamed = {
        s.canonical: s for s in select_specs(preset="spec", rename={"document_snapshot": "snap"})
    }
    assert _workflow(renamed["document_edit"].description).startswith("Workflow: snap ->")
    assert "{tool:" not in renamed["document_edit"].description
    legacy = {s.name: s for s in select_specs(preset="spec", use_patch_edits=False)}
    for name in ("document_snapshot", "document_edit"):
        text = legacy[name].description
        assert "target_range" in text and "unified diff" not in text
        assert _order(_workflow(text), "snapshot", "target_range", "document_version")
