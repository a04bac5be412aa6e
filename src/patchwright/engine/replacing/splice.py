"""Splices: what replaces which file lines, built from a located match.

Shared by the resolution of every anchor kind (:mod:`patchwright.engine.resolve` for line ranges and
hunks, :mod:`patchwright.engine.oldtext` for search texts).
"""

from __future__ import annotations

from collections.abc import Sequence

from patchwright._records import record, replace
from patchwright.engine.matching.normalize import (
    is_elision,
    unicode_key,
)
from patchwright.engine.matching.rungs import Match
from patchwright.engine.replacing.compose import compose
from patchwright.model.edits import (
    HunkLine,
)
from patchwright.model.reports import Rung
from patchwright.model.text import TextFile, split_lines


@record(frozen=True)
class Splice:
    """Replace file lines ``[start, end)`` by ``lines`` / ``endings``.

    Attributes:
        keep_eof: the edit did not say anything about the final newline, so the file's
            state (with or without one) must survive it.
        count: occurrences of a text anchor this splice replaces (several when
            ``replace_all`` matches more than once on one line).
        frame: the indentation shift the old lines matched with (as described) and
            whether the added lines moved with it, when the engine decided that from
            the edit's own evidence; ``None`` when there was nothing to decide.
    """

    start: int
    end: int
    lines: list[str]
    endings: list[str]
    rung: Rung
    similarity: float = 1.0
    matched_text: str = ""
    reindent: str = ""
    warnings: tuple[str, ...] = ()
    keep_eof: bool = False
    count: int = 1
    assumed: tuple[str, ...] = ()
    frame: tuple[str, bool] | None = None


def line_splice(file: TextFile, start: int, end: int, text: str, rung: Rung) -> Splice:
    """Replace whole lines ``[start, end)`` with the lines of ``text`` (file's newline)."""
    lines, endings = split_lines(text)
    nl = file.newline
    endings = [nl] * len(lines)
    return Splice(start, end, lines, endings, rung, keep_eof=True)


def matched_text(file: TextFile, start: int, end: int) -> str:
    """File lines ``[start, end)`` with their endings: what a clipboard should hold."""
    return "".join(map(str.__add__, file.lines[start:end], file.endings[start:end]))


def with_matched(splice: Splice, file: TextFile) -> Splice:
    """``splice`` with the file text it replaces (what a clipboard should hold)."""
    text = matched_text(file, splice.start, splice.end)
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
        splice.count,
        splice.assumed,
    )


def compose_splice(
    file: TextFile,
    body: tuple[HunkLine, ...] | list[HunkLine],
    match: Match,
    label: str,
    no_newline_old: bool = False,
    no_newline_new: bool = False,
    same_frame_lines: int = 0,
    complete: bool = False,
    convert: str = "",
    frame: str = "auto",
) -> Splice:
    """The splice for a hunk ``body`` located at ``match``: context from the file, added
    lines as given, with the warnings of loose and fuzzy matches."""
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
        convert=convert,
        frame=frame,
    )
    warnings = list(composed.warnings)
    pattern = [hl.text for hl in body if hl.op != "+"]
    warnings += tolerated(file.lines, pattern, match, label)
    if match.rung == Rung.FUZZY:
        warnings.append(
            f"{label or 'edit'} applied via fuzzy match "
            f"({match.similarity:.0%} similarity at line {match.start + 1})"
        )
    if composed.reindent:
        warnings.append(f"{label or 'edit'}: new lines re-indented ({composed.reindent})")
    # one splice, built with its matched text (not a second copy made to add it)
    return Splice(
        composed.start,
        composed.end,
        composed.lines,
        composed.endings,
        match.rung,
        match.similarity,
        matched_text(file, composed.start, composed.end),
        composed.reindent,
        tuple(warnings),
        assumed=_assumed(match, composed.reindent, composed.assumed),
        frame=composed.frame,
    )


# What each loose rung takes for granted about the old text, in a few words (the
# whitespace rungs' names say it already).
_RUNG_ASSUMES = {
    Rung.TRIMMED_EDGES: "the first or last old line read as a fragment of the file's line",
    Rung.UNICODE: "typographic punctuation and runs of blanks ignored",
    Rung.ELISION: "each '...' read as the file lines it skips",
}


def _assumed(match: Match, reindent: str, frame: tuple[str, ...]) -> tuple[str, ...]:
    """What a loose match assumed: what its rung ignored, lines of the file its old text
    left out, and the frame the new lines were written in (empty for an exact match)."""
    if match.rung == Rung.EXACT:
        return ()
    out: list[str] = []
    if match.rung == Rung.FUZZY:
        out.append(
            f"old text read as lines {match.start + 1}-{match.end} ({match.similarity:.0%} similar)"
        )
    elif match.rung in _RUNG_ASSUMES:
        out.append(_RUNG_ASSUMES[match.rung])
    covered = {a for a, b in match.spans for a in range(a, b)}
    dropped = [k + 1 for k in range(match.start, match.end) if k not in covered]
    if dropped and match.rung != Rung.ELISION:
        lines = ", ".join(map(str, dropped[:5])) + (" ..." if len(dropped) > 5 else "")
        out.append(f"file line(s) {lines} left out of the old text kept")
    if reindent:
        out.append(f"new lines re-indented ({reindent})")
    out.extend(frame)
    return tuple(out)


def tolerated(
    file_lines: Sequence[str], pattern: Sequence[str], match: Match, label: str
) -> list[str]:
    """Warnings saying what a rung beyond whitespace tolerated to find ``match``.

    Whitespace rungs say nothing (the text is there); trimmed edges, punctuation and
    ``...`` elisions accepted text that is *not* in the file, and the model should know
    which of its lines stood for what (the fuzzy rung warns on its own)."""
    name = label or "edit"
    if match.rung == Rung.UNICODE:
        return [unicode_warning(label)]
    if match.rung == Rung.ELISION:
        runs = [(a, b) for p, (a, b) in zip(pattern, match.spans) if is_elision(p) and b > a]
        where = ", ".join(f"{a + 1}-{b}" if b > a + 1 else f"{a + 1}" for a, b in runs)
        count = sum(b - a for a, b in runs)
        return [
            f"{name}: '...' in your text stood for {count} line(s) of the file "
            f"(line(s) {where}), matched without being shown"
        ]
    if match.rung == Rung.OMITTED:
        return [
            f"{name}: placed although your text leaves out a line of the file between two "
            f"of its lines (near line {match.start + 1}); that line was kept"
        ]
    if match.rung != Rung.TRIMMED_EDGES:
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


def unicode_warning(label: str) -> str:
    """The warning of a match found with typographic punctuation folded."""
    return (
        f"{label or 'edit'}: matched with typographic punctuation (curly quotes, dashes, "
        "special spaces) taken as plain ASCII; unchanged text keeps the file's characters"
    )


def noted(splice: Splice, notes: tuple[str, ...]) -> Splice:
    """``splice`` with ``notes`` added to its warnings."""
    return replace(splice, warnings=(*splice.warnings, *notes)) if notes else splice
