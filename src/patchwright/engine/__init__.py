"""The pure edit engine: text in, text out, never the disk.

:func:`apply_edits` locates every edit through the matching ladder (exact first, then
safe recoveries, refusing ambiguity), composes the replacement lines keeping the file's
own bytes for everything matched loosely, and splices once. :func:`unified_diff`
renders any change.

Two rooms, every arrow pointing down (an import-linter contract in ``pyproject.toml``):

* :mod:`.matching` finds the place: the matching ladder, the line index and keys, the
  fuzzy rung, the evidence a loose search text leaves, indentation shifts, the refusals
  that say why nothing matched and the matching options;
* :mod:`.replacing` decides the replacement: composition in the file's own bytes,
  splices, the placeholder check, lazy snippets. It imports the matching room, never the
  reverse.

Above both, the modules that join them for each kind of edit: :mod:`.apply` (a batch),
:mod:`.resolve` (one edit), :mod:`.hunk` (a diff hunk), :mod:`.oldtext` (a search text),
and the notebook edits in :mod:`.notebook`. Below both, :mod:`.diff` (rendering and the
line alignment the fuzzy rung and the evidence read), which imports neither room.
:mod:`.rebase` stands apart: it diffs three texts and never matches.
"""

from patchwright.engine.apply import apply_edits, apply_file_patch
from patchwright.engine.diff import unified_diff
from patchwright.engine.matching.policy import RUNGS, MatchOptions

__all__ = ["RUNGS", "MatchOptions", "apply_edits", "apply_file_patch", "unified_diff"]
