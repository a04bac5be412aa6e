"""The request model of ``str_replace_based_edit_tool``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Command = Literal["view", "create", "str_replace", "insert", "undo_edit"]


class EditorRequest(BaseModel):
    """Arguments of ``str_replace_based_edit_tool``: ``command`` says which others count."""

    model_config = ConfigDict(extra="forbid")

    command: Command = Field(description="view, create, str_replace, insert or undo_edit.")
    path: str = Field(description="File or folder, relative to the workspace root.")
    view_range: list[int] | None = Field(
        None,
        min_length=2,
        max_length=2,
        description="view: [first, last] line (1-based; last -1 means to the end).",
    )
    file_text: str | None = Field(None, description="create: the new file's content.")
    old_str: str | None = Field(
        None, description="str_replace: text that occurs exactly once in the file."
    )
    new_str: str | None = Field(
        None, description="str_replace: its replacement (default: delete); insert: the text."
    )
    insert_line: int | None = Field(
        None,
        description="insert: the line to insert after (0: the top of the file).",
        json_schema_extra={"minimum": 0},
    )
    insert_text: str | None = Field(None, description="insert: the text (same as new_str).")
