"""Edits of a notebook as cells: whole cells (replace, insert, delete) and text edits
inside one cell's source.

* :func:`replace_cell`, :func:`insert_cell`, :func:`delete_cell`: ``NotebookEdit``'s
  three modes. A replaced cell keeps its id, metadata and attachments; a code cell's
  outputs and execution count are kept unless ``clear_outputs`` asks to clear them
  (a cell turned into markdown or raw loses them: those cells have none). A new cell
  gets an id when the notebook's format has ids (4.5 and later).
* :func:`edit_sources` (and :func:`edit_in_cells`, given a file's text): text edits (old text ->
  new text) each placed inside one cell's source through the engine's own ladder.
  Each cell is searched as a file of its own, so a match never spans two cells and
  never reaches into outputs or metadata; the cell whose match needs the least
  tolerance wins, and two cells matching alike are ambiguous. A refusal is the
  engine's, naming the cell.

Each returns a :class:`NotebookChange`: the new text (:mod:`.write`) and what changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from patchwright._records import field, record, replace
from patchwright.engine.apply import apply_edits
from patchwright.engine.matching.policy import MatchOptions
from patchwright.engine.notebook import is_notebook_path
from patchwright.engine.notebook.model import (
    TEXT_CELLS,
    Notebook,
    cell_name,
    cell_source,
    parse_notebook,
    source_value,
)
from patchwright.engine.notebook.write import Slot, render
from patchwright.model import (
    Composition,
    Edit,
    EngineResult,
    ErrorCode,
    MatchReport,
    PatchwrightError,
    Rung,
    TextFile,
)

_RANK = {rung.value: k for k, rung in enumerate(Rung)}


@record
class NotebookChange:
    """A notebook's new text and what the change did.

    Attributes:
        text: the new text of the file.
        cells: the cells of the result.
        cell: the index (in the result) of the cell changed or inserted, ``None`` after
            a delete.
        cell_id: that cell's id (``None`` when it has none).
        reports: one engine report per text edit, each with its ``cell``.
    """

    text: str
    cells: list[dict[str, Any]]
    cell: int | None = None
    cell_id: str | None = None
    reports: list[MatchReport] = field(default_factory=list)


def _slots(nb: Notebook) -> list[Slot]:
    return [Slot(k, cell) for k, cell in enumerate(nb.cells)]


def _done(nb: Notebook, slots: list[Slot], cell: int | None, **kw: Any) -> NotebookChange:
    cells = [s.cell for s in slots]
    ident = cells[cell].get("id") if cell is not None else None
    return NotebookChange(
        render(nb, slots), cells, cell, ident if isinstance(ident, str) else None, **kw
    )


def _typed(cell: dict[str, Any], cell_type: str) -> dict[str, Any]:
    """``cell`` as a ``cell_type`` cell: code cells have outputs and an execution count
    (and no attachments), the others have neither."""
    out = dict(cell)
    out["cell_type"] = cell_type
    if cell_type == "code":
        out.setdefault("execution_count", None)
        out.setdefault("outputs", [])
        out.pop("attachments", None)
    else:
        out.pop("execution_count", None)
        out.pop("outputs", None)
    return out


def replace_cell(
    nb: Notebook,
    index: int,
    source: str,
    cell_type: str | None = None,
    *,
    clear_outputs: bool = False,
) -> NotebookChange:
    """Cell ``index`` with ``source`` (and ``cell_type`` when given)."""
    old = nb.cells[index]
    new = dict(old)
    new["source"] = source_value(source, isinstance(old.get("source"), list))
    if cell_type is not None and cell_type != old.get("cell_type"):
        new = _typed(new, cell_type)
    if clear_outputs and new.get("cell_type") == "code":
        new["outputs"] = []
        new["execution_count"] = None
    slots = _slots(nb)
    slots[index] = Slot(index, new)
    return _done(nb, slots, index)


def new_cell_id(nb: Notebook, position: int, source: str) -> str:
    """An id for a new cell: 8 hex digits derived from the notebook and the cell (the
    same call gives the same id), unlike every id the notebook has."""
    taken = {c.get("id") for c in nb.cells}
    salt = 0
    while True:
        ident = hashlib.sha256(f"{nb.text}\0{position}\0{source}\0{salt}".encode()).hexdigest()[:8]
        if ident not in taken:
            return ident
        salt += 1


def insert_cell(nb: Notebook, position: int, source: str, cell_type: str) -> NotebookChange:
    """A new ``cell_type`` cell holding ``source``, at index ``position``."""
    cell: dict[str, Any] = {"cell_type": cell_type, "metadata": {}}
    if nb.has_ids:
        cell["id"] = new_cell_id(nb, position, source)
    cell["source"] = source_value(source, nb.list_sources)
    cell = _typed(cell, cell_type)
    slots = _slots(nb)
    slots.insert(position, Slot(None, cell))
    return _done(nb, slots, position)


def delete_cell(nb: Notebook, index: int) -> NotebookChange:
    """The notebook without cell ``index``."""
    slots = _slots(nb)
    del slots[index]
    return _done(nb, slots, None)


def edit_sources(
    nb: Notebook,
    edits: Sequence[Edit],
    options: MatchOptions,
    *,
    path: str = "notebook",
) -> NotebookChange:
    """Apply ``edits`` in order, each inside one cell's source (see the module
    docstring); all or none.

    Raises:
        PatchwrightError: the engine's refusal (``not_found``, ``ambiguous``,
            ``already_applied``...) naming the cell and carrying ``edit_index``;
            ``ambiguous`` when cells tie.
    """
    sources = [cell_source(c) for c in nb.cells]
    slots = _slots(nb)
    reports: list[MatchReport] = []
    last: int | None = None
    for k, edit in enumerate(edits):
        placed = _place(slots, sources, edit, options, k, path)
        for index, result in placed:
            sources[index] = result.file.text
            old = slots[index].cell
            new = dict(old)
            new["source"] = source_value(sources[index], isinstance(old.get("source"), list))
            slots[index] = Slot(slots[index].origin, new)
            reports.extend(replace(r, index=k, cell=index) for r in result.reports)
            last = index
    return _done(nb, slots, last, reports=reports)


def _place(
    slots: list[Slot],
    sources: list[str],
    edit: Edit,
    options: MatchOptions,
    k: int,
    path: str,
) -> list[tuple[int, Any]]:
    """The cells ``edit`` applies in, with each cell's engine result."""
    found: list[tuple[int, int, Any]] = []
    errors: list[tuple[int, PatchwrightError]] = []
    cells = [i for i, s in enumerate(slots) if s.cell.get("cell_type") in TEXT_CELLS]
    old = getattr(edit.anchor, "text", None)
    if isinstance(old, str):
        if not old:
            raise PatchwrightError(
                ErrorCode.EMPTY_SEARCH,
                f"{edit.label or f'Edit {k + 1}'}: the old text is empty, which in a notebook "
                "names no place (a cell's source, not the file, is searched). No change was "
                "made.",
                "To add lines, send text of the cell to extend as the old text and that text "
                "with the new lines as the new text.",
                path=path,
                details={"edit_index": k},
            )
        # a cell that holds the text as written matches exactly, which no tolerant match
        # elsewhere beats: only those cells need the ladder
        cells = [i for i in cells if old in sources[i]] or cells
    for index in cells:
        text = TextFile.from_text(sources[index])
        try:
            result = apply_edits(text, [edit], composition=Composition.SEQUENTIAL,
                                 options=options)  # fmt: skip
        except PatchwrightError as err:
            errors.append((index, err))
            continue
        found.append((_RANK.get(result.reports[0].rung, 99), index, result))
    everything = [s.cell for s in slots]
    replace_all = bool(getattr(edit.anchor, "replace_all", False))
    if found and replace_all:
        return [(index, result) for _, index, result in found]
    exact_ties = [e for e in errors if e[1].code is ErrorCode.AMBIGUOUS]
    if found:
        best = min(rank for rank, _, _ in found)
        winners = [(index, result) for rank, index, result in found if rank == best]
        if len(winners) == 1 and not _ambiguous_below(exact_ties, best):
            return winners
        names = [cell_name(everything, i) for i, _ in winners] + [
            cell_name(everything, i) for i, _ in exact_ties
        ]
        raise PatchwrightError(
            ErrorCode.AMBIGUOUS,
            f"{edit.label or f'Edit {k + 1}'}: the text matches in more than one cell "
            f"({', '.join(names)}). No change was made.",
            "Include more of the cell's own lines so the text occurs in exactly one cell.",
            path=path,
            details={"edit_index": k, "cells": [i for i, _ in winners]},
        )
    raise _refusal(everything, errors, k, path, edit)


def _ambiguous_below(ties: list[tuple[int, PatchwrightError]], best: int) -> bool:
    """Whether a cell holds the text several times at a rung at least as strict as
    ``best`` (an exact-text ambiguity names no rung)."""
    for _, err in ties:
        rung = err.details.get("rung", "exact")
        if _RANK.get(str(rung), 0) <= best:
            return True
    return False


def _refusal(
    cells: list[dict[str, Any]],
    errors: list[tuple[int, PatchwrightError]],
    k: int,
    path: str,
    edit: Edit,
) -> PatchwrightError:
    """The most telling refusal: an ambiguity or "already applied" first, else the cell
    whose closest region is the most similar."""
    label = edit.label or f"Edit {k + 1}"
    if not errors:
        return PatchwrightError(
            ErrorCode.NOT_FOUND,
            f"{label}: old text not found: the notebook has no code, markdown or raw cell "
            "to search. No change was made.",
            "Add a cell with a cell-level edit first, or ask the user.",
            path=path,
            details={"edit_index": k},
        )
    for code in (ErrorCode.AMBIGUOUS, ErrorCode.ALREADY_APPLIED):
        for index, err in errors:
            if err.code is code:
                return _in_cell(err, cells, index, k, path)

    def closeness(item: tuple[int, PatchwrightError]) -> float:
        closest = item[1].details.get("closest")
        return float(closest.get("similarity", 0.0)) if isinstance(closest, dict) else -1.0

    index, err = max(errors, key=closeness)
    if closeness((index, err)) < 0:
        # no cell holds anything like it: the refusal is the notebook's, not a cell's
        return PatchwrightError(
            err.code,
            f"{label}: old text not found in the source of any of the notebook's "
            f"{len(errors)} text cells, nor anything similar enough to show. No change "
            "was made.",
            "Read the notebook and copy the lines to change exactly from one cell's source "
            "(as the read shows it, not its JSON lines).",
            path=path,
            details={**err.details, "edit_index": k},
        )
    return _in_cell(err, cells, index, k, path)


def _in_cell(
    err: PatchwrightError, cells: list[dict[str, Any]], index: int, k: int, path: str
) -> PatchwrightError:
    name = cell_name(cells, index)
    hint = err.hint
    if err.code is ErrorCode.NOT_FOUND:
        hint += (
            " In a notebook, old text is matched inside one cell's source as reading the "
            "notebook shows it (not its JSON lines)."
        )
    return PatchwrightError(
        err.code,
        f"{err.message}\n(Line numbers count within the source of {name}.)",
        hint,
        path=path,
        line=err.line,
        details={**err.details, "edit_index": k, "cell": index},
    )


def edit_in_cells(
    path: str, text: TextFile, edits: Sequence[Edit], options: MatchOptions
) -> EngineResult | None:
    """``edits`` applied in order inside the cells of the notebook ``path`` holding
    ``text`` (each report names its ``cell``; the notebook is written back in its own
    layout); ``None`` when ``path`` is no notebook or its JSON does not parse (its text
    is then edited as text: the way to repair it).

    Raises:
        PatchwrightError: the engine's refusals, naming the cell.
    """
    if not is_notebook_path(path):
        return None
    try:
        nb = parse_notebook(text.text, path)
    except PatchwrightError:
        return None
    change = edit_sources(nb, edits, options, path=path)
    new = TextFile.from_text(change.text, encoding=text.encoding, bom=text.bom)
    return EngineResult(new, change.reports)


__all__ = [
    "NotebookChange",
    "delete_cell",
    "edit_in_cells",
    "edit_sources",
    "insert_cell",
    "new_cell_id",
    "replace_cell",
]
