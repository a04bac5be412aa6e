"""Placeholder lines in the new text of any edit: the one check every replacement passes.

Models write ``# ... rest of the function unchanged ...`` inside new text of every kind
(a tool's ``new_string``, a SEARCH/REPLACE block, a diff's added lines). Written as is,
the placeholder would replace the lines it stands for. Every splice the engine makes
passes :func:`expand_placeholders` before it is applied: a splice whose new lines hold a
marker line (:mod:`patchwright.engine.replacing.snippet.markers`) that is not a line of the file is
merged as a snippet against the lines it replaces (:mod:`patchwright.engine.replacing.snippet`),
so the marker keeps those lines; when that merge cannot decide, the edit is refused.

Only this scan runs for every splice; the merge is imported when a splice holds a word
every marker has.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from patchwright.engine.replacing.splice import Splice
    from patchwright.model.edits import Edit
    from patchwright.model.text import TextFile

# Every marker holds an ellipsis or one of these words (see engine/replacing/snippet/markers.py's
# KEEP_PHRASES): a splice without any of them has no placeholder.
_HINT = re.compile(
    r"\.\.\.|…|\. \. \.|\b(?:existing|unchanged|unmodified|remaining|previous|original|"
    r"other|same|rest|omitted|before|changes?|keeps?|kept|snip|snipped|etc)\b",
    re.IGNORECASE,
)


def expand_placeholders(
    file: TextFile, tagged: list[tuple[int, Splice]], edits: Sequence[Edit]
) -> list[tuple[int, Splice]]:
    """``tagged`` with every splice whose new lines hold a placeholder expanded from
    the lines it replaces (the same list when none does).

    Raises:
        PatchwrightError: a placeholder whose lines cannot be told beyond doubt; the
            message names the edit, the lines and what to send instead.
    """
    out = tagged
    for k, (i, splice) in enumerate(tagged):
        if not splice.lines or _HINT.search("\n".join(splice.lines)) is None:
            continue
        from patchwright.engine.replacing.snippet.inline import expand_splice

        label = edits[i].label or f"edit {i + 1}" if i < len(edits) else f"edit {i + 1}"
        expanded = expand_splice(file, splice, label)
        if expanded is not splice:
            if out is tagged:
                out = list(tagged)
            out[k] = (i, expanded)
    return out
