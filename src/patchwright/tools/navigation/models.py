"""Request models of the navigation tools."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

MAX_FILES = 1000
MAX_MATCHES = 200


class ListFilesRequest(BaseModel):
    """Arguments of ``list_files``."""

    model_config = ConfigDict(extra="forbid")

    path: str | None = Field(
        None, description="Folder to list, relative to the root (default: root)."
    )
    glob: str | None = Field(
        None, description="Only files matching this glob: '*.py' at any depth, 'src/**/*.ts'."
    )
    limit: int | None = Field(
        None,
        description=f"Most files to list (default and maximum {MAX_FILES}).",
        ge=1,
    )


class SearchFilesRequest(BaseModel):
    """Arguments of ``search_files``."""

    model_config = ConfigDict(extra="forbid")

    pattern: str = Field(description="Text to find (a regular expression when regex is true).")
    path: str | None = Field(None, description="Folder to search (default: the whole root).")
    glob: str | None = Field(None, description="Only files matching this glob, e.g. '*.py'.")
    regex: bool | None = Field(
        None, description="Treat pattern as a regular expression (RE2: no lookaround, no \\1)."
    )
    ignore_case: bool | None = Field(None, description="Match regardless of letter case.")
    limit: int | None = Field(
        None,
        description=f"Most matching lines to show (default and maximum {MAX_MATCHES}).",
        ge=1,
    )
