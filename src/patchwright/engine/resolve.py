"""Resolve one edit against one text: where it applies and what replaces what.

Nothing is mutated here: each anchor kind becomes one or more :class:`Splice` values
(file lines ``[start, end)`` and the lines that take their place), which
:mod:`patchwright.engine.apply` checks for overlaps and splices in one pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from patchwright.engine.compose import compose
from patchwright.engine.diagnose import not_found
from patchwright.engine.index import LineIndex
from patchwright.engine.locate import Hint, Match, locate_or_refuse, loosely_equal
from patchwright.engine.normalize import PUNCT_TABLE, strip_key, strip_line_numbers
from patchwright.engine.policy import MatchOptions
from patchwright.model.edits import (
    BeginningOfFile,
    Edit,
    EndOfFile,
    Hunk,
    HunkLine,
    LineRange,
    OldText,
    WholeFile,
)
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.text import TextFile, split_lines


@dataclass(frozen=True)
class Splice:
    """Replace file lines ``[start, end)`` by ``lines`` / ``endings``.

    Attributes:
        keep_eof: the edit did not say anything about the final newline, so the file's
            state (with or without one) must survive it.
    """

    start: int
    end: int
    lines: list[str]
    endings: list[str]
    rung: str
    similarity: float = 1.0
    matched_text: str = ""
    reindent: str = ""
    warnings: tuple[str, ...] = ()
    keep_eof: bool = False
    extra: dict[str, object] = field(default_factory=dict)


def resolve(
    file: TextFile,
    index: LineIndex,
    edit: Edit,
    options: MatchOptions,
    *,
    hint_shift: int = 0,
) -> list[Splice]:
    """Resolve ``edit`` against ``file`` (whose ``index`` is given).

    Raises:
        PatchwrightError: the anchor was not found, was ambiguous, or is invalid.
    """
    anchor = edit.anchor
    if isinstance(anchor, Hunk):
        return [_hunk(file, index, anchor, edit.label, options, hint_shift)]
    if isinstance(anchor, OldText):
        return _old_text(file, index, anchor, edit.replacement, edit.label, options)
    if isinstance(anchor, LineRange):
        return [_line_range(file, anchor, edit.replacement, edit.label)]
    if isinstance(anchor, BeginningOfFile):
        return [line_splice(file, 0, 0, _as_lines(edit.replacement), "bof")]
    if isinstance(anchor, EndOfFile):
        n = len(file.lines)
        return [line_splice(file, n, n, _as_lines(edit.replacement), "eof")]
    if isinstance(anchor, WholeFile):
        lines, endings = split_lines(edit.replacement)
        nl = file.newline if file.lines else _text_newline(edit.replacement)
        endings = [nl if e else "" for e in endings]
        return [Splice(0, len(file.lines), lines, endings, "whole_file")]
    raise PatchwrightError(ErrorCode.UNSUPPORTED, f"Unknown anchor {anchor!r}.")


def _text_newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _as_lines(text: str) -> str:
    """Inserted blocks are whole lines: a missing final newline is supplied."""
    return text if not text or text.endswith(("\n", "\r")) else text + "\n"


def line_splice(file: TextFile, start: int, end: int, text: str, rung: str) -> Splice:
    """Replace whole lines ``[start, end)`` with the lines of ``text`` (file's newline)."""
    lines, endings = split_lines(text)
    nl = file.newline
    endings = [nl] * len(lines)
    return Splice(start, end, lines, endings, rung, keep_eof=True)


def _line_range(file: TextFile, rng: LineRange, text: str, label: str) -> Splice:
    n = len(file.lines)
    name = label or "edit"
    if rng.start < 1 or rng.start > n + 1:
        raise PatchwrightError(
            ErrorCode.OUT_OF_RANGE,
            f"{name}: start line {rng.start} is outside the file (it has {n} lines).",
            f"Use a start line between 1 and {n + 1} ({n + 1} appends).",
        )
    if rng.end < rng.start - 1 or rng.end > n:
        raise PatchwrightError(
            ErrorCode.OUT_OF_RANGE,
            f"{name}: end line {rng.end} is invalid for start line {rng.start} "
            f"(the file has {n} lines).",
            "end must be at least start - 1 (an empty range inserts) and at most the "
            "number of lines.",
        )
    current = file.lines[rng.start - 1 : rng.end]
    if rng.expected is not None and list(rng.expected) != current:
        raise PatchwrightError(
            ErrorCode.EXPECTED_MISMATCH,
            f"{name}: lines {rng.start}-{rng.end} do not hold the expected lines.\n"
            + _expected_vs_found(list(rng.expected), current, rng.start),
            "Re-read the file and copy the current lines exactly, or fix the line numbers.",
            details={"expected": list(rng.expected), "found": current},
        )
    splice = line_splice(file, rng.start - 1, rng.end, _as_lines(text), "line_range")
    return _with_matched(splice, file)


def _expected_vs_found(expected: list[str], found: list[str], start: int) -> str:
    rows = []
    for i in range(max(len(expected), len(found))):
        e = expected[i] if i < len(expected) else "<none>"
        f = found[i] if i < len(found) else "<none>"
        mark = "  " if e == f else "! "
        rows.append(f"{mark}line {start + i}: expected {e!r}, found {f!r}")
    return "\n".join(rows[:12])


def _with_matched(splice: Splice, file: TextFile) -> Splice:
    text = "".join(
        line + end
        for line, end in zip(
            file.lines[splice.start : splice.end], file.endings[splice.start : splice.end]
        )
    )
    return Splice(
        splice.start,
        splice.end,
        splice.lines,
        splice.endings,
        splice.rung,
        splice.similarity,
        text,
        splice.reindent,
        splice.warnings,
        splice.keep_eof,
    )


# ---------------------------------------------------------------------------- hunks


def _hunk(
    file: TextFile,
    index: LineIndex,
    hunk: Hunk,
    label: str,
    options: MatchOptions,
    hint_shift: int,
) -> Splice:
    pattern = hunk.old_lines
    hint = None
    if hunk.old_start is not None:
        hint = Hint(max(0, hunk.old_start - 1 + hint_shift))
    lo = _after_anchors(index, hunk.anchors)
    if not pattern:
        return _pure_insertion(file, hunk, hint, label)
    match = locate_or_refuse(
        index, pattern, hunk.new_lines, options, hint, label=label, at_eof=hunk.at_eof, lo=lo
    )
    _check_open_edges(hunk, match, len(file.lines), label)
    try:
        return _compose_splice(
            file, hunk.lines, match, label, hunk.no_newline_old, hunk.no_newline_new
        )
    except PatchwrightError as err:
        if err.code != ErrorCode.NOT_FOUND:
            raise
        raise not_found(index, pattern, hunk.new_lines, label, options) from None


def _compose_splice(
    file: TextFile,
    body: tuple[HunkLine, ...] | list[HunkLine],
    match: Match,
    label: str,
    no_newline_old: bool = False,
    no_newline_new: bool = False,
    same_frame_lines: int = 0,
    complete: bool = False,
) -> Splice:
    composed = compose(
        file.lines,
        file.endings,
        body,
        match,
        file.newline,
        same_frame_lines=same_frame_lines,
        no_newline_old=no_newline_old,
        no_newline_new=no_newline_new,
        complete=complete,
        label=label,
    )
    warnings = list(composed.warnings)
    if match.rung == "fuzzy":
        warnings.append(
            f"{label or 'edit'} applied via fuzzy match "
            f"({match.similarity:.0%} similarity at line {match.start + 1})"
        )
    if composed.reindent:
        warnings.append(f"{label or 'edit'}: new lines re-indented ({composed.reindent})")
    splice = Splice(
        composed.start,
        composed.end,
        composed.lines,
        composed.endings,
        match.rung,
        match.similarity,
        "",
        composed.reindent,
        tuple(warnings),
    )
    return _with_matched(splice, file)


def _check_open_edges(hunk: Hunk, match: Match, size: int, label: str) -> None:
    """A hunk whose added lines sit at its very end, after context, says nothing about
    what follows them: diffs only end that way at the end of the file. Anywhere else
    the model most likely left out the line after the insertion point, and the lines
    could belong before or after it. Likewise at the start of a hunk and of the file."""
    ops = [hl.op for hl in hunk.lines]
    name = label or "The hunk"
    if ops and ops[-1] == "+" and _last_old(ops) == " " and match.end != size:
        raise PatchwrightError(
            ErrorCode.AMBIGUOUS,
            f"{name} ends with added lines and no context after them, which in a diff "
            f"means the end of the file, but its context matched at lines "
            f"{match.start + 1}-{match.end} and the file goes on (line {match.end + 1}: "
            f"{file_line_preview(size, match)}).",
            "Add the line(s) that follow the insertion point as context, so it is clear "
            "where the new lines go.",
        )
    if ops and ops[0] == "+" and _last_old(ops[::-1]) == " " and match.start != 0:
        raise PatchwrightError(
            ErrorCode.AMBIGUOUS,
            f"{name} starts with added lines and no context before them, which in a diff "
            f"means the start of the file, but its context matched at line "
            f"{match.start + 1}.",
            "Add the line(s) before the insertion point as context, so it is clear where "
            "the new lines go.",
        )


def _last_old(ops: Sequence[str]) -> str:
    """The last context/removed op in ``ops`` ("" when there is none)."""
    return next((op for op in reversed(ops) if op != "+"), "")


def file_line_preview(size: int, match: Match) -> str:
    """A short marker for the line after a match (kept tiny: it is for orientation)."""
    return "end of file" if match.end >= size else "more lines follow"


def _after_anchors(index: LineIndex, anchors: tuple[str, ...]) -> int:
    """First line after the ``@@ anchor`` lines, found in order (0 when there are none)."""
    lo = 0
    for anchor in anchors:
        want = strip_key(anchor)
        if not want:
            continue
        hits = [i for i in index.line_starts(want) if i >= lo and strip_key(index.lines[i]) == want]
        if not hits:
            hits = [
                i
                for i in index.line_starts(want)
                if i >= lo and strip_key(index.lines[i]).startswith(want)
            ]
        if not hits:
            return 0  # the anchor is only a hint; the hunk's own lines decide
        lo = hits[0] + 1
    return lo


def _pure_insertion(file: TextFile, hunk: Hunk, hint: Hint | None, label: str) -> Splice:
    n = len(file.lines)
    if n and hint is None and not hunk.at_eof:
        raise PatchwrightError(
            ErrorCode.NOT_FOUND,
            f"{label or 'The hunk'} has no context or removed lines and no line number, "
            "so there is no way to tell where its lines go.",
            "Add a few unchanged lines around the change as context.",
        )
    at = n if hunk.at_eof or hint is None else min(n, hint.line + (1 if hunk.old_count == 0 else 0))
    if hunk.old_start == 0:
        at = 0
    body = list(hunk.lines)
    match = Match(at, at, "exact", 1.0, ())
    return _compose_splice(file, body, match, label, hunk.no_newline_old, hunk.no_newline_new)


# ---------------------------------------------------------------------------- old text


def _old_text(
    file: TextFile,
    index: LineIndex,
    anchor: OldText,
    replacement: str,
    label: str,
    options: MatchOptions,
) -> list[Splice]:
    text = anchor.text
    if text and text == replacement:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"{label or 'The edit'}: the new text is identical to the old text, so the edit "
            "changes nothing. No change was made.",
            "Send only edits that change something; if the file should differ in "
            "whitespace only, copy the old text exactly from the file.",
        )
    if not text:
        if not file.lines:
            return [Splice(0, 0, *split_lines(replacement), "exact")]
        raise PatchwrightError(
            ErrorCode.EMPTY_SEARCH,
            f"{label or 'The edit'} has empty search text but the file is not empty.",
            "Give the exact text to replace, or use an append / prepend / overwrite operation.",
        )
    if anchor.whole_lines and not anchor.replace_all:
        return [_line_mode(file, index, anchor, replacement, label, options)]
    spans = _char_matches(index, text)
    rung = "exact" if "\r" not in text and not file.has_cr else "newline"
    if not spans:
        numbered = strip_line_numbers(text.split("\n"))
        if numbered is not None:
            spans = _char_matches(index, "\n".join(numbered))
            rung = "exact"
            if spans:
                text = "\n".join(numbered)
    if not spans and options.allows("unicode"):
        spans = _folded_matches(index, text)
        rung = "unicode"
    if spans:
        return _char_splices(file, index, spans, text, replacement, anchor, label, rung)
    return [_line_mode(file, index, anchor, replacement, label, options)]


def _char_matches(index: LineIndex, text: str) -> list[tuple[int, int]]:
    needle = text.replace("\r\n", "\n").replace("\r", "\n")
    hay = index.joined
    found: list[tuple[int, int]] = []
    pos = hay.find(needle)
    while pos != -1:
        found.append((pos, pos + len(needle)))
        pos = hay.find(needle, pos + len(needle))
    return found


def _folded_matches(index: LineIndex, text: str) -> list[tuple[int, int]]:
    """Exact search with typographic punctuation folded, only where folding keeps lengths
    (so offsets in the folded text are offsets in the file)."""
    folded = index.folded
    if len(folded) != len(index.joined):
        return []
    needle = text.replace("\r\n", "\n").translate(PUNCT_TABLE)
    if len(needle) != len(text.replace("\r\n", "\n")):
        return []
    found: list[tuple[int, int]] = []
    pos = folded.find(needle)
    while pos != -1:
        found.append((pos, pos + len(needle)))
        pos = folded.find(needle, pos + len(needle))
    return found


def _char_splices(
    file: TextFile,
    index: LineIndex,
    spans: list[tuple[int, int]],
    text: str,
    replacement: str,
    anchor: OldText,
    label: str,
    rung: str,
) -> list[Splice]:
    if len(spans) > 1 and not anchor.replace_all:
        lines = [index.line_of(a) + 1 for a, _ in spans]
        if anchor.hint_line is not None:
            best = sorted(lines, key=lambda ln: abs(ln - anchor.hint_line))  # type: ignore[operator]
            d1, d2 = abs(best[0] - anchor.hint_line), abs(best[1] - anchor.hint_line)
            if d1 <= 100 and d2 >= 2 * d1 + 4:
                spans = [spans[lines.index(best[0])]]
        if len(spans) > 1:
            raise _ambiguous_text(text, lines, label)
    out = []
    for a, b in spans:
        out.append(_char_splice(file, index, a, b, replacement, rung))
    return out


def _ambiguous_text(text: str, lines: list[int], label: str) -> PatchwrightError:
    shown = text if len(text) <= 60 else text[:57] + "..."
    where = ", ".join(map(str, lines[:10]))
    return PatchwrightError(
        ErrorCode.AMBIGUOUS,
        f"{label + ': ' if label else ''}{shown!r} appears {len(lines)} times "
        f"(lines {where}). No change was made.",
        "Use replace_all=true or provide more context so the text occurs exactly once.",
        details={"lines": lines, "count": len(lines)},
    )


def _char_splice(
    file: TextFile, index: LineIndex, a: int, b: int, replacement: str, rung: str
) -> Splice:
    """Replace characters ``[a, b)`` of the joined text, rewriting only the lines they touch."""
    joined = index.joined
    first = joined.count("\n", 0, a)
    last = first + joined.count("\n", a, b)
    eats_newline = b > a and joined[b - 1] == "\n"
    if eats_newline:
        last -= 1
    line_start = joined.rfind("\n", 0, a) + 1
    prefix = joined[line_start:a]
    end_of_last = joined.find("\n", b) if not eats_newline else b - 1
    if end_of_last == -1:
        end_of_last = len(joined)
    suffix = "" if eats_newline else joined[b:end_of_last]
    rep = replacement.replace("\r\n", "\n").replace("\r", "\n")
    segment = prefix + rep + suffix
    last_ending = file.endings[last] if file.lines else ""
    if eats_newline and not segment.endswith("\n") and last + 1 < len(file.lines):
        # "a\n" replaced by "b" joins the next line, exactly as the literal text says.
        last += 1
        segment += file.lines[last]
        last_ending = file.endings[last]
    elif eats_newline and segment.endswith("\n"):
        segment = segment[:-1]
    elif eats_newline and segment == "" and last + 1 >= len(file.lines):
        pass
    lines = segment.split("\n") if (segment or not eats_newline) else []
    nl = file.newline
    endings = [nl] * len(lines)
    if endings:
        endings[-1] = last_ending
    matched = "".join(
        line + end
        for line, end in zip(file.lines[first : last + 1], file.endings[first : last + 1])
    )
    return Splice(first, last + 1, lines, endings, rung, 1.0, joined[a:b] if matched else "")


def _line_mode(
    file: TextFile,
    index: LineIndex,
    anchor: OldText,
    replacement: str,
    label: str,
    options: MatchOptions,
) -> Splice:
    """Loose rungs: the search text as whole lines, the replacement as a hunk against it."""
    search = anchor.text.replace("\r\n", "\n").replace("\r", "\n")
    body_text = search[:-1] if search.endswith("\n") else search
    numbered = strip_line_numbers(body_text.split("\n"))
    pattern = numbered if numbered is not None else body_text.split("\n")
    rep = replacement.replace("\r\n", "\n").replace("\r", "\n")
    new = rep[:-1].split("\n") if rep.endswith("\n") else (rep.split("\n") if rep else [])
    hint = Hint(anchor.hint_line - 1) if anchor.hint_line else None
    match = locate_or_refuse(index, pattern, new, options, hint, label=label)
    body, same = _diff_body(pattern, new)
    _check_repeated_edges(file, match, label, pattern, new)
    if match.rung == "trimmed_edges":
        partial = _partial_edges(file, match, pattern, new, label)
        if partial is not None:
            return partial
    try:
        return _compose_splice(file, body, match, label, same_frame_lines=same, complete=True)
    except PatchwrightError as err:
        if err.code != ErrorCode.NOT_FOUND:
            raise
        raise not_found(index, pattern, new, label, options) from None


def _check_repeated_edges(
    file: TextFile,
    match: Match,
    label: str,
    old: list[str],
    new: list[str],
) -> None:
    """Refuse new text that ends (starts) with added lines equal to the lines right
    after (before) the matched text: the search text most likely left those lines out,
    and writing them again would duplicate them. New text that ends (starts) with the
    same line as the old text adds nothing at that edge."""
    same_end = bool(old and new) and old[-1] == new[-1]
    same_start = bool(old and new) and old[0] == new[0]
    blocks = [
        (j1, j2)
        for tag, _, _, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
        if tag == "equal"
    ]
    first_kept = blocks[0][0] if blocks else len(new)
    last_kept = blocks[-1][1] if blocks else 0
    tail = [] if same_end else new[last_kept:]
    head = [] if same_start else new[:first_kept]
    after = file.lines[match.end : match.end + len(tail)]
    before = file.lines[max(0, match.start - max(1, len(head))) : match.start]
    for k in range(len(tail), 0, -1):
        if _same_keys(tail[-k:], after[:k]):
            raise _repeats(label, "ends", k, match.end + 1)
    for k in range(len(head), 0, -1):
        if _same_keys(head[:k], before[len(before) - k :]):
            raise _repeats(label, "starts", k, match.start - k + 1)
    # New lines that end where the file's preceding lines end (or start the way the
    # following lines start) repeat them at the seam, blank lines included.
    if head and before and head[-1] == before[-1]:
        raise _repeats(label, "starts", 1, match.start)
    if tail and match.end < len(file.lines) and tail[0] == file.lines[match.end]:
        raise _repeats(label, "ends", 1, match.end + 1)
    # The first real line after (last before) the match, repeated anywhere among the
    # lines added at that edge, is just as suspicious.
    hit = _first_real(file.lines, range(match.end, min(len(file.lines), match.end + 3)))
    if hit is not None and strip_key(file.lines[hit]) in {strip_key(t) for t in tail}:
        raise _repeats(label, "ends", 1, hit + 1)
    hit = _first_real(file.lines, range(match.start - 1, max(-1, match.start - 4), -1))
    if hit is not None and strip_key(file.lines[hit]) in {strip_key(t) for t in head}:
        raise _repeats(label, "starts", 1, hit + 1)


def _first_real(lines: list[str], where: Iterable[int]) -> int | None:
    """The first index in ``where`` whose line is not blank."""
    return next((j for j in where if strip_key(lines[j])), None)


def _same_keys(a: list[str], b: list[str]) -> bool:
    return len(a) == len(b) and bool(a) and all(strip_key(x) == strip_key(y) for x, y in zip(a, b))


def _repeats(label: str, side: str, k: int, line: int) -> PatchwrightError:
    return PatchwrightError(
        ErrorCode.AMBIGUOUS,
        f"{label or 'The edit'}: the new text {side} with {k} line(s) that already stand "
        f"next to the matched text (line {line}); writing them would duplicate them. The "
        "search text probably leaves them out. No change was made.".replace(
            f"{side} with", "repeats" if side == "ends" and k == 1 else f"{side} with"
        ),
        "Include those lines in the text to replace as well (copy them from the file), or "
        "leave them out of the new text.",
        details={"line": line},
    )


def _diff_body(old: list[str], new: list[str]) -> tuple[list[HunkLine], int]:
    """Old and new text as hunk lines; also counts non-blank lines common to both."""
    body: list[HunkLine] = []
    same = 0
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            body.extend(HunkLine(" ", t) for t in old[i1:i2])
            same += sum(1 for t in old[i1:i2] if t.strip() and t != t.lstrip())
            continue
        body.extend(HunkLine("-", t) for t in old[i1:i2])
        body.extend(HunkLine("+", t) for t in new[j1:j2])
    return body, same


def _partial_edges(
    file: TextFile, match: Match, pattern: list[str], new: list[str], label: str
) -> Splice | None:
    """A search text that starts or ends mid-line keeps the rest of those lines."""
    first, last = file.lines[match.start], file.lines[match.end - 1]
    p0, p1 = pattern[0].strip(), pattern[-1].strip()
    prefix = suffix = ""
    if p0 and first.strip() != p0 and first.rstrip().endswith(p0):
        prefix = first[: first.rstrip().rfind(p0)]
    if p1 and last.strip() != p1 and last.lstrip().startswith(p1):
        cut = last.find(p1) + len(p1)
        suffix = last[cut:]
    if not prefix and not suffix:
        return None
    if not new:
        return None
    lines = list(new)
    lines[0] = prefix + lines[0].lstrip() if prefix else lines[0]
    lines[-1] = lines[-1] + suffix
    endings = [file.newline] * len(lines)
    endings[-1] = file.endings[match.end - 1]
    splice = Splice(match.start, match.end, lines, endings, "trimmed_edges", 1.0, "")
    if not loosely_equal(pattern[0], first):
        return None
    return _with_matched(splice, file)
