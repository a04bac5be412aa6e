"""The request schema of ``workspace_write_patch`` (spec 001 sections 4 and 5).

Field names are the spec's own. Server-assigned IDs (``batchId``, ``filePatchId``,
``changeId``) are response fields; a request may carry them (a model echoing an earlier
answer), and they are ignored: the server always assigns fresh ones.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

SHA256_PATTERN = "^[0-9a-fA-F]{64}$"

# "One or more" (section 4.1.1) and "MUST be non-empty" (4.2.1), said in the schema. The
# rule is published only, not enforced by pydantic (Field(min_length=1) would be): the
# handler checks it with the other structural rules, so one answer lists every problem of
# the batch with the file it concerns, instead of stopping at pydantic's generic message.
NON_EMPTY: dict[str, JsonValue] = {"minItems": 1}


class ChangeObject(BaseModel):
    """One line-level operation (spec 001 section 5)."""

    model_config = ConfigDict(extra="forbid")

    changeKey: str | None = Field(
        None, description="Optional short semantic key for this change (e.g. add-validation)."
    )
    changeId: str | None = Field(
        None, description="Response-only, assigned by the server; ignored in requests."
    )
    operation: Literal["insert", "replace", "delete"] = Field(
        description="insert (afterLine + newLines), replace (startLine..endLine + "
        "expectedOriginalLines + newLines) or delete (startLine..endLine + "
        "expectedOriginalLines)."
    )
    description: str | None = Field(
        None, description="Optional short explanation of why this change exists."
    )
    afterLine: int | None = Field(
        None,
        description="insert: line number after which newLines go; 0 inserts at the top.",
        json_schema_extra={"minimum": 0},
    )
    startLine: int | None = Field(
        None,
        description="replace/delete: first line (1-based) of the range.",
        json_schema_extra={"minimum": 1},
    )
    endLine: int | None = Field(
        None,
        description="replace/delete: last line of the range (inclusive); equal to startLine "
        "for one line.",
        json_schema_extra={"minimum": 1},
    )
    expectedOriginalLines: list[str] | None = Field(
        None,
        description="replace/delete: the verbatim current lines startLine..endLine (without "
        "newline characters); must match exactly, whitespace included.",
    )
    newLines: list[str] | None = Field(
        None,
        description="insert/replace: complete lines to write, one string per line, without "
        "newline characters. Must be absent for delete.",
    )


class FilePatchObject(BaseModel):
    """The patch of one file (spec 001 section 4.2)."""

    model_config = ConfigDict(extra="forbid")

    fileKey: str | None = Field(None, description="Optional semantic key for this file patch.")
    filePatchId: str | None = Field(
        None, description="Response-only, assigned by the server; ignored in requests."
    )
    docPath: str = Field(
        description="The file's path relative to the workspace root (matched ignoring letter "
        "case). Each docPath at most once per batch."
    )
    originalSha256: str = Field(
        description="Hex SHA256 (64 characters) of the full file content the changes were "
        "planned on, as returned when the file was read. Never invent it.",
        json_schema_extra={"pattern": SHA256_PATTERN},
    )
    fileLabel: str | None = Field(None, description="Optional human-readable description.")
    changes: list[ChangeObject] = Field(
        description="Line operations, ordered top to bottom, not overlapping; non-empty.",
        json_schema_extra=NON_EMPTY,
    )


class WritePatchRequest(BaseModel):
    """Arguments of ``workspace_write_patch`` (spec 001 section 4.1)."""

    model_config = ConfigDict(extra="forbid")

    batchLabel: str | None = Field(
        None, description="Optional human-readable description of the whole batch."
    )
    batchKey: str | None = Field(None, description="Optional short semantic key for the batch.")
    batchId: str | None = Field(
        None, description="Response-only, assigned by the server; ignored in requests."
    )
    files: list[FilePatchObject] = Field(
        description="One or more per-file patches.", json_schema_extra=NON_EMPTY
    )
