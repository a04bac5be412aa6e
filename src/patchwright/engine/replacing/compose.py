"""Turn a located hunk into the lines that replace its region.

Context lines are copied from the file (its bytes, its indentation, its punctuation:
leniency only found the place); removed lines are dropped; added lines are inserted as
the model wrote them, shifted only when the model's whole block was shifted too.
"""

from __future__ import annotations

from collections.abc import Sequence

from patchwright._records import record
from patchwright.engine.matching.normalize import strip_key, unicode_key
from patchwright.engine.matching.rungs import Match, identity
from patchwright.model.edits import HunkLine
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.reports import Rung

TYPE_CHECKING = False
if TYPE_CHECKING:
    from patchwright.engine.replacing.context_side import Side

# A line the edit deletes, when found by similarity, must be this close to the file's.
_MIN_REMOVED_SIMILARITY = 90.0


@record(frozen=True)
class Composed:
    """Replacement for file lines ``[start, end)``."""

    start: int
    end: int
    lines: list[str]
    endings: list[str]
    reindent: str
    warnings: tuple[str, ...]
    assumed: tuple[str, ...] = ()
    # the shift the old lines matched with and whether the added lines moved with it,
    # when the engine decided that itself (see frame.frame_decided)
    frame: tuple[str, bool] | None = None


def compose(
    file_lines: list[str],
    file_endings: list[str],
    body: Sequence[HunkLine],
    match: Match,
    newline: str,
    *,
    same_frame_lines: int = 0,
    no_newline_old: bool = False,
    no_newline_new: bool = False,
    complete: bool = False,
    label: str = "",
    convert: str = "",
    frame: str = "auto",
) -> Composed:
    """Build the new lines for ``match`` from the hunk ``body``.

    ``complete`` says the added lines are the whole new text of the region (an
    old-text/new-text edit) rather than a diff's additions. Added lines end like the
    removed lines they replace, else like the file line before them; ``convert`` (a
    line ending) overrides that for a hunk that converts endings.

    Raises:
        PatchwrightError: ``not_found`` when a removed line was not located, ``ambiguous``
            when added lines cannot be placed or indented with certainty.
    """
    if match.rung == Rung.EXACT and match.spans == identity(match.start, match.end - match.start):
        return compose_exact(
            file_lines,
            file_endings,
            body,
            match.start,
            match.end,
            newline,
            no_newline_old,
            no_newline_new,
            convert,
        )
    # frames and sides matter only for a match that is not exact: start-up time of a clean
    # apply, which never loads them
    from patchwright.engine.replacing.context_side import side_by_context
    from patchwright.engine.replacing.frame import (
        frame_decided,
        frame_kept,
        local_frames,
        shift_for,
    )

    shift = shift_for(file_lines, body, match, same_frame_lines, label, frame)
    decided = frame_decided(file_lines, body, match, shift) if frame == "auto" else None
    local, assumed = ({}, "") if shift else local_frames(file_lines, body, match)
    frame_told = (frame_kept(file_lines, body, match),) if not (shift or local) else ()
    if complete:
        _check_trailing(body, match, file_lines, label)
    out: list[str] = []
    ends: list[str] = []
    pending: list[tuple[str, str]] = []
    endings = AddedEndings(file_endings, newline, convert)
    cursor = match.start
    k = 0
    adds = any(hl.op == "+" for hl in body)
    warnings: list[str] = []
    removed_run = 0  # removed lines right before the pending added lines
    for i, hl in enumerate(body):
        if hl.op == "+":
            moved = shift or local.get(i)
            pending.append((moved.apply(hl.text) if moved else hl.text, endings.added(cursor)))
            continue
        a, b = match.spans[k]
        k += 1
        # a removed line no file line stands for (a fuzzy match left it out, possibly
        # past the file's last line) is refused before its ending is looked up
        if hl.op == "-" and (a == b or not _same_enough(match, hl.text, file_lines[a], complete)):
            there = None if a == b else file_lines[a]
            raise _unlocated(label, hl.text, there, match)
        endings.old(hl.op, a)
        gap = list(range(cursor, a))
        # Added lines right after as many removed ones or fewer replace them (diffs write
        # a change as its removed lines, then its added lines): they stand where those
        # stood, before the gap. More added lines than removed ones may include an
        # insertion of their own on either side of the gap.
        place: Side | None = "before" if 0 < len(pending) <= removed_run else None
        by_counts: Side | None = None
        if gap and pending and place is None and not complete:
            by_counts = side_by_context(body, i, gap, match.start, match.end, len(file_lines))
            place = by_counts
        # A left-out line equal to the one matched beside it leaves open which copy the
        # context means; the context counts, when they tell the side the line left out
        # belongs to, settle where the added lines go all the same.
        if gap and adds and by_counts is None:
            _check_slide(file_lines, gap, cursor, a, b, label)
        removed_run = removed_run + 1 if hl.op == "-" and not pending else int(hl.op == "-")
        seq = _fill_gap(file_lines, file_endings, gap, pending, complete, label, place)
        out.extend(t for t, _ in seq)
        ends.extend(e for _, e in seq)
        if gap and not pending:
            warnings.append(
                f"{label or 'edit'}: kept {len(gap)} line(s) the edit's context did not mention "
                f"(line {gap[0] + 1})"
            )
        pending = []
        if hl.op == " ":
            out.extend(file_lines[a:b])
            ends.extend(file_endings[a:b])
        cursor = max(cursor, b)
    out.extend(t for t, _ in pending)
    ends.extend(e for _, e in pending)
    end = max(cursor, match.end)
    _fix_endings(
        ends, newline, end == len(file_lines), file_endings, no_newline_old, no_newline_new
    )
    return Composed(
        match.start,
        end,
        out,
        ends,
        shift.describe() if shift else assumed,
        tuple(warnings),
        tuple(a for a in frame_told if a),
        decided,
    )


def _fill_gap(
    lines: list[str],
    endings: list[str],
    gap: list[int],
    pending: list[tuple[str, str]],
    complete: bool,
    label: str,
    place: Side | None = None,
) -> list[tuple[str, str]]:
    """Place added lines relative to file lines the edit's old text did not mention.

    For a diff hunk the unmentioned lines are dropped context: they stay, and added
    lines at the same spot go where ``place`` says (``before`` them when they replace
    the removed lines just before the gap, or the side the hunk's context counts
    show), and are refused otherwise (they could go before or after them). For a
    search/replace edit the new text is complete, so the unmentioned lines must appear
    in it at that spot; they are then kept with the file's bytes.
    """
    kept = [(lines[j], endings[j]) for j in gap]
    added = pending
    if not gap:
        return added
    if not pending and not complete:
        return kept
    if place is not None and not complete:
        return added + kept if place == "before" else kept + added
    run = _run_inside([strip_key(t) for t, _ in pending], [strip_key(lines[j]) for j in gap])
    if complete and run is not None:
        return added[:run] + kept + added[run + len(gap) :]
    where = f"line {gap[0] + 1}" if len(gap) == 1 else f"lines {gap[0] + 1}-{gap[-1] + 1}"
    if complete:
        why = (
            f"the file has {len(gap)} line(s) at {where} that your old text leaves out and "
            "your new text does not hold at that place"
        )
    else:
        why = (
            f"the file has {len(gap)} line(s) at {where} that the hunk's context leaves out, "
            "right where the hunk adds lines, so they could go before or after them"
        )
    raise PatchwrightError(
        ErrorCode.AMBIGUOUS,
        f"{label or 'The edit'}: {why}. No change was made.",
        "Copy the old lines exactly as they stand in the file (re-read it first), so every "
        "line around the change is included.",
        details={"line": gap[0] + 1},
    )


class AddedEndings:
    """Line endings for added lines, per line: a line that replaces a removed one keeps
    that line's ending, any other takes the ending of the file line before it (the
    one after it at the top of the file); ``convert`` overrides both."""

    def __init__(self, file_endings: list[str], newline: str, convert: str = "") -> None:
        self.file_endings = file_endings
        self.newline = newline
        self.convert = convert
        self.removed: list[str] = []  # endings of the change's removed lines
        self.taken = 0  # added lines of the change so far

    def old(self, op: str, pos: int) -> None:
        """File line ``pos`` was passed as a context (``" "``) or removed line."""
        if op != "-":
            self.removed, self.taken = [], 0
            return
        if self.taken:
            self.removed, self.taken = [], 0
        self.removed.append(self.file_endings[pos])

    def added(self, pos: int) -> str:
        """The ending of an added line inserted before file line ``pos``."""
        if self.convert:
            return self.convert
        k = self.taken
        self.taken += 1
        if k < len(self.removed):
            return self.removed[k] or self.newline
        ends = self.file_endings
        near = ends[pos - 1] if 0 < pos <= len(ends) else (ends[0] if ends else "")
        return near or self.newline


def compose_exact(
    file_lines: list[str],
    file_endings: list[str],
    body: Sequence[HunkLine],
    start: int,
    end: int,
    newline: str,
    no_newline_old: bool,
    no_newline_new: bool,
    convert: str = "",
) -> Composed:
    """The common case, kept cheap: the old lines stand exactly, line for line, at file
    lines ``[start, end)`` (no gaps, no shift)."""
    out: list[str] = []
    ends: list[str] = []
    pos = start
    endings = AddedEndings(file_endings, newline, convert)
    for op, text in body:
        if op == " ":
            out.append(file_lines[pos])
            ends.append(file_endings[pos])
            endings.old(op, pos)
            pos += 1
        elif op == "-":
            endings.old(op, pos)
            pos += 1
        else:
            out.append(text)
            ends.append(endings.added(pos))
    at_eof = end == len(file_lines)
    _fix_endings(ends, newline, at_eof, file_endings, no_newline_old, no_newline_new)
    return Composed(start, end, out, ends, "", ())


def _check_trailing(
    body: Sequence[HunkLine], match: Match, file_lines: list[str], label: str
) -> None:
    """Context lines keep the file's bytes, trailing blanks included. But when a complete
    new text shows it copies trailing blanks (an added line ends in one) and leaves them
    off a line it keeps, dropping them may be the point of the edit: refuse."""
    if not any(hl.op == "+" and hl.text != hl.text.rstrip() for hl in body):
        return
    olds = [hl for hl in body if hl.op != "+"]
    for hl, (a, b) in zip(olds, match.spans):
        loses = hl.text == hl.text.rstrip() != file_lines[a]
        if hl.op == " " and b == a + 1 and loses and hl.text == file_lines[a].rstrip():
            raise PatchwrightError(
                ErrorCode.AMBIGUOUS,
                f"{label or 'The edit'}: line {a + 1} has trailing whitespace that your "
                "text leaves off, while your new text keeps trailing whitespace "
                "elsewhere; it cannot be told whether the line should lose it.",
                "Copy the line exactly (with its trailing whitespace) in both the old "
                "and the new text, or change it explicitly.",
                details={"line": a + 1},
            )


def _check_slide(lines: list[str], gap: list[int], cursor: int, a: int, b: int, label: str) -> None:
    """Lines the edit left out that equal the line matched next to them (two blank
    lines, two ``}``) make the match slide: either copy could be the one the edit
    meant, and the added lines would land on different sides of the other."""
    first, last = gap[0], gap[-1]
    before_gap = cursor - 1
    slides = (b == a + 1 and strip_key(lines[a]) == strip_key(lines[last])) or (
        before_gap >= 0 and strip_key(lines[before_gap]) == strip_key(lines[first])
    )
    if slides:
        raise PatchwrightError(
            ErrorCode.AMBIGUOUS,
            f"{label or 'The edit'}: the file has a line at {first + 1} that the edit's "
            "context leaves out, next to an identical line, so it cannot be told which of "
            "the two the context means and where the added lines go. No change was made.",
            "Copy the context lines exactly as they stand in the file (re-read it first), "
            "including repeated and blank lines.",
            details={"line": first + 1},
        )


def _run_inside(seq: list[str], run: list[str]) -> int | None:
    """Where ``run`` occurs as a contiguous part of ``seq`` (only when exactly once)."""
    if not run or len(run) > len(seq):
        return None
    hits = [i for i in range(len(seq) - len(run) + 1) if seq[i : i + len(run)] == run]
    return hits[0] if len(hits) == 1 else None


def _fix_endings(
    ends: list[str],
    newline: str,
    at_eof: bool,
    file_endings: list[str],
    no_newline_old: bool,
    no_newline_new: bool,
) -> None:
    """Every line but the file's last needs an ending; the last follows the patch."""
    for i, e in enumerate(ends):
        if e == "":
            ends[i] = newline
    if not ends or not at_eof:
        return
    if no_newline_new:
        ends[-1] = ""
    elif no_newline_old:
        ends[-1] = newline
    elif file_endings and file_endings[-1] == "":
        ends[-1] = ""  # the file had no final newline and the patch did not say to add one
    elif ends[-1] == "":
        ends[-1] = newline


def _same_enough(match: Match, want: str, have: str, complete: bool) -> bool:
    """A removed line found fuzzily must be very nearly the file's line; a diff's removed
    line found by the trimmed-edges rung must be the file's line (only a search text's
    edge may be a fragment)."""
    a, b = unicode_key(want), unicode_key(have)
    if match.rung == Rung.FUZZY:
        from rapidfuzz.fuzz import ratio  # only for fuzzy matches: slow to import

        return a == b or ratio(a, b) >= _MIN_REMOVED_SIMILARITY
    if match.rung == Rung.TRIMMED_EDGES and not complete:
        return a == b
    return True


def _unlocated(label: str, text: str, there: str | None, match: Match) -> PatchwrightError:
    # ``details["reason"]``: the clause a not-found refusal quotes as the reason the
    # region ``details["region"]`` was not taken (else it would only give a similarity).
    rung = match.rung
    if there is None:
        reason = f"the line to remove {text.strip()!r} has no line of the file paired with it"
    elif rung == Rung.FUZZY:
        reason = (
            f"the line to remove {text.strip()!r} is paired with the different line "
            f"{there.strip()!r} (lines to remove must be found nearly as they are)"
        )
    else:
        reason = f"the line to remove {text.strip()!r} is not the file's line {there.strip()!r}"
    return PatchwrightError(
        ErrorCode.NOT_FOUND,
        f"{label or 'The edit'}: the line to remove {text.strip()!r} is not in the matched "
        "region of the file.",
        "Re-read the file and copy the lines to remove exactly.",
        details={"reason": reason, "region": (match.start, match.end)},
    )
