"""Jupyter notebooks for the tools: read as cells, edited as cells.

* :mod:`.view`: a notebook shown as cells by ``read_file``, ``view`` and ``Read``;
* :mod:`.models` and :mod:`.tool`: Claude Code's ``NotebookEdit`` (replace, insert or
  delete one cell).

The notebook model itself (parsing, writing back in the file's layout, string
replacements inside one cell's source, per-cell diffs) is the engine's
(:mod:`patchwright.engine.notebook`), shared with the string-replacement core and
SEARCH/REPLACE blocks.
"""
