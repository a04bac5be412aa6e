"""Plain data shared by every layer: errors, the text model, edits and reports.

The names below are imported on first use (see patchwright/_lazy.py): a caller that
needs only the errors does not pay for the edit and report records.
"""

from __future__ import annotations

from patchwright._lazy import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - static view of the lazy exports
    from patchwright.model.anchors import Anchor as Anchor
    from patchwright.model.anchors import BeginningOfFile as BeginningOfFile
    from patchwright.model.anchors import EndOfFile as EndOfFile
    from patchwright.model.anchors import LineRange as LineRange
    from patchwright.model.anchors import OldText as OldText
    from patchwright.model.anchors import WholeFile as WholeFile
    from patchwright.model.edits import Composition as Composition
    from patchwright.model.edits import Edit as Edit
    from patchwright.model.edits import FileAction as FileAction
    from patchwright.model.edits import FilePatch as FilePatch
    from patchwright.model.edits import Hunk as Hunk
    from patchwright.model.edits import HunkLine as HunkLine
    from patchwright.model.edits import PatchSet as PatchSet
    from patchwright.model.errors import ErrorCode as ErrorCode
    from patchwright.model.errors import PatchwrightError as PatchwrightError
    from patchwright.model.reports import LADDER as LADDER
    from patchwright.model.reports import EngineResult as EngineResult
    from patchwright.model.reports import MatchReport as MatchReport
    from patchwright.model.reports import Rung as Rung
    from patchwright.model.reports import recovered_syntax_error as recovered_syntax_error
    from patchwright.model.results import ToolResult as ToolResult
    from patchwright.model.text import TextFile as TextFile
    from patchwright.model.text import diff_rows as diff_rows
    from patchwright.model.text import dominant_newline as dominant_newline
    from patchwright.model.text import join_lines as join_lines
    from patchwright.model.text import split_lines as split_lines
else:  # type checkers read the imports above
    __getattr__, __dir__, __all__ = lazy_exports(globals())
