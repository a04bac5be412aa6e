"""What two texts have in common at their start and end, found at C speed; the lines of
a text read where they are needed (:class:`TextLines`); facts kept about the texts of
recent checks (:class:`KeptByText`)."""

from __future__ import annotations

import threading
from collections import namedtuple
from collections.abc import Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Generic, NamedTuple, TypeVar, overload

    T = TypeVar("T")

    class _Shared(NamedTuple):
        #: whole lines the texts share at their start
        prefix: int
        #: whole lines they share at their end, not overlapping the prefix
        suffix: int
        #: ``text.count("\\n")`` of the text before and of the text after
        before_breaks: int
        after_breaks: int
        #: a line both texts start at the same character offset, and that offset
        anchor: tuple[int, int]
else:
    # the same named tuple and generic base without ``typing`` (start-up time of a
    # Python file's check)
    _Shared = namedtuple("_Shared", ("prefix", "suffix", "before_breaks", "after_breaks", "anchor"))

    class Generic:
        """A stand-in for ``typing.Generic``: ``Generic[T]`` is this class."""

        def __class_getitem__(cls, item: object) -> type:
            return cls

    T = None


class Shared(_Shared):
    """What two texts share, in lines, and what finding it counted on the way: whole
    lines shared at the start (``prefix``) and at the end, not overlapping the prefix
    (``suffix``); ``text.count("\\n")`` of the text before and of the text after; a line
    both texts start at the same character offset, and that offset (``anchor``)."""

    __slots__ = ()


def shared_lines(before: str, after: str) -> tuple[int, int]:
    """Counts of whole lines the texts share at the start and at the end (not overlapping).

    Works on characters with C-speed slice comparisons, then converts to lines; the same
    answer as comparing the ``split("\\n")`` lists line by line, much faster.
    """
    found = shared(before, after)
    return found.prefix, found.suffix


def shared(before: str, after: str) -> Shared:
    """:func:`shared_lines` with the line counts of both texts, found on the way."""
    lead = shared_length(before, after, from_end=False)
    tail = shared_length(before, after, from_end=True)
    head_breaks, tail_breaks = _edge_breaks(before, lead, tail)
    prefix = head_breaks + _whole(before, after, lead, from_end=False)
    suffix = tail_breaks + _whole(before, after, tail, from_end=True)
    ends = (lead, tail, head_breaks, tail_breaks)
    before_breaks, after_breaks = _breaks(before, *ends), _breaks(after, *ends)
    _BREAKS.put(after, after_breaks)
    limit = min(before_breaks, after_breaks) + 1
    # line ``head_breaks`` starts inside the shared start, at the same offset in both
    anchor = (head_breaks, before.rfind("\n", 0, lead) + 1)
    return Shared(prefix, max(0, min(suffix, limit - prefix)), before_breaks, after_breaks, anchor)


def _edge_breaks(text: str, lead: int, tail: int) -> tuple[int, int]:
    """The line breaks in the first ``lead`` and in the last ``tail`` characters of
    ``text``.

    A text checked edit after edit is usually the text the previous check had after
    its edit, whose breaks it counted: knowing the total, only the shorter edge and
    the middle are counted.
    """
    middle_end = len(text) - tail
    total = _BREAKS.get(text)
    if total is None or lead > middle_end:
        return text.count("\n", 0, lead), text.count("\n", middle_end)
    middle = text.count("\n", lead, middle_end)
    if lead <= tail:
        head = text.count("\n", 0, lead)
        return head, total - head - middle
    end = text.count("\n", middle_end)
    return total - end - middle, end


class KeptByText(Generic[T]):
    """A fact about each of the last few texts checked, found by the text's identity.

    An agent edits a file call after call, and the text after one edit is the very
    object the next check gets as its text before: what a check learnt about its text
    after (line breaks, bracket depth at a line...) spares work in the next. The texts
    are held, so an identity never names another text; an equal text that is another
    object is not found (it costs a scan, never a wrong fact). Thread-safe.
    """

    def __init__(self, size: int = 4, max_chars: int = 1_000_000) -> None:
        self._size = size
        self._max_chars = max_chars  # a few larger texts would hold too much memory
        self._kept: list[tuple[str, T]] = []
        self._lock = threading.Lock()

    def get(self, text: str) -> T | None:
        """The fact kept about this very ``text``, or ``None``."""
        with self._lock:
            return next((fact for kept, fact in self._kept if kept is text), None)

    def put(self, text: str, fact: T) -> None:
        """Keep ``fact`` about ``text`` (the oldest kept text is let go)."""
        if len(text) <= self._max_chars:
            with self._lock:
                self._kept.insert(0, (text, fact))
                del self._kept[self._size :]


# The line breaks of the last few texts after an edit.
_BREAKS: KeptByText[int] = KeptByText()


class LineSequence(Sequence[str]):
    """A text's lines read as a sequence, each found or made when asked for.

    Subclasses set ``_count`` (the line count) and give one line (``_line``, with an
    index in range) and a run of lines (``_run``, with ``start < stop``, a new list).
    """

    _count: int

    def __len__(self) -> int:
        return self._count

    if TYPE_CHECKING:

        @overload
        def __getitem__(self, index: int) -> str: ...
        @overload
        def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._count)
            if step != 1:
                return [self._line(i) for i in range(start, stop, step)]
            return self._run(start, stop) if start < stop else []
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError("line index out of range")
        return self._line(index)

    def _line(self, index: int) -> str:
        raise NotImplementedError

    def _run(self, start: int, stop: int) -> list[str]:
        raise NotImplementedError


class TextLines(LineSequence):
    """``text.split("\\n")`` without splitting: lines found when asked for.

    A region check reads a few lines around an edit of a long text; finding them from
    a line whose offset is known costs what they span, where a split costs the whole
    text. ``anchor`` is a line index and the offset where it starts; ``breaks`` is
    ``text.count("\\n")``.
    """

    def __init__(self, text: str, breaks: int, anchor: tuple[int, int]) -> None:
        self._text = text
        self._count = breaks + 1
        self._known = [(0, 0), anchor, (breaks, text.rfind("\n") + 1)]

    def _run(self, start: int, stop: int) -> list[str]:
        begin = self._offset(start)
        end = self._offset(stop) - 1 if stop < self._count else len(self._text)
        return self._text[begin:end].split("\n")

    def _line(self, index: int) -> str:
        begin = self._offset(index)
        end = self._text.find("\n", begin)
        return self._text[begin : end if end >= 0 else len(self._text)]

    def _offset(self, index: int) -> int:
        """Where line ``index`` starts, walked to from the nearest line known."""
        line, offset = min(self._known, key=lambda known: abs(known[0] - index))
        text = self._text
        while line < index:
            offset = text.index("\n", offset) + 1
            line += 1
        while line > index:
            offset = text.rindex("\n", 0, offset - 1) + 1 if line > 1 else 0
            line -= 1
        return offset


def _breaks(text: str, lead: int, tail: int, head_breaks: int, tail_breaks: int) -> int:
    """``text.count("\n")``, counting only the part between the shared start and end:
    both texts have the same characters there, whose breaks are already counted."""
    middle_end = len(text) - tail
    if lead > middle_end:  # the shared start and end overlap in this text
        return text.count("\n")
    return head_breaks + text.count("\n", lead, middle_end) + tail_breaks


def _whole(a: str, b: str, shared: int, *, from_end: bool) -> int:
    """1 when the shared run swallows a text's whole first (last) line as well."""
    for x, y in ((a, b), (b, a)):
        if shared == len(x):
            edge = len(y) - shared - 1 if from_end else shared
            return int(shared == len(y) or y[edge] == "\n")
    return 0


_BLOCK = 4096


def shared_length(a: str, b: str, *, from_end: bool) -> int:
    """Length of the common prefix (or suffix) of ``a`` and ``b``."""
    limit = min(len(a), len(b))

    def same(lo: int, hi: int) -> bool:
        if from_end:
            return a[len(a) - hi : len(a) - lo] == b[len(b) - hi : len(b) - lo]
        return a[lo:hi] == b[lo:hi]

    done = 0
    while done < limit and same(done, min(limit, done + _BLOCK)):
        done = min(limit, done + _BLOCK)
    hi = min(limit, done + _BLOCK)
    while done < hi:  # binary search inside the first block that differs
        mid = (done + hi + 1) // 2
        if same(done, mid):
            done = mid
        else:
            hi = mid - 1
    return done
