"""The request model of Cursor's ``edit_file``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class CursorEditRequest(BaseModel):
    """Arguments of Cursor's ``edit_file``."""

    model_config = ConfigDict(extra="forbid")

    target_file: str = Field(
        description="The file to edit, relative to the workspace root; created (from "
        "code_edit, which then holds no markers) when it does not exist."
    )
    instructions: str = Field(
        description="One sentence saying what the edit does; it labels the change in the history."
    )
    code_edit: str = Field(
        description="The new code of the region you change, with a few unchanged lines "
        "around each change and a comment such as '// ... existing code ...' (in the "
        "file's comment syntax) on its own line for every stretch left out."
    )
