"""``view``: a file's lines numbered as ``cat -n`` prints them, or a folder's entries
two levels deep (hidden ones left out), as Anthropic's text editor tool shows them."""

from __future__ import annotations

from patchwright.engine.notebook import is_notebook_path
from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.tools.context import ToolContext
from patchwright.tools.files import (
    PAGE_LINES,
    encoding_note,
    load,
    numbered,
    page_bounds,
    posix_path,
)
from patchwright.tools.notebook.view import read_as_cells
from patchwright.tools.reads import remember_read
from patchwright.workspace import Workspace

_MAX_ENTRIES = 400


def view_file(ctx: ToolContext, path: str, view_range: list[int] | None) -> ToolResult:
    """Numbered lines of ``path`` (``view_range`` = [first, last], last -1: to the end);
    the version read is remembered for a later rebase (:mod:`patchwright.tools.reads`).

    Raises:
        PatchwrightError: ``out_of_range`` / ``invalid_request`` naming ``view_range``;
            path refusals with their next step.
    """
    loaded = load(ctx.workspace, path)
    remember_read(ctx, loaded)
    text = loaded.current
    n = len(text.lines)
    if view_range is None and is_notebook_path(loaded.path):
        facts = {"path": loaded.path, "sha256": loaded.sha256, "line_count": n}
        intro = [f"Here are the cells of the notebook {loaded.path}:"]
        cells = read_as_cells(loaded, intro, facts, "view with view_range")
        if cells is not None:
            return cells
    first, last = 1, n
    if view_range is not None:
        first, last = view_range
        last = n if last == -1 else last
        if not 1 <= first <= max(n, 1) or last < first:
            raise PatchwrightError(
                ErrorCode.OUT_OF_RANGE,
                f"view_range {view_range} does not fit {loaded.path}, which has {n} lines.",
                f"Use [first, last] with 1 <= first <= last <= {n}, or last -1 for the end.",
                path=loaded.path,
                field="view_range",
            )
        last = min(last, n)
    shown_first, shown_last = page_bounds(text, first, last, PAGE_LINES) if n else (1, 0)
    head = f"Here's the result of running `cat -n` on {loaded.path}:"
    body = numbered(text.lines[shown_first - 1 : shown_last], shown_first) if n else ""
    parts = [head, body] if body else [head, "(the file is empty)"]
    note = encoding_note(loaded)
    if note is not None:
        parts.insert(1, note)
    if shown_last < last:
        parts.append(
            f"[lines {shown_last + 1}-{last} not shown: view again with view_range "
            f"[{shown_last + 1}, {last}]]"
        )
    data = {"path": loaded.path, "sha256": loaded.sha256, "line_count": n,
            "start_line": shown_first, "end_line": shown_last,
            "encoding": text.encoding}  # fmt: skip
    return ToolResult(True, "\n".join(parts), data=data)


def view_folder(ws: Workspace, folder: str) -> ToolResult:
    """The folder's non-hidden entries and theirs, two levels deep."""
    rel = posix_path(folder).strip("/")
    shown: list[str] = []
    for name in ws.entries(rel):
        if name.startswith("."):
            continue
        path = f"{rel}/{name}" if rel else name
        shown.append(path)
        if name.endswith("/"):
            inner = ws.entries(path.rstrip("/"))
            shown.extend(f"{path}{n}" for n in inner if not n.startswith("."))
        if len(shown) >= _MAX_ENTRIES:
            break
    where = rel or "the workspace root"
    head = f"Here are the files and folders up to 2 levels deep in {where}, excluding hidden items:"
    lines = [head, *shown[:_MAX_ENTRIES]]
    if len(shown) > _MAX_ENTRIES:
        lines.append(f"[stopped at {_MAX_ENTRIES} entries: view a subfolder]")
    return ToolResult(True, "\n".join(lines), data={"path": rel, "entries": shown})
