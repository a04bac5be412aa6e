"""A Jupyter notebook read as cells, with where each cell stands in the file's text.

:func:`parse_notebook` reads the text of an ``.ipynb`` file (nbformat 4) into a
:class:`Notebook`: the parsed JSON, each cell's span in the text and the layout the file
was written in (see :mod:`.jsontext`). A cell's source is one string whether the file
holds it as a list of lines or as one string (:func:`cell_source`); :func:`find_cell`
finds a cell the way Claude Code's ``NotebookEdit`` names it (its id, else ``cell-N``
for the cell at 0-based index N); :func:`output_summary` says what an output holds in
one bounded line.
"""

from __future__ import annotations

import json
import re
from typing import Any

from patchwright._records import record
from patchwright.engine.notebook.jsontext import (
    JsonShapeError,
    Layout,
    array_items,
    detect_layout,
    line_indent,
    object_members,
    skip_space,
)
from patchwright.model import ErrorCode, PatchwrightError

#: Cell types whose source is text an edit may change.
TEXT_CELLS = ("code", "markdown", "raw")
_INDEX_ID = re.compile(r"cell-(\d+)")
# terminal colours in tracebacks and progress bars: noise in a one-line summary
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


@record(frozen=True)
class Notebook:
    """A notebook's text, parsed.

    Attributes:
        text: the file's text (no BOM).
        data: the whole parsed JSON.
        spans: each cell's object span in ``text``.
        open / close: the positions of the cells array's ``[`` and ``]``.
        cells_indent: the indentation of the line holding ``"cells":``.
        layout: how the file was written.
        sorted_keys: every object of the text lists its keys in sorted order (nbformat).
        key_order: the key order of the file's first code cell (else first cell).
        list_sources: most cells hold their source as a list of lines.
    """

    text: str
    data: dict[str, Any]
    spans: list[tuple[int, int]]
    open: int
    close: int
    cells_indent: str
    layout: Layout
    sorted_keys: bool
    key_order: tuple[str, ...]
    list_sources: bool

    @property
    def cells(self) -> list[dict[str, Any]]:
        """The cells, as parsed."""
        cells: list[dict[str, Any]] = self.data["cells"]
        return cells

    @property
    def has_ids(self) -> bool:
        """Whether cells carry ids (nbformat 4.5 and later)."""
        major = self.data.get("nbformat", 4)
        minor = self.data.get("nbformat_minor", 0)
        return isinstance(major, int) and isinstance(minor, int) and (major, minor) >= (4, 5)

    @property
    def version(self) -> str:
        """``4.5`` and the like."""
        return f"{self.data.get('nbformat', '?')}.{self.data.get('nbformat_minor', '?')}"

    @property
    def language(self) -> str:
        """The notebook's language (``python`` when it does not say)."""
        meta = self.data.get("metadata")
        if isinstance(meta, dict):
            for key, field in (("language_info", "name"), ("kernelspec", "language")):
                part = meta.get(key)
                if isinstance(part, dict) and isinstance(part.get(field), str):
                    return str(part[field])
        return "python"


_REPAIR = (
    "Read the lines named with a line range and repair the JSON there by replacing text, "
    "or ask the user to open and save the notebook in Jupyter."
)


def _invalid(path: str, why: str, hint: str = _REPAIR) -> PatchwrightError:
    return PatchwrightError(
        ErrorCode.PARSE_ERROR,
        f"{path} is not a notebook patchwright can edit as cells: {why}. No change was made.",
        hint,
        path=path,
    )


def parse_notebook(text: str, path: str = "notebook") -> Notebook:
    """Read ``text`` as an nbformat 4 notebook.

    Raises:
        PatchwrightError: ``parse_error`` when the text is not JSON, not an object with
            a ``cells`` array of objects, or not nbformat 4.
    """
    start = skip_space(text, 0)
    try:
        top, end = object_members(text, start)
        if skip_space(text, end) != len(text):
            raise JsonShapeError("text after the notebook's closing brace", end)
    except JsonShapeError as err:
        line = text.count("\n", 0, err.position) + 1
        raise _invalid(path, f"its JSON is broken at line {line} ({err})") from None
    cells_member = next((m for m in top if m.key == "cells"), None)
    if cells_member is None:
        raise _invalid(path, "it has no 'cells' array")
    data = json.loads(text)
    if data.get("nbformat") != 4:
        raise _invalid(
            path,
            f"nbformat is {data.get('nbformat')!r}, not 4",
            "Ask the user to upgrade it (jupyter nbconvert --to notebook --inplace).",
        )
    try:
        spans, close = array_items(text, cells_member.value_start)
    except JsonShapeError:
        raise _invalid(path, "'cells' is not an array") from None
    cells = data["cells"]
    for k, cell in enumerate(cells):
        if not isinstance(cell, dict) or not isinstance(cell.get("cell_type"), str):
            raise _invalid(path, f"cell {k} is not an object with a cell_type")
    return Notebook(
        text=text,
        data=data,
        spans=spans,
        open=cells_member.value_start,
        close=close,
        cells_indent=line_indent(text, cells_member.key_start) or "",
        layout=detect_layout(text, top),
        sorted_keys=_sorted_keys(data),
        key_order=_key_order(cells),
        list_sources=sum(isinstance(c.get("source"), list) for c in cells) * 2 >= len(cells),
    )


def _sorted_keys(data: dict[str, Any]) -> bool:
    """Whether the notebook and each of its cells list their keys sorted (the parsed
    objects keep the file's key order)."""
    if list(data) != sorted(data):
        return False
    return all(list(cell) == sorted(cell) for cell in data["cells"])


def _key_order(cells: list[dict[str, Any]]) -> tuple[str, ...]:
    code = [c for c in cells if c.get("cell_type") == "code"]
    model = code[0] if code else (cells[0] if cells else {})
    return tuple(model)


def cell_source(cell: dict[str, Any]) -> str:
    """A cell's source as one string (lists of lines joined)."""
    source = cell.get("source", "")
    if isinstance(source, list):
        return "".join(str(s) for s in source)
    return str(source)


def source_value(text: str, as_list: bool) -> str | list[str]:
    """``text`` in the shape a notebook stores it: one string, or a list of lines each
    keeping its ``\\n`` (as Jupyter splits them: at ``\\n`` only)."""
    if not as_list:
        return text
    if not text:
        return []
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def cell_name(nb_cells: list[dict[str, Any]], index: int) -> str:
    """``cell 3 (code, id abc)``: how messages and diffs name a cell."""
    cell = nb_cells[index]
    ident = cell.get("id")
    kind = cell.get("cell_type", "?")
    if isinstance(ident, str):
        return f"cell {index} ({kind}, id {ident})"
    return f"cell {index} ({kind})"


def find_cell(nb: Notebook, cell_id: str, *, field: str = "cell_id") -> int:
    """The index of the cell ``cell_id`` names: the cell with that id, else ``cell-N``
    (the cell at 0-based index N, as Claude Code names cells without ids).

    Raises:
        PatchwrightError: ``not_found`` naming ``field``, with the ids that exist.
    """
    for k, cell in enumerate(nb.cells):
        if cell.get("id") == cell_id:
            return k
    match = _INDEX_ID.fullmatch(cell_id.strip())
    n = len(nb.cells)
    if match is not None:
        index = int(match.group(1))
        if index < n:
            return index
        raise PatchwrightError(
            ErrorCode.NOT_FOUND,
            f"Cell with index {index} does not exist in the notebook, which has {n} cells "
            "(cell-0 is the first). Nothing was changed.",
            f"Use cell-0 to cell-{n - 1}, or a cell's id; read the notebook to see them."
            if n
            else "The notebook has no cells: insert one (edit_mode insert, no cell_id).",
            field=field,
        )
    ids = [c["id"] for c in nb.cells if isinstance(c.get("id"), str)]
    shown = ", ".join(ids[:20]) + (f" and {len(ids) - 20} more" if len(ids) > 20 else "")
    known = (
        f"Its cell ids: {shown}." if ids else "Its cells have no ids: name them cell-0, cell-1..."
    )
    raise PatchwrightError(
        ErrorCode.NOT_FOUND,
        f'Cell with ID "{cell_id}" not found in the notebook. {known} Nothing was changed.',
        "Use a cell id shown when the notebook is read, or cell-N for the cell at index N.",
        field=field,
        details={"ids": ids},
    )


def _text_of(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _size(value: Any) -> str:
    n = len(_text_of(value))
    # base64 data: about 3 bytes per 4 characters
    size = n * 3 // 4
    return f"{size / 1024:.1f} KB" if size >= 1024 else f"{size} bytes"


def output_summary(output: Any, limit: int = 200) -> str:
    """One line saying what a cell output holds (text cut to ``limit`` characters)."""
    if not isinstance(output, dict):
        return "output (not an object)"
    kind = output.get("output_type", "?")
    if kind == "stream":
        text = _text_of(output.get("text", ""))
        return f"stream {output.get('name', '?')}: {_first_lines(text, limit)}"
    if kind == "error":
        return f"error {output.get('ename', '?')}: {_cut(str(output.get('evalue', '')), limit)}"
    data = output.get("data")
    if isinstance(data, dict):
        parts = []
        for mime, value in data.items():
            if mime.startswith("text/plain"):
                parts.append(f"text/plain: {_first_lines(_text_of(value), limit)}")
            elif mime.startswith("image/"):
                parts.append(f"{mime} ({_size(value)})")
            else:
                parts.append(f"{mime} ({len(_text_of(value))} characters)")
        return f"{kind}: " + "; ".join(parts)
    return str(kind)


def _cut(text: str, limit: int) -> str:
    text = _ANSI.sub("", text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _first_lines(text: str, limit: int) -> str:
    lines = text.splitlines()
    head = " | ".join(lines[:3]) + (f" | ... ({len(lines)} lines)" if len(lines) > 3 else "")
    return _cut(head, limit)


__all__ = [
    "TEXT_CELLS",
    "Notebook",
    "cell_name",
    "cell_source",
    "find_cell",
    "output_summary",
    "parse_notebook",
    "source_value",
]
