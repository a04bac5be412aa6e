"""Request model of Claude Code's ``NotebookEdit``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class NotebookEditRequest(BaseModel):
    """Arguments of ``NotebookEdit`` (Claude Code's fields, plus ``clear_outputs``)."""

    model_config = ConfigDict(extra="forbid")

    notebook_path: str = Field(
        description="The notebook (.ipynb), relative to the workspace root (an absolute "
        "path inside it works too)."
    )
    cell_id: str | None = Field(
        None,
        description="The cell to change: its id as the notebook read shows it, or cell-N "
        "for the cell at 0-based index N. With edit_mode=insert the new cell goes right "
        "after this cell, or first in the notebook when cell_id is left out.",
    )
    new_source: str = Field(
        description="The cell's new source (code or markdown); ignored by edit_mode=delete."
    )
    cell_type: Literal["code", "markdown"] | None = Field(
        None,
        description="The cell's type: required for edit_mode=insert; with replace, changes "
        "the cell's type (default: keep it).",
    )
    edit_mode: Literal["replace", "insert", "delete"] | None = Field(
        None, description="replace (default) the cell's source, insert a new cell, or delete it."
    )
    clear_outputs: bool | None = Field(
        None,
        description="With replace on a code cell: also empty its outputs and execution "
        "count (default: keep them).",
    )
