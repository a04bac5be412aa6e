"""A search index over a file's lines: substring search in C, line numbers by counting.

Rungs find candidate positions by looking for one distinctive pattern line (the
*anchor*) as a substring of the ``"\\n"``-joined file text, which ``str.find`` does at C
speed, then verify the whole block at each candidate. That keeps every rung linear in
the file size with a small constant, even on million-line files.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Hashable
from itertools import compress, repeat
from operator import not_

from patchwright.engine.matching.normalize import PUNCT_TABLE, fold_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")

# Searches on one index after which whole-line dictionaries are built.
HOT_AFTER = 4
# A key occurring more often than this is a poor anchor; a better one is tried first.
MAX_ANCHOR_HITS = 256


class LineIndex:
    """Lazily built views of one file's lines."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self._joined: str | None = None
        self._folded: str | None = None
        self._collapsed: str | None = None
        self._keys: dict[str, list[str]] = {}
        self._some_keys: dict[str, list[str | None]] = {}
        self._memo: dict[Hashable, object] = {}
        self._last: _Positions | None = None
        self._expected: set[str] | None = None
        self._some: _Positions | None = None
        self.searches = 0

    @property
    def joined(self) -> str:
        """Line contents joined with ``"\\n"`` (whatever the file's real endings)."""
        if self._joined is None:
            self._joined = "\n".join(self.lines)
        return self._joined

    @property
    def folded(self) -> str:
        """``joined`` with typographic punctuation folded (may change lengths)."""
        if self._folded is None:
            joined = self.joined
            # ASCII text has nothing to fold (and translate is slow on large text).
            self._folded = joined if joined.isascii() else joined.translate(PUNCT_TABLE)
        return self._folded

    @property
    def collapsed(self) -> str:
        """``folded`` as the unicode rung's keys see it, runs of blanks collapsed too, so
        those keys can be searched in it (never changes the line count)."""
        if self._collapsed is None:
            self._collapsed = fold_text(self.folded)
        return self._collapsed

    def keys(self, name: str, fn: Callable[[str], str]) -> list[str]:
        """Every line through ``fn``, cached under ``name`` (built only when needed)."""
        cached = self._keys.get(name)
        if cached is None:
            cached = list(map(fn, self.lines))
            self._keys[name] = cached
        return cached

    def memo(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, computed once per index for ``key``: a result derived from the
        lines that several callers ask for (the fuzzy rung's regions, asked again by
        the refusal that explains them)."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]  # type: ignore[return-value]  # what make() gave for key

    def keys_between(self, name: str, fn: Callable[[str], str], a: int, b: int) -> list[str]:
        """Lines ``a:b`` through ``fn``, each line's key computed once per index (the fuzzy
        rung aligns overlapping windows, and checks its regions line by line)."""
        full = self._keys.get(name)
        if full is not None:
            return full[a:b]
        some = self._some_keys.get(name)
        if some is None:
            some = self._some_keys[name] = [None] * len(self.lines)
        lines = self.lines
        out: list[str] = []
        for k in range(a, b):
            key = some[k]
            if key is None:
                key = some[k] = fn(lines[k])
            out.append(key)
        return out

    def unique_line(self, line: str) -> int | bool | None:
        """Where ``line`` stands if it occurs exactly once (its 0-based number), ``False``
        when it does not occur, ``None`` when it occurs several times.

        Backed by a dictionary of each line's last position and the set of lines seen
        before their last position (the repeated ones), both built at C speed on first
        use; worth it once a batch searches the same file many times (thousands of
        hunks), not for one search. One dictionary, not one per end: for a large file
        each costs about its size in memory. A line among those :meth:`expect` named is
        answered from the file lines among them alone.
        """
        if self._last is None and self._expected is not None and line in self._expected:
            if self._some is None:
                self._some = _Positions.of_lines(self.lines, self._expected)
            return self._some.unique(line)
        if self._last is None:
            self._last = _Positions(self.lines)
        return self._last.unique(line)

    def expect(self, lines: set[str]) -> None:
        """Name the lines :meth:`unique_line` will be asked about (a batch's search
        blocks): the file lines among them are then found with one pass of set
        look-ups, and only those go in the dictionary (cheaper than one of every line
        of a large file; a line not named still builds that)."""
        self._expected = lines

    @property
    def hot(self) -> bool:
        """Whether enough searches ran on this index to make line dictionaries pay off."""
        return self.searches > HOT_AFTER

    def line_of(self, pos: int) -> int:
        """The 0-based line containing character ``pos`` of ``joined``."""
        return self.joined.count("\n", 0, pos)

    def line_starts(self, needle: str, text: str | None = None, limit: int = 0) -> list[int]:
        """0-based numbers of the lines on which ``needle`` occurs in ``text`` (default
        ``joined``), in order, each line once. Stops after ``limit`` hits when set.

        Line numbers come from counting newlines incrementally between hits: one pass
        over the text at C speed, cheaper than building a table of line offsets.
        """
        hay = self.joined if text is None else text
        if not needle:
            return []
        out: list[int] = []
        pos = hay.find(needle)
        line = last = 0
        while pos != -1:
            line += hay.count("\n", last, pos)
            last = pos
            if not out or out[-1] != line:
                out.append(line)
                if limit and len(out) > limit:
                    break
            pos = hay.find(needle, pos + 1)
        return out


class _Positions:
    """Lines (all of a file's, or some of them) told unique, repeated or absent: each
    line's last position and the set of lines that stand anywhere else as well."""

    def __init__(self, lines: list[str], where: list[int] | None = None) -> None:
        self.where = where  # the file positions of ``lines`` (``None``: lines are the file)
        self.last = last = dict(zip(lines, range(len(lines))))
        self.repeated: set[str] = set()
        if len(last) < len(lines):
            # a line standing anywhere but at its last position is repeated: told by a
            # byte per line marking the last positions, set in C (looking each line up
            # again would touch strings scattered over the file's size)
            at_last = bytearray(len(lines))
            deque(map(at_last.__setitem__, last.values(), repeat(1)), maxlen=0)
            self.repeated = set(compress(lines, map(not_, at_last)))

    @classmethod
    def of_lines(cls, lines: list[str], wanted: set[str]) -> _Positions:
        """The file ``lines`` that are in ``wanted``, with their positions."""
        where = list(compress(range(len(lines)), map(wanted.__contains__, lines)))
        return cls(list(map(lines.__getitem__, where)), where)

    def unique(self, line: str) -> int | bool | None:
        """See :meth:`LineIndex.unique_line`."""
        at = self.last.get(line)
        if at is None:
            return False
        if line in self.repeated:
            return None
        return at if self.where is None else self.where[at]


# Anchors tried per search. A probe stops after MAX_ANCHOR_HITS hits, so a common line
# costs little; trying several finds the rare (or absent) line that settles the search:
# in a file of near-copies, the longest lines are the ones every copy shares.
_ANCHORS = 8


def choose_anchors(keys: list[str], count: Callable[[str], int]) -> list[tuple[int, str]]:
    """Pick anchor lines for a pattern: the longest distinct non-blank keys, longest first
    (callers stop at the first with few hits).

    Returns ``(pattern_index, key)`` pairs; ``count`` says how often a key occurs (not
    called: counting every key would scan the whole text once per key).
    """
    seen: set[str] = set()
    ranked: list[tuple[int, int, str]] = []
    for i, key in enumerate(keys):
        if key and key not in seen:
            seen.add(key)
            ranked.append((-len(key), i, key))
    _ = count
    return [(i, k) for _, i, k in heapq.nsmallest(_ANCHORS, ranked)]
