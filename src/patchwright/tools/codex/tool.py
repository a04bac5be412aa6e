"""Codex's ``apply_patch`` handler: the patch text applied like ``apply_patch``'s, in the
``*** Begin Patch`` format, all files or none."""

from __future__ import annotations

from patchwright.model import ToolResult
from patchwright.tools.apply_patch.tool import apply
from patchwright.tools.codex.models import CodexPatchRequest
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.spec import WRITES, ToolSpec


def run(ctx: ToolContext, req: CodexPatchRequest) -> ToolResult:
    """Apply the patch."""
    return apply(ctx, req.input, format="v4a")


SPEC = ToolSpec(
    name="codex_apply_patch",
    title="Apply a patch",
    description=description("codex_apply_patch"),
    request_model=CodexPatchRequest,
    handler=run,
    annotations=WRITES,
    contract="OpenAI apply_patch: Codex CLI's input string, or the hosted tool's operations",
)
