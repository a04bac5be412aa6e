"""The request model of ``apply_patch``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from patchwright.tools.files import ENCODING_FIELD_DESCRIPTION

PatchFormat = Literal["auto", "unified", "v4a", "search-replace", "snippet"]
MatchMode = Literal["strict", "tolerant", "fuzzy"]


class ApplyPatchRequest(BaseModel):
    """Arguments of ``apply_patch``."""

    model_config = ConfigDict(extra="forbid")

    patch: str | None = Field(
        None,
        description="The patch: '*** Begin Patch' ... '*** End Patch', a unified/git diff, "
        "or SEARCH/REPLACE blocks; any number of files.",
    )
    format: PatchFormat | None = Field(
        None,
        description="The patch format (default: detected); 'snippet' for a lazy edit "
        "snippet of the file at path.",
    )
    path: str | None = Field(None, description="With format 'snippet': the file the snippet edits.")
    mode: MatchMode | None = Field(
        None,
        description="How loosely hunks may match: strict (exact), tolerant (whitespace, "
        "indentation, punctuation) or fuzzy (also similar text; the default).",
    )
    dry_run: bool | None = Field(
        None, description="Check the patch and show its diff without writing."
    )
    encoding: str | None = Field(None, description=ENCODING_FIELD_DESCRIPTION)
    confirm: str | None = Field(
        None, description="Alone: a token from a refusal's candidates; applies that candidate."
    )
