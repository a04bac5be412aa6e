"""A notebook change shown per cell, for the history and for people.

The raw JSON diff of a notebook is hard to read (``"    \\"x = 1\\\\n\\","`` lines, ids,
base64 images); :func:`notebook_diff` shows instead each changed cell under a header
line naming it (``cell 3 (code, id a1b2)``) and what else changed in it (type, outputs,
execution count, metadata), followed by the unified diff of its source::

    --- a/analysis.ipynb
    +++ b/analysis.ipynb
    cell 1 (code, id 5f0e): source changed; outputs 2 -> 0
    @@ -1,2 +1,2 @@
     import pandas as pd
    -df = pd.read_csv("a.csv")
    +df = pd.read_csv("b.csv")
    cell 2 (markdown, id 77aa): inserted
    @@ -0,0 +1 @@
    +## Results

The hunks count as any unified diff's do (a diffstat, the review page's rows). Cells
are paired by id when every cell has a distinct one, else by content and position.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from patchwright.engine.diff import matcher_opcodes, unified_diff
from patchwright.engine.notebook import is_notebook_path
from patchwright.engine.notebook.model import (
    Notebook,
    cell_name,
    cell_source,
    parse_notebook,
)
from patchwright.model import PatchwrightError, TextFile

_NOTEBOOK_KEYS = ("metadata", "nbformat", "nbformat_minor")


def notebook_diff(old: str, new: str, old_path: str, new_path: str) -> str | None:
    """The per-cell diff from ``old`` to ``new`` (two texts of one notebook), ``None``
    when either is not a notebook or no cell nor notebook field changed (a change of
    layout only: the caller shows the text diff)."""
    if not is_notebook_path(new_path):
        return None
    try:
        a, b = parse_notebook(old, old_path), parse_notebook(new, new_path)
    except PatchwrightError:
        return None
    sections = _notebook_fields(a.data, b.data)
    for i, j in _pairs(a.cells, b.cells):
        sections.extend(_cell_section(a, b, i, j))
    if not sections:
        return None
    return f"--- {old_path}\n+++ {new_path}\n" + "".join(sections)


def cell_diff(
    old: TextFile | None, new: TextFile | None, old_name: str, new_name: str
) -> str | None:
    """:func:`notebook_diff` of a file's two texts, ``None`` when either is missing
    (a notebook created or deleted shows its JSON) or it is not a notebook."""
    if old is None or new is None or not is_notebook_path(new_name):
        return None
    return notebook_diff(old.text, new.text, old_name, new_name)


def file_diff(
    old: TextFile | None,
    new: TextFile | None,
    old_name: str,
    new_name: str,
    *,
    regions: Sequence[tuple[int, int, int, int]] | None = None,
) -> str:
    """The diff the history records for a file (``None``: missing on that side): per
    cell for a notebook changed in place, else :func:`unified_diff` (``regions`` as it
    takes them)."""
    cells = cell_diff(old, new, old_name, new_name)
    if cells is not None:
        return cells
    return unified_diff(old or TextFile(), new or TextFile(), old_name, new_name, regions=regions)


def _notebook_fields(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    changed = [k for k in _NOTEBOOK_KEYS if a.get(k) != b.get(k)]
    others = sorted(k for k in {*a, *b} - {"cells", *_NOTEBOOK_KEYS} if a.get(k) != b.get(k))
    fields = [*changed, *others]
    return [f"notebook: {', '.join(fields)} changed\n"] if fields else []


def _key(cell: dict[str, Any]) -> str:
    return json.dumps(cell, sort_keys=True)


def _pairs(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> list[tuple[int | None, int | None]]:
    """Old and new index of each cell (``None``: not on that side), in new order."""
    ids_a = [c.get("id") for c in a]
    ids_b = [c.get("id") for c in b]
    by_id = (
        all(isinstance(x, str) for x in ids_a + ids_b)
        and len(set(ids_a)) == len(ids_a)
        and len(set(ids_b)) == len(ids_b)
    )
    keys_a = [str(x) for x in ids_a] if by_id else [_key(c) for c in a]
    keys_b = [str(x) for x in ids_b] if by_id else [_key(c) for c in b]
    pairs: list[tuple[int | None, int | None]] = []
    for tag, a0, a1, b0, b1 in matcher_opcodes(keys_a, keys_b):
        if tag == "equal":
            pairs.extend(zip(range(a0, a1), range(b0, b1)))
            continue
        paired = 0 if by_id else min(a1 - a0, b1 - b0)
        pairs.extend(zip(range(a0, a0 + paired), range(b0, b0 + paired)))
        pairs.extend((i, None) for i in range(a0 + paired, a1))
        pairs.extend((None, j) for j in range(b0 + paired, b1))
    return pairs


def _source_hunks(old: str, new: str) -> str:
    if not old or not new or old.endswith("\n") == new.endswith("\n"):
        # a cell's last line rarely ends in a newline: said once per cell it is noise
        old, new = _ended(old), _ended(new)
    diff = unified_diff(old, new, "a", "b")
    # the file headers are the notebook's, written once above every cell
    return diff.split("\n", 2)[2] if diff else ""


def _cell_section(a: Notebook, b: Notebook, i: int | None, j: int | None) -> list[str]:
    if j is None:
        assert i is not None
        return [f"{cell_name(a.cells, i)}: deleted\n", _source_hunks(cell_source(a.cells[i]), "")]
    if i is None:
        return [f"{cell_name(b.cells, j)}: inserted\n", _source_hunks("", cell_source(b.cells[j]))]
    old, new = a.cells[i], b.cells[j]
    if old == new:
        return []
    notes = _changes(old, new)
    name = cell_name(b.cells, j)
    if i != j:
        name = name.replace(f"cell {j} ", f"cell {i} -> {j} ", 1)
    hunks = _source_hunks(cell_source(old), cell_source(new))
    return [f"{name}: {'; '.join(notes)}\n", hunks]


def _changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    notes = []
    if cell_source(old) != cell_source(new):
        notes.append("source changed")
    if old.get("cell_type") != new.get("cell_type"):
        notes.append(f"type {old.get('cell_type')} -> {new.get('cell_type')}")
    outs_a, outs_b = old.get("outputs"), new.get("outputs")
    if outs_a != outs_b:
        count_a = len(outs_a) if isinstance(outs_a, list) else 0
        count_b = len(outs_b) if isinstance(outs_b, list) else 0
        notes.append(f"outputs {count_a} -> {count_b}" if count_a != count_b else "outputs changed")
    if old.get("execution_count") != new.get("execution_count"):
        notes.append(
            f"execution_count {_shown(old.get('execution_count'))} -> "
            f"{_shown(new.get('execution_count'))}"
        )
    handled = {"source", "cell_type", "outputs", "execution_count"}
    for key in sorted({*old, *new} - handled):
        if old.get(key) != new.get(key):
            notes.append(f"{key} changed")
    return notes or ["JSON layout changed"]


def _ended(text: str) -> str:
    return text + "\n" if text and not text.endswith("\n") else text


def _shown(value: Any) -> str:
    return "null" if value is None else str(value)


__all__ = ["cell_diff", "file_diff", "notebook_diff"]
