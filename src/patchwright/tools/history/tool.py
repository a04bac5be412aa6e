"""``get_patch_change`` and ``undo``: the history, seen and reverted by ID.

``get_patch_change`` (spec 001's introspection tool) fetches a stored batch (``b-``),
file patch (``f-``) or change (``c-``): what it changed and where, its diff, when, by
which tool, its keys and descriptions, and whether it was undone. A change's diff shows
that change alone, rebuilt from the stored before/after contents.

``undo`` reverts a batch (default: the newest one not yet undone) as a new recorded
batch, refusing with ``conflict`` when a file changed since. Undo puts back content that
existed before, so the syntax guard only reports on it (a ``reject`` policy does not
block an undo).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from patchwright.engine import unified_diff
from patchwright.model import ErrorCode, PatchwrightError, TextFile, ToolResult
from patchwright.syntax import check_edit
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.history.text import describe_item
from patchwright.tools.spec import READ_ONLY, WRITES, ToolSpec
from patchwright.workspace import CommitRecord, History
from patchwright.workspace.encoding import decode_file

_ID_FIELDS = ("id", "batchId", "filePatchId", "changeId")


class GetPatchChangeRequest(BaseModel):
    """Arguments of ``get_patch_change``: exactly one ID."""

    model_config = ConfigDict(extra="forbid")

    id: str | None = Field(
        None, description="Any ID: batch (b-...), file patch (f-...) or change (c-...)."
    )
    batchId: str | None = Field(None, description="A batch ID (b-...).")
    filePatchId: str | None = Field(None, description="A file patch ID (f-...).")
    changeId: str | None = Field(None, description="A change ID (c-...).")


def _the_id(req: GetPatchChangeRequest) -> tuple[str, str]:
    """The one ID sent and the field that carried it."""
    given = [(k, getattr(req, k)) for k in _ID_FIELDS if getattr(req, k)]
    if len(given) != 1:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"Send exactly one ID (id, batchId, filePatchId or changeId); got {len(given)}.",
            "Pass the batchId, filePatchId or changeId returned by an earlier edit.",
            field="id",
        )
    field, value = given[0]
    prefix = {"batchId": "b-", "filePatchId": "f-", "changeId": "c-"}.get(field)
    if prefix and not value.startswith(prefix):
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"{field} must start with {prefix!r}; got {value!r}.",
            "Pass the ID in the field that matches its kind, or use id.",
            field=field,
        )
    return field, str(value).strip()


def _decoded(history: History, sha: str | None) -> TextFile:
    data = history.content(sha)
    if data is None:
        return TextFile()
    try:
        return decode_file(data)
    except PatchwrightError:
        return TextFile()


def change_diff(history: History, change: dict[str, Any], file: dict[str, Any]) -> str:
    """The diff of one change alone: its old lines replaced by its new lines."""
    a, b = change.get("old_start"), change.get("old_end")
    c, d = change.get("new_start"), change.get("new_end")
    if a is None or b is None or c is None or d is None:
        return str(file.get("diff", ""))
    old = _decoded(history, file.get("before_sha256"))
    new = _decoded(history, file.get("after_sha256"))
    lines = old.lines[: a - 1] + new.lines[c - 1 : d] + old.lines[b:]
    endings = old.endings[: a - 1] + new.endings[c - 1 : d] + old.endings[b:]
    _mend_endings(endings, old, new, at_end=b >= len(old.lines), new_end=d >= len(new.lines))
    path = file["path"]
    return unified_diff(old, old.with_lines(lines, endings), f"a/{path}", f"b/{path}")


def _mend_endings(
    endings: list[str], old: TextFile, new: TextFile, *, at_end: bool, new_end: bool
) -> None:
    """Make spliced ``endings`` a valid text: only the last line may lack an ending.

    The splice takes each line's ending from the file it came from, and in either file
    only the last line can lack one. Spliced, such a line may land mid-text (the old last
    line with lines inserted after it, or a new last line followed by untouched old
    lines); it then gets the file's newline, as the real edit gave it. The last line of
    the splice ends as the file did: as after the edit when this change reaches the end
    of the new file, as before it when another change of the batch follows at the end.
    """
    if not endings:
        return
    newline = new.newline if new.lines else old.newline
    for k in range(len(endings) - 1):
        if not endings[k]:
            endings[k] = newline
    if not at_end:
        return  # the last line is an untouched old line with its own ending
    if new_end and new.lines:
        endings[-1] = new.endings[-1]
    elif old.lines:
        endings[-1] = old.endings[-1]


def get_change(ctx: ToolContext, req: GetPatchChangeRequest) -> ToolResult:
    """Fetch a stored batch, file patch or change."""
    history = ctx.workspace.history
    field, item_id = _the_id(req)
    try:
        item = history.get(item_id)
    except PatchwrightError as err:
        # An unknown ID: the history knows the ID, not which request field carried it.
        if err.details.get("id") == item_id:
            err.with_context(field=field)
        raise
    kind = item["kind"]
    if kind == "change":
        file = history.get(item["file_id"])
        item["diff"] = change_diff(history, item, file)
        batch = history.get(item["batch_id"])
    elif kind == "file":
        batch = history.get(item["batch_id"])
    else:
        batch = item
        item["diff"] = "".join(f.get("diff", "") for f in item["files"])
    item["created_at"] = batch["created_at"]
    item["batch"] = {k: batch[k] for k in ("id", "tool", "label", "key", "reverts", "reverted_by")}
    return ToolResult(True, describe_item(item), diff=str(item.get("diff", "")), data=item)


class UndoRequest(BaseModel):
    """Arguments of ``undo``."""

    model_config = ConfigDict(extra="forbid")

    batchId: str | None = Field(
        None, description="The batch to revert (b-...). Default: the newest batch not yet undone."
    )


def undo(ctx: ToolContext, req: UndoRequest) -> ToolResult:
    """Revert a batch as a new batch."""
    ws = ctx.workspace
    ws.ensure_writable()
    record = ws.undo(req.batchId.strip() if req.batchId else None)
    warnings, syntax = _syntax_after_undo(ctx, record)
    paths = ", ".join(f.move_from or f.path for f in record.files)
    text = (
        f"Reverted batch {record.reverts} ({paths}). The revert is recorded as batch "
        f"{record.batch_id} (undo that batch to redo the change)."
    )
    text += "".join(f"\nWarning: {w}" for w in warnings)
    diff = "".join(f.diff for f in record.files)
    data = {
        "reverted_batch_id": record.reverts,
        "batch_id": record.batch_id,
        "record": record.to_dict(),
        "syntax": syntax,
    }
    return ToolResult(True, text, diff=diff, warnings=warnings, data=data)


def _syntax_after_undo(
    ctx: ToolContext, record: CommitRecord
) -> tuple[list[str], dict[str, dict[str, Any]]]:
    warnings: list[str] = []
    syntax: dict[str, dict[str, Any]] = {}
    if ctx.syntax_policy == "off":
        return warnings, syntax
    history = ctx.workspace.history
    for f in record.files:
        if f.after_sha256 is None:
            continue
        before = _decoded(history, f.before_sha256).text if f.before_sha256 else None
        report = check_edit(f.path, before, _decoded(history, f.after_sha256).text)
        syntax[f.path] = report.to_dict()
        if report.warning_text():
            warnings.append(report.warning_text())
    return warnings, syntax


GET_SPEC = ToolSpec(
    name="get_patch_change",
    title="Look up a stored change",
    description=description("get_patch_change"),
    request_model=GetPatchChangeRequest,
    handler=get_change,
    annotations=READ_ONLY,
    contract="spec 001 section 11: get_patch_change introspection by batchId / changeId",
)

UNDO_SPEC = ToolSpec(
    name="undo",
    title="Undo a batch",
    description=description("undo"),
    request_model=UndoRequest,
    handler=undo,
    annotations=WRITES,
    contract="workspace history: revert a batch by ID, refusing on conflict",
)
