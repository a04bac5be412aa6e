"""Reading one unified-diff hunk: its ``@@`` header and its body.

The body is read structurally, the header counts only settle what structure cannot:
whether trailing empty lines belong to the hunk, and whether ``--- x`` / ``+++ x``
lines are removed / added lines or the start of the next file. See the leniencies in
:mod:`patchwright.formats.unified`.
"""

from __future__ import annotations

import re
from functools import partial
from operator import itemgetter

from patchwright._records import field, record
from patchwright.formats._common import is_fence, shorten, unsupported
from patchwright.model import Hunk, HunkLine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from patchwright.model.hunks import HunkOp

_NEW_LINE = partial(tuple.__new__, HunkLine)
_OP = itemgetter(0)
_TEXT = itemgetter(slice(1, None))
HUNK_HEADER = re.compile(r"@@+[ \t]*-(\d+)(?:,(\d+))?[ \t]*\+(\d+)(?:,(\d+))?[ \t]*(?:@@+.*)?$")
_COMBINED = re.compile(r"@@@+[ \t]*-\d+(?:,\d+)?[ \t]+-\d+")


@record
class HunkHeader:
    """The numbers of an ``@@`` line (``None`` where the header carried none)."""

    old_start: int | None = None
    old_count: int | None = None
    new_start: int | None = None
    new_count: int | None = None

    @property
    def numbered(self) -> bool:
        """Whether the header had line numbers (and so counts)."""
        return self.old_count is not None


def parse_hunk_header(line: str, line_no: int, warnings: list[str]) -> HunkHeader:
    """Read ``@@ -l,n +l,n @@ section``; ``@@``, ``@@ @@`` or unreadable numbers give none.

    Raises:
        PatchwrightError: ``UNSUPPORTED`` for a combined (merge) diff header ``@@@``.
    """
    match = HUNK_HEADER.match(line)
    if match:
        old_start, old_count, new_start, new_count = match.groups()
        return HunkHeader(
            int(old_start),
            1 if old_count is None else int(old_count),
            int(new_start),
            1 if new_count is None else int(new_count),
        )
    if _COMBINED.match(line):
        raise unsupported(
            line_no,
            "This is a combined (merge) diff, which patchwright does not apply.",
            "Write an ordinary unified diff against one version of the file.",
        )
    rest = line.strip("@ \t")
    if re.search(r"[-+]\d", rest):
        warnings.append(
            f"line {line_no}: hunk header {shorten(line)!r} has unreadable line numbers; "
            "the hunk is located by its content"
        )
    return HunkHeader()


def starts_file(lines: list[str], i: int, expecting: bool) -> bool:
    """Whether ``lines[i]`` starts a new file section rather than continuing a hunk.

    ``--- x`` followed by ``+++ y`` is a removed and an added line while the header
    counts still expect lines, unless an ``@@`` header follows right after them.
    """
    line = lines[i]
    if line.startswith("diff --git ") or line.startswith(("diff --cc ", "diff --combined ")):
        return True
    if not line.startswith("--- ") or i + 1 >= len(lines):
        return False
    if not lines[i + 1].startswith("+++ "):
        return False
    return not expecting or (i + 2 < len(lines) and lines[i + 2].startswith("@@"))


@record
class _Body:
    """A hunk body under construction and what the header still expects."""

    old_left: int
    new_left: int
    lines: list[HunkLine] = field(default_factory=list)
    empty_at: list[int] = field(default_factory=list)  # lines read from empty patch lines
    old_found: int = 0
    new_found: int = 0
    no_newline_old: bool = False
    no_newline_new: bool = False

    def add(self, op: HunkOp, text: str, *, empty: bool = False) -> None:
        if empty:
            self.empty_at.append(len(self.lines))
        self.lines.append(HunkLine(op, text))
        if op != "+":
            self.old_left -= 1
            self.old_found += 1
        if op != "-":
            self.new_left -= 1
            self.new_found += 1

    @property
    def expecting(self) -> bool:
        return self.old_left > 0 or self.new_left > 0

    def mark_no_newline(self) -> bool:
        if not self.lines:
            return False
        op = self.lines[-1].op
        if op != "+":
            self.no_newline_old = True
        if op != "-":
            self.no_newline_new = True
        return True

    def drop_trailing_empty(self) -> None:
        while self.empty_at and self.empty_at[-1] == len(self.lines) - 1:
            self.empty_at.pop()
            self.lines.pop()
            self.old_left, self.new_left = self.old_left + 1, self.new_left + 1
            self.old_found, self.new_found = self.old_found - 1, self.new_found - 1


def _prefixed_run(lines: list[str], i: int, old_left: int, new_left: int) -> tuple[int, int, int]:
    """The end of the run of ' ', '-' and '+' lines from ``lines[i]`` (a ``--- x`` line
    starting the next file ends it), with the run's added and removed line counts;
    ``old_left`` / ``new_left``: the lines the header still expects before the run."""
    n = len(lines)
    start, added, removed = i, 0, 0
    while i < n:
        line = lines[i]
        first = line[:1]
        if first == "+":
            added += 1
        elif first == "-":
            if line.startswith("--- "):
                taken = i - start
                expecting = old_left - (taken - added) > 0 or new_left - (taken - removed) > 0
                if starts_file(lines, i, expecting):
                    break
            removed += 1
        elif first != " ":
            break
        i += 1
    return i, added, removed


def hunk_lines(run: list[str]) -> tuple[HunkLine, ...]:
    """The hunk lines of a run of prefixed patch lines, built in C (diffs carry tens of
    thousands of them)."""
    return tuple(map(_NEW_LINE, zip(map(_OP, run), map(_TEXT, run))))


def read_counted(
    lines: list[str], start: int, header: HunkHeader, line_no: int
) -> tuple[Hunk, int] | None:
    """The hunk whose body is one run of prefixed lines with exactly the header's counts,
    ended by the next ``@@`` header or the end of the patch (what ``diff -u`` writes),
    and the index after it; ``None`` for any other body, which :func:`read_body` reads.

    The same hunk as :func:`read_body` and :func:`build_hunk` give, without building the
    body line by line: a diff of thousands of hunks is almost all of this shape.
    """
    old_count, new_count = header.old_count, header.new_count
    if old_count is None or new_count is None:
        return None
    end, added, removed = _prefixed_run(lines, start, old_count, new_count)
    taken = end - start
    if (
        not taken
        or taken - added != old_count
        or taken - removed != new_count
        or (end < len(lines) and not lines[end].startswith("@@"))
    ):
        return None
    hunk = Hunk(
        hunk_lines(lines[start:end]), header.old_start, old_count, header.new_start, new_count,
        source_line=line_no,
    )  # fmt: skip
    return hunk, end


def _take_prefixed(lines: list[str], i: int, body: _Body) -> int:
    """Consume consecutive ' ', '-' and '+' lines: the fast path of :func:`read_body`."""
    start = i
    i, added, removed = _prefixed_run(lines, i, body.old_left, body.new_left)
    body.lines.extend(hunk_lines(lines[start:i]))
    taken = i - start
    body.old_left -= taken - added
    body.new_left -= taken - removed
    body.old_found += taken - added
    body.new_found += taken - removed
    return i


def _plain(line: str) -> bool:
    """A line that is neither a hunk line, a header nor a fence (empty or unprefixed)."""
    if not line:
        return True
    return line[0] not in " -+\\" and not line.startswith("@@") and not is_fence(line)


def _run_end(lines: list[str], i: int) -> int:
    n = len(lines)
    while i < n and _plain(lines[i]) and not lines[i].startswith("diff "):
        i += 1
    return i


def read_body(
    lines: list[str], start: int, header: HunkHeader, warnings: list[str]
) -> tuple[_Body, int]:
    """Read the hunk body from ``lines[start]``; returns it and the index after it."""
    body = _Body(header.old_count or 0, header.new_count or 0)
    i, n = start, len(lines)
    while i < n:
        line = lines[i]
        if line[:1] in (" ", "-", "+"):
            after = _take_prefixed(lines, i, body)
            if after == i:
                break  # "--- x" / "+++ y" starting the next file
            i = after
        elif line.startswith("\\"):
            if not body.mark_no_newline():
                warnings.append(f"line {i + 1}: '\\' marker before any hunk line; ignored")
            i += 1
        elif line == "" and body.old_left > 0 and body.new_left > 0:
            body.add(" ", "", empty=True)
            i += 1
        elif line.startswith("@@") or starts_file(lines, i, body.expecting):
            break
        else:
            end = _unprefixed_run(lines, i, body, header.numbered, warnings)
            if end == i:
                break
            i = end
    if header.numbered and body.expecting:
        # The counts are wrong anyway, so they do not vouch for trailing empty lines:
        # those are separators between hunks.
        body.drop_trailing_empty()
    return body, i


def _unprefixed_run(
    lines: list[str], i: int, body: _Body, numbered: bool, warnings: list[str]
) -> int:
    """Take empty / unprefixed lines at ``i`` as context if hunk lines follow them."""
    end = _run_end(lines, i)
    if not _continues(lines, end, body):
        return i
    texts = lines[i:end]
    if any(texts) and numbered and not body.expecting:
        return i  # prose after a complete hunk, not a damaged context line
    for k, text in enumerate(texts):
        if text:
            warnings.append(
                f"line {i + k + 1}: {shorten(text)!r} has no ' ', '-' or '+' prefix; "
                "read as a context line missing its leading space"
            )
        body.add(" ", text, empty=not text)
    return end


def _continues(lines: list[str], k: int, body: _Body) -> bool:
    """Whether a hunk line (not a header, fence or new file) stands at ``lines[k]``."""
    if k >= len(lines):
        return False
    line = lines[k]
    if not line or line[0] not in " -+\\":
        return False
    return not starts_file(lines, k, body.expecting)


def build_hunk(
    header: HunkHeader, body: _Body, line_no: int, label: str, warnings: list[str]
) -> Hunk:
    """The model :class:`Hunk`, with counts recounted from the body when they disagree."""
    old_count, new_count = body.old_found, body.new_found
    if header.numbered and (header.old_count != old_count or header.new_count != new_count):
        for side, said, found in (
            ("old", header.old_count, old_count),
            ("new", header.new_count, new_count),
        ):
            if said != found:
                warnings.append(
                    f"line {line_no}: {label} header says {said} {side} lines, "
                    f"found {found}; recounted"
                )
    return Hunk(
        lines=tuple(body.lines),
        old_start=header.old_start,
        old_count=old_count if header.numbered else None,
        new_start=header.new_start,
        new_count=new_count if header.numbered else None,
        no_newline_old=body.no_newline_old,
        no_newline_new=body.no_newline_new,
        source_line=line_no,
    )
