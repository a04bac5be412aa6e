"""What two texts have in common at their start and end, found at C speed."""

from __future__ import annotations


def shared_lines(before: str, after: str) -> tuple[int, int]:
    """Counts of whole lines the texts share at the start and at the end (not overlapping).

    Works on characters with C-speed slice comparisons, then converts to lines; the same
    answer as comparing the ``split("\\n")`` lists line by line, much faster.
    """
    lead = shared_length(before, after, from_end=False)
    head_breaks = before.count("\n", 0, lead)
    prefix = head_breaks + _whole(before, after, lead, from_end=False)
    tail = shared_length(before, after, from_end=True)
    tail_breaks = before.count("\n", len(before) - tail)
    suffix = tail_breaks + _whole(before, after, tail, from_end=True)
    ends = (lead, tail, head_breaks, tail_breaks)
    limit = min(_breaks(before, *ends), _breaks(after, *ends)) + 1
    return prefix, max(0, min(suffix, limit - prefix))


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
