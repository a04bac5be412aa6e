"""``read_file`` (spec 001's ``workspace_read_file``): numbered lines plus what edits need.

One call gives the lines (numbered, optionally a range) and the facts a model plans
edits with: the SHA256 of the file's bytes (spec 001's ``originalSha256``, spec 003's
document version), the line count, the newline style, the encoding. Large files are
paged: a page ends after ``limit`` lines or about 100,000 characters, and the answer
says exactly which lines it shows and where the next page starts; nothing is cut
silently. Lines are never shortened.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from patchwright.engine.notebook import is_notebook_path
from patchwright.model import ErrorCode, PatchwrightError, TextFile, ToolResult
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import (
    ENCODING_FIELD_DESCRIPTION,
    PAGE_LINES,
    Loaded,
    load,
    newline_name,
    numbered,
    page_bounds,
    resolve_doc_path,
)
from patchwright.tools.reads import remember_read
from patchwright.tools.spec import READ_ONLY, ToolSpec


class ReadFileRequest(BaseModel):
    """Arguments of ``read_file``."""

    model_config = ConfigDict(extra="forbid")

    path: str = Field(
        description="File path relative to the workspace root (letter case may differ from "
        "the file's when only one file matches)."
    )
    start_line: int | None = Field(
        None,
        description="First line to show (1-based). Default: 1.",
        json_schema_extra={"minimum": 1},
    )
    end_line: int | None = Field(
        None,
        description="Last line to show (inclusive). Default: the end of the page.",
        json_schema_extra={"minimum": 1},
    )
    limit: int | None = Field(
        None,
        description=f"Most lines to show in one page (default {PAGE_LINES}).",
        json_schema_extra={"minimum": 1},
    )
    encoding: str | None = Field(None, description=ENCODING_FIELD_DESCRIPTION)


def _check_range(req: ReadFileRequest, n: int, path: str) -> tuple[int, int | None, int]:
    start = req.start_line if req.start_line is not None else 1
    limit = req.limit if req.limit is not None else PAGE_LINES
    if start < 1:
        raise _bad("start_line", f"start_line must be at least 1 (lines are 1-based), got {start}.")
    if limit < 1:
        raise _bad("limit", f"limit must be at least 1, got {limit}.")
    if req.end_line is not None and req.end_line < start:
        raise _bad("end_line", f"end_line ({req.end_line}) is before start_line ({start}).")
    if n and start > n:
        raise PatchwrightError(
            ErrorCode.OUT_OF_RANGE,
            f"start_line {start} is past the end of {path}, which has {n} lines.",
            f"Use a start_line between 1 and {n}.",
            path=path,
            field="start_line",
        )
    return start, req.end_line, limit


def _bad(field: str, message: str) -> PatchwrightError:
    return PatchwrightError(ErrorCode.INVALID_REQUEST, message, "", field=field)


def file_facts(loaded: Loaded) -> dict[str, Any]:
    """SHA256, size, line count, newline style and encoding of a loaded file."""
    assert loaded.text is not None and loaded.state is not None
    text = loaded.text
    return {
        "path": loaded.path,
        "sha256": loaded.state.sha256,
        "size": len(loaded.state.data),
        "line_count": len(text.lines),
        "newline": newline_name(text),
        "ends_with_newline": text.ends_with_newline,
        "encoding": text.encoding,
        "bom": bool(text.bom),
    }


def run(ctx: ToolContext, req: ReadFileRequest) -> ToolResult:
    """Read one page of a file."""
    path = resolve_doc_path(ctx.workspace, req.path, field="path")
    loaded = load(ctx.workspace, path, encoding=req.encoding, encoding_field="encoding")
    assert loaded.text is not None
    remember_read(ctx, loaded)
    text = loaded.text
    n = len(text.lines)
    if req.start_line is None and req.end_line is None and is_notebook_path(path):
        cells = _read_cells(ctx, loaded, req)
        if cells is not None:
            return cells
    start, end, limit = _check_range(req, n, path)
    first, last = page_bounds(text, start, end, limit) if n else (1, 0)
    facts = file_facts(loaded)
    more = last < (min(n, end) if end is not None else n)
    facts.update(
        start_line=first,
        end_line=last,
        next_start_line=last + 1 if more else None,
        truncated=more,
    )
    if path != ctx.workspace.resolve(req.path):
        facts["requested_path"] = req.path
    return ToolResult(True, _render(facts, text, ctx.name_of("read_file")), data=facts)


def _read_cells(ctx: ToolContext, loaded: Loaded, req: ReadFileRequest) -> ToolResult | None:
    """A notebook read whole, shown as cells (``None``: it does not parse as one)."""
    from patchwright.tools.notebook.view import read_as_cells

    facts = file_facts(loaded)
    if loaded.path != ctx.workspace.resolve(req.path):
        facts["requested_path"] = req.path
    head = [f"path: {facts['path']}", f"sha256: {facts['sha256']}"]
    return read_as_cells(loaded, head, facts, f"call {ctx.name_of('read_file')} with start_line")


def _render(facts: dict[str, Any], text: TextFile, tool: str) -> str:
    first, last = facts["start_line"], facts["end_line"]
    n = facts["line_count"]
    bom = " with BOM" if facts["bom"] else ""
    final = "" if facts["ends_with_newline"] or not n else ", no final newline"
    head = [
        f"path: {facts['path']}",
        f"sha256: {facts['sha256']}",
        f"lines: {n} (showing {first}-{last})" if n else "lines: 0 (the file is empty)",
        f"newline: {facts['newline']}{final}; encoding: {facts['encoding']}{bom}",
    ]
    body = numbered(text.lines[first - 1 : last], first) if n else ""
    parts = ["\n".join(head)]
    if body:
        parts.append(body)
    if facts["next_start_line"] is not None:
        parts.append(
            f"[lines {facts['next_start_line']}-{n} not shown: call {tool} again with "
            f"start_line={facts['next_start_line']}]"
        )
    return "\n".join(parts)


SPEC = ToolSpec(
    name="read_file",
    title="Read a file",
    description=description("read_file"),
    request_model=ReadFileRequest,
    handler=run,
    annotations=READ_ONLY,
    contract="spec 001 workspace_read_file (TUL-001): lines, SHA256, line count",
)
