"""Unified diff rendering for people (and for models that read diffs back).

Output follows ``diff -u`` / git conventions: ``---``/``+++`` headers, ``@@ -a,b +c,d @@``
hunks with ``context`` lines around changes, and ``\\ No newline at end of file`` after a
last line that has no ending. Identical prefixes and suffixes are skipped, and a large
middle is first split at lines that occur once on each side (patience diff), so the
quadratic line matcher only ever sees small gaps: diffing a huge file stays fast.

Below both of the engine's rooms: the fuzzy rung and the evidence of a loose search text
(matching) align lines with its opcodes, snippets (replacing) render with it; it imports
neither room.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence

from patchwright.model.quoting import quote_name
from patchwright.model.text import TextFile, split_lines

_NO_EOL = "\\ No newline at end of file"


def unified_diff(
    old: str | TextFile,
    new: str | TextFile,
    old_path: str = "a",
    new_path: str = "b",
    *,
    context: int = 3,
    regions: Sequence[tuple[int, int, int, int]] | None = None,
) -> str:
    """Render the change from ``old`` to ``new`` as a unified diff ("" when equal).

    Line endings count: a line whose only change is CRLF -> LF shows as changed.
    ``regions`` may name the changed blocks when they are already known (0-based
    ``old_start, old_end, new_start, new_end``, as the engine reports them): the
    lines between them are checked to be equal and only the blocks are diffed; when
    the check fails, the whole texts are diffed as usual.
    """
    a_lines, a_ends = _lines(old)
    b_lines, b_ends = _lines(new)
    a, a_kind = _keys(a_lines, a_ends)
    b, b_kind = _keys(b_lines, b_ends)
    if a_kind != b_kind and a_lines and b_lines:
        # endings alike within each text but not between them (LF against CRLF, or
        # one text mixed): bare lines would hide the change, so both carry endings
        a = a if a_kind is None else _joined(a_lines, a_ends)
        b = b if b_kind is None else _joined(b_lines, b_ends)
    if a == b:
        return ""
    ops = None
    if regions is not None:
        # blocks the engine spliced: the lines between them are the old text's own
        known = (
            isinstance(new, TextFile)
            and isinstance(old, TextFile)
            and new.spliced_from(old, regions)
        )
        ops = _from_regions(a, b, regions, compare_between=not known)
    groups = _groups(a, b, context, ops)
    # a name is quoted as git quotes it: a newline or an escape in it never makes a row
    out = [f"--- {quote_name(old_path)}\n", f"+++ {quote_name(new_path)}\n"]
    # _keys gave the bare lines back when every line ends in LF: no second count
    full_a = _Full(a_lines, a_ends, _ends_in_lf(a_ends) if a is a_lines else None)
    full_b = _Full(b_lines, b_ends, _ends_in_lf(b_ends) if b is b_lines else None)
    for group in groups:
        out.extend(_render_group(full_a, full_b, group))
    return "".join(out)


def _ends_in_lf(endings: list[str]) -> bool:
    """Whether every line ends in LF, for lines that all end alike (LF or CRLF)."""
    return endings[-1] == "\n"


def _keys(lines: list[str], endings: list[str]) -> tuple[list[str], str | None]:
    """What lines are compared by, and the ending they all share (``None``: each key
    carries its own). When every line ends alike (the usual case), the bare line (no
    copy of a large file line by line); a last line without ending gets a mark so it
    never equals one with an ending. Bare keys compare only with bare keys of the same
    ending."""
    n = len(lines)
    for nl in ("\n", "\r\n"):
        full = endings.count(nl)
        if n and full == n:
            return lines, nl
        if n and full == n - 1 and endings[-1] == "":
            keys = list(lines)
            keys[-1] = keys[-1] + "\x00<no newline>"
            return keys, nl
    return _joined(lines, endings), None


def _joined(lines: list[str], endings: list[str]) -> list[str]:
    """Each line with its ending: keys of texts whose endings differ."""
    return [line + end for line, end in zip(lines, endings)]


class _Full:
    """Lines with their endings, joined only for the rows a diff prints."""

    def __init__(self, lines: list[str], endings: list[str], all_lf: bool | None = None) -> None:
        self.lines = lines
        self.endings = endings
        # every line ends in LF (the usual case): no row needs its own ending looked at
        self.all_lf = endings.count("\n") == len(endings) if all_lf is None else all_lf

    def rows(self, prefix: str, start: int, stop: int) -> str:
        """Lines ``start:stop`` as diff rows behind ``prefix``, in one string."""
        if start >= stop:
            return ""
        lines = self.lines[start:stop]
        if self.all_lf:
            return prefix + ("\n" + prefix).join(lines) + "\n"
        ends = self.endings[start:stop]
        if ends.count("\n") == len(ends):
            # every row ends in LF (the usual case): one join at C speed
            glue = "\n" + prefix
            return prefix + glue.join(lines) + "\n"
        return "".join([_row(prefix, line + end) for line, end in zip(lines, ends)])


def _lines(value: str | TextFile) -> tuple[list[str], list[str]]:
    if isinstance(value, TextFile):
        return value.lines, value.endings
    return split_lines(value)


Opcode = tuple[str, int, int, int, int]


def _from_regions(
    a: list[str],
    b: list[str],
    regions: Sequence[tuple[int, int, int, int]],
    *,
    compare_between: bool = True,
) -> list[Opcode] | None:
    """Opcodes from known changed blocks, or ``None`` when they do not fit the texts.

    ``compare_between=False``: the lines between the blocks are known to be the same
    (``new`` was spliced from ``old``, :meth:`TextFile.spliced_from`) and are not
    compared.

    The same opcodes as :func:`_merge` of each block's :func:`_diff_range` between the
    equal runs, built as they come: the equal lines around and between the blocks
    make one run up to the next change, and a hunk-sized block whose trimmed middle
    is one change (the usual hunk) is told without a matcher.
    """
    ops: list[Opcode] = []
    pa = pb = 0  # where the next block may start
    ea = eb = 0  # where the equal run in progress started
    for a0, a1, b0, b1 in sorted(regions):
        if a0 < pa or b0 < pb or a0 - pa != b0 - pb or a1 < a0 or b1 < b0:
            return None
        if a1 > len(a) or b1 > len(b):
            return None
        if compare_between and a[pa:a0] != b[pb:b0]:
            return None
        pa, pb = a1, b1
        limit = min(a1 - a0, b1 - b0)
        head = _common_run(a, b, a0, b0, limit, 1)
        a0, b0 = a0 + head, b0 + head
        tail = _common_run(a, b, a1 - 1, b1 - 1, limit - head, -1)
        a1, b1 = a1 - tail, b1 - tail
        if a0 == a1 and b0 == b1:
            continue  # nothing changed here: the equal run goes on
        whole = _one_change(a, b, a0, a1, b0, b1)
        if whole is not None:
            block = [whole]
        else:
            paired = _paired_once(a, b, a0, a1, b0, b1)
            block = paired if paired is not None else _diff_range(a, b, a0, a1, b0, b1)
        for op in block:
            if op[0] == "equal" or (op[1] == op[2] and op[3] == op[4]):
                continue
            if op[1] > ea or op[3] > eb:
                ops.append(("equal", ea, op[1], eb, op[3]))
            ops.append(op)
            ea, eb = op[2], op[4]
    if len(a) - pa != len(b) - pb or (compare_between and a[pa:] != b[pb:]):
        return None
    if len(a) > ea or len(b) > eb:
        ops.append(("equal", ea, len(a), eb, len(b)))
    return ops


def block_opcodes(
    a: list[str], b: list[str], blocks: Sequence[tuple[int, int, int, int]]
) -> list[Opcode] | None:
    """:func:`line_opcodes` of ``a`` and ``b`` told from their changed ``blocks`` when
    they are known (a diff's hunks: 0-based ``old_start, old_end, new_start, new_end``):
    the lines between the blocks are compared at C speed and only the blocks diffed.
    ``None`` when the blocks do not fit the texts (a line between them differs)."""
    return _from_regions(a, b, blocks)


def line_opcodes(a: list[str], b: list[str]) -> list[Opcode]:
    """``difflib``-style opcodes turning lines ``a`` into lines ``b``, linear in practice
    (common ends trimmed, large ranges anchored on lines unique on both sides)."""
    return _merge(_diff_range(a, b, 0, len(a), 0, len(b)))


# Above this many line pairs, difflib's quadratic matcher is replaced by anchoring on
# lines that occur once on each side (patience diff) and diffing the gaps between them.
_SMALL = 40_000


def _diff_range(a: list[str], b: list[str], a0: int, a1: int, b0: int, b1: int) -> list[Opcode]:
    """Opcodes turning ``a[a0:a1]`` into ``b[b0:b1]`` (indices into the full lists)."""
    ops: list[Opcode] = []
    head = _common_run(a, b, a0, b0, min(a1 - a0, b1 - b0), 1)
    if head:
        ops.append(("equal", a0, a0 + head, b0, b0 + head))
        a0, b0 = a0 + head, b0 + head
    tail = _common_run(a, b, a1 - 1, b1 - 1, min(a1 - a0, b1 - b0), -1)
    end: list[Opcode] = [("equal", a1 - tail, a1, b1 - tail, b1)] if tail else []
    a1, b1 = a1 - tail, b1 - tail
    if a0 == a1 and b0 == b1:
        return ops + end
    whole = _one_change(a, b, a0, a1, b0, b1)
    if whole is not None:
        return [*ops, whole, *end]
    if (a1 - a0) * (b1 - b0) <= _SMALL:
        from difflib import SequenceMatcher  # not for a single change: start-up time

        matcher = SequenceMatcher(None, a[a0:a1], b[b0:b1], autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            ops.append((tag, i1 + a0, i2 + a0, j1 + b0, j2 + b0))
        return ops + end
    anchors = _anchors(a, b, a0, a1, b0, b1)
    if not anchors:
        return [*ops, (_change_tag(a0, a1, b0, b1), a0, a1, b0, b1), *end]
    pa, pb = a0, b0
    for i, j in anchors:
        ops.extend(_diff_range(a, b, pa, i, pb, j))
        ops.append(("equal", i, i + 1, j, j + 1))
        pa, pb = i + 1, j + 1
    ops.extend(_diff_range(a, b, pa, a1, pb, b1))
    return ops + end


def _one_change(a: list[str], b: list[str], a0: int, a1: int, b0: int, b1: int) -> Opcode | None:
    """The block as one change when one side is empty or the two sides have no line in
    common (the most common hunk shape, told without a matcher: with nothing to pair,
    the matcher and the anchoring alike give one change)."""
    if (
        a0 == a1
        or b0 == b1
        or (a1 - a0 == 1 and a[a0] not in b[b0:b1])
        or (b1 - b0 == 1 and b[b0] not in a[a0:a1])
        or set(a[a0:a1]).isdisjoint(b[b0:b1])
    ):
        # the tag written out: thousands of hunks pass here
        tag = "replace" if a0 < a1 and b0 < b1 else ("delete" if a0 < a1 else "insert")
        return (tag, a0, a1, b0, b1)
    return None


def _paired_once(
    a: list[str], b: list[str], a0: int, a1: int, b0: int, b1: int
) -> list[Opcode] | None:
    """The matcher's opcodes of a block whose shared lines each stand once on each side
    and in the same order on both (a hunk that adds a line and changes the next one),
    told without the matcher; ``None`` for any other block.

    Then every line of ``a`` equals at most one line of ``b`` and no two such pairs
    cross: the matcher's longest block and the blocks it finds on either side of it
    are exactly the runs of these pairs, and what lies between two runs is one change.
    """
    side = b[b0:b1]
    where = {line: j for j, line in enumerate(side, b0)}
    repeated = _repeated(side) if len(where) != len(side) else None
    ops: list[Opcode] = []
    i, j = a0, b0  # where the next change may start on each side
    for k in range(a0, a1):
        line = a[k]
        m = where.get(line)
        if m is None:
            continue
        if m < j or (repeated is not None and line in repeated):
            return None  # pairs that cross (or a line of a paired twice): the matcher's
        if k > i or m > j:
            ops.append((_change_tag(i, k, j, m), i, k, j, m))
        elif ops and ops[-1][0] == "equal":
            ops[-1] = ("equal", ops[-1][1], k + 1, ops[-1][3], m + 1)
            i, j = k + 1, m + 1
            continue
        ops.append(("equal", k, k + 1, m, m + 1))
        i, j = k + 1, m + 1
    if i < a1 or j < b1:
        ops.append((_change_tag(i, a1, j, b1), i, a1, j, b1))
    return ops


def _repeated(lines: list[str]) -> set[str]:
    """The lines that stand more than once in ``lines``."""
    return {line for line, count in Counter(lines).items() if count > 1}


def _change_tag(a0: int, a1: int, b0: int, b1: int) -> str:
    return "replace" if a0 < a1 and b0 < b1 else ("delete" if a0 < a1 else "insert")


def matcher_opcodes(a: Sequence[str], b: Sequence[str]) -> list[Opcode]:
    """``difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()``, the same
    list, told without the matcher when ``a`` and ``b`` differ in one place.

    That is: past their common first and last lines, neither middle holds a line that
    the other text has anywhere. Then every pair of equal lines lies in the common
    ends; the longest block the matcher takes first is the longer end whole (ends of
    one length: the first, which it meets first), the other end comes next, and the
    middle between them, sharing nothing, is one change. (When one middle is empty,
    that text's ends touch: a copy of the longer tail starting within its head would
    be met first, and the matcher decides.)
    """
    la, lb = len(a), len(b)
    limit = min(la, lb)
    head = 0
    while head < limit and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < limit - head and a[la - 1 - tail] == b[lb - 1 - tail]:
        tail += 1
    a1, b1 = la - tail, lb - tail
    if (
        not set(a[head:a1]).isdisjoint(b)
        or not set(b[head:b1]).isdisjoint(a)
        or (tail > head and _tail_earlier(a, b, head, a1, b1))
    ):
        from difflib import SequenceMatcher  # a block changed in several places

        return list(SequenceMatcher(None, a, b, autojunk=False).get_opcodes())
    ops: list[Opcode] = [("equal", 0, head, 0, head)] if head else []
    if head < a1 or head < b1:
        ops.append((_change_tag(head, a1, head, b1), head, a1, head, b1))
    if tail:
        ops.append(("equal", a1, la, b1, lb))
    return ops


def _tail_earlier(a: Sequence[str], b: Sequence[str], head: int, a1: int, b1: int) -> bool:
    """Whether the side whose middle is empty has its tail's lines starting within its
    head too (``False`` when both middles hold lines: their ends cannot touch)."""
    if head < a1 and head < b1:
        return False
    side, cut = (a, a1) if head == a1 else (b, b1)
    tail = side[cut:]
    size = len(tail)
    return any(side[x : x + size] == tail for x in range(head))


def _common_run(a: list[str], b: list[str], i: int, j: int, limit: int, step: int) -> int:
    """How many lines ``a`` and ``b`` share from ``a[i]`` and ``b[j]`` on, going forward
    (``step`` 1) or backward (-1), at most ``limit``.

    Compares growing slices (C speed) and walks line by line only inside the first slice
    that differs: an edit of a large file shares thousands of lines at each end.
    """
    done, chunk = 0, 32
    if limit <= chunk:  # a hunk-sized block: a plain walk beats the slices
        while done < limit and a[i + step * done] == b[j + step * done]:
            done += 1
        return done
    while done < limit:
        size = min(chunk, limit - done)
        if step == 1:
            same = a[i + done : i + done + size] == b[j + done : j + done + size]
        else:
            same = a[i - done - size + 1 : i - done + 1] == b[j - done - size + 1 : j - done + 1]
        if not same:
            break
        done += size
        chunk *= 2
    while done < limit and a[i + step * done] == b[j + step * done]:
        done += 1
    return done


def _anchors(
    a: list[str], b: list[str], a0: int, a1: int, b0: int, b1: int
) -> list[tuple[int, int]]:
    """Lines unique in both ranges, in an order both sides agree on (longest run)."""
    count_a = Counter(a[a0:a1])
    count_b = Counter(b[b0:b1])
    where_b = {line: j for j, line in enumerate(b[b0:b1], b0) if count_b[line] == 1}
    pairs = [
        (i, where_b[line])
        for i, line in enumerate(a[a0:a1], a0)
        if count_a[line] == 1 and line in where_b
    ]
    return _increasing(pairs)


def _increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of ``pairs`` (sorted by i) with increasing j."""
    tails: list[int] = []  # tails[k]: j of the smallest tail of a run of length k + 1
    tail_at: list[int] = []
    back: list[int] = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        k = bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_at.append(n)
        else:
            tails[k] = j
            tail_at[k] = n
        back[n] = tail_at[k - 1] if k else -1
    out: list[tuple[int, int]] = []
    n = tail_at[-1] if tail_at else -1
    while n != -1:
        out.append(pairs[n])
        n = back[n]
    return out[::-1]


def _merge(ops: list[Opcode]) -> list[Opcode]:
    """Join neighbouring opcodes of the same kind (anchors split equal runs)."""
    out: list[Opcode] = []
    for op in ops:
        if op[1] == op[2] and op[3] == op[4]:
            continue
        if out and out[-1][0] == op[0] == "equal":
            prev = out[-1]
            out[-1] = ("equal", prev[1], op[2], prev[3], op[4])
        else:
            out.append(op)
    return out


def _groups(
    a: list[str], b: list[str], n: int, known: list[Opcode] | None = None
) -> list[list[Opcode]]:
    ops = known if known is not None else line_opcodes(a, b)
    groups: list[list[Opcode]] = []
    current: list[Opcode] = []
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            if not current:
                current.append((tag, max(i1, i2 - n), i2, max(j1, j2 - n), j2))
                continue
            if i2 - i1 > 2 * n:
                current.append((tag, i1, i1 + n, j1, j1 + n))
                groups.append(current)
                current = [(tag, i2 - n, i2, j2 - n, j2)]
                continue
        current.append((tag, i1, i2, j1, j2))
    if current and not (len(current) == 1 and current[0][0] == "equal"):
        last = current[-1]
        if last[0] == "equal":
            tag, i1, i2, j1, j2 = last
            current[-1] = (tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n))
        groups.append(current)
    return groups


def _render_group(a: _Full, b: _Full, group: list[Opcode]) -> list[str]:
    i1, i2 = group[0][1], group[-1][2]
    j1, j2 = group[0][3], group[-1][4]
    out = [f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@\n"]
    if a.all_lf and b.all_lf:
        # every row ends in LF (the usual case): each run of rows is one join, in place
        old, new = a.lines, b.lines
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                if a1 < a2:
                    out.append(" " + "\n ".join(old[a1:a2]) + "\n")
                continue
            if a1 < a2:
                out.append("-" + "\n-".join(old[a1:a2]) + "\n")
            if b1 < b2:
                out.append("+" + "\n+".join(new[b1:b2]) + "\n")
        return out
    for tag, a1, a2, b1, b2 in group:
        if tag == "equal":
            out.append(a.rows(" ", a1, a2))
            continue
        out.append(a.rows("-", a1, a2))
        out.append(b.rows("+", b1, b2))
    return out


def _row(prefix: str, line: str) -> str:
    if line.endswith(("\n", "\r")):
        return prefix + line if line.endswith("\n") else prefix + line + "\n"
    return f"{prefix}{line}\n{_NO_EOL}\n"


def _range(start: int, stop: int) -> str:
    length = stop - start
    first = start + 1
    if length == 0:
        first -= 1  # an empty range names the line before it
    return f"{first}" if length == 1 else f"{first},{length}"
