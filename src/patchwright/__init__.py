"""patchwright: precise, safe file editing for LLM coding agents.

Only light modules are imported here; adapters (CLI, MCP server, schemas) load their
heavy dependencies on first use.
"""

from patchwright.model import (
    Composition,
    Edit,
    ErrorCode,
    FilePatch,
    Hunk,
    LineRange,
    OldText,
    PatchSet,
    PatchwrightError,
    TextFile,
)

__version__ = "0.1.0"

__all__ = [
    "Composition",
    "Edit",
    "ErrorCode",
    "FilePatch",
    "Hunk",
    "LineRange",
    "OldText",
    "PatchSet",
    "PatchwrightError",
    "TextFile",
    "__version__",
]
