"""Literal matches of a search text: the text found character for character (line
endings aside, read_file's line-number prefixes removed, or typographic punctuation
folded), and replaced as ``str.replace`` would, rewriting only the lines it touches.

It finds as well as replaces, and sits in the replacing room because what it returns is
a :class:`~patchwright.engine.replacing.splice.Splice` of the characters found: the
finding it does uses the matching room's line index and keys, an arrow pointing down.
"""

from __future__ import annotations

import re

from patchwright._records import record
from patchwright.engine.matching.index import LineIndex
from patchwright.engine.matching.normalize import (
    PUNCT_TABLE,
    strip_line_numbers,
    strip_number_prefixes,
)
from patchwright.engine.replacing.splice import Splice
from patchwright.model.edits import OldText
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.reports import Rung
from patchwright.model.text import TextFile


def whole_lines(joined: str, spans: list[tuple[int, int]]) -> bool:
    """Whether every span starts at a line start and ends at a line end (or newline)."""
    size = len(joined)
    for a, b in spans:
        if a and joined[a - 1] != "\n":
            return False
        if b < size and joined[b - 1] != "\n" and joined[b] != "\n":
            return False
    return True


def unnumbered(text: str) -> str | None:
    """``text`` without ``read_file`` line-number prefixes (``None`` when not numbered).

    A final newline is not a line of its own: ``"  1\ta\n  2\tb\n"`` is numbered."""
    final = "\n" if text.endswith("\n") else ""
    lines = strip_line_numbers(text[: len(text) - len(final)].split("\n"))
    return None if lines is None else "\n".join(lines) + final


def unnumbered_replacement(replacement: str, label: str) -> tuple[str, tuple[str, ...]]:
    """The replacement of a numbered search text, without its own number prefixes when
    every non-empty line carries one (pasted from the same numbered view; added lines
    may carry any number), with a warning saying so; else unchanged."""
    final = "\n" if replacement.endswith("\n") else ""
    lines = strip_number_prefixes(replacement[: len(replacement) - len(final)].split("\n"))
    if lines is None:
        return replacement, ()
    warning = (
        f"{label or 'edit'}: line-number prefixes (as read_file shows them) were removed "
        "from the new text, as from the text to replace; the file gets the lines without them"
    )
    return "\n".join(lines) + final, (warning,)


def char_matches(
    index: LineIndex, text: str, final_newline: bool, overlapping: bool
) -> list[tuple[int, int]]:
    """Offsets in the joined text of every copy of ``text`` (any line endings)."""
    needle = text.replace("\r\n", "\n").replace("\r", "\n")
    return _find_all(index.joined, needle, final_newline, overlapping)


def _find_all(
    hay: str, needle: str, final_newline: bool, overlapping: bool
) -> list[tuple[int, int]]:
    """Occurrences of ``needle`` in the joined text followed by its final newline when
    the file has one: every one when ``overlapping`` (to tell whether a text is unique,
    ``"a\na\n"`` occurs twice in ``"a\na\na\n"``), else left to right without overlap
    (what ``str.replace`` replaces).

    The joined text carries no final newline, so a needle ending in ``"\n"`` would
    never match a copy on the last line; instead of copying the whole text to append
    one, that last possible occurrence is checked on its own (its end offset is then
    ``len(hay) + 1``).
    """
    found: list[tuple[int, int]] = []
    step = 1 if overlapping else len(needle)
    pos = hay.find(needle)
    while pos != -1:
        found.append((pos, pos + len(needle)))
        pos = hay.find(needle, pos + step)
    if final_newline and needle.endswith("\n"):
        tail = needle[:-1]
        at = len(hay) - len(tail)
        free = (found[-1][0] + 1 if overlapping else found[-1][1]) if found else 0
        if at >= free and hay.endswith(tail):
            found.append((at, len(hay) + 1))
    return found


def folded_matches(
    index: LineIndex, text: str, final_newline: bool, overlapping: bool
) -> list[tuple[int, int]]:
    """Exact search with typographic punctuation folded, only where folding keeps lengths
    (so offsets in the folded text are offsets in the file)."""
    folded = index.folded
    if len(folded) != len(index.joined):
        return []
    needle = text.replace("\r\n", "\n").translate(PUNCT_TABLE)
    if len(needle) != len(text.replace("\r\n", "\n")):
        return []
    return _find_all(folded, needle, final_newline, overlapping)


def char_splices(
    file: TextFile,
    index: LineIndex,
    spans: list[tuple[int, int]],
    text: str,
    replacement: str,
    anchor: OldText,
    label: str,
    rung: Rung,
    warnings: tuple[str, ...] = (),
) -> list[Splice]:
    """The splices of the literal copies ``spans``: one copy (the one nearest the
    hint, when one is clearly nearest) unless ``replace_all``.

    Raises:
        PatchwrightError: ``ambiguous`` when several copies remain.
    """
    if len(spans) > 1 and not anchor.replace_all:
        lines = line_numbers(index, [a for a, _ in spans])
        if anchor.hint_line is not None:
            best = sorted(lines, key=lambda ln: abs(ln - anchor.hint_line))  # type: ignore[operator]
            d1, d2 = abs(best[0] - anchor.hint_line), abs(best[1] - anchor.hint_line)
            if d1 <= 100 and d2 >= 2 * d1 + 4:
                spans = [spans[lines.index(best[0])]]
        if len(spans) > 1:
            raise _ambiguous_text(text, lines, label, anchor.replace_all_supported)
    return _literal_splices(file, index, spans, replacement, rung, warnings)


def line_numbers(index: LineIndex, positions: list[int]) -> list[int]:
    """1-based lines of ascending offsets in ``joined``, counting newlines once."""
    out: list[int] = []
    line = last = 0
    for pos in positions:
        line += index.joined.count("\n", last, pos)
        last = pos
        out.append(line + 1)
    return out


def ambiguity_hint(replace_all_supported: bool) -> str:
    """How to fix an ambiguous text anchor, naming ``replace_all`` only where it exists."""
    if replace_all_supported:
        return (
            "Include more surrounding lines so the text occurs exactly once, or set "
            "replace_all=true if every occurrence should change."
        )
    return (
        "Include more surrounding lines (copied exactly from the file) so the text "
        "occurs exactly once."
    )


def _ambiguous_text(
    text: str, lines: list[int], label: str, replace_all_supported: bool
) -> PatchwrightError:
    shown = text if len(text) <= 60 else text[:57] + "..."
    where = ", ".join(map(str, lines[:10]))
    return PatchwrightError(
        ErrorCode.AMBIGUOUS,
        f"{label + ': ' if label else ''}{shown!r} appears {len(lines)} times "
        f"(lines {where}). No change was made.",
        ambiguity_hint(replace_all_supported),
        details={"lines": lines, "count": len(lines)},
    )


def _literal_splices(
    file: TextFile,
    index: LineIndex,
    spans: list[tuple[int, int]],
    replacement: str,
    rung: Rung,
    warnings: tuple[str, ...],
) -> list[Splice]:
    """Replace the characters of each span (offsets in ``joined``, non-overlapping and
    ascending) as ``str.replace`` would, rewriting only the lines they touch.

    Matches on one line, or joined into one line because a match ate a newline that the
    replacement does not give back, share one splice (two splices of one line would
    both rewrite it). The one deliberate difference from ``str.replace``: a match that
    ends with the file's final newline keeps the file ending with one, unless the
    replacement deletes those lines altogether.
    """
    joined = index.joined
    size = len(joined)
    # Offsets past the end stand for the final newline (see _find_all): give it to the
    # text only then, since copying a large file's text costs.
    hay = joined + "\n" if spans[-1][1] > size else joined
    rep = replacement.replace("\r\n", "\n").replace("\r", "\n")
    nl = file.newline
    out: list[Splice] = []
    line_no = counted = 0  # line number of offset ``counted``, advanced incrementally
    i = 0
    while i < len(spans):
        seg_start = hay.rfind("\n", 0, spans[i][0]) + 1
        line_no += hay.count("\n", counted, seg_start)
        counted = seg_start
        first_span = spans[i]
        pieces: list[str] = []
        cursor = seg_start
        count = 0
        while True:
            a, b = spans[i]
            i += 1
            count += 1
            pieces += [hay[cursor:a], rep]
            cursor = b
            if hay[b - 1] == "\n":
                produced = "".join(pieces)
                if not produced or produced.endswith("\n") or b > size:
                    # The new text stands at a line boundary (or the file's end): the
                    # splice can end with the line whose newline the match ate.
                    ate, end_pos = True, b
                    break
                # "a\n" replaced by "b" runs on into the next line, as the text says.
            line_end = hay.find("\n", cursor)
            if line_end == -1:
                line_end = size
            if i < len(spans) and spans[i][0] <= line_end:
                continue  # the next match touches this line too
            pieces.append(hay[cursor:line_end])
            ate, end_pos = False, line_end
            break
        produced = "".join(pieces)
        last = line_no + hay.count("\n", seg_start, end_pos - 1 if ate else end_pos)
        lines: list[str] = []  # stays empty when whole lines are deleted
        if produced or not ate:
            lines = (produced[:-1] if ate and produced.endswith("\n") else produced).split("\n")
        endings = [nl] * len(lines)
        if endings:
            endings[-1] = file.endings[last]
        matched = hay[first_span[0] : first_span[1]]
        out.append(
            Splice(line_no, last + 1, lines, endings, rung, 1.0, matched, "", warnings, count=count)
        )
    return out


# Escape sequences models write literally into a text they were meant to decode
# (a JSON or shell layer too many): each stands for the character after it.
_ESCAPES = {"n": "\n", "t": "\t", "'": "'", '"': '"', "$": "$", "`": "`", "\\": "\\"}
_ESCAPE = re.compile(r"\\([nt'\"$`\\])")


@record(frozen=True)
class LooseFind:
    """Copies of a text found only once some of its characters are read loosely.

    Attributes:
        spans: offsets in the joined text of every copy (overlapping ones included).
        text / replacement: the old and new text as they were read (unescaped).
        assumed: what was read loosely, in words (``over-escaped: \\n, \\'``...).
        escaped: the escape sequences read as their characters ("" when none).
        told_only: a reading a refusal may tell but an edit never takes.
    """

    spans: list[tuple[int, int]]
    text: str
    replacement: str
    assumed: str
    escaped: str = ""
    told_only: bool = False


def _unescaped(text: str) -> tuple[str, str]:
    """``text`` with its escape sequences decoded, and the sequences (``\\n, \\'``)."""
    seen = dict.fromkeys(m.group(0) for m in _ESCAPE.finditer(text))
    if not seen:
        return text, ""
    return _ESCAPE.sub(lambda m: _ESCAPES[m.group(1)], text), ", ".join(seen)


def loose_find(
    index: LineIndex, text: str, replacement: str, final_newline: bool, edges: bool = True
) -> LooseFind | None:
    """The copies of a search text not found as written, read three ways in turn (the
    first that finds any copy is the answer; ``None`` when none does):

    * over-escaped: ``\\n``, ``\\t``, ``\\'``, ``\\"``, ``\\$`` written literally, and
      absent from the file as such, read as the characters they stand for (in the new
      text too);
    * blanks inside lines: every run of spaces and tabs matches any such run;
    * edges of a sub-line text: the blanks around each line break it spans (indentation
      it left off, trailing blanks) match any blanks, and runs inside lines too (only
      with ``edges``: a whole-line text's indentation is the ladder's to judge, with
      the frame of its new lines).
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    replacement = replacement.replace("\r\n", "\n").replace("\r", "\n")
    hay = index.joined
    decoded, escaped = _unescaped(text)
    if escaped and decoded.strip() and not any(seq in hay for seq in escaped.split(", ")):
        spans = _find_all(hay, decoded, final_newline, True)
        if spans:
            new, _ = _unescaped(replacement)
            return LooseFind(
                spans, decoded, new, f"over-escaped text read unescaped ({escaped})", escaped
            )
    body = text.strip(" \t")
    if not body.strip():
        return None
    solid = body.translate(_NO_BLANKS)
    if solid not in hay.translate(_NO_BLANKS):
        # every reading below finds a copy only where the text stands with its blanks
        # removed (squeezing or dropping blanks keeps the other characters in order),
        # so this search, at C speed, rules all three out; a retry check replays each
        # edit on the file's older content, where its text is usually not there
        return None
    for at_edges, assumed in (
        (False, "runs of blanks inside lines ignored"),
        (True, "blanks at the edges of the lines it spans ignored"),
    ):
        if at_edges and ("\n" not in body or not edges):
            continue
        needle, _ = _squeezed(body, at_edges)
        hay_squeezed, where = _squeezed(hay, at_edges)
        spans = []
        pos = hay_squeezed.find(needle)
        while pos != -1 and len(spans) <= 10:
            spans.append((where[pos][0], where[pos + len(needle) - 1][1]))
            pos = hay_squeezed.find(needle, pos + 1)
        if spans:
            return LooseFind(spans, text, replacement, assumed)
    if len(solid) <= _MAX_BLANKLESS and "\n" not in solid and solid:
        # blanks added or removed anywhere: told, never taken ("a b" is not "ab")
        anywhere = re.compile(r"[ \t]*".join(map(re.escape, solid)))
        spans = [(m.start(), m.end()) for m in anywhere.finditer(hay)]
        if spans:
            return LooseFind(
                spans, text, replacement, "blanks added or removed inside lines ignored", "", True
            )
    return None


# A one-line text this long at most is looked for with its blanks ignored (a refusal's
# diagnosis only: the search tries every character as a start).
_MAX_BLANKLESS = 400
_NO_BLANKS = str.maketrans("", "", " \t")


def _squeezed(text: str, edges: bool) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with every run of blanks inside a line read as one space (and, with
    ``edges``, the blanks next to a line break dropped; without, a line's indentation
    kept as it is), and for each character kept the span of ``text`` it stands for.
    Linear: no pattern is matched, so no text can make the search slow."""
    out: list[str] = []
    where: list[tuple[int, int]] = []
    i, size = 0, len(text)
    line_start = True
    while i < size:
        ch = text[i]
        if ch in " \t":
            j = i
            while j < size and text[j] in " \t":
                j += 1
            at_break = j == size or text[j] == "\n"
            if edges and (line_start or at_break):
                pass  # blanks at a line's edge: read as none
            elif line_start:
                out.extend(text[i:j])  # indentation, as it is
                where.extend((k, k + 1) for k in range(i, j))
            else:
                out.append(" ")
                where.append((i, j))
            i = j
            line_start = False
            continue
        out.append(ch)
        where.append((i, i + 1))
        line_start = ch == "\n"
        i += 1
    return "".join(out), where
