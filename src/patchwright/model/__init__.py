"""Plain data shared by every layer: errors, the text model, edits and reports.

The names below are imported on first use (see patchwright/_lazy.py): a caller that
needs only the errors does not pay for the edit and report records.
"""

from __future__ import annotations

from patchwright._lazy import lazy_exports

_EDITS = "patchwright.model.edits"
_ANCHORS = "patchwright.model.anchors"
_REPORTS = "patchwright.model.reports"
_TEXT = "patchwright.model.text"

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    "Anchor": _ANCHORS,
    "BeginningOfFile": _ANCHORS,
    "Composition": _EDITS,
    "Edit": _EDITS,
    "EndOfFile": _ANCHORS,
    "FileAction": _EDITS,
    "FilePatch": _EDITS,
    "Hunk": _EDITS,
    "HunkLine": _EDITS,
    "LineRange": _ANCHORS,
    "OldText": _ANCHORS,
    "PatchSet": _EDITS,
    "WholeFile": _ANCHORS,
    "ErrorCode": "patchwright.model.errors",
    "PatchwrightError": "patchwright.model.errors",
    "LADDER": _REPORTS,
    "EngineResult": _REPORTS,
    "MatchReport": _REPORTS,
    "Rung": _REPORTS,
    "recovered_syntax_error": _REPORTS,
    "ToolResult": "patchwright.model.results",
    "TextFile": _TEXT,
    "diff_rows": _TEXT,
    "dominant_newline": _TEXT,
    "join_lines": _TEXT,
    "split_lines": _TEXT,
}

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
    "diff_rows",
    "dominant_newline",
    "join_lines",
    "recovered_syntax_error",
    "split_lines",
]

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - static view of the lazy exports
    from patchwright.model.anchors import (
        Anchor,
        BeginningOfFile,
        EndOfFile,
        LineRange,
        OldText,
        WholeFile,
    )
    from patchwright.model.edits import (
        Composition,
        Edit,
        FileAction,
        FilePatch,
        Hunk,
        HunkLine,
        PatchSet,
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
    from patchwright.model.text import (
        TextFile,
        diff_rows,
        dominant_newline,
        join_lines,
        split_lines,
    )

else:  # mypy reads the imports above, so it flags an unknown name
    __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
