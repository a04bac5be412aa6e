"""Claude Code's ``Read``, ``Edit``, ``MultiEdit`` and ``Write`` over patchwright.

* ``Read``: lines numbered as ``cat -n`` prints them, from ``offset`` (1-based), at most
  ``limit`` lines (2000 by default); the answer says where the next page starts;
* ``Edit``: ``old_string`` -> ``new_string`` (unique unless ``replace_all``), through
  the matching ladder; the same edit sent twice answers "already applied";
* ``MultiEdit``: ``edits`` in order, all or none;
* ``Write``: the whole ``content`` (created when missing).
"""

from __future__ import annotations

from patchwright.engine.notebook import is_notebook_path
from patchwright.model import ToolResult
from patchwright.tools.claude_code.models import (
    EditRequest,
    MultiEditRequest,
    ReadRequest,
    WriteRequest,
)
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import PAGE_LINES, encoding_note, load, numbered, page_bounds
from patchwright.tools.notebook.view import read_as_cells
from patchwright.tools.reads import remember_read
from patchwright.tools.replace import Fields, Replacement, replace_strings, write_whole
from patchwright.tools.spec import READ_ONLY, WRITES, ToolSpec

_FIELD = "file_path"


def read(ctx: ToolContext, req: ReadRequest) -> ToolResult:
    """Read one page of a file."""
    loaded = load(ctx.workspace, req.file_path, field=_FIELD)
    remember_read(ctx, loaded)
    text = loaded.current
    n = len(text.lines)
    if req.offset is None and req.limit is None and is_notebook_path(loaded.path):
        facts = {"path": loaded.path, "sha256": loaded.sha256, "line_count": n}
        cells = read_as_cells(loaded, [], facts, "Read with offset")
        if cells is not None:
            return cells
    start = min(req.offset or 1, max(n, 1))
    first, last = page_bounds(text, start, None, req.limit or PAGE_LINES) if n else (1, 0)
    parts = [numbered(text.lines[first - 1 : last], first)] if n else ["(the file is empty)"]
    if last < n:
        parts.append(f"[lines {last + 1}-{n} not shown: Read again with offset={last + 1}]")
    note = encoding_note(loaded)
    if note is not None:
        parts.insert(0, note)
    data = {"path": loaded.path, "sha256": loaded.sha256, "line_count": n,
            "start_line": first, "end_line": last, "encoding": text.encoding}  # fmt: skip
    return ToolResult(True, "\n".join(parts), data=data)


def edit(ctx: ToolContext, req: EditRequest) -> ToolResult:
    """One string replacement."""
    items = [Replacement(req.old_string, req.new_string, bool(req.replace_all))]
    return replace_strings(ctx, req.file_path, items, path_field=_FIELD, read_first=True)


def multi_edit(ctx: ToolContext, req: MultiEditRequest) -> ToolResult:
    """Several replacements in order, all or none."""
    items = [Replacement(e.old_string, e.new_string, bool(e.replace_all)) for e in req.edits]
    return replace_strings(ctx, req.file_path, items, fields=Fields(batch="edits"),
                           path_field=_FIELD, read_first=True)  # fmt: skip


def write(ctx: ToolContext, req: WriteRequest) -> ToolResult:
    """Write a whole file."""
    return write_whole(ctx, req.file_path, req.content, path_field=_FIELD, read_first=True)


_MULTI_EXAMPLE = {
    "file_path": "src/app.py",
    "edits": [
        {"old_string": "def greet(name):", "new_string": "def greet(name: str) -> None:"},
        {"old_string": "print(name)", "new_string": "print(f'Hello, {name}!')"},
    ],
}

SPECS = (
    ToolSpec("Read", "Read a file", description("Read"), ReadRequest, read, READ_ONLY,
             "Claude Code Read: file_path, offset, limit"),
    ToolSpec("Edit", "Edit a file", description("Edit"), EditRequest, edit, WRITES,
             "Claude Code Edit: file_path, old_string, new_string, replace_all"),
    ToolSpec("MultiEdit", "Several edits to one file", description("MultiEdit"),
             MultiEditRequest, multi_edit, WRITES, "Claude Code MultiEdit: file_path, edits",
             examples=(_MULTI_EXAMPLE,)),
    ToolSpec("Write", "Write a file", description("Write"), WriteRequest, write, WRITES,
             "Claude Code Write: file_path, content"),
)  # fmt: skip
