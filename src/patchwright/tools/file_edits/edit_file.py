"""``edit_file`` (spec 002 parts 0 and 1): string replacement, one edit or a batch.

* One edit: ``old_string`` + ``new_string`` (+ ``replace_all``).
* A batch: ``edits``, a list of such edits, applied in order (each sees the text the
  previous one left) on the text in memory, and written only if every one succeeds.
* Each ``old_string`` must occur exactly once, unless ``replace_all`` is true. When the
  exact text is not there, whitespace recovery (indentation, trailing blanks, trimmed
  edges, typographic punctuation) may still find it uniquely; the answer then says so.
* ``old_str`` / ``new_str`` (the names of Anthropic's text editor) are accepted for
  ``old_string`` / ``new_string``.
* The two forms cannot be mixed, and the line-based parameters of the old combined tool
  (``start_line``, ``end_line``, ``new_content``) are refused with the migration text.
* Line numbers in every answer refer to the original file, before any edit of the call.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.tools.confirm import apply_confirmed
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import ENCODING_FIELD_DESCRIPTION
from patchwright.tools.replace import Fields, Replacement, replace_strings
from patchwright.tools.spec import WRITES, ToolSpec
from patchwright.tools.validation import missing_field

MIGRATION_MESSAGE = (
    "edit_file no longer supports line-based editing. "
    "Use edit_lines(path, start_line, new_content) instead."
)
_LINE_PARAMS = ("start_line", "end_line", "new_content")
_SINGLE_PARAMS = ("old_string", "new_string", "replace_all")
_ALIASES = {"old_str": "old_string", "new_str": "new_string"}


class StringEdit(BaseModel):
    """One string replacement."""

    model_config = ConfigDict(extra="forbid")

    old_string: str = Field(description="Exact text to find (with enough context to be unique).")
    new_string: str = Field(description="Text to put in its place.")
    replace_all: bool = Field(False, description="Replace every occurrence instead of exactly one.")


class EditFileRequest(BaseModel):
    """Arguments of ``edit_file``."""

    model_config = ConfigDict(extra="forbid")

    path: str | None = Field(None, description="Path to the file, relative to the workspace root.")
    old_string: str | None = Field(None, description="Text to replace (single-edit form).")
    new_string: str | None = Field(None, description="Replacement text (single-edit form).")
    replace_all: bool | None = Field(
        None, description="Single-edit form: replace every occurrence of old_string."
    )
    edits: list[StringEdit] | None = Field(
        None,
        description="Array of string replacements (atomic - all or none), applied in order. "
        "Do not combine with old_string/new_string/replace_all.",
    )
    encoding: str | None = Field(None, description=ENCODING_FIELD_DESCRIPTION)
    confirm: str | None = Field(
        None, description="Alone: a token from a refusal's candidates; applies that candidate."
    )

    @model_validator(mode="before")
    @classmethod
    def _forms(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = _aliases(data)
        present = [k for k in _LINE_PARAMS if k in data]
        if present:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                MIGRATION_MESSAGE,
                "Send old_string (the exact text to replace) and new_string instead.",
                field=present[0],
            )
        if data.get("confirm") is not None:
            others = [k for k, v in data.items() if k != "confirm" and v is not None]
            if others:
                raise PatchwrightError(
                    ErrorCode.INVALID_REQUEST,
                    f"confirm must be sent alone, not with {', '.join(others)}.",
                    'Send {"confirm": "<token>"} alone to apply a candidate, or the edit '
                    "without confirm.",
                    field="confirm",
                )
        single = [k for k in _SINGLE_PARAMS if data.get(k) is not None]
        if data.get("edits") is not None and single:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"Cannot mix the edits array with single-edit parameters ({', '.join(single)}).",
                "Either send old_string and new_string (and replace_all) for one edit, or put "
                "every edit in edits.",
                field="edits",
            )
        return data


def _aliases(data: dict[str, Any]) -> dict[str, Any]:
    """``old_str`` / ``new_str`` (Anthropic's editor names) read as ``old_string`` /
    ``new_string``, at the top level and in each of ``edits``."""
    out = dict(data)
    for short, full in _ALIASES.items():
        if short in out and full not in out:
            out[full] = out.pop(short)
    edits = out.get("edits")
    if isinstance(edits, list):
        out["edits"] = [_aliases(e) if isinstance(e, dict) else e for e in edits]
    return out


def _edits(req: EditFileRequest) -> list[StringEdit]:
    if req.edits is not None:
        if not req.edits:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                "edits is empty: there is nothing to apply.",
                "Put at least one {old_string, new_string} object in edits.",
                field="edits",
            )
        return req.edits
    for key in ("old_string", "new_string"):
        if getattr(req, key) is None:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"{key} is required (or send an edits array).",
                "Send old_string (the exact text to find) and new_string (its replacement).",
                field=key,
            )
    assert req.old_string is not None and req.new_string is not None
    return [StringEdit(old_string=req.old_string, new_string=req.new_string,
                       replace_all=bool(req.replace_all))]  # fmt: skip


def run(ctx: ToolContext, req: EditFileRequest) -> ToolResult:
    """Apply the edits in order, all or none (or the candidate a confirm token names)."""
    if req.confirm is not None:
        return apply_confirmed(ctx, req.confirm)
    if req.path is None:
        raise missing_field(EditFileRequest, "path", ctx.name_of("edit_file"))
    items = [Replacement(e.old_string, e.new_string, e.replace_all) for e in _edits(req)]
    fields = Fields(batch="edits" if req.edits is not None else None, encoding="encoding")
    return replace_strings(ctx, req.path, items, fields=fields, encoding=req.encoding)


_EXAMPLE = {
    "path": "src/app.py",
    "edits": [
        {"old_string": "def greet(name):", "new_string": "def greet(name: str) -> None:"},
        {"old_string": "greet('world')", "new_string": "greet('you')"},
    ],
}

SPEC = ToolSpec(
    name="edit_file",
    title="Edit a file by string replacement",
    description=description("edit_file"),
    request_model=EditFileRequest,
    handler=run,
    annotations=WRITES,
    contract="spec 002 part 0 and 1: edit_file (string replacement, batched edits)",
    examples=(_EXAMPLE,),
)
