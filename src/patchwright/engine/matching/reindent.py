"""Indentation shifts between what a model wrote and what the file holds.

A model that re-indents a whole block (four spaces too few, spaces for tabs) still means
the same lines. :func:`detect_shift` recognises a *consistent* shift from the aligned
lines; :func:`choose_frame` decides whether the model's new lines were written in the
same shifted frame (then they are shifted too) or already in the file's frame (then they
are inserted as given); :class:`Shift` converts one indentation into the other.

In the matching room although the replacing room shifts lines with it: the indentation
rung (:mod:`.rungs`) and the evidence of a loose search text (:mod:`.evidence`) measure a
shift to find the place, and the matching room may not import the replacing one.
"""

from __future__ import annotations

from collections.abc import Sequence

from patchwright._records import record
from patchwright.engine.matching.normalize import indent_width, is_blank, leading

_TABS = (4, 8, 2)


@record(frozen=True)
class Shift:
    """A consistent indentation change from the model's frame to the file's frame.

    Attributes:
        delta: columns to add (negative: remove).
        tab: tab width under which the shift is consistent.
        use_tabs: the file indents these lines with tabs.
        mapping: exact indentation strings seen (model's -> file's).
    """

    delta: int
    tab: int
    use_tabs: bool
    mapping: tuple[tuple[str, str], ...]
    scale: float = 1.0

    @property
    def is_identity(self) -> bool:
        """Whether the two frames are the same (nothing to convert)."""
        return all(a == b for a, b in self.mapping)

    def describe(self) -> str:
        """A short description such as ``+4 columns`` or ``spaces -> tabs``."""
        parts = []
        if self.scale != 1.0:
            parts.append(f"indent unit x{self.scale:g}")
        if self.delta:
            parts.append(f"{self.delta:+d} columns")
        if self.use_tabs and any(" " in a for a, _ in self.mapping):
            parts.append("spaces -> tabs")
        elif not self.use_tabs and any("\t" in a for a, _ in self.mapping):
            parts.append("tabs -> spaces")
        return ", ".join(parts) or "none"

    def apply(self, line: str) -> str:
        """Re-indent one line from the model's frame to the file's frame."""
        if is_blank(line):
            return line
        indent = leading(line)
        body = line[len(indent) :]
        for theirs, ours in self.mapping:
            if theirs == indent:
                return ours + body
        width = max(0, round(indent_width(indent, self.tab) * self.scale) + self.delta)
        if self.use_tabs:
            return "\t" * (width // self.tab) + " " * (width % self.tab) + body
        return " " * width + body


def detect_shift(pattern: Sequence[str], found: Sequence[str]) -> Shift | None:
    """The consistent shift taking ``pattern`` lines to ``found`` lines, if there is one.

    Blank lines are ignored. Returns ``None`` when the lines' indentation changes by
    different amounts (then it is not a re-indented copy of the same block).
    """
    pairs = [
        (leading(p), leading(f))
        for p, f in zip(pattern, found)
        if not is_blank(p) and not is_blank(f)
    ]
    if not pairs:
        return Shift(0, 4, False, ())
    mapping = tuple(dict.fromkeys(pairs))
    if all(a == b for a, b in mapping):
        return Shift(0, 4, False, mapping)
    # One model indentation must always map to one file indentation.
    seen: dict[str, str] = {}
    for a, b in mapping:
        if seen.setdefault(a, b) != b:
            return None
    use_tabs = any("\t" in b for _, b in mapping)
    for tab in _TABS:
        widths = [(indent_width(a, tab), indent_width(b, tab)) for a, b in mapping]
        deltas = {b - a for a, b in widths}
        if len(deltas) == 1:
            return Shift(deltas.pop(), tab, use_tabs, mapping)
        # A different indentation unit (2 spaces for 4): every level scaled alike.
        scales = {b / a for a, b in widths if a}
        if len(scales) == 1 and all(b == 0 for a, b in widths if not a):
            scale = scales.pop()
            if scale in (0.5, 2.0, 4.0, 0.25):
                return Shift(0, tab, use_tabs, mapping, scale)
    return None


def frame_votes(triples: Sequence[tuple[str, str, str]]) -> tuple[int, int]:
    """``(shift, keep)`` votes: a new line indented like the model's old line votes for
    shifting, like the file's line for keeping."""
    shift_votes = keep_votes = 0
    for model_old, file_old, new in triples:
        ind = leading(new)
        if ind == leading(model_old) and ind != leading(file_old):
            shift_votes += 1
        elif ind == leading(file_old) and ind != leading(model_old):
            keep_votes += 1
    return shift_votes, keep_votes


def _outvoted(beside_against: int, paired_for: int) -> bool:
    """Whether the lines beside an insertion that disagree are too few to veto."""
    return beside_against == 0 or (beside_against == 1 and paired_for >= 2)


def choose_frame(
    shift: Shift,
    pairs: Sequence[tuple[str, str, str]],
    same_frame_lines: int,
    beside: Sequence[tuple[str, str, str]] = (),
    new_lines: Sequence[str] = (),
    grid: frozenset[int] = frozenset(),
) -> bool | None:
    """Decide whether new lines must be shifted like the matched ones.

    Args:
        shift: the detected shift (not the identity).
        pairs: ``(model_old_line, file_old_line, model_new_line)`` for new lines whose
            content (indentation aside) equals an old line's, or that sit right beside
            an old line: a new line indented like the model's old line votes "shift",
            like the file's line votes "as given".
        beside: the same triples for the first and last new line of each block of
            added lines and the old line next to it (weaker evidence: it can veto a
            decision, never make one).
        same_frame_lines: new lines equal to an old line including indentation (as in a
            SEARCH/REPLACE pair): evidence that new text is in the model's frame.
        new_lines / grid: the added lines and the indentation widths the file uses near
            the edit; a frame that puts fewer added lines on the file's grid than the
            other is vetoed (an odd shift of a few columns lands off it).

    Returns:
        ``True`` to shift, ``False`` to insert as given, ``None`` when it cannot be told.
    """
    paired = frame_votes(pairs)
    strong = (paired[0] + same_frame_lines, paired[1])
    solid = [n for n in new_lines if not is_blank(n)]
    on_grid = sum(indent_width(leading(n), shift.tab) in grid for n in solid)
    shifted_on_grid = sum(indent_width(leading(shift.apply(n)), shift.tab) in grid for n in solid)
    shift_votes, keep_votes = strong
    b_shift, b_keep = frame_votes(beside)
    # Strong evidence decides when it is unanimous and neither the lines beside the old
    # ones nor the file's indentation levels say otherwise; weaker evidence never
    # decides alone. Mixed signals mean the edit itself changes indentation.
    # A line beside an insertion may sit at any depth: one such line alone does not veto
    # the unanimous votes of two or more lines paired with an old line (more do: a block
    # moved to another depth shows up as several).
    if (
        shift_votes
        and not keep_votes
        and shifted_on_grid >= on_grid
        and _outvoted(b_keep, paired[0])
    ):
        return True
    if (
        keep_votes
        and not shift_votes
        and on_grid >= shifted_on_grid
        and _outvoted(b_shift, paired[1])
    ):
        return False
    # Two weak signals that agree: the lines beside the old ones (at least two, all
    # alike) and the file's indentation levels (only one frame keeps every line on them).
    if not shift_votes and not keep_votes and solid:
        if b_keep >= 2 and not b_shift and on_grid == len(solid) > shifted_on_grid:
            return False
        if b_shift >= 2 and not b_keep and shifted_on_grid == len(solid) > on_grid:
            return True
        # One frame puts no added line on the file's levels at all (an odd shift of a
        # column or two): one line beside agreeing with the other is enough.
        if b_keep and not b_shift and on_grid == len(solid) and not shifted_on_grid:
            return False
        if b_shift and not b_keep and shifted_on_grid == len(solid) and not on_grid:
            return True
    return None


def replacement_shift(old: Sequence[str], found: Sequence[str], new: Sequence[str]) -> Shift | None:
    """The shift to give a complete replacement text whose old text matched shifted.

    For an old-text/new-text pair that shares no line, :func:`choose_frame` has no
    evidence and would refuse. But when the new text starts at the same indentation
    as the old text, and that base indentation is what the shift moves, the model wrote
    both in one (wrong) frame: the new text moves with the old. ``None`` otherwise
    (no consistent shift, a shared line, or another base: the edit may be meant to
    change the nesting, which only the usual evidence can tell).

    Args:
        old: the model's old lines; found: the file lines they matched, line for line;
        new: the model's new lines.
    """
    solid_old = [line for line in old if not is_blank(line)]
    solid_new = [line for line in new if not is_blank(line)]
    if not solid_old or not solid_new:
        return None
    if {line.strip() for line in solid_old} & {line.strip() for line in solid_new}:
        return None
    shift = detect_shift(old, found)
    if shift is None or shift.is_identity:
        return None
    base, file_base = min(shift.mapping, key=lambda m: indent_width(m[0], shift.tab))
    if base == file_base:
        return None
    new_base = min((leading(n) for n in solid_new), key=lambda i: indent_width(i, shift.tab))
    return shift if new_base == base else None
