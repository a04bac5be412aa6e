"""``NotebookEdit``: replace, insert or delete one cell of a Jupyter notebook.

Claude Code's fields and behaviour:

* ``cell_id`` names a cell by its id, else as ``cell-N`` (0-based index N); it is
  required unless inserting;
* ``edit_mode=replace`` (default) gives the cell ``new_source`` (and ``cell_type`` when
  given); ``insert`` adds a ``cell_type`` cell (required) right after ``cell_id``, or
  first when there is none; ``delete`` removes the cell;
* a new cell gets an id when the notebook's format has ids (nbformat 4.5 and later).

Unlike Claude Code, a replaced code cell keeps its outputs and execution count unless
``clear_outputs`` asks to clear them. The notebook is written back in its own layout,
every other cell's bytes unchanged (:mod:`patchwright.engine.notebook`), through the
one write path, and recorded in the history with a per-cell diff.
"""

from __future__ import annotations

from typing import Any

from patchwright.engine.notebook import (
    NotebookChange,
    cell_name,
    cell_source,
    delete_cell,
    find_cell,
    insert_cell,
    is_notebook_path,
    parse_notebook,
    replace_cell,
)
from patchwright.model import ErrorCode, PatchwrightError, TextFile, ToolResult
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import Loaded, load
from patchwright.tools.notebook.models import NotebookEditRequest
from patchwright.tools.reads import remember_written
from patchwright.tools.replace import already_applied, require_read
from patchwright.tools.spec import WRITES, ToolSpec
from patchwright.tools.writing import commit_writes, planned
from patchwright.workspace import ChangeRecord
from patchwright.writing import racing

_FIELD = "notebook_path"


def _invalid(message: str, hint: str, field: str) -> PatchwrightError:
    return PatchwrightError(ErrorCode.INVALID_REQUEST, message, hint, field=field)


def _check(ctx: ToolContext, req: NotebookEditRequest) -> str:
    """The edit mode, once the request's fields fit it."""
    mode = req.edit_mode or "replace"
    if not is_notebook_path(req.notebook_path):
        other = ctx.first_exposed("Edit", "edit_file", "str_replace_based_edit_tool")
        raise _invalid(
            "File must be a Jupyter notebook (.ipynb file). Nothing was changed.",
            f"To edit another kind of file, use {other}." if other else "Name a .ipynb file.",
            _FIELD,
        )
    if mode == "insert" and req.cell_type is None:
        raise _invalid(
            "Cell type is required when using edit_mode=insert. Nothing was changed.",
            "Send cell_type code or markdown.",
            "cell_type",
        )
    if mode != "insert" and not req.cell_id:
        raise _invalid(
            "Cell ID must be specified when not inserting a new cell. Nothing was changed.",
            "Send cell_id: a cell's id from the notebook read, or cell-N for index N.",
            "cell_id",
        )
    return mode


def _change(
    mode: str, text: TextFile, path: str, req: NotebookEditRequest
) -> tuple[NotebookChange, str]:
    """The notebook ``text`` after the edit, and the answer's first sentence."""
    nb = parse_notebook(text.text, path)
    if mode == "insert":
        position = find_cell(nb, req.cell_id) + 1 if req.cell_id else 0
        assert req.cell_type is not None
        change = insert_cell(nb, position, req.new_source, req.cell_type)
        where = f"after cell {position - 1}" if position else "at the top"
        return change, f"Inserted {cell_name(change.cells, position)} {where} of {path}."
    assert req.cell_id is not None
    index = find_cell(nb, req.cell_id)
    name = cell_name(nb.cells, index)
    if mode == "delete":
        return delete_cell(nb, index), f"Deleted {name} from {path}."
    old = nb.cells[index]
    change = replace_cell(nb, index, req.new_source, req.cell_type,
                          clear_outputs=bool(req.clear_outputs))  # fmt: skip
    outputs = old.get("outputs")
    kept = ""
    if change.cells[index].get("cell_type") == "code" and isinstance(outputs, list) and outputs:
        kept = (
            " Its outputs were cleared."
            if req.clear_outputs
            else f" Its {len(outputs)} output(s) were kept (from the old source)."
        )
    name = cell_name(change.cells, index)
    return change, f"Replaced the source of {name} in {path}.{kept}"


def run(ctx: ToolContext, req: NotebookEditRequest) -> ToolResult:
    """Replace, insert or delete one cell.

    As Claude Code, an existing notebook is edited only after the session read it. A
    retry (the history's newest batch on the notebook made this very edit, and the file
    still holds it, or a replaced cell already holds exactly ``new_source``) changes
    nothing and says so.

    Raises:
        PatchwrightError: ``invalid_request`` for a notebook not read first or fields that
            do not fit the mode; ``not_found`` for an unknown cell; ``stale`` when a
            ``cell-N`` index names a cell of a notebook changed since it was read.
    """
    mode = _check(ctx, req)
    # a notebook another writer changed between this call's read and its commit: the
    # cell is found again on what that writer left
    return racing(ctx.workspace, lambda: _run_once(ctx, req, mode))


def _run_once(ctx: ToolContext, req: NotebookEditRequest, mode: str) -> ToolResult:
    loaded = load(ctx.workspace, req.notebook_path, field=_FIELD, session=ctx.session)
    require_read(ctx, loaded, _FIELD)
    assert loaded.text is not None
    current = loaded.text

    def edit(before: TextFile | None) -> TextFile:
        source = before if before is not None else TextFile()
        change = _change(mode, source, loaded.path, req)[0]
        return TextFile.from_text(change.text, encoding=source.encoding, bom=source.bom)

    done = already_applied(ctx, loaded, edit)
    if done is not None:
        return done
    _refuse_moved_index(ctx, loaded, req)
    try:
        change, sentence = _change(mode, current, loaded.path, req)
    except PatchwrightError as err:
        err.path = err.path or loaded.path
        raise
    after = TextFile.from_text(change.text, encoding=current.encoding, bom=current.bom)
    if after.text == current.text:
        return ToolResult(
            True,
            f"Already applied, nothing changed: {sentence.rstrip('.')} would leave "
            f"{loaded.path} exactly as it is.",
            data={
                "path": loaded.path,
                "already_applied": True,
                "batch_id": None,
                "before_sha256": loaded.sha256,
                "changed": False,
            },
        )
    label = f"{ctx.tool} {loaded.path}"
    record = ChangeRecord(description=sentence, op=mode,
                          meta={"cell": change.cell, "cell_id": change.cell_id})  # fmt: skip
    outcome = commit_writes(ctx, [planned(loaded, after, label=label, changes=[record])],
                            label=label)  # fmt: skip
    if outcome.record is not None:
        for written in outcome.record.files:
            remember_written(ctx, written.path, written.after_sha256)
    text = [sentence, *(f"  Warning: {w}" for w in outcome.warnings)]
    cell = change.cells[change.cell] if change.cell is not None else None
    data: dict[str, Any] = {
        "path": loaded.path,
        "edit_mode": mode,
        "cell": change.cell,
        "cell_id": change.cell_id,
        "cell_type": cell.get("cell_type") if cell is not None else None,
        "new_source": cell_source(cell) if cell is not None else None,
        "cell_count": len(change.cells),
        "before_sha256": loaded.sha256,
        **outcome.data(),
    }
    return ToolResult(True, "\n".join(text), diff=outcome.diff, warnings=outcome.warnings,
                      data=data)  # fmt: skip


def _refuse_moved_index(ctx: ToolContext, loaded: Loaded, req: NotebookEditRequest) -> None:
    """A ``cell-N`` index read from an older version may now name another cell: refuse
    it when the notebook changed since the session read it (an id names its cell in any
    version)."""
    seen = ctx.session.seen(loaded.path)
    if seen is None or seen == loaded.sha256 or not req.cell_id or loaded.text is None:
        return
    nb = parse_notebook(loaded.text.text, loaded.path)
    if any(cell.get("id") == req.cell_id for cell in nb.cells):
        return
    reader = ctx.first_exposed("Read", "read_file") or "the read tool"
    raise PatchwrightError(
        ErrorCode.STALE,
        f"{loaded.path} changed since you read it, so {req.cell_id} (a cell's index) may "
        "now name another cell. Nothing was changed.",
        f"Read {loaded.path} again with {reader} and name the cell by its index or id there.",
        path=loaded.path,
        field="cell_id",
    )


SPEC = ToolSpec(
    "NotebookEdit", "Edit a notebook cell", description("NotebookEdit"), NotebookEditRequest,
    run, WRITES, "Claude Code NotebookEdit: notebook_path, cell_id, new_source, cell_type, "
    "edit_mode",
)  # fmt: skip
