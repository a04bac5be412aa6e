"""Plain data shared by every layer: errors, the text model, edits and reports."""

from patchwright.model.edits import (
    Anchor,
    BeginningOfFile,
    Composition,
    Edit,
    EndOfFile,
    FileAction,
    FilePatch,
    Hunk,
    HunkLine,
    LineRange,
    OldText,
    PatchSet,
    WholeFile,
)
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.reports import (
    LADDER,
    EngineResult,
    MatchReport,
    Rung,
    recovered_syntax_error,
)
from patchwright.model.results import ToolResult
from patchwright.model.text import TextFile, dominant_newline, join_lines, split_lines

__all__ = [
    "LADDER",
    "Anchor",
    "BeginningOfFile",
    "Composition",
    "Edit",
    "EndOfFile",
    "EngineResult",
    "ErrorCode",
    "FileAction",
    "FilePatch",
    "Hunk",
    "HunkLine",
    "LineRange",
    "MatchReport",
    "OldText",
    "PatchSet",
    "PatchwrightError",
    "Rung",
    "TextFile",
    "ToolResult",
    "WholeFile",
    "dominant_newline",
    "join_lines",
    "recovered_syntax_error",
    "split_lines",
]
