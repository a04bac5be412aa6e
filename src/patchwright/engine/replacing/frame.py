"""Which indentation frame a hunk's added lines were written in.

When a hunk's old lines matched the file with a consistent indentation shift (the model
re-indented its context), its added lines were written either in the same shifted frame
(then they move with it) or already in the file's frame (then they go in as given).
:func:`shift_for` gathers the evidence (added lines that repeat or edit an old line,
the lines beside an insertion, the indentation characters, the file's indentation
levels) and lets :func:`~patchwright.engine.matching.reindent.choose_frame` decide; balanced
evidence is refused, unless a caller settles it (``MatchOptions.frame``: the syntax check,
or the other hunks of the same patch shifted alike, see :func:`frame_decided`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from patchwright.engine.matching.normalize import (
    indent_width,
    is_blank,
    leading,
    strip_key,
    unicode_key,
)
from patchwright.engine.matching.reindent import Shift, choose_frame, detect_shift, frame_votes
from patchwright.engine.matching.rungs import Match
from patchwright.model.edits import HunkLine
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.reports import Rung

# How far around an edit the file's indentation levels are collected.
_GRID_REACH = 200


def shift_for(
    file_lines: list[str],
    body: Sequence[HunkLine],
    match: Match,
    same_frame_lines: int,
    label: str,
    frame: str = "auto",
) -> Shift | None:
    """The shift to apply to added lines, ``None`` for none (``frame`` settles balanced
    evidence when it is not ``auto``)."""
    if match.rung == Rung.EXACT or not any(hl.op == "+" for hl in body):
        return None
    model, found = _same_lines(file_lines, body, match)
    shift = detect_shift(model, found)
    if shift is None:
        same = sum(leading(m) == leading(f) for m, f in zip(model, found))
        if same >= 0.8 * len(model) or _new_lines_in_file_frame(body, model, found):
            return None
        example = _example(file_lines, body, match)
        raise _indent_error(
            label,
            f"its old lines stand at file {_lines_of(match)} but are indented "
            f"inconsistently with them (some shifted, others not{example}), "
            "so the new lines' indentation cannot be trusted.",
            match.start + 1,
        )
    added = [hl.text for hl in body if hl.op == "+"]
    if shift.is_identity or all(shift.apply(line) == line for line in added):
        return None  # both readings give the same lines: nothing to decide
    lo, hi = max(0, match.start - _GRID_REACH), min(len(file_lines), match.end + _GRID_REACH)
    near = [leading(line) for line in file_lines[lo:hi] if not is_blank(line)]
    pairs, beside = _evidence(file_lines, body, match, model, found)
    pairs += _style_evidence(body, model, found)
    pairs += _modified_pairs(file_lines, body, match)
    pairs, beside = _rewritten_in_place(body, pairs, beside)
    grid = frozenset(indent_width(ind, shift.tab) for ind in near)
    decision = choose_frame(shift, pairs, same_frame_lines, beside, added, grid)
    if decision is None:
        decision = _framed_by_neighbours(file_lines, body, match, shift, pairs, same_frame_lines)
    outside = _outside_margin(shift, added, found)
    if decision is not None and outside[0] != outside[1] and decision != outside[0]:
        decision = None  # the evidence puts new lines outside the hunk's blocks: a clash
    elif decision is None and frame == "auto" and plain_shift(shift, added):
        decision = _within_margin(outside, model, found)  # a caller's frame goes first
    if decision is None and frame != "auto":
        decision = frame == "shift"
    mappable = _all_mappable(shift, added, grid)
    if decision and not mappable:
        decision = None
    if (
        decision is None
        and frame == "auto"
        and not mappable
        and not outside[0]
        and not dedented(model, found)
        and plain_shift(shift, added)
    ):
        decision = False  # the one reading that can be built, and nothing says otherwise
    if decision is None and frame == "auto" and _lacks_shifted_prefix(shift, added):
        decision = False
    if decision is None:
        raise _indent_error(
            label,
            f"its old lines stand at file {_lines_of(match)} but are indented "
            f"differently ({shift.describe()}{_example(file_lines, body, match)}), and it "
            "cannot be told whether the new lines were written with the file's "
            "indentation or with the same shift.",
            match.start + 1,
            shift.describe(),
        )
    return shift if decision else None


def frame_decided(
    file_lines: list[str], body: Sequence[HunkLine], match: Match, used: Shift | None
) -> tuple[str, bool] | None:
    """The shift a hunk's old lines matched with (described) and whether its added
    lines moved with it (``used``, what :func:`shift_for` returned), when that was a
    real choice: the shift changes at least one added line. ``None`` otherwise.

    Another hunk of the same patch whose old lines matched with the same shift and
    whose own evidence is balanced was written by the same hand in the same way."""
    if match.rung == Rung.EXACT:
        return None
    shift = detect_shift(*_same_lines(file_lines, body, match))
    if shift is None or shift.is_identity:
        return None
    if all(shift.apply(hl.text) == hl.text for hl in body if hl.op == "+"):
        return None
    return shift.describe(), used is not None


def frame_kept(file_lines: list[str], body: Sequence[HunkLine], match: Match) -> str:
    """``new lines kept as written (old lines shifted ...)`` when the hunk adds lines and
    its old lines matched shifted, yet the added lines were not moved; else ``""``."""
    if not any(hl.op == "+" and not is_blank(hl.text) for hl in body):
        return ""
    shift = detect_shift(*_same_lines(file_lines, body, match))
    if shift is None or shift.is_identity:
        return ""
    return f"new lines kept as written (the old lines were shifted: {shift.describe()})"


def local_frames(
    file_lines: list[str], body: Sequence[HunkLine], match: Match
) -> tuple[dict[int, Shift], str]:
    """Blocks of added lines written in the frame of the one mis-indented old line next
    to them, when the block as a whole is not shifted: ``{body index: shift}`` for their
    lines, and what was assumed (empty when nothing is re-indented).

    A model that mis-indents one line of a block usually writes the lines it adds
    beside it at the same wrong column. Such a block is re-indented like that line when,
    as written, neither of its ends lines up with the file lines around it (level with
    them, or one level in after an opening line / before a closing one) and, moved like
    the mis-indented line, both do; any other block goes in as written."""
    if match.rung == Rung.EXACT or not any(hl.op == "+" for hl in body):
        return {}, ""
    if detect_shift(*_same_lines(file_lines, body, match)) is not None:
        return {}, ""  # the block moved as a whole: its frame was decided for all lines
    out: dict[int, Shift] = {}
    told: list[str] = []
    for before, block, after in _added_blocks(file_lines, body, match):
        first, last = body[block[0]].text, body[block[-1]].text
        found = _block_frame(file_lines, first, last, before, after)
        if found is not None:
            shift, k = found
            out.update((i, shift) for i in block)
            told.append(f"line {k + 1}, {shift.describe()}")
    if not out:
        return {}, ""
    return out, "like the mis-indented old line beside them: " + "; ".join(told)


Kept = tuple[str, int]  # an old line as the model wrote it, and its 0-based file line


def _added_blocks(
    file_lines: list[str], body: Sequence[HunkLine], match: Match
) -> list[tuple[Kept | None, list[int], Kept | None]]:
    """Each block of added lines (body indices) with the old line kept right before
    and right after it, when that line was found as it is (words alike); a block
    beside removed lines has no neighbour on that side."""
    olds = iter(match.spans)
    blocks: list[tuple[Kept | None, list[int], Kept | None]] = []
    before: Kept | None = None
    block: list[int] = []
    for i, hl in enumerate(body):
        if hl.op == "+":
            block.append(i)
            continue
        a, b = next(olds)
        same = b == a + 1 and not is_blank(hl.text)
        here = (hl.text, a) if same and unicode_key(hl.text) == unicode_key(file_lines[a]) else None
        if hl.op == " ":
            if block:
                blocks.append((before, block, here))
            before = here
        else:
            if block:
                blocks.append((before, block, None))
            before = None
        block = []
    if block:
        blocks.append((before, block, None))
    return blocks


def _block_frame(
    file_lines: list[str], first: str, last: str, before: Kept | None, after: Kept | None
) -> tuple[Shift, int] | None:
    """The shift of the one mis-indented neighbour of a block of added lines (and that
    neighbour's file line) when, as written, neither end of the block lines up with the
    file lines around it and, moved alike, every end with a neighbour does."""
    if is_blank(first) or is_blank(last):
        return None
    near = [n for n in (before, after) if n is not None]
    off = [(m, k) for m, k in near if leading(m) != leading(file_lines[k])]
    shifts = [detect_shift([m], [file_lines[k]]) for m, k in off]
    if not off or any(s is None for s in shifts):
        return None
    if len({(s.delta, s.scale, s.mapping) for s in shifts if s is not None}) != 1:
        return None
    shift = shifts[0]
    assert shift is not None
    prev = file_lines[before[1]] if before is not None else None
    nxt = file_lines[after[1]] if after is not None else None

    def fits(a: str, b: str) -> tuple[bool, bool]:
        return (prev is not None and _follows(prev, a)), (nxt is not None and _precedes(b, nxt))

    as_written = fits(first, last)
    moved = fits(shift.apply(first), shift.apply(last))
    if any(as_written) or moved != (prev is not None, nxt is not None) or not any(moved):
        return None
    return shift, off[0][1]


# Lines after which the next line goes one level deeper, and lines that close a level
# (the block before them sits deeper than they do).
_OPENERS = ("{", "(", "[", ":")
_CLOSERS = re.compile(r"[}\])]|(?:else|elif|except|finally|fi|done|esac|end)\b")


def _framed_by_neighbours(
    file_lines: list[str],
    body: Sequence[HunkLine],
    match: Match,
    shift: Shift,
    pairs: Sequence[tuple[str, str, str]],
    same_frame_lines: int,
) -> bool | None:
    """Decide from the file lines around each block of added lines: the reading in
    which a block lines up with the file line right before it and the one right after
    it (level with them, or one level in after an opening line and before a closing
    one) is taken when the other reading lines up no block end at all. One end alone
    proves nothing (a block may close or open a level). ``None`` when it is not so,
    or when a line paired with an old line votes the other way."""
    fits = {True: 0, False: 0}
    framed = {True: 0, False: 0}
    blocks = _blocks_between(file_lines, body, match)
    # A shift that would push an added line left of the margin is not what was meant.
    readings = (
        (False,) if any(_past_margin(shift, n) for _, b, _ in blocks for n in b) else (True, False)
    )
    for before, block, after in blocks:
        for shifted in readings:
            first = shift.apply(block[0]) if shifted else block[0]
            last = shift.apply(block[-1]) if shifted else block[-1]
            ends = (before is not None and _follows(before, first)) + (
                after is not None and _precedes(last, after)
            )
            fits[shifted] += ends
            framed[shifted] += ends == 2
    votes = frame_votes(pairs)
    if framed[True] and not fits[False] and not votes[1]:
        return True
    if framed[False] and not fits[True] and not votes[0] and not same_frame_lines:
        return False
    return None


def _outside_margin(shift: Shift, added: Sequence[str], found: Sequence[str]) -> tuple[bool, bool]:
    """For each reading (kept as written, shifted), whether it puts an added line left
    of every old line the hunk matched in the file: out of every block the hunk shows."""
    solid = [line for line in found if not is_blank(line)]
    if not solid:
        return False, False
    margin = min(indent_width(leading(line), shift.tab) for line in solid)
    out = []
    for shifted in (False, True):
        new = [shift.apply(line) if shifted else line for line in added if not is_blank(line)]
        out.append(any(indent_width(leading(line), shift.tab) < margin for line in new))
    return out[0], out[1]


def _within_margin(outside: tuple[bool, bool], model: list[str], found: list[str]) -> bool | None:
    """Decide by the hunk's own left margin: the reading that keeps every added line at
    or right of the least indented old line (as the file has it) is the one meant when
    the other reading puts one left of it. A new line outside every block the hunk's
    context shows is not what a hunk that shows that context writes. A hunk written
    without the indentation all its lines share in the file (its least indented old
    line at column 0: the block was dedented as a whole, as models quote code) was
    written in that frame throughout, new lines included. ``None`` otherwise."""
    keep_out, shift_out = outside
    if keep_out != shift_out:
        return keep_out
    if not keep_out and dedented(model, found):
        return True
    return None


def plain_shift(shift: Shift, added: Sequence[str]) -> bool:
    """Whether the shift only adds (or only removes) one same prefix of indentation on
    every old line, and does just that to every added line: then either reading keeps
    the characters each line was written with, and choosing between them is all there
    is to decide (a shift that also converts spaces and tabs guesses a tab width)."""
    if shift.scale != 1.0 or not shift.mapping:
        return False
    grow = shift.delta > 0
    prefixes = {
        (b[: len(b) - len(a)] if b.endswith(a) else None)
        if grow
        else (a[: len(a) - len(b)] if a.endswith(b) else None)
        for a, b in shift.mapping
    }
    if len(prefixes) != 1:
        return False
    prefix = prefixes.pop()
    if not prefix:
        return False
    for line in added:
        if is_blank(line):
            continue
        moved = shift.apply(line)
        if grow and moved != prefix + line:
            return False
        if not grow and line != prefix + moved:
            return False
    return True


def dedented(model: list[str], found: list[str]) -> bool:
    """Whether the model's old lines lack exactly the indentation all their file lines
    share: the least indented is at column 0 where the file's least indented is not."""
    solid = [(m, f) for m, f in zip(model, found) if not is_blank(m)]
    if not solid:
        return False
    return min(len(leading(m)) for m, _ in solid) == 0 and all(leading(f) for _, f in solid)


def _lacks_shifted_prefix(shift: Shift, added: Sequence[str]) -> bool:
    """Whether the old lines carry indentation the file's lack (the shift takes columns
    away) and an added line has fewer columns than that, at an indentation no old line
    showed: in the frame the old lines were written in, every line carries the extra
    columns, so that added line was written in the file's frame, and so were the lines
    added with it."""
    return shift.delta < 0 and any(_past_margin(shift, line) for line in added)


def _past_margin(shift: Shift, line: str) -> bool:
    """Whether shifting ``line`` would need fewer than zero columns."""
    indent = leading(line)
    if is_blank(line) or any(model == indent for model, _ in shift.mapping):
        return False
    return indent_width(indent, shift.tab) * shift.scale + shift.delta < 0


def _follows(before: str, line: str) -> bool:
    """Whether ``line`` may stand right after ``before``: one level in after an
    opening line, level with any other."""
    width, prev = indent_width(leading(line), 8), indent_width(leading(before), 8)
    return width > prev if before.rstrip().endswith(_OPENERS) else width == prev


def _precedes(line: str, after: str) -> bool:
    """Whether ``line`` may stand right before ``after``: inside a closing line's
    level, level with any other."""
    width, nxt = indent_width(leading(line), 8), indent_width(leading(after), 8)
    return width > nxt if _CLOSERS.match(after.lstrip()) else width == nxt


def _blocks_between(
    file_lines: list[str], body: Sequence[HunkLine], match: Match
) -> list[tuple[str | None, list[str], str | None]]:
    """Each block of added lines with the file line kept right before and right after
    it (``None`` when that is a blank line, the hunk's edge, or a line not matched line
    for line); removed lines in between are skipped, as they leave the result."""
    blocks: list[tuple[str | None, list[str], str | None]] = []
    olds = iter(match.spans)
    before: str | None = None
    block: list[str] = []
    for hl in body:
        if hl.op == "+":
            block.append(hl.text)
            continue
        a, b = next(olds)
        if hl.op == "-":
            continue
        kept = file_lines[a] if b == a + 1 and not is_blank(file_lines[a]) else None
        if block:
            blocks.append((before, block, kept))
            block = []
        before = kept
    if block:
        blocks.append((before, block, None))
    return [
        (
            before if not is_blank(block[0]) else None,
            block,
            after if not is_blank(block[-1]) else None,
        )
        for before, block, after in blocks
    ]


# A removed line and the added line that takes its place are the same line edited when
# their words are this similar: the added line then shows which frame it was written in.
_MODIFIED_SIMILARITY = 60.0


def _modified_pairs(
    file_lines: list[str], body: Sequence[HunkLine], match: Match
) -> list[tuple[str, str, str]]:
    """``(model_old, file_old, new)`` triples for edited lines: the k-th line of a run of
    removed lines and the k-th line of the run of added lines right after it, when their
    words are alike (``foo(a)`` becoming ``foo(a, b)``). Such a new line indented like the
    model's removed line was written in the model's frame, like the file's in the file's."""
    olds = iter(match.spans)
    removed: list[tuple[str, str] | None] = []
    added: list[str] = []
    triples: list[tuple[str, str, str]] = []
    for hl in [*body, None]:
        if hl is not None and hl.op == "+":
            added.append(hl.text)
            continue
        if added:
            # Only a run replaced line for line pairs its lines up by position.
            if len(added) == len(removed):
                for pair, new in zip(removed, added):
                    if pair is not None and not is_blank(new) and _edited(pair[0], new):
                        triples.append((pair[0], pair[1], new))
            removed, added = [], []
        if hl is None:
            break
        a, b = next(olds)
        if hl.op != "-":
            removed = []
            continue
        same = b == a + 1 and unicode_key(hl.text) == unicode_key(file_lines[a])
        removed.append((hl.text, file_lines[a]) if same and not is_blank(hl.text) else None)
    return triples


_FIRST_WORD = re.compile(r"[^\W\d]\w+|\W{2,}")


def _edited(old: str, new: str) -> bool:
    """Whether ``new`` reads as ``old`` edited: alike overall, or opening with the same
    word (``elif ...``, ``next = ...``): a replaced line keeps its statement's head."""
    a, b = old.strip(), new.strip()
    from rapidfuzz.fuzz import ratio  # only for modified lines: slow to import

    if ratio(a, b) >= _MODIFIED_SIMILARITY:
        return True
    head_a, head_b = _FIRST_WORD.match(a), _FIRST_WORD.match(b)
    return bool(head_a and head_b) and head_a.group() == head_b.group()  # type: ignore[union-attr]


Triple = tuple[str, str, str]


def _unchanged_replacements(body: Sequence[HunkLine]) -> set[str]:
    """Lines a run of removed lines and the run of as many added lines right after it
    give at the same place in both, character for character (a line moved elsewhere
    in the hunk is not one)."""
    same: set[str] = set()
    removed: list[str] = []
    added: list[str] = []
    for hl in [*body, None]:
        if hl is not None and hl.op == "+":
            added.append(hl.text)
            continue
        if added and len(added) == len(removed):
            same.update(r for r, a in zip(removed, added) if r == a and not is_blank(r))
        if added or hl is None or hl.op != "-":
            removed, added = [], []
        if hl is not None and hl.op == "-":
            removed.append(hl.text)
    return same


def _rewritten_in_place(
    body: Sequence[HunkLine], pairs: list[Triple], beside: list[Triple]
) -> tuple[list[Triple], list[Triple]]:
    """Evidence triples with the lines the hunk removes and adds back character for
    character turned into votes for the file's frame. In the model's own frame such a
    pair changes nothing, so it was written against the file: the edit re-indents that
    line (by the very shift the old lines show), and its new form is already the
    file's. The lines beside such a line say nothing of its frame (it moves)."""
    same = _unchanged_replacements(body)
    if not same:
        return pairs, beside
    beside = [(m, f, n) for m, f, n in beside if m not in same and n not in same]
    out: list[tuple[str, str, str]] = []
    for m, f, n in pairs:
        if n == m and n in same:
            # Read as shifted, the pair would be no edit at all: as strong as two
            # ordinary pairings (a line beside the block alone cannot veto it).
            out += [(m, f, leading(f) + n.lstrip(" \t"))] * 2
        else:
            out.append((m, f, n))
    return out, beside


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
                # a line opening a level has the block one level in: not level with it
                if not block and prev is not None and not prev[0].rstrip().endswith(_OPENERS):
                    beside.append((prev[0], prev[1], hl.text))
                block.append(hl.text)
            continue
        a, b = next(olds)
        here = (hl.text, file_lines[a]) if b == a + 1 and not is_blank(hl.text) else None
        # nor with a line closing one (``}``, ``fi``): the block sits deeper
        if (
            block
            and here is not None
            and unicode_key(here[0]) == unicode_key(here[1])
            and not _CLOSERS.match(here[0].lstrip())
        ):
            beside.append((here[0], here[1], block[-1]))
        block = []
        if here is not None and unicode_key(here[0]) == unicode_key(here[1]):
            prev = here
    return triples, beside


def _lines_of(match: Match) -> str:
    """``lines a-b`` (1-based) of a match, ``line a`` for one line."""
    first, last = match.start + 1, match.end
    return f"line {first}" if last <= first else f"lines {first}-{last}"


def _example(file_lines: list[str], body: Sequence[HunkLine], match: Match) -> str:
    """``; line N: c columns in the file, d in the edit`` for the first old line whose
    indentation differs from its file line ("" when none does)."""
    olds = [hl for hl in body if hl.op != "+"]
    for hl, (a, b) in zip(olds, match.spans):
        if b != a + 1 or is_blank(hl.text) or leading(hl.text) == leading(file_lines[a]):
            continue
        if unicode_key(hl.text) != unicode_key(file_lines[a]):
            continue
        have, want = _describe_indent(leading(file_lines[a])), _describe_indent(leading(hl.text))
        return f"; line {a + 1}: {have} in the file, {want} in the edit"
    return ""


def _describe_indent(indent: str) -> str:
    """``4 spaces``, ``1 tab``, ``1 tab and 2 spaces``, ``no indentation``."""
    if not indent:
        return "no indentation"
    tabs, spaces = indent.count("\t"), indent.count(" ")
    parts = [f"{tabs} tab{'s' if tabs != 1 else ''}"] if tabs else []
    if spaces:
        parts.append(f"{spaces} space{'s' if spaces != 1 else ''}")
    return " and ".join(parts)


def _indent_error(
    label: str, why: str, line: int | None = None, shift: str = ""
) -> PatchwrightError:
    # "frame": callers with other evidence (a parser, another hunk of the same patch
    # shifted alike: "shift") may settle it (MatchOptions.frame).
    details: dict[str, object] = {"frame": "undecided"}
    if line is not None:
        details["line"] = line
    if shift:
        details["shift"] = shift
    return PatchwrightError(
        ErrorCode.AMBIGUOUS,
        f"{label or 'The edit'}: {why}",
        "Copy the old lines with the file's exact indentation and indent the new lines "
        "the way they must appear in the file.",
        details=details,
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
