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


def is_notebook_path(path: str | None) -> bool:
    """Whether ``path`` names a Jupyter notebook (``.ipynb``, any letter case).

    Defined here, not in a submodule: the apply path asks it of every file it diffs and
    must not load the notebook model (or ``json``) to be told "no"."""
    return bool(path) and str(path).lower().endswith(".ipynb")


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - static view of the lazy exports
    from patchwright.engine.notebook.diff import cell_diff as cell_diff
    from patchwright.engine.notebook.diff import file_diff as file_diff
    from patchwright.engine.notebook.diff import notebook_diff as notebook_diff
    from patchwright.engine.notebook.edit import NotebookChange as NotebookChange
    from patchwright.engine.notebook.edit import delete_cell as delete_cell
    from patchwright.engine.notebook.edit import edit_in_cells as edit_in_cells
    from patchwright.engine.notebook.edit import edit_sources as edit_sources
    from patchwright.engine.notebook.edit import insert_cell as insert_cell
    from patchwright.engine.notebook.edit import replace_cell as replace_cell
    from patchwright.engine.notebook.model import TEXT_CELLS as TEXT_CELLS
    from patchwright.engine.notebook.model import Notebook as Notebook
    from patchwright.engine.notebook.model import cell_name as cell_name
    from patchwright.engine.notebook.model import cell_source as cell_source
    from patchwright.engine.notebook.model import find_cell as find_cell
    from patchwright.engine.notebook.model import output_summary as output_summary
    from patchwright.engine.notebook.model import parse_notebook as parse_notebook
else:  # type checkers read the imports above
    __getattr__, __dir__, __all__ = lazy_exports(globals(), "is_notebook_path")
