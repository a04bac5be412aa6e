"""The pure edit engine: text in, text out, never the disk.

:func:`apply_edits` locates every edit through the matching ladder (exact first, then
safe recoveries, refusing ambiguity), composes the replacement lines keeping the file's
own bytes for everything matched loosely, and splices once. :func:`unified_diff`
renders any change.
"""

from patchwright.engine.apply import apply_edits, apply_file_patch
from patchwright.engine.diff import unified_diff
from patchwright.engine.matching.policy import RUNGS, MatchOptions

__all__ = ["RUNGS", "MatchOptions", "apply_edits", "apply_file_patch", "unified_diff"]
