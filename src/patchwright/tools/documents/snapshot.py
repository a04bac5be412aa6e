"""``document_snapshot`` (spec 003's DocumentSnapshotTool) over a workspace file.

A snapshot gives the file's text exactly as it is (no line numbers: a diff is computed
against it), its ``document_version`` (the SHA256 of its bytes, to send back with the
edit), ``line_offsets`` (where each line starts, in characters, for ``target_range``),
and the fingerprint of a selection when one is asked for. Notes attached to the file by
``document_edit`` (annotate) are listed, each marked current or written against an
older version. Large files are shown a page at a time (``start_line`` / ``end_line``);
the answer says which lines it holds, and the version always covers the whole file.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from patchwright.documents import DocumentSession
from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import PAGE_LINES, load, newline_name, page_bounds
from patchwright.tools.spec import READ_ONLY, ToolSpec


class DocumentSnapshotRequest(BaseModel):
    """Arguments of ``document_snapshot``."""

    model_config = ConfigDict(extra="forbid")

    path: str = Field(description="The workspace file to snapshot.")
    selection: list[int] | None = Field(
        None,
        description="Optional [start, end] character offsets whose text gets a "
        "selection_hash (to send back as selection_fingerprint).",
        min_length=2,
        max_length=2,
    )
    start_line: int | None = Field(
        None, description="For large files: first line of the text to show (1-based).",
        ge=1,
    )  # fmt: skip
    end_line: int | None = Field(
        None, description="For large files: last line of the text to show (inclusive).",
        ge=1,
    )  # fmt: skip


def run(ctx: ToolContext, req: DocumentSnapshotRequest) -> ToolResult:
    """Take a snapshot of one file."""
    loaded = load(ctx.workspace, req.path)
    file = loaded.current
    doc = DocumentSession(file.text)
    snap = doc.snapshot(req.selection)
    n = len(file.lines)
    start = req.start_line or 1
    if n and not 1 <= start <= n:
        raise PatchwrightError(
            ErrorCode.OUT_OF_RANGE,
            f"start_line {start} is outside {loaded.path}, which has {n} lines.",
            f"Use a start_line between 1 and {n}.",
            path=loaded.path,
            field="start_line",
        )
    first, last = page_bounds(file, start, req.end_line, PAGE_LINES) if n else (1, 0)
    whole = first == 1 and last == n
    shown = (
        file.text
        if whole
        else "".join(
            line + end
            for line, end in zip(file.lines[first - 1 : last], file.endings[first - 1 : last])
        )
    )
    notes = [
        {**note, "current": note.get("document_version") == loaded.sha256}
        for note in ctx.session.notes_for(loaded.path)
    ]
    data: dict[str, Any] = {
        **snap.to_dict(),
        "path": loaded.path,
        "version": loaded.sha256,
        "document_version": loaded.sha256,
        "line_count": n,
        "newline": newline_name(file),
        "ends_with_newline": file.ends_with_newline,
        "shown_lines": [first, last],
        "complete": whole,
        "notes": notes,
    }
    data["annotations"] = notes
    if not whole:
        data["text"] = shown
    return ToolResult(True, _render(data, shown, ctx), data=data)


def _render(data: dict[str, Any], shown: str, ctx: ToolContext) -> str:
    n = data["line_count"]
    first, last = data["shown_lines"]
    head = [
        f"document: {data['path']}",
        f"document_version: {data['document_version']}",
        f"length: {data['length']} characters, {n} lines (newline: {data['newline']}; "
        f"final newline: {'yes' if data['ends_with_newline'] else 'no'})",
    ]
    if data["selection"] != [0, 0]:
        head.append(f"selection: {data['selection']} selection_hash: {data['selection_hash']}")
    for note in data["notes"]:
        state = "current" if note["current"] else "older version"
        head.append(f"note {note['id']} on {note['range']} ({state}): {note['note']}")
    edit = ctx.name_of("document_edit")
    if ctx.use_patch_edits:
        head.append(
            f"To edit: compute a unified diff against this text and call {edit} with action "
            "patch, the diff and this document_version."
        )
    else:
        head.append(
            f"To edit: call {edit} with target_range offsets into this text and this "
            "document_version."
        )
    span = "the whole file" if data["complete"] else f"lines {first}-{last} of {n}"
    body = [f"----- text ({span}) -----", shown.rstrip("\r\n") if shown else "", "----- end -----"]
    if not data["complete"] and last < n:
        body.append(f"[more: call {ctx.name_of('document_snapshot')} with start_line={last + 1}]")
    return "\n".join([*head, *body])


def snapshot_spec(use_patch_edits: bool) -> ToolSpec:
    """The ``document_snapshot`` spec; its description teaches the matching edit workflow."""
    return ToolSpec(
        name="document_snapshot",
        title="Snapshot a file for editing",
        description=description(
            "document_snapshot" if use_patch_edits else "document_snapshot_legacy"
        ),
        request_model=DocumentSnapshotRequest,
        handler=run,
        annotations=READ_ONLY,
        contract="spec 003 DocumentSnapshotTool (text, version, line_offsets, selection_hash)",
    )
