"""The hunks of one ``*** Update File`` operation (see :mod:`patchwright.formats.v4a`)."""

from __future__ import annotations

from itertools import compress, repeat

from patchwright._records import field, record, replace
from patchwright.formats._common import is_fence, parse_error, shorten
from patchwright.formats._hunks import HUNK_HEADER, hunk_lines
from patchwright.formats._v4a_markers import marker
from patchwright.model import Hunk, HunkLine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from patchwright.model.hunks import HunkOp

_OPS: dict[str, HunkOp] = {" ": " ", "-": "-", "+": "+"}
_PREFIXES = (" ", "-", "+")


@record
class _Open:
    """The hunk being read."""

    header_line: int | None = None
    anchors: list[str] = field(default_factory=list)
    old_start: int | None = None
    new_start: int | None = None
    lines: list[HunkLine] = field(default_factory=list)
    no_newline_old: bool = False
    no_newline_new: bool = False

    def close(self, at_eof: bool = False) -> Hunk:
        return Hunk(
            lines=tuple(self.lines),
            old_start=self.old_start,
            new_start=self.new_start,
            anchors=tuple(self.anchors),
            no_newline_old=self.no_newline_old,
            no_newline_new=self.no_newline_new,
            at_eof=at_eof,
            source_line=self.header_line,
        )


def read_update_body(lines: list[str], start: int, end: int, warnings: list[str]) -> list[Hunk]:
    """Read ``lines[start:end]`` as the hunks of an update operation.

    Raises:
        PatchwrightError: ``PARSE_ERROR`` for a hunk without lines or a misplaced marker.
    """
    hunks: list[Hunk] = []
    cur = _Open()
    # each '@@' line's run of lines up to the next one (or the end), found in C
    heads = list(compress(range(start, end), map(str.startswith, lines[start:end], repeat("@@"))))
    runs = dict(zip(heads, [*heads[1:], end]))
    i = start
    while i < end:
        line = lines[i]
        if line.startswith("@@"):
            if cur.lines:
                hunks.append(cur.close())
                cur = _Open()
            _read_at_line(line, i + 1, cur, warnings)
            stop = runs[i]
            if _prefixed(lines[i + 1 : stop]):
                # every line a hunk line and none a marker: what the line-by-line
                # reading below gives, built in C (patches carry thousands of hunks)
                cur.lines.extend(hunk_lines(lines[i + 1 : stop]))
                i = stop
                continue
        elif marker(line) is not None:
            cur = _read_marker(line, i + 1, cur, hunks)
        elif line or cur.header_line is not None:  # else: blank lines between operations
            if cur.header_line is None:
                cur.header_line = i + 1
                warnings.append(f"line {i + 1}: hunk lines without an '@@' line; read as a hunk")
            _read_body_line(line, i + 1, cur, warnings)
        i += 1
    if cur.lines:
        hunks.append(cur.close())
    elif cur.header_line is not None:
        raise _empty_hunk(cur.header_line)
    return hunks


def _prefixed(run: list[str]) -> bool:
    """Whether ``run`` is lines that each start with ' ', '-' or '+' and none of which
    holds ``***`` (so none is a marker)."""
    return (
        bool(run)
        and all(map(str.startswith, run, repeat(_PREFIXES)))
        and "***" not in "\n".join(run)
    )


def _read_at_line(line: str, line_no: int, cur: _Open, warnings: list[str]) -> None:
    if cur.header_line is None:
        cur.header_line = line_no
    match = HUNK_HEADER.match(line)
    if match:
        cur.old_start, cur.new_start = int(match.group(1)), int(match.group(3))
        warnings.append(
            f"line {line_no}: unified-diff hunk header in an OpenAI patch; its numbers "
            "are used as a position hint"
        )
        return
    text = line[2:].strip()
    if text.endswith("@@"):
        text = text[:-2].strip()  # "@@ def f @@": the unified-diff shape, same anchor
    if text:
        cur.anchors.append(text)


def _read_marker(line: str, line_no: int, cur: _Open, hunks: list[Hunk]) -> _Open:
    found = marker(line)
    if found is None or found[0] != "end of file":
        raise parse_error(
            line_no,
            f"{shorten(line)!r} is out of place inside an update.",
            "'*** Move to: <path>' must follow '*** Update File: <path>' directly; "
            "other '***' lines start a new file operation or end the patch.",
        )
    if cur.lines:
        hunks.append(cur.close(at_eof=True))
        return _Open()
    if cur.header_line is None and hunks:
        hunks[-1] = replace(hunks[-1], at_eof=True)
        return cur
    raise parse_error(
        line_no,
        "'*** End of File' follows no hunk.",
        "Put '*** End of File' right after the last line of the hunk that ends the file.",
    )


def _read_body_line(line: str, line_no: int, cur: _Open, warnings: list[str]) -> None:
    op = _OPS.get(line[:1])
    if op is not None:
        cur.lines.append(HunkLine(op, line[1:]))
    elif not line:
        cur.lines.append(HunkLine(" ", ""))
    elif line.startswith("\\"):
        if cur.lines:
            last = cur.lines[-1].op
            cur.no_newline_old = cur.no_newline_old or last != "+"
            cur.no_newline_new = cur.no_newline_new or last != "-"
    elif is_fence(line):
        warnings.append(f"line {line_no}: Markdown fence inside the patch ignored")
    else:
        warnings.append(
            f"line {line_no}: {shorten(line)!r} has no ' ', '-' or '+' prefix; "
            "read as a context line missing its leading space"
        )
        cur.lines.append(HunkLine(" ", line))


def _empty_hunk(line_no: int) -> Exception:
    return parse_error(
        line_no,
        "This hunk has no lines.",
        "Follow '@@' with the hunk's lines, each starting with ' ' (context), "
        "'-' (removed) or '+' (added).",
    )
