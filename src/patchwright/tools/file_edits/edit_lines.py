"""``edit_lines`` (spec 002 part 0): replace lines by number.

Lines ``start_line``..``end_line`` (1-based, inclusive; ``end_line`` defaults to
``start_line``) are replaced by ``new_content``. Both must lie inside the file. Newline
handling: ``new_content`` is taken as whole lines, so a missing final newline is supplied
(in the file's own newline style); when the range ends at the file's last line, the
file keeps its final-newline state (a file without one stays without one). An empty
``new_content`` deletes the lines.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from patchwright.engine import apply_edits
from patchwright.engine.rebase import rebase
from patchwright.model import Edit, ErrorCode, LineRange, PatchwrightError, TextFile, ToolResult
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import Loaded, load
from patchwright.tools.reads import Stale, overlap_error
from patchwright.tools.replace import already_applied
from patchwright.tools.spec import WRITES, ToolSpec
from patchwright.tools.writing import commit_writes, planned
from patchwright.workspace import ChangeRecord
from patchwright.writing import racing

STRING_PARAMS_MESSAGE = (
    "edit_lines replaces lines by number and takes no old_string, new_string, replace_all or "
    "edits. Use edit_file(path, old_string, new_string) for string replacement instead."
)
_STRING_PARAMS = ("old_string", "new_string", "replace_all", "edits")


class EditLinesRequest(BaseModel):
    """Arguments of ``edit_lines``."""

    model_config = ConfigDict(extra="forbid")

    path: str = Field(description="Path to file")
    start_line: int = Field(
        description="First line to replace (1-indexed)", json_schema_extra={"minimum": 1}
    )
    end_line: int | None = Field(
        None,
        description="Last line to replace (inclusive, defaults to start_line)",
        json_schema_extra={"minimum": 1},
    )
    new_content: str = Field(description='Content to insert ("" deletes the lines)')

    @model_validator(mode="before")
    @classmethod
    def _no_string_params(cls, data: Any) -> Any:
        if isinstance(data, dict):
            present = [k for k in _STRING_PARAMS if k in data]
            if present:
                raise PatchwrightError(
                    ErrorCode.INVALID_REQUEST,
                    STRING_PARAMS_MESSAGE,
                    "Send path, start_line, end_line and new_content only.",
                    field=present[0],
                )
        return data


def _append_hint(ctx: ToolContext, n: int) -> str:
    """How to add lines past the end: with this tool when the file has lines, and with
    the tools the host actually exposes (under their exposed names), never a hidden one."""
    hint = "Re-read the file for its current line numbers."
    if n:
        hint += (
            f" To add lines at the end, replace line {n} (start_line={n}) with its current "
            "text followed by the new lines."
        )
    patch = ctx.exposed_name("patch")
    if patch is not None:
        hint += f" {patch} with operation append_eof also adds text at the end of a file."
    elif not n:
        hint += " The file is empty: write its content with a tool that writes whole files."
    return hint


def _check(ctx: ToolContext, req: EditLinesRequest, n: int, path: str) -> int:
    start = req.start_line
    end = req.end_line if req.end_line is not None else start
    if start < 1:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"start_line must be >= 1 (lines are 1-indexed), got {start}.",
            "Lines are numbered from 1, as read_file shows them.",
            path=path,
            field="start_line",
        )
    if end < start:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"end_line ({end}) must be >= start_line ({start}).",
            "Give the range with the smaller line first; for one line, omit end_line.",
            path=path,
            field="end_line",
        )
    for name, value in (("start_line", start), ("end_line", end)):
        if value > n:
            raise PatchwrightError(
                ErrorCode.OUT_OF_RANGE,
                f"{name} {value} is beyond the end of {path}, which has {n} line"
                f"{'s' if n != 1 else ''}.",
                _append_hint(ctx, n),
                path=path,
                field=name,
            )
    return end


def run(ctx: ToolContext, req: EditLinesRequest) -> ToolResult:
    """Replace one range of lines.

    When another writer changes the file between this call's read and its commit, the
    call is made again (:func:`patchwright.writing.racing`): the edit, made on the lines
    this call first read, is rebased onto what that writer left, and refused as a
    ``conflict`` when that writer changed the same lines.
    """
    first: list[Loaded] = []
    return racing(ctx.workspace, lambda: _run_once(ctx, req, first))


def _run_once(ctx: ToolContext, req: EditLinesRequest, first: list[Loaded]) -> ToolResult:
    loaded = load(ctx.workspace, req.path)
    if not first:
        first.append(loaded)
    read = first[0]  # the file the line numbers were checked against
    n = len(read.current.lines)
    start = req.start_line
    end = req.end_line if req.end_line is not None else start
    if 1 <= start <= end:
        # a line number says nothing of the text it held: only the history tells a
        # retry (asked before the range check: a retried deletion may end past the file)
        again = Edit(LineRange(start, end), req.new_content, label="edit_lines")
        done = already_applied(
            ctx, loaded, lambda before: apply_edits(before or TextFile(), [again]).file
        )
        if done is not None:
            return done
    end = _check(ctx, req, n, loaded.path)
    edit = Edit(LineRange(start, end), req.new_content, label="edit_lines")
    result = apply_edits(read.current, [edit])
    r = result.reports[0]
    after, new_start, new_end = result.file, r.new_start, r.new_end
    if loaded.sha256 != read.sha256:
        stale = Stale(rebase(read.current, loaded.current, after), "another writer")
        if stale.rebased.file is None:
            raise overlap_error(loaded.path, stale, loaded.current, None)
        after = stale.rebased.file
        new_start, new_end = _changed_block(loaded.current, after)
    record = ChangeRecord(
        op="replace_lines", old_start=start, old_end=end, new_start=new_start, new_end=new_end
    )
    plan = planned(loaded, after, label=f"edit_lines {loaded.path}", changes=[record])
    outcome = commit_writes(ctx, [plan], label=f"edit_lines {loaded.path}")
    old = f"line {start}" if start == end else f"lines {start}-{end}"
    count = new_end - new_start + 1
    if count <= 0:
        text = f"Deleted {old} of {loaded.path}."
    else:
        now = f"line {new_start}" if count == 1 else f"lines {new_start}-{new_end}"
        plural = "s" if count != 1 else ""
        text = f"Replaced {old} of {loaded.path} with {count} line{plural} (now {now})."
    if outcome.record is None:
        text = f"No change to {loaded.path}: {old} already hold this content."
    if loaded.sha256 != read.sha256:
        text += (
            f"\nNote: {loaded.path} had changed since this call read it (by another writer); "
            "the edit touched none of its changed lines and was rebased onto it."
        )
    text += "".join(f"\nWarning: {w}" for w in outcome.warnings)
    data = {
        "path": loaded.path,
        "before_sha256": loaded.sha256,
        "old_lines": [start, end],
        "new_lines": [new_start, new_end],
        **outcome.data(),
    }
    return ToolResult(True, text, diff=outcome.diff, warnings=outcome.warnings, data=data)


def _changed_block(before: TextFile, after: TextFile) -> tuple[int, int]:
    """The 1-based, inclusive lines of ``after`` that differ from ``before`` (one block:
    the rebased edit), ``(n, n - 1)`` for lines removed before line ``n``."""
    old, new = before.lines, after.lines
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < min(len(old), len(new)) - prefix
        and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]
    ):
        suffix += 1
    return prefix + 1, len(new) - suffix


SPEC = ToolSpec(
    name="edit_lines",
    title="Replace lines by number",
    description=description("edit_lines"),
    request_model=EditLinesRequest,
    handler=run,
    annotations=WRITES,
    contract="spec 002 part 0: edit_lines (line-number replacement)",
)
