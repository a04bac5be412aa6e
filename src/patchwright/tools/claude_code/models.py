"""Request models of Claude Code's file tools."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

_PATH = "The file, relative to the workspace root (an absolute path inside it works too)."


class ReadRequest(BaseModel):
    """Arguments of ``Read``."""

    model_config = ConfigDict(extra="forbid")

    file_path: str = Field(description=_PATH)
    offset: int | None = Field(None, description="First line to read (1-based).", ge=1)
    limit: int | None = Field(None, description="Number of lines to read.", ge=1)


class EditRequest(BaseModel):
    """Arguments of ``Edit``."""

    model_config = ConfigDict(extra="forbid")

    file_path: str = Field(description=_PATH)
    old_string: str = Field(description="The text to replace (unique unless replace_all).")
    new_string: str = Field(description="The text to replace it with.")
    replace_all: bool | None = Field(None, description="Replace every occurrence.")


class OneEdit(BaseModel):
    """One edit of ``MultiEdit``."""

    model_config = ConfigDict(extra="forbid")

    old_string: str = Field(description="The text to replace.")
    new_string: str = Field(description="The text to replace it with.")
    replace_all: bool | None = Field(None, description="Replace every occurrence.")


class MultiEditRequest(BaseModel):
    """Arguments of ``MultiEdit``."""

    model_config = ConfigDict(extra="forbid")

    file_path: str = Field(description=_PATH)
    edits: list[OneEdit] = Field(
        min_length=1, description="Edits applied in order, each on the previous one's result."
    )


class WriteRequest(BaseModel):
    """Arguments of ``Write``."""

    model_config = ConfigDict(extra="forbid")

    file_path: str = Field(description=_PATH)
    content: str = Field(description="The whole content to write.")
