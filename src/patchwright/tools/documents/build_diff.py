"""``build_diff`` (spec 003's diff builder): original + updated text in, a ready diff out.

Smaller models get diff syntax wrong more often than the text itself. This tool takes
the text as it is (``original``) and as it should be (``updated``) and returns the
unified diff to send to ``document_edit`` (action patch) or ``apply_diff``. With
``path`` the slice is located in that workspace file (at ``start``, a character offset,
when given; else it must occur exactly once) and the diff carries real line numbers and
context, plus the file's ``document_version``. Without ``path``, ``document`` may hold
the snapshot text; with neither, the two slices are diffed on their own. Read-only.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from patchwright.documents import build_diff
from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import load
from patchwright.tools.spec import READ_ONLY, ToolSpec


class BuildDiffRequest(BaseModel):
    """Arguments of ``build_diff``."""

    model_config = ConfigDict(extra="forbid")

    original: str = Field(description="The text as it is now (a slice of the file, or all of it).")
    updated: str = Field(description="The text as it should be after the edit.")
    path: str | None = Field(
        None,
        description="Workspace file the slice comes from (recommended): the diff then has "
        "real line numbers and context.",
    )
    document: str | None = Field(
        None, description="Instead of path: the snapshot text the slice comes from."
    )
    start: int | None = Field(
        None,
        description="Character offset of original in the file/document, to pick one of "
        "several occurrences.",
        ge=0,
    )
    context: int = Field(3, description="Unchanged lines shown around each change.", ge=0)


def run(ctx: ToolContext, req: BuildDiffRequest) -> ToolResult:
    """Render the diff."""
    if req.path is not None and req.document is not None:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            "path and document are mutually exclusive.",
            "Name the workspace file in path, or pass the snapshot text in document.",
            field="document",
        )
    data: dict[str, Any] = {}
    document = req.document
    name = "document"
    if req.path is not None:
        loaded = load(ctx.workspace, req.path)
        document = loaded.current.text
        name = loaded.path
        data.update(path=loaded.path, document_version=loaded.sha256)
    diff = build_diff(
        req.original, req.updated, document=document, start=req.start, path=name,
        context=req.context,
    )  # fmt: skip
    data["diff"] = diff
    return ToolResult(True, diff, data=data)


SPEC = ToolSpec(
    name="build_diff",
    title="Build a unified diff",
    description=description("build_diff"),
    request_model=BuildDiffRequest,
    handler=run,
    annotations=READ_ONLY,
    contract="spec 003 section 5: DiffBuilderTool (original + updated -> unified diff)",
)
