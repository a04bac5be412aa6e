"""Jupyter notebooks as cells: read, edited and diffed without touching the disk.

* :mod:`.jsontext`: where each JSON value stands in the text, and the text's layout;
* :mod:`.model`: :func:`parse_notebook`, cells, :func:`find_cell`, output summaries;
* :mod:`.write`: new cells written back into the file's own text, untouched bytes kept;
* :mod:`.edit`: replace, insert and delete cells; text edits inside one cell's source;
* :mod:`.diff`: the per-cell diff the history and people read.

Names are imported on first use (see patchwright/_lazy.py): a tool that only asks
whether a path is a notebook loads neither the writer nor the engine's ladder.
"""

from __future__ import annotations

from patchwright._lazy import lazy_exports

_MODEL = "patchwright.engine.notebook.model"
_EDIT = "patchwright.engine.notebook.edit"
_EXPORTS = {
    "TEXT_CELLS": _MODEL,
    "Notebook": _MODEL,
    "cell_name": _MODEL,
    "cell_source": _MODEL,
    "find_cell": _MODEL,
    "output_summary": _MODEL,
    "parse_notebook": _MODEL,
    "NotebookChange": _EDIT,
    "delete_cell": _EDIT,
    "edit_in_cells": _EDIT,
    "edit_sources": _EDIT,
    "insert_cell": _EDIT,
    "replace_cell": _EDIT,
    "cell_diff": "patchwright.engine.notebook.diff",
    "file_diff": "patchwright.engine.notebook.diff",
    "notebook_diff": "patchwright.engine.notebook.diff",
}

__all__ = [
    "TEXT_CELLS",
    "Notebook",
    "NotebookChange",
    "cell_diff",
    "cell_name",
    "cell_source",
    "delete_cell",
    "edit_in_cells",
    "edit_sources",
    "file_diff",
    "find_cell",
    "insert_cell",
    "is_notebook_path",
    "notebook_diff",
    "output_summary",
    "parse_notebook",
    "replace_cell",
]


def is_notebook_path(path: str | None) -> bool:
    """Whether ``path`` names a Jupyter notebook (``.ipynb``, any letter case).

    Defined here, not in a submodule: the apply path asks it of every file it diffs and
    must not load the notebook model (or ``json``) to be told "no"."""
    return bool(path) and str(path).lower().endswith(".ipynb")


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - static view of the lazy exports
    from patchwright.engine.notebook.diff import cell_diff, file_diff, notebook_diff
    from patchwright.engine.notebook.edit import (
        NotebookChange,
        delete_cell,
        edit_in_cells,
        edit_sources,
        insert_cell,
        replace_cell,
    )
    from patchwright.engine.notebook.model import (
        TEXT_CELLS,
        Notebook,
        cell_name,
        cell_source,
        find_cell,
        output_summary,
        parse_notebook,
    )
else:  # mypy reads the imports above, so it flags an unknown name
    __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
