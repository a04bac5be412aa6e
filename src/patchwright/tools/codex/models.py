"""The request model of Codex's ``apply_patch``, and the hosted tool's operations.

The published schema has one field, ``input``. An ``operation`` object, as OpenAI's
hosted apply_patch tool emits it, is accepted too and rewritten into the same patch
text before validation:

* ``{"type": "create_file", "path", "diff"}``: ``*** Add File: path`` + the diff's
  ``+`` lines (lines without ``+`` are taken as content);
* ``{"type": "update_file", "path", "diff"}``: ``*** Update File: path`` + the diff;
* ``{"type": "delete_file", "path"}``: ``*** Delete File: path``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.model.text import diff_rows

BEGIN, END = "*** Begin Patch", "*** End Patch"
_OPERATIONS = ("create_file", "update_file", "delete_file")


def operation_patch(operation: Any) -> str:
    """The ``*** Begin Patch`` text of one hosted-tool operation.

    Raises:
        PatchwrightError: ``invalid_request`` naming the bad ``operation`` field.
    """
    if not isinstance(operation, dict):
        raise _bad("operation", "operation must be an object with type, path and diff.")
    kind, path, diff = operation.get("type"), operation.get("path"), operation.get("diff")
    if kind not in _OPERATIONS:
        raise _bad("operation.type", f"operation.type must be one of {', '.join(_OPERATIONS)}.")
    if not isinstance(path, str) or not path.strip():
        raise _bad("operation.path", "operation.path must name the file.")
    if kind == "delete_file":
        return f"{BEGIN}\n*** Delete File: {path}\n{END}\n"
    if not isinstance(diff, str):
        raise _bad("operation.diff", f"operation.diff is required for {kind}.")
    body = diff if diff.endswith("\n") or not diff else diff + "\n"
    if kind == "create_file":
        lines = [ln if ln.startswith("+") else "+" + ln for ln in diff_rows(body)]
        return "\n".join([BEGIN, f"*** Add File: {path}", *lines, END]) + "\n"
    return f"{BEGIN}\n*** Update File: {path}\n{body}{END}\n"


def _bad(field: str, message: str) -> PatchwrightError:
    return PatchwrightError(
        ErrorCode.INVALID_REQUEST,
        message + " Nothing was changed.",
        'Send {"input": "*** Begin Patch ... *** End Patch"}, or one operation '
        '{"type": "update_file", "path": ..., "diff": ...}.',
        field=field,
    )


class CodexPatchRequest(BaseModel):
    """Arguments of Codex's ``apply_patch``."""

    model_config = ConfigDict(extra="forbid")

    input: str = Field(description="The whole patch, from '*** Begin Patch' to '*** End Patch'.")

    @model_validator(mode="before")
    @classmethod
    def _operation(cls, data: Any) -> Any:
        if isinstance(data, dict) and "operation" in data and "input" not in data:
            rest = {k: v for k, v in data.items() if k != "operation"}
            return {**rest, "input": operation_patch(data["operation"])}
        return data
