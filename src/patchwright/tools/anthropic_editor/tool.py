"""``str_replace_based_edit_tool``: view, create, str_replace, insert, undo_edit.

* ``view``: a file's lines numbered (``view_range`` = [first, last], last -1 for the
  end), or a folder's entries two levels deep;
* ``create``: a new file with ``file_text``; an existing file is refused (its content
  already equal: "already applied") with a next step;
* ``str_replace``: ``old_str`` must occur exactly once (whitespace slips recovered
  through the matching ladder); ``new_str`` replaces it (default: delete it);
* ``insert``: ``new_str`` (or ``insert_text``) after line ``insert_line`` (0: the top);
* ``undo_edit``: reverts the newest edit of ``path`` not yet undone (from the history).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from patchwright.engine.notebook import is_notebook_path
from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.tools.anthropic_editor.models import EditorRequest
from patchwright.tools.anthropic_editor.views import view_file, view_folder
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import posix_path
from patchwright.tools.replace import (
    Fields,
    Replacement,
    insert_lines,
    replace_strings,
    write_whole,
)
from patchwright.tools.spec import WRITES, ToolSpec

_HISTORY_DEPTH = 500


def _required(value: str | int | None, field: str, command: str) -> None:
    if value is None:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"command {command} needs {field}; it is missing. Nothing was done.",
            f"Send {field} with command {command}.",
            field=field,
        )


def _view(ctx: ToolContext, req: EditorRequest) -> ToolResult:
    if posix_path(req.path).strip().strip("/") in ("", "."):
        return view_folder(ctx.workspace, "")
    try:
        return view_file(ctx, req.path, req.view_range)
    except PatchwrightError as err:
        if err.code is ErrorCode.NOT_A_FILE and err.details.get("kind") == "dir":
            return view_folder(ctx.workspace, err.path or req.path)
        raise


def _insert(ctx: ToolContext, req: EditorRequest) -> ToolResult:
    text = req.new_str if req.new_str is not None else req.insert_text
    _required(req.insert_line, "insert_line", "insert")
    _required(text, "new_str", "insert")
    assert req.insert_line is not None and text is not None
    if is_notebook_path(req.path):
        raise PatchwrightError(
            ErrorCode.UNSUPPORTED,
            f"insert adds lines to the text of a file; {req.path} is a notebook, whose cells "
            "are JSON values, so inserted lines would break it. Nothing was done.",
            "To add code to a cell, use str_replace with text of that cell as old_str and "
            "the text plus the new lines as new_str.",
            path=req.path,
            field="command",
        )
    return insert_lines(ctx, req.path, req.insert_line, text, line_field="insert_line")


def undo_last_edit(ctx: ToolContext, path: str) -> ToolResult:
    """Revert the newest batch that changed ``path`` and is not undone yet.

    Raises:
        PatchwrightError: ``history`` when no edit of ``path`` is left to undo;
            ``conflict`` when the file changed since.
    """
    ws = ctx.workspace
    rel = ws.resolve(posix_path(path))
    for batch in ws.history.list_batches(limit=_HISTORY_DEPTH):
        if batch["reverts"] or batch["reverted_by"]:
            continue
        if any(rel in (f["path"], f["move_from"]) for f in batch["files"]):
            record = ws.undo(batch["id"])
            return ToolResult(
                True,
                f"Last edit to {rel} undone (batch {batch['id']}; the revert is batch "
                f"{record.batch_id}).",
                diff="".join(f.diff for f in record.files),
                data={"path": rel, "reverted_batch_id": batch["id"], "batch_id": record.batch_id},
            )
    raise PatchwrightError(
        ErrorCode.HISTORY,
        f"No edit of {rel} is left to undo. Nothing was changed.",
        "View the file to see its current content.",
        path=rel,
        field="path",
    )


def run(ctx: ToolContext, req: EditorRequest) -> ToolResult:
    """Run one command."""
    if req.command == "view":
        return _view(ctx, req)
    if req.command == "create":
        _required(req.file_text, "file_text", "create")
        assert req.file_text is not None
        return write_whole(
            ctx, req.path, req.file_text, must_not_exist=True, content_field="file_text"
        )
    if req.command == "str_replace":
        _required(req.old_str, "old_str", "str_replace")
        assert req.old_str is not None
        items = [Replacement(req.old_str, req.new_str or "")]
        return replace_strings(ctx, req.path, items, fields=Fields(old="old_str", new="new_str"))
    if req.command == "insert":
        return _insert(ctx, req)
    return undo_last_edit(ctx, req.path)


def _is_view(args: Mapping[str, Any]) -> bool:
    return args.get("command") == "view"


SPEC = ToolSpec(
    name="str_replace_based_edit_tool",
    title="View and edit files",
    description=description("str_replace_based_edit_tool"),
    request_model=EditorRequest,
    handler=run,
    annotations=WRITES,
    contract="Anthropic text editor tool: view / create / str_replace / insert / undo_edit",
    read_only_when=_is_view,
)
