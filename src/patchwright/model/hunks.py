"""Diff hunks: the anchor every diff format parses into.

:class:`Hunk` lives apart from :mod:`patchwright.model.edits` so that the other anchors
(:mod:`patchwright.model.anchors`, which a diff's apply never loads) can name it without
importing the module that finds them on first use. It stays importable from
:mod:`patchwright.model.edits`, :mod:`patchwright.model` and :mod:`patchwright`.
"""

from __future__ import annotations

from collections import namedtuple

from patchwright._lazy import lazy_literals
from patchwright._records import record

__all__ = ["Hunk", "HunkLine", "HunkOp"]

#: ``get_args(HunkOp)``, kept as a constant so that no run-time use of the alias imports
#: ``typing`` (start-up time).
HUNK_OPS = (" ", "-", "+")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal, NamedTuple

    HunkOp = Literal[" ", "-", "+"]

    class _HunkLine(NamedTuple):
        op: HunkOp
        text: str
else:
    # the same named tuple without ``typing`` (start-up time)
    _HunkLine = namedtuple("_HunkLine", ("op", "text"))
    __getattr__ = lazy_literals(__name__, {"HunkOp": HUNK_OPS}, globals())


class HunkLine(_HunkLine):
    """One line of a hunk: ``op`` is ``" "`` (context), ``"-"`` (removed) or ``"+"`` (added).

    A named tuple rather than a record: diffs carry tens of thousands of them and a
    tuple is several times cheaper to build.
    """

    __slots__ = ()


@record(frozen=True)
class Hunk:
    """Anchor given as a diff hunk.

    Attributes:
        lines: the hunk body in order.
        old_start: 1-based line of the first old line according to the header (a hint:
            models get it wrong), ``None`` when the header carried no numbers.
        old_count / new_count: counts from the header, ``None`` when absent.
        anchors: ``@@ <text>`` context anchors (OpenAI patch format), outermost first:
            lines that must appear, in order, above the hunk.
        no_newline_old / no_newline_new: the old / new side ends without a final newline
            (``\\ No newline at end of file``).
        at_eof: the hunk must end at the end of the file (``*** End of File``).
        newline: the line ending the hunk writes its added lines with when it converts
            endings (its removed lines end in CR and its added lines do not, or the
            reverse); ``""`` when added lines take their neighbours' endings.
        source_line: 1-based line of the hunk header in the patch text.
    """

    lines: tuple[HunkLine, ...]
    old_start: int | None = None
    old_count: int | None = None
    new_start: int | None = None
    new_count: int | None = None
    anchors: tuple[str, ...] = ()
    no_newline_old: bool = False
    no_newline_new: bool = False
    at_eof: bool = False
    source_line: int | None = None
    newline: str = ""

    @property
    def old_lines(self) -> list[str]:
        """Context and removed lines: what the hunk expects to find."""
        return [hl.text for hl in self.lines if hl.op != "+"]

    @property
    def new_lines(self) -> list[str]:
        """Context and added lines: what the hunk leaves behind."""
        return [hl.text for hl in self.lines if hl.op != "-"]
