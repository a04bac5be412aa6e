"""patchwright: precise, safe file editing for LLM coding agents.

Importing the package loads nothing but this module and ``_lazy.py``: every public name
is imported on first use (``patchwright.apply_patch_text`` pulls in the formats, the engine and the
workspace; the MCP server and the request models load only in the adapters), so the
CLI starts fast and ``import patchwright`` stays cheap.
"""

from __future__ import annotations

from patchwright._lazy import lazy_exports

__version__ = "0.1.0"


# ``typing`` is not imported: it alone would double the start-up time of the CLI. mypy is
# told (``always_true``) to read this block.
TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - static view of the lazy exports
    from patchwright.api import ApplyReport as ApplyReport
    from patchwright.api import apply_patch_text as apply_patch_text
    from patchwright.api.snippet import merge_snippet as merge_snippet
    from patchwright.documents import PatchApplyError as PatchApplyError
    from patchwright.engine import MatchOptions as MatchOptions
    from patchwright.engine import apply_edits as apply_edits
    from patchwright.engine import unified_diff as unified_diff
    from patchwright.engine.replacing.snippet import merge_snippet_file as merge_snippet_file
    from patchwright.formats import detect_format as detect_format
    from patchwright.formats import parse_patch as parse_patch
    from patchwright.model.edits import BeginningOfFile as BeginningOfFile
    from patchwright.model.edits import Composition as Composition
    from patchwright.model.edits import Edit as Edit
    from patchwright.model.edits import EndOfFile as EndOfFile
    from patchwright.model.edits import FilePatch as FilePatch
    from patchwright.model.edits import Hunk as Hunk
    from patchwright.model.edits import HunkLine as HunkLine
    from patchwright.model.edits import LineRange as LineRange
    from patchwright.model.edits import OldText as OldText
    from patchwright.model.edits import PatchSet as PatchSet
    from patchwright.model.edits import WholeFile as WholeFile
    from patchwright.model.errors import ErrorCode as ErrorCode
    from patchwright.model.errors import PatchwrightError as PatchwrightError
    from patchwright.model.text import TextFile as TextFile
else:  # type checkers read the imports above
    __getattr__, __dir__, __all__ = lazy_exports(globals(), "__version__")
