"""Judging an edit with changes far apart one change at a time.

A diff often changes a file in several places (two hunks hundreds of lines apart). The
region check of :mod:`.pyregion` judges one run of statements around everything that
changed, which then spans all the lines between the first and the last change: the
run grows to most of the file and its compile costs what a whole-file compile costs.

Applying the changes one after another instead gives a chain of texts, each differing
from the one before it in one place only::

    before = T0 -> T1 -> ... -> Tk = after

Each step is judged on its own (a small run around that change). When every step
keeps the syntax, so does the whole edit: each step brings no error its text did not
have. When a step cannot be proven or introduces an error, the answer is "not proven"
and the caller judges the edit as one (where an error is located and reported).
"""

from __future__ import annotations

import itertools
from collections import namedtuple
from collections.abc import Callable, Sequence

from patchwright.syntax.stdlib_parsers import ParseError

#: Changes spread over more lines than this are judged one at a time.
SPREAD_LINES = 40
# Steps judged at most: each costs about as much as compiling a hundred lines of a
# large text, and a little more the more steps came before it.
_FEWEST_MAX_STEPS = 64
_MOST_MAX_STEPS = 200


def max_steps(lines: int) -> int:
    """How many changes of a text of ``lines`` lines are judged one at a time: beyond,
    one whole-file compile is cheaper than the steps (measured in docs/benchmarks.md)."""
    return min(max(_FEWEST_MAX_STEPS, lines // 100), _MOST_MAX_STEPS)


#: The lines of two texts, as split at ``\n``.
Split = tuple[Sequence[str], Sequence[str]]
#: A changed block: old start, old end, new start, new end (0-based line indices, half open).
Block = tuple[int, int, int, int]


TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple

    class _Step(NamedTuple):
        lines: tuple[list[str], list[str]]
        shared: tuple[int, int]
        last: bool
else:
    # the same named tuple without ``typing`` (start-up time)
    _Step = namedtuple("_Step", ("lines", "shared", "last"))


class Step(_Step):
    """One step of the chain: the lines of its step's text before and after it, as split
    at ``\n`` (``lines``); counts of lines the two step texts share at their start and
    end (``shared``); True for the step whose text after it is the text after the whole
    edit (``last``)."""

    __slots__ = ()


Judge = Callable[[Step], "list[ParseError] | None"]


def stepwise(
    split: Split,
    judge: Judge,
    changed: Sequence[Block] | None = None,
    shared: tuple[int, int] = (0, 0),
) -> list[ParseError] | None:
    """``[]`` when every change, applied in turn, keeps the syntax; else ``None``.

    ``split`` holds the lines of the text before and after the edit (as split at
    ``\n``); ``judge(step)`` judges one step (``[]``: it keeps the syntax). ``changed``
    gives the changed blocks when the caller knows them; they are only trusted as far as
    applying them in turn rebuilds the text after exactly. Otherwise they are found
    between the shared start and end (``shared``: counts of lines). More than
    :func:`max_steps` of them given, or found, is ``None`` at once.
    """
    most = max_steps(len(split[0]))
    if changed is not None and len(changed) > most:
        # too many changes to step through: finding them again from the texts (a line
        # diff of everything between the first and the last) would only confirm it
        return None
    first, suffix = shared
    old_lines, new_lines = split
    blocks = _hinted(changed, len(old_lines), len(new_lines))
    if blocks is None:
        blocks = _changed_blocks(old_lines, new_lines, first, suffix, most)
    if blocks is None or len(blocks) < 2:
        return None
    steps = [_trimmed(block, old_lines, new_lines) for block in blocks]
    # context only: nothing to judge
    steps = [(i1, i2, j1, j2) for i1, i2, j1, j2 in steps if i1 != i2 or j1 != j2]
    # never changed in place (each step builds a new list): the caller's list is used as is
    current = old_lines if isinstance(old_lines, list) else list(old_lines)
    shift = 0
    for number, (i1, i2, j1, j2) in enumerate(steps, 1):
        # top-down, so a step never moves the lines above it
        lo, hi = i1 + shift, i2 + shift
        following = current[:lo] + list(new_lines[j1:j2]) + current[hi:]
        step_suffix = len(current) - hi
        shared_step = (lo, min(step_suffix, len(following) - lo))
        if judge(Step((current, following), shared_step, number == len(steps))) != []:
            return None
        current = following
        shift += (j2 - j1) - (i2 - i1)
    # the blocks rebuilt the text after only if its lines are the last step's
    rebuilt = current == (new_lines if isinstance(new_lines, list) else list(new_lines))
    return [] if rebuilt else None


def _trimmed(block: Block, old: Sequence[str], new: Sequence[str]) -> Block:
    """``block`` without the lines it keeps at its ends.

    A diff's hunk spans its context lines too; judged with them, a one-line change next
    to a ``def`` line would be judged as a change of the whole module level (the run
    then spans whole functions). The lines a step keeps are shared by both of its
    texts, which is all the region check asks of the lines around a change.
    """
    i1, i2, j1, j2 = block
    while i1 < i2 and j1 < j2 and old[i1] == new[j1]:
        i1, j1 = i1 + 1, j1 + 1
    while i1 < i2 and j1 < j2 and old[i2 - 1] == new[j2 - 1]:
        i2, j2 = i2 - 1, j2 - 1
    return i1, i2, j1, j2


def _hinted(changed: Sequence[Block] | None, old: int, new: int) -> list[Block] | None:
    """The caller's blocks when they are ordered and in range (and not too many: see
    :func:`stepwise`)."""
    if not changed:
        return None
    blocks = sorted(changed)
    for (_, i2, _, j2), (k1, _, l1, _) in itertools.pairwise(blocks):
        if k1 < i2 or l1 < j2:
            return None  # overlapping: not the blocks of one diff
    last = blocks[-1]
    first = blocks[0]
    if first[0] < 0 or first[2] < 0 or last[1] > old or last[3] > new:
        return None
    if any(i1 > i2 or j1 > j2 for i1, i2, j1, j2 in blocks):
        return None
    return blocks


def _changed_blocks(
    old: Sequence[str], new: Sequence[str], first: int, suffix: int, most: int
) -> list[tuple[int, int, int, int]] | None:
    """The changed line blocks between the shared ends, as (old start, old end, new start,
    new end) line indices; ``None`` when there are too many to step through."""
    # imported here: the engine's line diff is only needed for edits spread this far
    from patchwright.engine.diff import line_opcodes

    old_mid, new_mid = list(old[first : len(old) - suffix]), list(new[first : len(new) - suffix])
    blocks = [
        (first + i1, first + i2, first + j1, first + j2)
        for tag, i1, i2, j1, j2 in line_opcodes(old_mid, new_mid)
        if tag != "equal"
    ]
    return None if len(blocks) > most else blocks
