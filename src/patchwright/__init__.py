"""patchwright: precise, safe file editing for LLM coding agents.

Importing the package loads nothing but this module and ``_lazy.py``: every public name
is imported on first use (``patchwright.apply_patch_text`` pulls in the formats, the engine and the
workspace; the MCP server and the request models load only in the adapters), so the
CLI starts fast and ``import patchwright`` stays cheap.
"""

from __future__ import annotations

from patchwright._lazy import lazy_exports

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    "PatchwrightError": "patchwright.model.errors",
    "PatchApplyError": "patchwright.documents",
    "ErrorCode": "patchwright.model.errors",
    "TextFile": "patchwright.model.text",
    "Edit": "patchwright.model.edits",
    "OldText": "patchwright.model.anchors",
    "LineRange": "patchwright.model.anchors",
    "Hunk": "patchwright.model.edits",
    "HunkLine": "patchwright.model.edits",
    "BeginningOfFile": "patchwright.model.anchors",
    "EndOfFile": "patchwright.model.anchors",
    "WholeFile": "patchwright.model.anchors",
    "FilePatch": "patchwright.model.edits",
    "PatchSet": "patchwright.model.edits",
    "Composition": "patchwright.model.edits",
    "MatchOptions": "patchwright.engine",
    "apply_edits": "patchwright.engine",
    "unified_diff": "patchwright.engine",
    "detect_format": "patchwright.formats",
    "parse_patch": "patchwright.formats",
    "apply_patch_text": "patchwright.api",
    "ApplyReport": "patchwright.api",
    "merge_snippet": "patchwright.api.snippet",
    "merge_snippet_file": "patchwright.engine.snippet",
}

__all__ = [
    "ApplyReport",
    "BeginningOfFile",
    "Composition",
    "Edit",
    "EndOfFile",
    "ErrorCode",
    "FilePatch",
    "Hunk",
    "HunkLine",
    "LineRange",
    "MatchOptions",
    "OldText",
    "PatchApplyError",
    "PatchSet",
    "PatchwrightError",
    "TextFile",
    "WholeFile",
    "__version__",
    "apply_edits",
    "apply_patch_text",
    "detect_format",
    "merge_snippet",
    "merge_snippet_file",
    "parse_patch",
    "unified_diff",
]

# ``typing`` is not imported: it alone would double the start-up time of the CLI. mypy is
# told (``always_true``) to read this block.
TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - static view of the lazy exports
    from patchwright.api import ApplyReport, apply_patch_text
    from patchwright.api.snippet import merge_snippet
    from patchwright.documents import PatchApplyError
    from patchwright.engine import MatchOptions, apply_edits, unified_diff
    from patchwright.engine.snippet import merge_snippet_file
    from patchwright.formats import detect_format, parse_patch
    from patchwright.model.edits import (
        BeginningOfFile,
        Composition,
        Edit,
        EndOfFile,
        FilePatch,
        Hunk,
        HunkLine,
        LineRange,
        OldText,
        PatchSet,
        WholeFile,
    )
    from patchwright.model.errors import ErrorCode, PatchwrightError
    from patchwright.model.text import TextFile
else:  # mypy reads the imports above, so it flags an unknown name
    __getattr__ = lazy_exports(__name__, _EXPORTS, globals())[0]


def __dir__() -> list[str]:
    return __all__
