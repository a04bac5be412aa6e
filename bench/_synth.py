"""Deterministic synthetic source files and edits, rendered in the three patch formats.

The generated file looks like a long Python module: classes and functions with
docstrings, nested blocks, comments, log calls. Lines repeat the way real code does
(``return result``, blank lines, ``else:``) but every function carries a numbered name,
so a few lines of context usually single a place out.

Edits are known up front (replace, insert, delete), so the expected result and the
patches are built directly from them, with no diff algorithm run over the whole file.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

WORDS = (
    "user", "order", "item", "record", "buffer", "token", "node", "entry", "request",
    "payload", "config", "session", "cursor", "batch", "segment", "channel", "report",
    "account", "invoice", "widget", "frame", "packet", "queue", "metric",
)  # fmt: skip
VERBS = (
    "load", "parse", "build", "merge", "flush", "check", "render", "update", "collect",
    "resolve", "encode", "split", "refresh", "validate", "dispatch", "compute",
)  # fmt: skip
PHRASES = (
    "keep the order stable so callers can rely on it",
    "the upstream service sometimes sends an empty list here",
    "cheap path first; most inputs take it",
    "this mirrors the behaviour of the previous release",
    "avoid a second pass over the data",
    "values above the limit are clamped, not rejected",
    "do not log the payload itself, it may hold secrets",
    "retry once; the second failure is reported",
)


@dataclass(frozen=True)
class LineEdit:
    """Replace old lines ``start``..``end`` (0-based, end exclusive) by ``new``."""

    start: int
    end: int
    new: tuple[str, ...]


@dataclass(frozen=True)
class Hunk:
    """One rendered hunk: where it starts in the old file and its diff lines."""

    old_start: int
    new_start: int
    lines: tuple[tuple[str, str], ...]

    @property
    def old_lines(self) -> list[str]:
        """Context and removed lines."""
        return [text for op, text in self.lines if op != "+"]

    @property
    def new_lines(self) -> list[str]:
        """Context and added lines."""
        return [text for op, text in self.lines if op != "-"]


@dataclass(frozen=True)
class SynthCase:
    """A generated file, its edits, the expected result and the patches that make it."""

    path: str
    before: list[str]
    after: list[str]
    edits: list[LineEdit]
    udiff: str
    v4a: str
    sr: str

    @property
    def before_bytes(self) -> bytes:
        """The original file (LF endings, final newline)."""
        return encode_lines(self.before)

    @property
    def after_bytes(self) -> bytes:
        """The expected file after any of the patches."""
        return encode_lines(self.after)


def encode_lines(lines: Sequence[str]) -> bytes:
    """Lines joined with LF, final newline included."""
    return ("\n".join(lines) + "\n").encode("utf-8") if lines else b""


# -- source ------------------------------------------------------------------------------


class _Writer:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lines: list[str] = []
        self.counter = 0

    def name(self) -> str:
        return f"{self.rng.choice(WORDS)}_{self.rng.randrange(100)}"

    def statement(self, ind: str, depth: int) -> None:
        r, v, w, n = self.rng, self.name(), self.rng.choice(WORDS), self.rng.randrange(2, 500)
        pick = r.randrange(12 if depth < 3 else 7)
        simple = (
            f"{v} = self.{w}s.get({w!r}, default_{r.choice(WORDS)}, timeout={n})",
            f"result.append({r.choice(VERBS)}_{w}({v}, limit={n}, source=self.name))",
            f"# {r.choice(PHRASES)}",
            f'logger.debug("{r.choice(VERBS)} {w}: %s of %s left", len({v}), total)',
            f"total += {v}.size * {n} + self.{r.choice(WORDS)}_offset",
            f"self.{w}_cache[{v}.key] = {v}",
            f"{v} = self._{r.choice(VERBS)}({w}, strict={r.choice(('True', 'False'))})",
        )
        if pick < len(simple):
            self.lines.append(ind + simple[pick])
        elif pick < 9:
            self.lines.append(f"{ind}if {v} is None or {v}.count > {n}:")
            self.block(ind + "    ", depth + 1, 1, 3)
            if r.random() < 0.4:
                self.lines.append(f"{ind}else:")
                self.block(ind + "    ", depth + 1, 1, 2)
        elif pick < 11:
            self.lines.append(f"{ind}for {v} in self.{w}s[{n % 7}:]:")
            self.block(ind + "    ", depth + 1, 1, 3)
        else:
            self.lines.append(f'{ind}with open(self.path_{n}, encoding="utf-8") as handle:')
            self.block(ind + "    ", depth + 1, 1, 2)

    def block(self, ind: str, depth: int, low: int, high: int) -> None:
        for _ in range(self.rng.randint(low, high)):
            self.statement(ind, depth)

    def function(self, ind: str, method: bool) -> None:
        self.counter += 1
        verb, word = self.rng.choice(VERBS), self.rng.choice(WORDS)
        args = "self, " if method else ""
        self.lines.append(f"{ind}def {verb}_{word}_{self.counter:05d}({args}{word}s, limit=None):")
        self.lines.append(
            f'{ind}    """{verb.capitalize()} the {word}s of batch {self.counter}."""'
        )
        self.lines.append(f"{ind}    result = []")
        self.lines.append(f"{ind}    total = 0")
        self.block(ind + "    ", 1, 2, 6)
        self.lines.append(
            f"{ind}    return result" if self.rng.random() < 0.7 else f"{ind}    return total"
        )

    def unit(self) -> None:
        if self.rng.random() < 0.5:
            self.counter += 1
            word = self.rng.choice(WORDS).capitalize()
            self.lines.append(f"class {word}Handler{self.counter:05d}(BaseHandler):")
            self.lines.append(f'    """Handles {word.lower()} traffic for shard {self.counter}."""')
            for _ in range(self.rng.randint(2, 4)):
                self.lines.append("")
                self.function("    ", method=True)
        else:
            self.function("", method=False)
        self.lines.extend(("", ""))


def generate_source(n_lines: int, seed: int = 0) -> list[str]:
    """A module of exactly ``n_lines`` lines (roughly 50 bytes each), same for same seed."""
    rng = random.Random(seed)
    w = _Writer(rng)
    w.lines.extend(
        (
            '"""Generated module used to benchmark patch application."""',
            "",
            "import logging",
            "",
            "from .base import BaseHandler",
            "",
            "logger = logging.getLogger(__name__)",
            "",
            "",
        )
    )
    while len(w.lines) < n_lines:
        w.unit()
    del w.lines[n_lines:]
    return w.lines


def compilable(lines: Sequence[str]) -> list[str]:
    """``lines`` with every comment-only line made ``pass  # ...``: a module that compiles.

    The generator's blocks sometimes hold only comments, which Python refuses; files an
    agent edits usually compile, and a broken file takes the syntax guard down another
    path. A block cut off by the line count at the end is dropped too.
    """
    out = [
        f"{line[: len(line) - len(line.lstrip())]}pass  {line.lstrip()}"
        if line.lstrip().startswith("#")
        else line
        for line in lines
    ]
    while out:
        try:
            compile("\n".join(out), "module.py", "exec")
            break
        except SyntaxError:
            out.pop()
    return out


# -- edits -------------------------------------------------------------------------------


def make_edits(lines: Sequence[str], n_edits: int, seed: int = 1) -> list[LineEdit]:
    """``n_edits`` non-overlapping edits spread evenly, each well away from its neighbours."""
    rng = random.Random(seed)
    region = len(lines) // max(n_edits, 1)
    if region < 24:
        raise ValueError(f"{len(lines)} lines are too few for {n_edits} separate edits")
    edits = []
    for i in range(n_edits):
        pos = i * region + rng.randrange(8, region - 10)
        edits.append(_one_edit(lines, pos, rng))
    return edits


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" "))]


def _one_edit(lines: Sequence[str], pos: int, rng: random.Random) -> LineEdit:
    line = lines[pos]
    ind = _indent(lines[pos + 1]) or "    "
    kind = rng.random()
    if kind < 0.4 and line.strip():
        changed = (
            line.replace(" = ", " = checked(", 1) + ")" if " = " in line else line + "  # noqa"
        )
        return LineEdit(pos, pos + 1, (changed,))
    if kind < 0.7:
        new: tuple[str, ...] = (f'{ind}logger.info("reached step {pos}")',)
        if rng.random() < 0.5:
            new += (f"{ind}assert total >= 0, {pos}",)
        return LineEdit(pos + 1, pos + 1, new)
    if kind < 0.85 and line.strip():
        return LineEdit(pos, pos + 1, ())
    return LineEdit(
        pos, pos + 2, (f"{ind}# step {pos}", lines[pos], lines[pos + 1].rstrip() + "  # kept")
    )


def apply_line_edits(lines: Sequence[str], edits: Sequence[LineEdit]) -> list[str]:
    """The result of ``edits`` (sorted, non-overlapping) on ``lines``."""
    out: list[str] = []
    prev = 0
    for e in edits:
        out.extend(lines[prev : e.start])
        out.extend(e.new)
        prev = e.end
    out.extend(lines[prev:])
    return out


# -- hunks -------------------------------------------------------------------------------

ContextFor = Callable[[LineEdit], tuple[int, int]]


def build_hunks(lines: Sequence[str], edits: Sequence[LineEdit], context: ContextFor) -> list[Hunk]:
    """Group edits into hunks; ``context(edit)`` gives its (before, after) context sizes.

    Edits whose context windows overlap or touch share a hunk, as ``diff`` does.
    """
    groups: list[tuple[int, int, list[LineEdit]]] = []
    for e in edits:
        before, after = context(e)
        lo, hi = max(0, e.start - before), min(len(lines), e.end + after)
        if groups and lo <= groups[-1][1]:
            g_lo, _, members = groups[-1]
            groups[-1] = (g_lo, max(hi, groups[-1][1]), [*members, e])
        else:
            groups.append((lo, hi, [e]))
    hunks = []
    delta = 0
    for lo, hi, members in groups:
        body: list[tuple[str, str]] = []
        at = lo
        for e in members:
            body.extend((" ", t) for t in lines[at : e.start])
            body.extend(("-", t) for t in lines[e.start : e.end])
            body.extend(("+", t) for t in e.new)
            at = e.end
        body.extend((" ", t) for t in lines[at:hi])
        hunks.append(Hunk(lo, lo + delta, tuple(body)))
        delta += sum(len(e.new) - (e.end - e.start) for e in members)
    return hunks


class LineIndex:
    """Finds how often a run of lines occurs in a file, without scanning the whole file."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines
        self.where: dict[str, list[int]] = {}
        for i, line in enumerate(lines):
            self.where.setdefault(line, []).append(i)

    def count(self, block: Sequence[str], stop: int = 2) -> int:
        """Occurrences of ``block`` (as consecutive lines), counting no further than ``stop``."""
        if not block:
            return stop
        k = min(range(len(block)), key=lambda j: len(self.where.get(block[j], ())))
        found = 0
        for p in self.where.get(block[k], ()):
            s = p - k
            if s >= 0 and list(self.lines[s : s + len(block)]) == list(block):
                found += 1
                if found >= stop:
                    break
        return found


def unique_context(lines: Sequence[str], index: LineIndex, least: int = 3) -> ContextFor:
    """A context rule: at least ``least`` lines each side, more until the old text is unique."""

    def rule(e: LineEdit) -> tuple[int, int]:
        c = least
        while c < len(lines):
            lo, hi = max(0, e.start - c), min(len(lines), e.end + c)
            if index.count(lines[lo:hi]) == 1:
                return c, c
            c += 1
        return c, c

    return rule


# -- rendering ---------------------------------------------------------------------------


def _blob_id(data: bytes) -> str:
    # git's object id of a blob, abbreviated as in `index` lines.
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()[:12]


def render_udiff(
    path: str, before: Sequence[str], after: Sequence[str], hunks: Sequence[Hunk]
) -> str:
    """A git-style unified diff of ``hunks``."""
    out = [
        f"diff --git a/{path} b/{path}",
        f"index {_blob_id(encode_lines(before))}..{_blob_id(encode_lines(after))} 100644",
        f"--- a/{path}",
        f"+++ b/{path}",
    ]
    for h in hunks:
        old_n, new_n = len(h.old_lines), len(h.new_lines)
        out.append(f"@@ -{h.old_start + 1},{old_n} +{h.new_start + 1},{new_n} @@")
        out.extend(op + text for op, text in h.lines)
    return "\n".join(out) + "\n"


def render_v4a(path: str, hunks: Sequence[Hunk]) -> str:
    """An OpenAI ``apply_patch`` text with a bare ``@@`` before each hunk."""
    out = ["*** Begin Patch", f"*** Update File: {path}"]
    for h in hunks:
        out.append("@@")
        out.extend(op + text for op, text in h.lines)
    out.append("*** End Patch")
    return "\n".join(out) + "\n"


def render_sr(path: str, hunks: Sequence[Hunk]) -> str:
    """SEARCH/REPLACE blocks, one per hunk, separated by blank lines."""
    blocks = []
    for h in hunks:
        parts = [path, "<<<<<<< SEARCH", *h.old_lines, "=======", *h.new_lines, ">>>>>>> REPLACE"]
        blocks.append("\n".join(parts) + "\n")
    return "\n".join(blocks)


def synth_case(
    n_lines: int, n_edits: int, seed: int = 0, path: str = "src/app/big_module.py"
) -> SynthCase:
    """Generate a file of ``n_lines`` lines, ``n_edits`` edits and the three patches."""
    before = generate_source(n_lines, seed)
    edits = make_edits(before, n_edits, seed + 1)
    after = apply_line_edits(before, edits)
    udiff = render_udiff(path, before, after, build_hunks(before, edits, lambda e: (3, 3)))
    wide = build_hunks(before, edits, unique_context(before, LineIndex(before)))
    return SynthCase(
        path, before, after, edits, udiff, render_v4a(path, wide), render_sr(path, wide)
    )
