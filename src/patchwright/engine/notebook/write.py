"""A notebook's new cells written back into the file's own text.

:func:`render` takes the cells a change leaves (:class:`Slot`: an original cell, kept
or changed, or a new one) and writes the text: every cell the change did not touch
keeps its exact bytes, and so does the text between two cells that were neighbours
before; a changed cell keeps its own text except the values of the keys that changed
(spliced in the file's layout, see :mod:`.jsontext`); a new cell is written the way its
neighbours are (indentation, separators, key order, escaping). The result is parsed
again and compared with the intended notebook before it is returned, and checked
against nbformat's schema (a result the schema rejects is refused, unless the original
was already rejected: a broken notebook may still be repaired).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from patchwright._records import record
from patchwright.engine.notebook.jsontext import Layout, dump, line_indent, object_members
from patchwright.engine.notebook.model import Notebook
from patchwright.model import ErrorCode, PatchwrightError


@record(frozen=True)
class Slot:
    """One cell of the new notebook: ``origin`` is the original cell's index (``None``
    for a new cell) and ``cell`` its new content."""

    origin: int | None
    cell: dict[str, Any]


def render(nb: Notebook, slots: Sequence[Slot]) -> str:
    """The notebook's text with its cells replaced by ``slots``.

    Raises:
        PatchwrightError: ``internal`` when the written text does not read back as the
            intended notebook (never expected; nothing is written then).
    """
    text, layout = nb.text, nb.layout
    item_indent = _item_indent(nb)
    pieces: list[str] = []
    previous: int | None = None
    for k, slot in enumerate(slots):
        if k:
            pieces.append(_gap(nb, previous, slot.origin, item_indent))
        pieces.append(_cell_text(nb, slot, item_indent))
        previous = slot.origin if slot.origin is not None else -1
    body = "".join(pieces)
    if nb.spans:
        lead = text[nb.open + 1 : nb.spans[0][0]]
        tail = text[nb.spans[-1][1] : nb.close]
    elif layout.indent is not None:
        lead, tail = layout.newline + item_indent, layout.newline + nb.cells_indent
    else:
        lead = tail = ""
    inner = lead + body + tail if slots else ""
    out = text[: nb.open + 1] + inner + text[nb.close :]
    _check(out, nb, slots)
    return out


def _item_indent(nb: Notebook) -> str:
    """The indentation of a cell's opening line."""
    for start, _ in nb.spans:
        lead = line_indent(nb.text, start)
        if lead is not None:
            return lead
    return nb.cells_indent + (nb.layout.indent or "")


def _gap(nb: Notebook, before: int | None, after: int | None, item_indent: str) -> str:
    """The text between two cells: the original's when they were neighbours."""
    spans = nb.spans
    if before is not None and after is not None and before >= 0 and after == before + 1:
        return nb.text[spans[before][1] : spans[after][0]]
    if len(spans) > 1:
        return nb.text[spans[0][1] : spans[1][0]]
    layout = nb.layout
    if layout.indent is not None:
        return "," + layout.newline + item_indent
    return layout.item_sep


def _cell_text(nb: Notebook, slot: Slot, item_indent: str) -> str:
    if slot.origin is None:
        return dump(_ordered(nb, slot.cell), nb.layout, item_indent)
    start, end = nb.spans[slot.origin]
    old = nb.cells[slot.origin]
    if old == slot.cell and list(old) == list(slot.cell):
        return nb.text[start:end]
    spliced = _splice_members(nb.text[start:end], old, slot.cell, nb.layout)
    if spliced is not None:
        return spliced
    return dump(slot.cell, nb.layout, line_indent(nb.text, start) or item_indent)


def _ordered(nb: Notebook, cell: dict[str, Any]) -> dict[str, Any]:
    """A new cell's keys in the order the file writes them."""
    if nb.sorted_keys or not nb.key_order:
        return {k: cell[k] for k in sorted(cell)}
    known = [k for k in nb.key_order if k in cell]
    return {k: cell[k] for k in [*known, *sorted(k for k in cell if k not in known)]}


def _splice_members(
    text: str, old: dict[str, Any], new: dict[str, Any], layout: Layout
) -> str | None:
    """The cell's text with only the changed members rewritten, ``None`` when it cannot
    be done in place (an empty object)."""
    members, _ = object_members(text, 0)
    if not members:
        return None
    kept = [m for m in members if m.key in new]
    if not kept:
        return None
    edits: list[tuple[int, int, str]] = []
    for m in members:
        if m.key not in new:
            edits.append(_removal(text, members, m))
        elif new[m.key] != old.get(m.key):
            at = line_indent(text, m.key_start) or ""
            edits.append((m.value_start, m.value_end, dump(new[m.key], layout, at)))
    added = [k for k in new if k not in old]
    for key in added:
        edits.append(_insertion(text, members, kept, key, new[key], layout))
    out = text
    for start, end, piece in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        out = out[:start] + piece + out[end:]
    return out


def _removal(text: str, members: list[Any], m: Any) -> tuple[int, int, str]:
    k = members.index(m)
    if k > 0:
        return (members[k - 1].value_end, m.value_end, "")
    if len(members) > 1:
        return (m.key_start, members[1].key_start, "")
    return (m.key_start, m.value_end, "")


def _insertion(
    text: str, members: list[Any], kept: list[Any], key: str, value: Any, layout: Layout
) -> tuple[int, int, str]:
    """Where and what to insert for a new member: before the first kept member whose key
    sorts after it (sorted files), else after the last kept member."""
    sep = _member_gap(text, members, layout)
    at = line_indent(text, kept[0].key_start) or ""
    member = json.dumps(key) + layout.key_sep + dump(value, layout, at)
    later = [m for m in kept if m.key > key]
    keys = [m.key for m in members]
    if later and keys == sorted(keys):
        target = later[0]
        return (target.key_start, target.key_start, member + sep)
    last = kept[-1]
    return (last.value_end, last.value_end, sep + member)


def _member_gap(text: str, members: list[Any], layout: Layout) -> str:
    if len(members) > 1:
        return text[members[0].value_end : members[1].key_start]
    if layout.indent is not None:
        return "," + layout.newline + (line_indent(text, members[0].key_start) or "")
    return layout.item_sep


def _check(out: str, nb: Notebook, slots: Sequence[Slot]) -> None:
    """Refuse a text that does not read back as the intended notebook."""
    try:
        again = json.loads(out)
    except ValueError:
        again = None
    wanted = dict(nb.data)
    wanted["cells"] = [s.cell for s in slots]
    if again != wanted:
        raise PatchwrightError(
            ErrorCode.INTERNAL,
            "The notebook could not be written back in its own layout (the written text "
            "did not read back as the intended cells). No change was made.",
            # a string replacement on a notebook matches inside its cells, not its JSON,
            # and which other tool the host exposes is not known here
            "Ask the user to make this change (in Jupyter, say) and to report this "
            "notebook's layout as a bug.",
        )
    # the schema has no rule across cells, and the cells kept as they were are the
    # original's: checking the new and changed ones (with the notebook's own keys) says
    # what checking all would, at a fraction of the cost in a large notebook
    cells = nb.data.get("cells", [])
    changed = [
        s.cell
        for s in slots
        if s.origin is None or s.origin >= len(cells) or s.cell != cells[s.origin]
    ]
    problem = schema_problem({**wanted, "cells": changed})
    if problem is not None and schema_problem(nb.data) is None:
        raise PatchwrightError(
            ErrorCode.SYNTAX_ERROR,
            f"The edited notebook would not be valid: nbformat's schema says {problem}. "
            "No change was made.",
            "Check the cell type and source sent; read the notebook to see its cells.",
        )


def schema_problem(data: dict[str, Any]) -> str | None:
    """The first complaint of nbformat's schema about ``data`` (``None``: valid)."""
    from nbformat.validator import get_validator  # only when a notebook is written

    major, minor = data.get("nbformat"), data.get("nbformat_minor")
    if not isinstance(major, int) or not isinstance(minor, int):
        return "nbformat and nbformat_minor must be integers"
    validator = get_validator(major, minor)  # type: ignore[no-untyped-call]
    if validator is None:
        return None
    for error in validator.iter_errors(data):
        return str(error.message)
    return None


__all__ = ["Slot", "render"]
