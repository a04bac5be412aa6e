"""A notebook shown as cells, for every tool that reads files.

``read_file``, the Anthropic editor's ``view`` and Claude Code's ``Read`` show an
``.ipynb`` file (read whole, without a line range) as its cells rather than its JSON::

    notebook: nbformat 4.5, 3 cells (2 code, 1 markdown), language python
    <cell id="a1b2" index=0 type=markdown>
    # Title
    </cell>
    <cell id="c3d4" index=1 type=code execution_count=2>
    print(len(df))
    </cell>
    <outputs of cell 1>
    stream stdout: 1200
    </outputs>

Every source is shown whole; each output is one bounded line (stream and plain text:
the first lines; images: type and size; errors: name and message), at most
:data:`MAX_OUTPUTS` per cell. When the cells pass the page size, the rest are named
with the lines of the file that hold them, so a read with a line range shows them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from patchwright._records import field, record
from patchwright.engine.notebook import (
    Notebook,
    cell_source,
    is_notebook_path,
    output_summary,
    parse_notebook,
)
from patchwright.model import PatchwrightError, ToolResult
from patchwright.tools.files import PAGE_CHARS, Loaded

#: Most outputs listed per cell.
MAX_OUTPUTS = 5


@record
class NotebookView:
    """A notebook as a model reads it.

    Attributes:
        head: the summary line (format, cell counts, language).
        body: the cells.
        cells: per cell, JSON-ready facts (index, id, type, source lines, outputs).
        shown: how many cells are shown whole (the rest were past the page size).
    """

    head: str
    body: str
    cells: list[dict[str, Any]] = field(default_factory=list)
    shown: int = 0

    @property
    def text(self) -> str:
        """Head and body."""
        return f"{self.head}\n{self.body}" if self.body else self.head

    def data(self) -> dict[str, Any]:
        """The view's facts for a result's data."""
        return {"notebook": True, "cells": self.cells, "cells_shown": self.shown}


def cell_label(cell: dict[str, Any], index: int) -> str:
    """The id a model names the cell by: its own, else ``cell-N``."""
    ident = cell.get("id")
    return ident if isinstance(ident, str) else f"cell-{index}"


def notebook_view(loaded: Loaded, *, budget: int = PAGE_CHARS) -> NotebookView | None:
    """``loaded`` shown as cells; ``None`` when it is not a notebook or does not parse
    as one (the caller shows its lines)."""
    if not is_notebook_path(loaded.path) or loaded.text is None:
        return None
    try:
        nb = parse_notebook(loaded.text.text, loaded.path)
    except PatchwrightError:
        return None
    return render_view(nb, budget)


def render_view(nb: Notebook, budget: int = PAGE_CHARS) -> NotebookView:
    """The cells of ``nb`` as text, whole up to about ``budget`` characters."""
    cells = nb.cells
    kinds = Counter(str(c.get("cell_type")) for c in cells)
    counts = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
    plural = "s" if len(cells) != 1 else ""
    head = (
        f"notebook: nbformat {nb.version}, {len(cells)} cell{plural}"
        f"{f' ({counts})' if counts else ''}, language {nb.language}"
    )
    parts: list[str] = []
    facts = [_facts(c, k) for k, c in enumerate(cells)]
    size = 0
    shown = 0
    for index, cell in enumerate(cells):
        block = _cell_block(cell, index)
        if size + len(block) > budget and shown:
            break
        parts.append(block)
        size += len(block)
        shown += 1
    if shown < len(cells):
        first = nb.text.count("\n", 0, nb.spans[shown][0]) + 1
        parts.append(
            f"[cells {shown}-{len(cells) - 1} not shown (page size): they stand at lines "
            f"{first}-{nb.text.count(chr(10), 0, nb.spans[-1][1]) + 1} of the file's JSON; "
            "read those lines with a line range]"
        )
    if not cells:
        parts.append("(the notebook has no cells)")
    return NotebookView(head, "\n".join(parts), facts, shown)


def _facts(cell: dict[str, Any], index: int) -> dict[str, Any]:
    outputs = cell.get("outputs")
    return {
        "index": index,
        "id": cell.get("id") if isinstance(cell.get("id"), str) else None,
        "cell_type": cell.get("cell_type"),
        "source_lines": len(cell_source(cell).splitlines()),
        "outputs": len(outputs) if isinstance(outputs, list) else 0,
    }


def _cell_block(cell: dict[str, Any], index: int) -> str:
    kind = cell.get("cell_type", "?")
    attrs = f'<cell id="{cell_label(cell, index)}" index={index} type={kind}'
    if kind == "code":
        count = cell.get("execution_count")
        attrs += f" execution_count={'null' if count is None else count}"
    source = cell_source(cell)
    lines = [attrs + ">"]
    if source:
        lines.append(source[:-1] if source.endswith("\n") else source)
    lines.append("</cell>")
    outputs = cell.get("outputs")
    if isinstance(outputs, list) and outputs:
        lines.append(f"<outputs of cell {index}>")
        lines.extend(output_summary(o) for o in outputs[:MAX_OUTPUTS])
        if len(outputs) > MAX_OUTPUTS:
            lines.append(f"... and {len(outputs) - MAX_OUTPUTS} more outputs")
        lines.append("</outputs>")
    attachments = cell.get("attachments")
    if isinstance(attachments, dict) and attachments:
        lines.append(f"(attachments: {', '.join(sorted(attachments))})")
    return "\n".join(lines)


def read_as_cells(
    loaded: Loaded, head: list[str], facts: dict[str, Any], how_raw: str
) -> ToolResult | None:
    """A read tool's answer for a notebook read whole: its ``head`` lines, the cells,
    and how to see the JSON lines instead (``how_raw``); ``None`` when ``loaded`` is
    not a notebook that parses."""
    view = notebook_view(loaded)
    if view is None:
        return None
    data = {**facts, **view.data()}
    text = "\n".join([*head, f"{view.head}; shown as cells ({how_raw} to see its JSON lines)"])
    return ToolResult(True, f"{text}\n{view.body}" if view.body else text, data=data)


__all__ = [
    "MAX_OUTPUTS",
    "NotebookView",
    "cell_label",
    "notebook_view",
    "read_as_cells",
    "render_view",
]
