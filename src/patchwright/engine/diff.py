"""Unified diff rendering for people (and for models that read diffs back).

Output follows ``diff -u`` / git conventions: ``---``/``+++`` headers, ``@@ -a,b +c,d @@``
hunks with ``context`` lines around changes, and ``\\ No newline at end of file`` after a
last line that has no ending. Identical prefixes and suffixes are skipped, and a large
middle is first split at lines that occur once on each side (patience diff), so the
quadratic line matcher only ever sees small gaps: diffing a huge file stays fast.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from difflib import SequenceMatcher

from patchwright.model.text import TextFile, split_lines

_NO_EOL = "\\ No newline at end of file"


def unified_diff(
    old: str | TextFile,
    new: str | TextFile,
    old_path: str = "a",
    new_path: str = "b",
    *,
    context: int = 3,
) -> str:
    """Render the change from ``old`` to ``new`` as a unified diff ("" when equal).

    Line endings count: a line whose only change is CRLF -> LF shows as changed.
    """
    a_lines, a_ends = _lines(old)
    b_lines, b_ends = _lines(new)
    a = [line + end for line, end in zip(a_lines, a_ends)]
    b = [line + end for line, end in zip(b_lines, b_ends)]
    if a == b:
        return ""
    groups = _groups(a, b, context)
    out = [f"--- {old_path}\n", f"+++ {new_path}\n"]
    for group in groups:
        out.extend(_render_group(a, b, group))
    return "".join(out)


def _lines(value: str | TextFile) -> tuple[list[str], list[str]]:
    if isinstance(value, TextFile):
        return value.lines, value.endings
    return split_lines(value)


Opcode = tuple[str, int, int, int, int]


def _opcodes(a: list[str], b: list[str]) -> list[Opcode]:
    return _merge(_diff_range(a, b, 0, len(a), 0, len(b)))


# Above this many line pairs, difflib's quadratic matcher is replaced by anchoring on
# lines that occur once on each side (patience diff) and diffing the gaps between them.
_SMALL = 40_000


def _diff_range(a: list[str], b: list[str], a0: int, a1: int, b0: int, b1: int) -> list[Opcode]:
    """Opcodes turning ``a[a0:a1]`` into ``b[b0:b1]`` (indices into the full lists)."""
    ops: list[Opcode] = []
    head = 0
    while a0 + head < a1 and b0 + head < b1 and a[a0 + head] == b[b0 + head]:
        head += 1
    if head:
        ops.append(("equal", a0, a0 + head, b0, b0 + head))
        a0, b0 = a0 + head, b0 + head
    tail = 0
    while a1 - tail > a0 and b1 - tail > b0 and a[a1 - tail - 1] == b[b1 - tail - 1]:
        tail += 1
    end: list[Opcode] = [("equal", a1 - tail, a1, b1 - tail, b1)] if tail else []
    a1, b1 = a1 - tail, b1 - tail
    if a0 == a1 and b0 == b1:
        return ops + end
    if (a1 - a0) * (b1 - b0) <= _SMALL:
        matcher = SequenceMatcher(None, a[a0:a1], b[b0:b1], autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            ops.append((tag, i1 + a0, i2 + a0, j1 + b0, j2 + b0))
        return ops + end
    anchors = _anchors(a, b, a0, a1, b0, b1)
    if not anchors:
        tag = "replace" if a0 < a1 and b0 < b1 else ("delete" if a0 < a1 else "insert")
        return [*ops, (tag, a0, a1, b0, b1), *end]
    pa, pb = a0, b0
    for i, j in anchors:
        ops.extend(_diff_range(a, b, pa, i, pb, j))
        ops.append(("equal", i, i + 1, j, j + 1))
        pa, pb = i + 1, j + 1
    ops.extend(_diff_range(a, b, pa, a1, pb, b1))
    return ops + end


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


def _groups(a: list[str], b: list[str], n: int) -> list[list[Opcode]]:
    ops = _opcodes(a, b)
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


def _render_group(a: list[str], b: list[str], group: list[Opcode]) -> list[str]:
    i1, i2 = group[0][1], group[-1][2]
    j1, j2 = group[0][3], group[-1][4]
    out = [f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@\n"]
    for tag, a1, a2, b1, b2 in group:
        if tag == "equal":
            out.extend(_row(" ", line) for line in a[a1:a2])
            continue
        out.extend(_row("-", line) for line in a[a1:a2])
        out.extend(_row("+", line) for line in b[b1:b2])
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
