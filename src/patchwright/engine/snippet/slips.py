"""Whitespace slips in a snippet's context lines: tell them from whitespace changes.

A model copying context may turn tabs into spaces or drop trailing blanks; a commit may
re-indent lines on purpose. Inside a run the two look alike, so the snippet's own
evidence decides: the outermost line of each run is context (it anchors the run), and
how those lines were copied says how the model copies. A line differing from the file
in whitespace only is then context when its indentation maps to the file's the way the
evidence does, a change when every anchoring line was copied exactly, and undecided
otherwise (the merge refuses rather than guess).
"""

from __future__ import annotations

from collections.abc import Sequence

from patchwright.engine.normalize import leading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from patchwright.engine.snippet.place import Placement
    from patchwright.formats.snippet import Piece


class Slips:
    """What the anchoring lines of a snippet say about its whitespace.

    Attributes:
        exact: anchoring lines with outer blanks that were copied exactly.
        slipped: anchoring lines copied with other outer blanks.
        pairs: (snippet indentation, file indentation) seen on anchoring lines.
    """

    def __init__(self) -> None:
        self.exact = 0
        self.slipped = 0
        self.pairs: set[tuple[str, str]] = set()

    @classmethod
    def learn(
        cls, file_lines: Sequence[str], runs: Sequence[Piece], places: Sequence[Placement]
    ) -> Slips:
        """The evidence of every run's outermost lines (first when its head anchored,
        last when its tail did)."""
        slips = cls()
        for run, place in zip(runs, places):
            if place.head:
                slips._see(run.lines[0], file_lines[place.start])
            if place.tail and place.end > place.start:
                slips._see(run.lines[-1], file_lines[place.end - 1])
        return slips

    def _see(self, mine: str, theirs: str) -> None:
        if mine.strip() != theirs.strip() or not theirs.strip():
            return
        if mine == theirs:
            self.exact += theirs != theirs.strip()
        else:
            self.slipped += 1
        self.pairs.add((leading(mine), leading(theirs)))

    def same(self, theirs: str, mine: str) -> bool | None:
        """Whether snippet line ``mine`` is the file's line ``theirs`` as context:
        ``True`` (keep the file's line), ``False`` (a change), ``None`` (undecided)."""
        if mine == theirs:
            return True
        if mine.strip() != theirs.strip():
            return False
        if not self.slipped:
            return False if self.exact else None
        if not mine.strip():
            return True  # a blank line's blanks: what slips drop first
        pair = (leading(mine), leading(theirs))
        if pair in self.pairs and mine.rstrip()[len(pair[0]) :] == theirs.rstrip()[len(pair[1]) :]:
            return True
        return None
