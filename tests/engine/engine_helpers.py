"""Helpers for engine tests."""

from __future__ import annotations

import random

from patchwright.engine import MatchOptions, apply_edits
from patchwright.model import Composition, Edit, Hunk, HunkLine, TextFile


def run(
    text: str | bytes,
    *edits: Edit,
    composition: Composition = Composition.SEQUENTIAL,
    mode: str = "fuzzy",
) -> str:
    """Apply edits to ``text`` and return the result as text (bytes decoded)."""
    data = text.encode() if isinstance(text, str) else text
    result = apply_edits(
        TextFile.decode(data),
        list(edits),
        composition=composition,
        options=MatchOptions(mode=mode),  # type: ignore[arg-type]
    )
    return result.file.encode().decode()


def random_file(rng: random.Random, lines: list[str], style: str) -> TextFile:
    """``lines`` with LF, CRLF or ``mixed`` endings, the last one missing half the time."""
    if style == "mixed":
        endings = [rng.choice(["\n", "\r\n"]) for _ in lines]
    else:
        endings = ["\r\n" if style == "crlf" else "\n"] * len(lines)
    if rng.random() < 0.5:
        endings[-1] = ""
    return TextFile(lines, endings)


def random_hunks(
    rng: random.Random,
    file: TextFile,
    contexts: range,
    *,
    numbered: bool,
    rough: bool = False,
) -> list[Edit]:
    """A diff's hunks over ``file`` in order, never sharing lines: insertions, deletions
    and replacements with a context length drawn from ``contexts`` on each side.

    ``numbered``: each hunk carries its line number; otherwise none does, and a hunk
    ending with the file says so half the time (``*** End of File``). ``rough``: one
    hunk in twenty has a first line absent from the file."""
    edits: list[Edit] = []
    n = len(file.lines)
    at, done = rng.randrange(0, 3), 0
    while at < n:
        ctx = rng.randrange(contexts.start, contexts.stop)
        start = max(done, at - ctx)  # hunks of one diff never share lines
        removed = rng.randrange(0, 3)
        stop = min(n, at + removed + ctx)
        body = [HunkLine(" ", t) for t in file.lines[start:at]]
        body += [HunkLine("-", t) for t in file.lines[at : min(n, at + removed)]]
        body += [HunkLine("+", f"new {at} {k}") for k in range(rng.randrange(0, 3))]
        body += [HunkLine(" ", t) for t in file.lines[min(n, at + removed) : stop]]
        if rough and rng.random() < 0.05 and body:
            body[0] = HunkLine(body[0].op, "absent from the file")
        if any(op != " " for op, _ in body) and any(op != "+" for op, _ in body):
            if numbered:
                hunk = Hunk(tuple(body), old_start=start + 1)
            else:
                hunk = Hunk(tuple(body), at_eof=stop == n and rng.random() < 0.5)
            edits.append(Edit(hunk, label=f"hunk {len(edits) + 1}"))
        done, at = stop, stop + rng.randrange(1, 6)
    return edits
