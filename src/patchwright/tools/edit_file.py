"""``edit_file`` (spec 002 parts 0 and 1): string replacement, one edit or a batch.

* One edit: ``old_string`` + ``new_string`` (+ ``replace_all``).
* A batch: ``edits``, a list of such edits, applied in order (each sees the text the
  previous one left) on the text in memory, and written only if every one succeeds.
* Each ``old_string`` must occur exactly once, unless ``replace_all`` is true. When the
  exact text is not there, whitespace recovery (indentation, trailing blanks, trimmed
  edges, typographic punctuation) may still find it uniquely; the answer then says so.
* The two forms cannot be mixed, and the line-based parameters of the old combined tool
  (``start_line``, ``end_line``, ``new_content``) are refused with the migration text.
* Line numbers in every answer refer to the original file, before any edit of the call.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from patchwright.engine import MatchOptions, apply_edits
from patchwright.model import (
    Composition,
    Edit,
    ErrorCode,
    MatchReport,
    OldText,
    PatchwrightError,
    ToolResult,
)
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import load, preview
from patchwright.tools.spec import WRITES, ToolSpec
from patchwright.tools.writing import PlannedWrite, commit_writes
from patchwright.workspace import ChangeRecord

OPTIONS = MatchOptions(mode="tolerant")
MIGRATION_MESSAGE = (
    "edit_file no longer supports line-based editing. "
    "Use edit_lines(path, start_line, new_content) instead."
)
_LINE_PARAMS = ("start_line", "end_line", "new_content")
_SINGLE_PARAMS = ("old_string", "new_string", "replace_all")


class StringEdit(BaseModel):
    """One string replacement."""

    model_config = ConfigDict(extra="forbid")

    old_string: str = Field(description="Exact text to find (with enough context to be unique).")
    new_string: str = Field(description="Text to put in its place.")
    replace_all: bool = Field(False, description="Replace every occurrence instead of exactly one.")


class EditFileRequest(BaseModel):
    """Arguments of ``edit_file``."""

    model_config = ConfigDict(extra="forbid")

    path: str = Field(description="Path to the file, relative to the workspace root.")
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

    @model_validator(mode="before")
    @classmethod
    def _forms(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        present = [k for k in _LINE_PARAMS if k in data]
        if present:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                MIGRATION_MESSAGE,
                "Call edit_lines for line-number edits, or send old_string and new_string.",
                field=present[0],
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
    """Apply the edits in order, all or none."""
    items = _edits(req)
    batch = req.edits is not None
    loaded = load(ctx.workspace, req.path, missing_ok=all(not e.old_string for e in items))
    edits = [
        Edit(
            OldText(e.old_string, replace_all=e.replace_all, replace_all_supported=True),
            e.new_string,
            label=f"Edit {k}",
        )
        for k, e in enumerate(items, start=1)
    ]
    try:
        result = apply_edits(loaded.current, edits, composition=Composition.SEQUENTIAL,
                             options=OPTIONS)  # fmt: skip
    except PatchwrightError as err:
        raise failure(err, items, batch, loaded.path) from None
    records = [
        ChangeRecord(description=f"Edit {r.index + 1}", op="replace", old_start=r.orig_start,
                     old_end=r.orig_end, new_start=r.new_start, new_end=r.new_end,
                     meta={"rung": r.rung, "count": r.count})
        for r in result.reports
    ]  # fmt: skip
    plan = PlannedWrite(loaded, result.file, label=f"edit_file {loaded.path}", changes=records)
    outcome = commit_writes(ctx, [plan], label=f"edit_file {loaded.path}")
    lines = [f"  {r.index + 1}. {_replaced(items[r.index], r)}" for r in result.reports]
    count = len(items)
    text = [f"Applied {count} edit{'s' if count != 1 else ''} to {loaded.path}:", *lines]
    warnings = [*result.warnings, *outcome.warnings]
    text += [f"  Warning: {w}" for w in warnings]
    data = {
        "path": loaded.path,
        "before_sha256": loaded.sha256,
        "edits": [r.to_dict() for r in result.reports],
        **outcome.data(),
    }
    return ToolResult(True, "\n".join(text), diff=outcome.diff, warnings=warnings, data=data)


def _replaced(item: StringEdit, r: MatchReport) -> str:
    where = (
        f"line {r.orig_start}"
        if r.orig_end <= r.orig_start
        else f"lines {r.orig_start}-{r.orig_end}"
    )
    if r.count > 1:
        where = f"{r.count} occurrences, {where}"
    how = "" if r.rung in ("exact", "newline", "line_range") else f", matched via {r.rung} recovery"
    return f'Replaced "{preview(item.old_string)}" ({where}{how})'


def failure(
    err: PatchwrightError, items: list[StringEdit], batch: bool, path: str
) -> PatchwrightError:
    """Rewrite an engine refusal in the spec's form, naming the edit."""
    index = err.details.get("edit_index", 0)
    index = index if isinstance(index, int) and 0 <= index < len(items) else 0
    k = index + 1
    shown = preview(items[index].old_string)
    own = err.message.removeprefix(f"Edit {k}: ")
    if err.code is ErrorCode.NOT_FOUND:
        line = f'Edit {k}: "{shown}" not found in file'
        extra = _indent(own)
    elif err.code is ErrorCode.AMBIGUOUS and "lines" in err.details:
        found = list(err.details["lines"])
        line = (
            f'Edit {k}: "{shown}" appears {len(found)} times. Use replace_all=true or provide '
            "more context."
        )
        extra = f"    Found at lines {', '.join(map(str, found))}."
    else:
        line, extra = f"Edit {k}: {own}", ""
    head = "Batch edit failed (no changes made):" if batch else "Edit failed (no changes made):"
    message = "\n".join(p for p in (head, f"  {line}", extra) if p)
    field = f"edits[{index}].old_string" if batch else "old_string"
    return PatchwrightError(
        err.code, message, err.hint, path=path, field=field, line=err.line, details=err.details
    )


def _indent(text: str) -> str:
    return "\n".join(f"    {t}" for t in text.splitlines())


SPEC = ToolSpec(
    name="edit_file",
    title="Edit a file by string replacement",
    description=description("edit_file"),
    request_model=EditFileRequest,
    handler=run,
    annotations=WRITES,
    contract="spec 002 part 0 and 1: edit_file (string replacement, batched edits)",
)
