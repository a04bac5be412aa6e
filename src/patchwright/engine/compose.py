"""Turn a located hunk into the lines that replace its region.

Context lines are copied from the file (its bytes, its indentation, its punctuation:
leniency only found the place); removed lines are dropped; added lines are inserted as
the model wrote them, shifted only when the model's whole block was shifted too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from patchwright.engine.locate import Match, identity
from patchwright.engine.normalize import indent_width, is_blank, leading, strip_key, unicode_key
from patchwright.engine.reindent import Shift, choose_frame, detect_shift
from patchwright.model.edits import HunkLine
from patchwright.model.errors import ErrorCode, PatchwrightError

# A line the edit deletes, when found by similarity, must be this close to the file's.
_MIN_REMOVED_SIMILARITY = 90.0
# How far around an edit the file's indentation levels are collected.
_GRID_REACH = 200


@dataclass(frozen=True)
class Composed:
    """Replacement for file lines ``[start, end)``."""

    start: int
    end: int
    lines: list[str]
    endings: list[str]
    reindent: str
    warnings: tuple[str, ...]


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
) -> Composed:
    """Build the new lines for ``match`` from the hunk ``body``.

    ``complete`` says the added lines are the whole new text of the region (an
    old-text/new-text edit) rather than a diff's additions.

    Raises:
        PatchwrightError: ``not_found`` when a removed line was not located, ``ambiguous``
            when added lines cannot be placed or indented with certainty.
    """
    if match.rung == "exact" and match.spans == identity(match.start, match.end - match.start):
        return compose_exact(
            file_lines,
            file_endings,
            body,
            match.start,
            match.end,
            newline,
            no_newline_old,
            no_newline_new,
        )
    shift = _shift_for(file_lines, body, match, same_frame_lines, label)
    if complete:
        _check_trailing(body, match, file_lines, label)
    out: list[str] = []
    ends: list[str] = []
    pending: list[str] = []
    cursor = match.start
    k = 0
    adds = any(hl.op == "+" for hl in body)
    warnings: list[str] = []
    for hl in body:
        if hl.op == "+":
            pending.append(shift.apply(hl.text) if shift else hl.text)
            continue
        a, b = match.spans[k]
        k += 1
        if hl.op == "-" and (a == b or not _same_enough(match, hl.text, file_lines[a], complete)):
            raise _unlocated(label, hl.text)
        gap = list(range(cursor, a))
        if gap and adds:
            _check_slide(file_lines, gap, cursor, a, b, label)
        seq = _fill_gap(file_lines, file_endings, gap, pending, newline, complete, label)
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
    for text in pending:
        out.append(text)
        ends.append(newline)
    end = max(cursor, match.end)
    _fix_endings(
        ends, newline, end == len(file_lines), file_endings, no_newline_old, no_newline_new
    )
    return Composed(
        match.start,
        end,
        out,
        ends,
        shift.describe() if shift else "",
        tuple(warnings),
    )


def _fill_gap(
    lines: list[str],
    endings: list[str],
    gap: list[int],
    pending: list[str],
    newline: str,
    complete: bool,
    label: str,
) -> list[tuple[str, str]]:
    """Place added lines relative to file lines the edit's old text did not mention.

    For a diff hunk the unmentioned lines are dropped context: they stay, and added
    lines at the same spot are refused (they could go before or after them). For a
    search/replace edit the new text is complete, so the unmentioned lines must appear
    in it at that spot; they are then kept with the file's bytes.
    """
    kept = [(lines[j], endings[j]) for j in gap]
    added = [(t, newline) for t in pending]
    if not gap:
        return added
    if not pending and not complete:
        return kept
    run = _run_inside([strip_key(t) for t in pending], [strip_key(lines[j]) for j in gap])
    if complete and run is not None:
        return added[:run] + kept + added[run + len(gap) :]
    where = f"line {gap[0] + 1}" if len(gap) == 1 else f"lines {gap[0] + 1}-{gap[-1] + 1}"
    if complete:
        why = (
            f"the file has {len(gap)} line(s) at {where} that your old text leaves out and "
            "your new text does not contain either"
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


def compose_exact(
    file_lines: list[str],
    file_endings: list[str],
    body: Sequence[HunkLine],
    start: int,
    end: int,
    newline: str,
    no_newline_old: bool,
    no_newline_new: bool,
) -> Composed:
    """The common case, kept cheap: the old lines stand exactly, line for line, at file
    lines ``[start, end)`` (no gaps, no shift)."""
    out: list[str] = []
    ends: list[str] = []
    pos = start
    for op, text in body:
        if op == " ":
            out.append(file_lines[pos])
            ends.append(file_endings[pos])
            pos += 1
        elif op == "-":
            pos += 1
        else:
            out.append(text)
            ends.append(newline)
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


def _shift_for(
    file_lines: list[str],
    body: Sequence[HunkLine],
    match: Match,
    same_frame_lines: int,
    label: str,
) -> Shift | None:
    """The shift to apply to added lines, ``None`` for none."""
    if match.rung == "exact" or not any(hl.op == "+" for hl in body):
        return None
    model, found = _same_lines(file_lines, body, match)
    shift = detect_shift(model, found)
    if shift is None:
        same = sum(leading(m) == leading(f) for m, f in zip(model, found))
        if same >= 0.8 * len(model) or _new_lines_in_file_frame(body, model, found):
            return None
        raise _indent_error(
            label,
            "its lines are indented inconsistently with the file "
            "(some lines shifted, others not), so the new lines' "
            "indentation cannot be trusted.",
        )
    if shift.is_identity:
        return None
    lo, hi = max(0, match.start - _GRID_REACH), min(len(file_lines), match.end + _GRID_REACH)
    near = [leading(line) for line in file_lines[lo:hi] if not is_blank(line)]
    pairs, beside = _evidence(file_lines, body, match, model, found)
    pairs += _style_evidence(body, model, found)
    grid = frozenset(indent_width(ind, shift.tab) for ind in near)
    added = [hl.text for hl in body if hl.op == "+"]
    decision = choose_frame(shift, pairs, same_frame_lines, beside, added, grid)
    if decision and not _all_mappable(shift, added, grid):
        decision = None
    if decision is None:
        raise _indent_error(
            label,
            f"its old lines are indented differently from the file "
            f"({shift.describe()}), and it cannot be told whether the new "
            "lines were written with the file's indentation or with the "
            "same shift.",
        )
    return shift if decision else None


def _style_evidence(
    body: Sequence[HunkLine], model: list[str], found: list[str]
) -> list[tuple[str, str, str]]:
    """When the model indents its old lines with spaces and the file with tabs (or the
    reverse), an added line indented with the file's character was written in the
    file's frame and one indented with the model's character in the model's frame."""
    model_chars = {ch for line in model for ch in leading(line)}
    file_chars = {ch for line in found for ch in leading(line)}
    prefix = _extra_prefix(model, found)
    if prefix and not set(prefix) & file_chars:
        return _prefix_votes(body, prefix, model, found)
    if len(model_chars) != 1 or len(file_chars) != 1 or model_chars == file_chars:
        return []
    m_line = next(line for line in model if leading(line))
    f_line = next(line for line in found if leading(line))
    votes: list[tuple[str, str, str]] = []
    for hl in body:
        chars = set(leading(hl.text))
        if hl.op != "+" or not chars or is_blank(hl.text):
            continue
        # A triple whose vote follows the line's indentation character.
        if chars == file_chars:
            votes.append((m_line, f_line, leading(f_line) + hl.text.lstrip(" \t")))
        elif chars == model_chars:
            votes.append((m_line, f_line, leading(m_line) + hl.text.lstrip(" \t")))
    return votes


def _extra_prefix(model: list[str], found: list[str]) -> str:
    """The prefix every model line carries on top of its file line ("" if none)."""
    prefixes = {
        m[: len(m) - len(f)] if m.endswith(f) and len(m) > len(f) else None
        for m, f in zip(model, found)
    }
    if len(prefixes) != 1:
        return ""
    only = prefixes.pop()
    return only if only and not only.strip() else ""


def _prefix_votes(
    body: Sequence[HunkLine], prefix: str, model: list[str], found: list[str]
) -> list[tuple[str, str, str]]:
    """Model lines are the file's lines behind an extra prefix made of characters the
    file does not indent with (spaces before tabs): an added line that starts with the
    prefix was written in the model's frame, any other in the file's."""
    m_line, f_line = model[0], found[0]
    votes: list[tuple[str, str, str]] = []
    for hl in body:
        if hl.op != "+" or is_blank(hl.text):
            continue
        if hl.text.startswith(prefix):
            votes.append((m_line, f_line, leading(m_line) + hl.text.lstrip(" \t")))
        else:
            votes.append((m_line, f_line, leading(f_line) + hl.text.lstrip(" \t")))
    return votes


def _all_mappable(shift: Shift, added: list[str], grid: frozenset[int]) -> bool:
    """Shifting is only trusted when every added line's indentation either was seen on
    an old line (so its file form is known) or lands on an indentation level the file
    uses; anything else would be a guess."""
    known = {model for model, _ in shift.mapping}
    for line in added:
        if is_blank(line) or leading(line) in known:
            continue
        if indent_width(leading(shift.apply(line)), shift.tab) not in grid:
            return False
    return True


def _same_lines(
    file_lines: list[str], body: Sequence[HunkLine], match: Match
) -> tuple[list[str], list[str]]:
    """Old lines paired with the file lines they really are (content equal).

    Only those tell how the block was shifted: a trimmed edge or a fuzzily paired line
    may be indented anyhow.
    """
    model: list[str] = []
    found: list[str] = []
    olds = [hl for hl in body if hl.op != "+"]
    for hl, (a, b) in zip(olds, match.spans):
        same = b == a + 1 and unicode_key(hl.text) == unicode_key(file_lines[a])
        if same and not is_blank(hl.text):
            model.append(hl.text)
            found.append(file_lines[a])
    return model, found


def _evidence(
    file_lines: list[str],
    body: Sequence[HunkLine],
    match: Match,
    model: list[str],
    found: list[str],
) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    """``(model_old, file_old, new)`` triples whose indentation says which frame the new
    line was written in: new lines with the same words as an old line, and (second list)
    the first and last line of each block of added lines beside the old line next to it."""
    by_content: dict[str, tuple[str, str]] = {}
    for m_line, f_line in zip(model, found):
        key = strip_key(m_line)
        # A bare "}" or "end" recurs at every level: pairing on it proves nothing.
        if len(key) >= 4 and any(ch.isalnum() for ch in key):
            by_content.setdefault(key, (m_line, f_line))
    triples: list[tuple[str, str, str]] = []
    for hl in body:
        hit = by_content.get(strip_key(hl.text)) if hl.op == "+" else None
        if hit:
            triples.append((hit[0], hit[1], hl.text))
    beside: list[tuple[str, str, str]] = []
    olds = iter(match.spans)
    prev: tuple[str, str] | None = None
    block: list[str] = []
    for hl in body:
        if hl.op == "+":
            if not is_blank(hl.text):
                if not block and prev is not None:
                    beside.append((prev[0], prev[1], hl.text))
                block.append(hl.text)
            continue
        a, b = next(olds)
        here = (hl.text, file_lines[a]) if b == a + 1 and not is_blank(hl.text) else None
        if block and here is not None and unicode_key(here[0]) == unicode_key(here[1]):
            beside.append((here[0], here[1], block[-1]))
        block = []
        if here is not None and unicode_key(here[0]) == unicode_key(here[1]):
            prev = here
    return triples, beside


def _indent_error(label: str, why: str) -> PatchwrightError:
    return PatchwrightError(
        ErrorCode.AMBIGUOUS,
        f"{label or 'The edit'}: {why}",
        "Copy the old lines with the file's exact indentation and indent the new lines "
        "the way they must appear in the file.",
    )


def _new_lines_in_file_frame(body: Sequence[HunkLine], model: list[str], found: list[str]) -> bool:
    """Whether the added lines that repeat an old line carry the file's indentation
    (never the model's damaged one): then they were written against the real file."""
    frames = {strip_key(m): (leading(m), leading(f)) for m, f in zip(model, found)}
    file_frame = model_frame = 0
    for hl in body:
        hit = frames.get(strip_key(hl.text)) if hl.op == "+" and not is_blank(hl.text) else None
        if hit is None or hit[0] == hit[1]:
            continue
        ind = leading(hl.text)
        file_frame += ind == hit[1]
        model_frame += ind == hit[0]
    return file_frame > 0 and model_frame == 0


def _same_enough(match: Match, want: str, have: str, complete: bool) -> bool:
    """A removed line found fuzzily must be very nearly the file's line; a diff's removed
    line found by the trimmed-edges rung must be the file's line (only a search text's
    edge may be a fragment)."""
    a, b = unicode_key(want), unicode_key(have)
    if match.rung == "fuzzy":
        from rapidfuzz.fuzz import ratio  # only for fuzzy matches: slow to import

        return a == b or ratio(a, b) >= _MIN_REMOVED_SIMILARITY
    if match.rung == "trimmed_edges" and not complete:
        return a == b
    return True


def _unlocated(label: str, text: str) -> PatchwrightError:
    return PatchwrightError(
        ErrorCode.NOT_FOUND,
        f"{label or 'The edit'}: the line to remove {text.strip()!r} is not in the matched "
        "region of the file.",
        "Re-read the file and copy the lines to remove exactly.",
    )
