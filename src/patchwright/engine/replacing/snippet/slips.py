"""Whitespace slips in a snippet's context lines: tell them from whitespace changes.

A model copying context may write tabs as spaces or drop trailing blanks; a commit may
re-indent lines on purpose. Inside a run the two look alike, so the snippet's own
evidence decides: the lines that anchor each run (its head and tail, placed by the
ladder) are context, and how they were copied says how the model copies. A line that
differs from the file in outer whitespace only is then:

* context (the file's line is kept) when the evidence shows that very slip (tabs
  written as N spaces, trailing blanks dropped) and the line is the file's line with it;
* a change (the snippet's line is written) when the evidence shows such lines copied
  exactly, or when the line holds what a slip never adds: blanks after its text, or
  a tab in its indentation, that the file's line does not have;
* undecided otherwise: the merge refuses rather than guess.
"""

from __future__ import annotations

from collections.abc import Sequence

from patchwright.engine.matching.normalize import leading

TYPE_CHECKING = False
if TYPE_CHECKING:
    from patchwright.engine.replacing.snippet.markers import Piece
    from patchwright.engine.replacing.snippet.place import Placement

# Tab widths a model expands tabs to (narrower indentation is a reformatting, not a slip).
_TAB_WIDTHS = (4, 8)


class Slips:
    """What the anchoring lines of a snippet say about how it copies whitespace.

    Attributes:
        tabs: for file indentation holding tabs: the widths the snippet expanded them
            to (0: copied as tabs).
        spaces: for file indentation of spaces only: whether it was copied as is
            (``True``) or otherwise (``False``).
        trailing: for file lines with trailing blanks: whether they were kept.
        blanks: for blank file lines holding blanks: whether their blanks were kept
            (apart from ``trailing``: a model that writes every blank line empty may
            copy the blanks after code as they are).
        writes_blanks: whether any line of the snippet is blanks only.
        pairs: (snippet indentation, file indentation) seen.
    """

    def __init__(self) -> None:
        self.tabs: set[int] = set()
        self.spaces: set[bool] = set()
        self.trailing: set[bool] = set()
        self.blanks: set[bool] = set()
        self.writes_blanks = False
        self.pairs: set[tuple[str, str]] = set()

    @classmethod
    def learn(
        cls, file_lines: Sequence[str], runs: Sequence[Piece], places: Sequence[Placement]
    ) -> Slips:
        """The evidence of every run's anchored head and tail: for each kind of
        whitespace (tab indentation, space indentation, trailing blanks), the line
        nearest the run's edge that shows it (lines further in may be new lines that
        repeat the context)."""
        slips = cls()
        slips.writes_blanks = any(line and not line.strip() for run in runs for line in run.lines)
        for run, place in zip(runs, places):
            span = file_lines[place.start : place.end]
            head = min(place.head, len(span), len(run.lines))
            slips._see_end([(run.lines[k], span[k]) for k in range(head)])
            tail = min(place.tail, len(span), len(run.lines))
            slips._see_end([(run.lines[-k], span[-k]) for k in range(1, tail + 1)])
        return slips

    def _see_end(self, pairs: list[tuple[str, str]]) -> None:
        """Learn from the lines of one anchored end, edge first."""
        seen: set[str] = set()
        for mine, theirs in pairs:
            if mine.strip() != theirs.strip():
                continue
            kind = _kind(theirs)
            if kind and kind not in seen:
                seen.add(kind)
                self._see(mine, theirs)

    def _see(self, mine: str, theirs: str) -> None:
        if not theirs.strip():
            self.blanks.add(mine == theirs)
            if mine == theirs:
                self.trailing.add(True)  # blanks copied: so are those after code
            return
        mi, ti = leading(mine), leading(theirs)
        self.pairs.add((mi, ti))
        if "\t" in ti:
            width = _expanded(ti, mi)
            if width is not None:
                self.tabs.add(width)
        elif ti:
            self.spaces.add(mi == ti)
        if theirs != theirs.rstrip():
            self.trailing.add(mine.rstrip() != mine)

    def same(self, theirs: str, mine: str) -> bool | None:
        """Whether snippet line ``mine`` is the file's line ``theirs`` as context:
        ``True`` (keep the file's line), ``False`` (a change), ``None`` (undecided)."""
        if mine == theirs:
            return True
        if mine.strip() != theirs.strip():
            return False
        if not theirs.strip():
            # a blank line's blanks: a slip drops them, and so does a clean-up
            if mine:
                return False  # blanks other than the file's: written on purpose
            if False not in self.blanks and self.trailing == {True}:
                return False  # blanks copied wherever the anchors show them
            return True if self._drops_blanks() else None
        lead = self._leading(leading(mine), leading(theirs))
        if lead is False:
            return False
        end = self._trailing(mine, theirs)
        if end is False:
            return False
        return True if lead and end else None

    def file_key(self, theirs: str) -> str:
        """A file line as the snippet is expected to copy it (see :meth:`snippet_key`):
        what the evidence shows (tabs expanded, trailing blanks dropped), so only a
        line copied that way pairs with it when the run's middle is diffed."""
        indent = leading(theirs)
        body = theirs[len(indent) :]
        if self.trailing == {False} or len(self.trailing) != 1:
            body = body.rstrip()
        if "\t" in indent:
            width = next(iter(self.tabs)) if len(self.tabs) == 1 else 4
            indent = indent.replace("\t", " " * width)
        return indent + body if body else ""

    def snippet_key(self, mine: str) -> str:
        """A snippet line as :meth:`file_key` compares it."""
        indent = leading(mine)
        body = mine[len(indent) :]
        if len(self.trailing) != 1:
            body = body.rstrip()
        if "\t" in indent and len(self.tabs) != 1:
            indent = indent.replace("\t", "    ")
        return indent + body if body else ("" if len(self.trailing) != 1 else mine)

    def anchors(self, theirs: str, mine: str) -> bool:
        """Whether ``mine`` may extend a run's anchored end over the file's ``theirs``:
        :meth:`same`, except that a line copied exactly where the evidence shows every
        such line slipped (tabs always expanded, trailing blanks always dropped) is a
        new line that repeats the context, not the context itself."""
        if mine == theirs:
            ti = leading(theirs)
            if "\t" in ti and self.tabs and 0 not in self.tabs:
                return False
            return not (theirs != theirs.rstrip() and self.trailing == {False})
        return self.same(theirs, mine) is True

    def _drops_blanks(self) -> bool:
        """Whether the snippet cannot write a blank line's blanks: it drops them from
        every blank line anchoring its runs and holds no line of blanks anywhere (its
        empty line then says nothing about the file's blanks, which are kept). Not when
        the anchors also show blanks after code dropped: a clean-up commit strips those
        too, and reads as well as a slip."""
        return self.blanks == {False} and not self.writes_blanks and False not in self.trailing

    def _leading(self, mi: str, ti: str) -> bool | None:
        if mi == ti:
            return True
        if "\t" in ti:
            width = _expanded(ti, mi)
            if width is not None and self.tabs == {width}:
                return True
            return False if self.tabs == {0} else None
        if (mi, ti) in self.pairs:
            return True  # the same re-indentation as an anchoring line's
        if "\t" in mi:
            return False  # a tab the file's indentation does not have: written on purpose
        return False if self.spaces == {True} else None

    def _trailing(self, mine: str, theirs: str) -> bool | None:
        mine_end, theirs_end = mine[len(mine.rstrip()) :], theirs[len(theirs.rstrip()) :]
        if mine_end == theirs_end:
            return True
        if mine_end:
            return False  # blanks the file's line does not have: written on purpose
        if self.trailing == {False}:
            return True
        return False if self.trailing == {True} else None


def _kind(line: str) -> str:
    """Which whitespace a file line can show a slip of: ``"tabs"`` (tab indentation),
    ``"spaces"`` (space indentation), ``"trailing"`` (trailing blanks or a blank line
    holding blanks), or ``""``."""
    if not line.strip():
        return "trailing" if line else ""
    if line != line.rstrip():
        return "trailing"
    indent = leading(line)
    if "\t" in indent:
        return "tabs"
    return "spaces" if indent else ""


def _expanded(file_indent: str, mine: str) -> int | None:
    """The tab width under which ``mine`` is ``file_indent`` with its tabs expanded
    (0: ``mine`` is ``file_indent`` as is), or ``None``."""
    if mine == file_indent:
        return 0
    for width in _TAB_WIDTHS:
        if file_indent.replace("\t", " " * width) == mine:
            return width
    return None
