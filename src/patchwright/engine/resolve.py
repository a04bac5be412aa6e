"""Resolve one edit against one text: where it applies and what replaces what.

Nothing is mutated here: each anchor kind becomes one or more :class:`Splice` values
(file lines ``[start, end)`` and the lines that take their place), which
:mod:`patchwright.engine.apply` checks for overlaps and splices in one pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher

from patchwright.engine.compose import compose
from patchwright.engine.diagnose import not_found
from patchwright.engine.index import LineIndex
from patchwright.engine.locate import (
    Hint,
    Match,
    identity,
    keyed_matches,
    locate_block,
    locate_or_refuse,
    loosely_equal,
)
from patchwright.engine.normalize import (
    PUNCT_TABLE,
    is_elision,
    strip_key,
    strip_line_numbers,
    strip_number_prefixes,
    unicode_key,
)
from patchwright.engine.policy import MatchOptions
from patchwright.engine.reindent import replacement_shift
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
        count: occurrences of a text anchor this splice replaces (several when
            ``replace_all`` matches more than once on one line).
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
    count: int = 1


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
    if not pattern:
        return _pure_insertion(file, hunk, hint, label)
    scope = _anchor_scope(index, hunk.anchors)
    try:
        match = locate_or_refuse(
            index,
            pattern,
            hunk.new_lines,
            options,
            hint,
            label=label,
            at_eof=hunk.at_eof,
            lo=scope.lo,
        )
    except PatchwrightError as err:
        if err.code != ErrorCode.AMBIGUOUS:
            raise
        err.hint = _HUNK_AMBIGUITY_HINT  # a diff has no replace_all
        if not hunk.anchors:
            raise
        picked = None if scope.missing else _first_in_scope(index, pattern, options, err, scope)
        if picked is None:
            if scope.missing:
                err.message += (
                    f" The @@ anchor line(s) {_quoted(scope.missing)} were not found in the "
                    "file (in order), so they could not narrow the search."
                )
            raise
        match = picked
    _check_open_edges(hunk, match, len(file.lines), label)
    try:
        splice = _compose_splice(
            file, hunk.lines, match, label, hunk.no_newline_old, hunk.no_newline_new
        )
    except PatchwrightError as err:
        if err.code != ErrorCode.NOT_FOUND:
            raise
        raise not_found(index, pattern, hunk.new_lines, label, options) from None
    return _noted(splice, _scope_warnings(scope, match, label))


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
    pattern = [hl.text for hl in body if hl.op != "+"]
    warnings += tolerated(file.lines, pattern, match, label)
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


def tolerated(
    file_lines: Sequence[str], pattern: Sequence[str], match: Match, label: str
) -> list[str]:
    """Warnings saying what a rung beyond whitespace tolerated to find ``match``.

    Whitespace rungs say nothing (the text is there); trimmed edges, punctuation and
    ``...`` elisions accepted text that is *not* in the file, and the model should know
    which of its lines stood for what (the fuzzy rung warns on its own)."""
    name = label or "edit"
    if match.rung == "unicode":
        return [_unicode_warning(label)]
    if match.rung == "elision":
        runs = [(a, b) for p, (a, b) in zip(pattern, match.spans) if is_elision(p) and b > a]
        where = ", ".join(f"{a + 1}-{b}" if b > a + 1 else f"{a + 1}" for a, b in runs)
        count = sum(b - a for a, b in runs)
        return [
            f"{name}: '...' in your text stood for {count} line(s) of the file "
            f"(line(s) {where}), matched without being shown"
        ]
    if match.rung != "trimmed_edges":
        return []
    out: list[str] = []
    edges = {0: "first", len(pattern) - 1: "last"}  # one entry for a one-line pattern
    for i, which in edges.items():
        a, b = match.spans[i]
        if b != a + 1 or unicode_key(pattern[i]) == unicode_key(file_lines[a]):
            continue
        out.append(
            f"{name}: matched although its {which} line differs from the file: line "
            f"{a + 1} is {_short(file_lines[a])}, your text has {_short(pattern[i])}; "
            "that file line was taken as the one meant"
        )
    return out


def _short(line: str) -> str:
    text = line.strip()
    return repr(text if len(text) <= 50 else text[:47] + "...")


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


_HUNK_AMBIGUITY_HINT = (
    "Include more unchanged lines around the change so the hunk matches exactly one "
    "place, or give the right line numbers (unified diffs) or an @@ line naming the "
    "enclosing class or function (OpenAI patches)."
)


@dataclass(frozen=True)
class _Scope:
    """What a hunk's ``@@`` anchor lines (OpenAI patch format) say about its place.

    Attributes:
        lo: the first line after the last anchor found (0 when none was found).
        hi: the next line, from ``lo`` on, where one of the found anchor lines occurs
            again: the anchored region ends there (the file's length when none does).
        missing: anchors not found in the file (after the ones before them).
    """

    lo: int
    hi: int
    missing: tuple[str, ...]


def _anchor_scope(index: LineIndex, anchors: tuple[str, ...]) -> _Scope:
    """Find the anchors in order, each after the previous one."""
    lo = 0
    found: list[str] = []
    missing: list[str] = []
    for anchor in anchors:
        want = strip_key(anchor)
        if not want:
            continue
        hit = _anchor_line(index, want, lo)
        if hit is None:
            missing.append(want)  # reported, never silently dropped
            continue
        found.append(want)
        lo = hit + 1
    hits = (_anchor_line(index, want, lo) for want in found)
    hi = min((h for h in hits if h is not None), default=len(index.lines))
    return _Scope(lo, hi, tuple(missing))


def _anchor_line(index: LineIndex, want: str, lo: int) -> int | None:
    """The first line from ``lo`` on that is the anchor (or, failing that, starts with
    it: models shorten long signatures)."""
    starts = [i for i in index.line_starts(want) if i >= lo]
    for exact in (True, False):
        for i in starts:
            key = strip_key(index.lines[i])
            if key == want if exact else key.startswith(want):
                return i
    return None


def _first_in_scope(
    index: LineIndex,
    pattern: Sequence[str],
    options: MatchOptions,
    err: PatchwrightError,
    scope: _Scope,
) -> Match | None:
    """Settle an ambiguous anchored hunk: the first candidate after the last anchor wins
    when it lies in the anchored region (before the anchor chain occurs again), as the
    format means; ``None`` when that does not single one out."""
    lines = err.details.get("lines")
    rung = err.details.get("rung")
    if not isinstance(lines, list) or not isinstance(rung, str) or not lines:
        return None
    starts = sorted(int(n) - 1 for n in lines)
    # Candidates before the anchors come from the search of the whole file: the block
    # was not found after them, so the anchors do not help.
    if starts[0] < scope.lo or starts[0] >= scope.hi:
        return None
    # The first candidate alone: the lines before the next one (an overlapping next
    # candidate leaves it no room, and the ambiguity stands).
    cut = starts[1] if len(starts) > 1 else len(index.lines)
    sub = LineIndex(index.lines[:cut])
    match = locate_block(sub, pattern, options, None, lo=starts[0], rungs=(rung,))
    return match if match is not None and match.start == starts[0] else None


def _scope_warnings(scope: _Scope, match: Match, label: str) -> tuple[str, ...]:
    name = label or "hunk"
    notes = [
        f"{name}: @@ anchor {_quoted((a,))} was not found in the file; the hunk was "
        "placed by its own lines"
        for a in scope.missing
    ]
    if scope.lo and match.end < scope.lo:
        notes.append(
            f"{name}: matched at line {match.start + 1}, above its @@ anchor line "
            f"{scope.lo}; the anchor was not used"
        )
    return tuple(notes)


def _quoted(items: Sequence[str]) -> str:
    return ", ".join(repr(t) for t in items)


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
    final_newline = file.ends_with_newline
    every = not anchor.replace_all  # a single edit must be unique, overlaps included
    spans = _char_matches(index, text, final_newline, every)
    rung = "exact" if "\r" not in text and not file.has_cr else "newline"
    warnings: tuple[str, ...] = ()
    if not spans:
        numbered = _unnumbered(text)
        if numbered is not None:
            spans = _char_matches(index, numbered, final_newline, every)
            rung = "exact"
            if spans:
                text = numbered
                replacement, warnings = _unnumbered_replacement(replacement, label)
    if not spans and options.allows("unicode"):
        spans = _folded_matches(index, text, final_newline, every)
        rung = "unicode"
        if spans and every and _whole_lines(index.joined, spans):
            # Whole lines matched loosely: as lines, unchanged ones keep the file's
            # punctuation (a literal replacement would rewrite them all).
            return [_line_mode(file, index, anchor, replacement, label, options)]
        if spans:
            warnings = (*warnings, _unicode_warning(label))
    if spans:
        return _char_splices(file, index, spans, text, replacement, anchor, label, rung, warnings)
    return [_line_mode(file, index, anchor, replacement, label, options)]


def _whole_lines(joined: str, spans: list[tuple[int, int]]) -> bool:
    """Whether every span starts at a line start and ends at a line end (or newline)."""
    size = len(joined)
    for a, b in spans:
        if a and joined[a - 1] != "\n":
            return False
        if b < size and joined[b - 1] != "\n" and joined[b] != "\n":
            return False
    return True


def _unnumbered(text: str) -> str | None:
    """``text`` without ``read_file`` line-number prefixes (``None`` when not numbered).

    A final newline is not a line of its own: ``"  1\ta\n  2\tb\n"`` is numbered."""
    final = "\n" if text.endswith("\n") else ""
    lines = strip_line_numbers(text[: len(text) - len(final)].split("\n"))
    return None if lines is None else "\n".join(lines) + final


def _unnumbered_replacement(replacement: str, label: str) -> tuple[str, tuple[str, ...]]:
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


def _unicode_warning(label: str) -> str:
    return (
        f"{label or 'edit'}: matched with typographic punctuation (curly quotes, dashes, "
        "special spaces) taken as plain ASCII; unchanged text keeps the file's characters"
    )


def _char_matches(
    index: LineIndex, text: str, final_newline: bool, overlapping: bool
) -> list[tuple[int, int]]:
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


def _folded_matches(
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


def _char_splices(
    file: TextFile,
    index: LineIndex,
    spans: list[tuple[int, int]],
    text: str,
    replacement: str,
    anchor: OldText,
    label: str,
    rung: str,
    warnings: tuple[str, ...] = (),
) -> list[Splice]:
    if len(spans) > 1 and not anchor.replace_all:
        lines = _line_numbers(index, [a for a, _ in spans])
        if anchor.hint_line is not None:
            best = sorted(lines, key=lambda ln: abs(ln - anchor.hint_line))  # type: ignore[operator]
            d1, d2 = abs(best[0] - anchor.hint_line), abs(best[1] - anchor.hint_line)
            if d1 <= 100 and d2 >= 2 * d1 + 4:
                spans = [spans[lines.index(best[0])]]
        if len(spans) > 1:
            raise _ambiguous_text(text, lines, label, anchor.replace_all_supported)
    return _literal_splices(file, index, spans, replacement, rung, warnings)


def _line_numbers(index: LineIndex, positions: list[int]) -> list[int]:
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
    rung: str,
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
    pattern = body_text.split("\n")
    numbered = strip_line_numbers(pattern)
    notes: tuple[str, ...] = ()
    # Lines that really start with numbers (a TSV file, a listing) are content when
    # they stand in the file as written.
    if numbered is not None and not keyed_matches(index, pattern, "exact", 0):
        pattern = numbered
        replacement, notes = _unnumbered_replacement(replacement, label)
    rep = replacement.replace("\r\n", "\n").replace("\r", "\n")
    new = rep[:-1].split("\n") if rep.endswith("\n") else (rep.split("\n") if rep else [])
    hint = Hint(anchor.hint_line - 1) if anchor.hint_line else None
    try:
        match = locate_or_refuse(index, pattern, new, options, hint, label=label)
    except PatchwrightError as err:
        if err.code == ErrorCode.AMBIGUOUS:
            err.hint = ambiguity_hint(anchor.replace_all_supported)
        raise
    moved = _moved_with_old(file, match, pattern, new)
    how = ""
    if moved is not None:
        pattern, new, how = moved
        notes = (*notes, f"{label or 'edit'}: new lines re-indented ({how})")
    ops = _opcodes(pattern, new)
    body, same = _diff_body(pattern, new, ops)
    _check_repeated_edges(file, match, label, pattern, new, ops)
    if match.rung == "trimmed_edges":
        partial = _partial_edges(file, match, pattern, new, label)
        if partial is not None:
            return _noted(partial, notes)
    try:
        splice = _compose_splice(file, body, match, label, same_frame_lines=same, complete=True)
    except PatchwrightError as err:
        if err.code != ErrorCode.NOT_FOUND:
            raise
        raise not_found(index, pattern, new, label, options) from None
    if how:
        splice = replace(splice, reindent=how)
    return _noted(splice, notes)


def _moved_with_old(
    file: TextFile, match: Match, pattern: list[str], new: list[str]
) -> tuple[list[str], list[str], str] | None:
    """A replacement sharing no line with its shifted old text, written at the old
    text's base indentation, moves with it (see :func:`replacement_shift`): the old
    lines as the file has them, the new lines shifted alike, and the shift's name.
    ``None`` leaves the decision to the usual evidence."""
    if match.rung not in ("indentation", "unicode") or match.spans != identity(
        match.start, len(pattern)
    ):
        return None
    found = file.lines[match.start : match.end]
    shift = replacement_shift(pattern, found, new)
    if shift is None:
        return None
    return list(found), [shift.apply(line) for line in new], shift.describe()


def _noted(splice: Splice, notes: tuple[str, ...]) -> Splice:
    """``splice`` with ``notes`` added to its warnings."""
    return replace(splice, warnings=(*splice.warnings, *notes)) if notes else splice


def _check_repeated_edges(
    file: TextFile,
    match: Match,
    label: str,
    old: list[str],
    new: list[str],
    ops: Sequence[Opcode],
) -> None:
    """Refuse new text that ends (starts) with added lines equal to the lines right
    after (before) the matched text: the search text most likely left those lines out,
    and writing them again would duplicate them. New text that ends (starts) with the
    same line as the old text adds nothing at that edge."""
    same_end = bool(old and new) and old[-1] == new[-1]
    same_start = bool(old and new) and old[0] == new[0]
    blocks = [(j1, j2) for tag, _, _, j1, j2 in ops if tag == "equal"]
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


Opcode = tuple[str, int, int, int, int]


def _opcodes(old: list[str], new: list[str]) -> Sequence[Opcode]:
    """How ``new`` differs from ``old``, line by line (computed once per edit)."""
    return SequenceMatcher(None, old, new, autojunk=False).get_opcodes()


def _diff_body(old: list[str], new: list[str], ops: Sequence[Opcode]) -> tuple[list[HunkLine], int]:
    """Old and new text as hunk lines; also counts non-blank lines common to both."""
    body: list[HunkLine] = []
    same = 0
    for tag, i1, i2, j1, j2 in ops:
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
    warnings = tuple(tolerated(file.lines, pattern, match, label))
    splice = Splice(match.start, match.end, lines, endings, "trimmed_edges", 1.0, "", "", warnings)
    if not loosely_equal(pattern[0], first):
        return None
    return _with_matched(splice, file)
