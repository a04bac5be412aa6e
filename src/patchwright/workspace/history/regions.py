"""A content as its base with several byte ranges replaced: found, packed and applied.

An edit rarely touches one spot only: a patch of two hunks changes two places of a module,
one of 2,000 hunks changes a large file throughout. :func:`find_regions` describes the
new content as the base with a list of replaced ranges, each a ``(start, end, length)``
triple: ``base[start:end]`` is replaced by the next ``length`` bytes of the inserted data.
Applying the triples to the base gives the new content back, byte for byte, whatever
ranges were chosen: the search only decides how small the description is, never whether
it is right, because every byte outside a range is checked equal before it is skipped
and every byte inside one is copied.

The search is linear, and the bytes are compared in C:

1. the common run from where the walk stands is measured by galloping (blocks that double
   up to 64 KiB while they are equal, compared as ``bytes``, the first one as long as half
   the previous run); a differing block is halved down to 64 bytes, whose first differing
   byte is read at once from the XOR of the two blocks as integers;
2. at a difference, the walk resynchronises on lines: the start of the next line on
   either side (or a fixed step where there is no newline nearby) is an anchor of
   :data:`ANCHOR` bytes looked for on the other side, within a window that grows fourfold
   at each try, so a change of ``n`` bytes costs a few ``find`` calls over about ``n``
   bytes; the nearer of the two sides' hits wins, and the range it closes is trimmed of
   the bytes it shares at its end;
3. the walk gives up (``None``) as soon as the description would keep more than the
   caller's budget of bytes or more than :data:`MAX_REGIONS` ranges, or every
   256 ranges when the part walked so far, extrapolated to the whole, foretells either:
   the content is then kept whole, and a large content changed throughout (every line
   reindented) costs neither a copy of its middle nor thousands of steps.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Bytes of one side an anchor looks for on the other side.
ANCHOR = 32
#: The most ranges one content is described by (reads stay cheap).
MAX_REGIONS = 8192
#: Bytes one packed range takes (three unsigned 64-bit little-endian integers).
RANGE_SIZE = 24
_FIRST_BLOCK = 256
_LAST_BLOCK = 1 << 16  # two copies of this size at most are alive during a comparison
_SMALL = 64  # a differing block is halved down to this size, whose XOR is cheap
_FIRST_WINDOW = 1024
_TRIES = 10  # a window of 1 KiB x 4**9 = 256 MiB: every change of a real file
_NO_LINE = 256  # where no newline comes within this many bytes, anchors step by it
_FORECAST = 256  # ranges between two forecasts of the walk's end (see _hopeless)

Regions = list[tuple[int, int, int]]


def common_run(a: bytes, i: int, b: bytes, j: int, limit: int, block: int = _FIRST_BLOCK) -> int:
    """How many bytes of ``a`` from ``i`` equal those of ``b`` from ``j``, at most
    ``limit``; ``block`` is the size of the first comparison (a guess of the run's length
    saves doublings)."""
    done = 0
    while done < limit:
        step = min(block, limit - done)
        if a[i + done : i + done + step] == b[j + done : j + done + step]:
            done += step
            block = min(block * 2, _LAST_BLOCK)
            continue
        while step > _SMALL:  # halved down to a block whose XOR is cheap to read
            half = step // 2
            if a[i + done : i + done + half] == b[j + done : j + done + half]:
                done, step = done + half, step - half
            else:
                step = half
        x, y = a[i + done : i + done + step], b[j + done : j + done + step]
        return (
            done
            + step
            - ((int.from_bytes(x, "big") ^ int.from_bytes(y, "big")).bit_length() + 7) // 8
        )
    return done


def common_tail(a: bytes, a_end: int, b: bytes, b_end: int, limit: int) -> int:
    """How many bytes of ``a`` before ``a_end`` equal those of ``b`` before ``b_end``,
    at most ``limit``."""
    done, block = 0, _SMALL
    while done < limit:
        step = min(block, limit - done)
        if a[a_end - done - step : a_end - done] == b[b_end - done - step : b_end - done]:
            done += step
            block = min(block * 2, _LAST_BLOCK)
            continue
        while step > _SMALL:
            half = step // 2
            if a[a_end - done - half : a_end - done] == b[b_end - done - half : b_end - done]:
                done, step = done + half, step - half
            else:
                step = half
        x = a[a_end - done - step : a_end - done]
        y = b[b_end - done - step : b_end - done]
        diff = int.from_bytes(x, "little") ^ int.from_bytes(y, "little")
        return done + step - (diff.bit_length() + 7) // 8
    return done


def common_ends(a: bytes, b: bytes) -> tuple[int, int]:
    """The lengths of the common prefix and of the common suffix of ``a`` and ``b``,
    which never overlap (their sum is at most the shorter length)."""
    shorter = min(len(a), len(b))
    prefix = common_run(a, 0, b, 0, shorter)
    return prefix, common_tail(a, len(a), b, len(b), shorter - prefix)


def find_regions(base: bytes, new: bytes, budget: int) -> tuple[Regions, list[bytes]] | None:
    """``new`` as ``base`` with ranges replaced: the ranges and the bytes put in their
    place (see module docstring), or ``None`` when that would keep more than ``budget``
    bytes (each range counts :data:`RANGE_SIZE`) or more than :data:`MAX_REGIONS` ranges.
    """
    prefix, suffix = common_ends(base, new)
    base_end, new_end = len(base) - suffix, len(new) - suffix
    regions: Regions = []
    inserted: list[bytes] = []
    i, j, kept, guess = prefix, prefix, 0, _FIRST_BLOCK
    while i < base_end or j < new_end:
        p, q = _resync(base, i, base_end, new, j, new_end)
        if p < base_end and q < new_end:
            back = common_tail(base, p, new, q, min(p - i, q - j))
        else:
            back = 0  # the last range: the common suffix was trimmed already
        kept += q - back - j + RANGE_SIZE
        if kept > budget or len(regions) >= MAX_REGIONS:
            return None
        if len(regions) % _FORECAST == _FORECAST - 1 and _hopeless(
            len(regions), kept, budget, p - prefix, base_end - prefix
        ):
            return None
        regions.append((i, p - back, q - back - j))
        inserted.append(new[j : q - back])
        run = common_run(base, p, new, q, min(base_end - p, new_end - q), guess)
        # the next run is likely about as long: half of it is the first comparison
        i, j, guess = p + run, q + run, max(run // 2, _FIRST_BLOCK)
    return regions, inserted


def _hopeless(count: int, kept: int, budget: int, done: int, total: int) -> bool:
    """Whether the walk, ``done`` bytes of the base's ``total`` into its middle with
    ``count`` ranges keeping ``kept`` bytes, is on course for more than the range cap or
    the budget: changes that dense (a file reindented, its line endings converted, a
    comment on every twentieth line) are kept whole, told after a few hundred ranges
    instead of thousands. Changes crowded at the start of a large file may be judged
    so too and kept whole, as they would have been without ranges."""
    if done <= 0:
        return count >= _FORECAST
    return count * total > MAX_REGIONS * done or kept * total > budget * done


def _resync(
    base: bytes, i: int, base_end: int, new: bytes, j: int, new_end: int
) -> tuple[int, int]:
    """Where the two sides agree again after differing at ``i`` and ``j``: a position in
    each, at or after them (both ends when no anchor is found)."""
    window = _FIRST_WINDOW
    a, b = i, j
    for _ in range(_TRIES):
        a, b = _next_anchor(base, a, base_end), _next_anchor(new, b, new_end)
        best: tuple[int, int] | None = None
        if b < new_end:
            found = base.find(new[b : b + min(ANCHOR, new_end - b)], i, min(i + window, base_end))
            if found >= 0:
                best = (found, b)
        if a < base_end:
            found = new.find(base[a : a + min(ANCHOR, base_end - a)], j, min(j + window, new_end))
            if found >= 0 and (best is None or a + found < sum(best)):
                best = (a, found)
        if best is not None:
            return best
        if a >= base_end and b >= new_end:
            break
        window *= 4
    return base_end, new_end


def _next_anchor(data: bytes, at: int, end: int) -> int:
    """The start of the line after ``at`` (or ``at`` plus a fixed step in data without
    nearby newlines), at most ``end``."""
    newline = data.find(b"\n", at, min(at + _NO_LINE, end))
    return min(newline + 1 if newline >= 0 else at + _NO_LINE, end)


def pack(regions: Sequence[tuple[int, int, int]]) -> bytes:
    """The ranges as stored: three little-endian unsigned 64-bit integers each."""
    import struct  # only for a delta of several ranges

    return struct.pack(f"<{3 * len(regions)}Q", *(n for r in regions for n in r))


def unpack(packed: bytes) -> list[tuple[int, int, int]]:
    """The ranges :func:`pack` stored.

    Raises:
        ValueError: ``packed`` is not a whole number of ranges.
    """
    if len(packed) % RANGE_SIZE:
        raise ValueError("a packed list of ranges is a multiple of 24 bytes")
    import struct

    flat = struct.unpack(f"<{len(packed) // 8}Q", packed)
    return list(zip(flat[0::3], flat[1::3], flat[2::3], strict=True))


def apply(base: bytes, regions: Sequence[tuple[int, int, int]], inserted: bytes) -> bytes:
    """``base`` with each range replaced by its share of ``inserted`` (in order).

    Raises:
        ValueError: the ranges do not fit ``base`` or ``inserted`` (a damaged row).
    """
    pieces: list[memoryview] = []
    old, new = memoryview(base), memoryview(inserted)
    at = taken = 0
    for start, end, length in regions:
        if not at <= start <= end <= len(base) or taken + length > len(inserted):
            raise ValueError("a range out of order or past the end of its content")
        pieces += (old[at:start], new[taken : taken + length])
        at, taken = end, taken + length
    if taken != len(inserted):
        raise ValueError("inserted bytes left over after the last range")
    pieces.append(old[at:])
    return b"".join(pieces)
