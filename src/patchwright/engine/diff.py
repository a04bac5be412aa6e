"""Unified diff rendering for people (and for models that read diffs back).

Output follows ``diff -u`` / git conventions: ``---``/``+++`` headers, ``@@ -a,b +c,d @@``
hunks with ``context`` lines around changes, and ``\\ No newline at end of file`` after a
last line that has no ending. Identical prefixes and suffixes are skipped before the line
diff runs, so a small change in a huge file costs little.
"""

from __future__ import annotations

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
    head = 0
    limit = min(len(a), len(b))
    while head < limit and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < limit - head and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
        tail += 1
    mid = SequenceMatcher(None, a[head : len(a) - tail], b[head : len(b) - tail], autojunk=False)
    ops: list[Opcode] = []
    if head:
        ops.append(("equal", 0, head, 0, head))
    for tag, i1, i2, j1, j2 in mid.get_opcodes():
        ops.append((tag, i1 + head, i2 + head, j1 + head, j2 + head))
    if tail:
        ops.append(("equal", len(a) - tail, len(a), len(b) - tail, len(b)))
    return ops


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
