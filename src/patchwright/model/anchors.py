"""The anchors of edits that tool calls and SEARCH/REPLACE blocks make, not diffs.

:class:`OldText`, :class:`LineRange`, :class:`BeginningOfFile`, :class:`EndOfFile` and
:class:`WholeFile` live here, apart from :mod:`patchwright.model.edits`, so that applying
a diff (whose edits are all :class:`~patchwright.model.edits.Hunk`) does not define them:
``patchwright apply`` starts a fresh interpreter for every patch and each class it defines costs
start-up time. They stay importable from :mod:`patchwright.model.edits`,
:mod:`patchwright.model` and :mod:`patchwright` as before.
"""

from __future__ import annotations

from patchwright._records import record
from patchwright.model.hunks import Hunk


@record(frozen=True)
class OldText:
    """Anchor on existing text.

    Attributes:
        text: the text to find; must be non-empty on a non-empty file.
        replace_all: replace every occurrence instead of requiring exactly one.
        hint_line: 1-based line near which the text is expected (may settle ambiguity).
        whole_lines: the text stands for whole lines (SEARCH/REPLACE blocks): it never
            matches from the middle of a line.
        replace_all_supported: the caller's request format has a ``replace_all`` option
            (``edit_file``), so a refusal for ambiguity may suggest it; formats without
            one (spec 000's ``patch``, SEARCH/REPLACE blocks) get advice that works there.
    """

    text: str
    replace_all: bool = False
    hint_line: int | None = None
    whole_lines: bool = False
    replace_all_supported: bool = False


@record(frozen=True)
class LineRange:
    """Anchor on whole lines by number.

    ``start``..``end`` are 1-based and inclusive. ``end == start - 1`` is an empty range:
    the replacement is inserted before line ``start`` (``start == len + 1`` appends).

    Attributes:
        expected: when given, the lines that must currently stand in the range, compared
            exactly (without line endings); a mismatch is refused.
    """

    start: int
    end: int
    expected: tuple[str, ...] | None = None


@record(frozen=True)
class BeginningOfFile:
    """Anchor at the start of the file (insert before everything)."""


@record(frozen=True)
class EndOfFile:
    """Anchor at the end of the file (append after everything)."""


@record(frozen=True)
class WholeFile:
    """Anchor on the whole content (overwrite or create)."""


Anchor = OldText | LineRange | Hunk | BeginningOfFile | EndOfFile | WholeFile
