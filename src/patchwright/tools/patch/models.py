"""The request models of spec 000's ``patch``: below the tool and its report, which both
use them."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Reindent(BaseModel):
    """Prefixes to strip from and add to each non-empty line of the inserted text."""

    model_config = ConfigDict(extra="forbid")

    strip: str | None = Field(
        None,
        description="Prefix to remove from every non-empty inserted line (whitespace-only "
        "lines included); each such line must start with it.",
    )
    add: str | None = Field(None, description="Prefix to put before every non-empty inserted line.")


Operation = Literal["replace", "append_eof", "prepend_bof", "overwrite"]


class PatchOperation(BaseModel):
    """One patch operation."""

    model_config = ConfigDict(extra="forbid")

    operation: Operation = Field(
        description="replace: substitute oldText (must occur exactly once); append_eof: add "
        "text at the end; prepend_bof: add text at the beginning; overwrite: replace the "
        "whole file (creates it if missing)."
    )
    oldText: str | None = Field(
        None, description="Text to locate; required for replace. Copy it exactly from the file."
    )
    newText: str | None = Field(
        None,
        description='Replacement or inserted text ("" deletes oldText). Ignored when '
        "fromClipboard is given.",
    )
    toClipboard: str | None = Field(
        None,
        description="replace only: store the text oldText matched under this clipboard name "
        '(with newText "" this is a cut).',
    )
    fromClipboard: str | None = Field(
        None,
        description="Use this clipboard's text instead of newText. Same name as toClipboard: "
        "copy, the file stays unchanged there.",
    )
    reindent: Reindent | None = Field(
        None, description="Adjust the indentation of the inserted text: strip, then add a prefix."
    )


class PatchRequest(BaseModel):
    """Arguments of ``patch``."""

    model_config = ConfigDict(extra="forbid")

    path: str = Field(description="File path relative to the working directory (workspace root).")
    patches: list[PatchOperation] = Field(
        min_length=1,
        description="Patch operations, all resolved against the original file and applied "
        "together or not at all.",
    )
