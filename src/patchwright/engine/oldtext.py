"""Resolve a search text (``OldText``): literal matches first
(:mod:`patchwright.engine.replacing.literal`), then whole lines through the matching
ladder, the replacement turned into a hunk against what was found, with the checks that
reading needs (lines it repeats at its edges, a re-indentation it only half shows).

Above both rooms, like :mod:`.resolve`: it finds with :mod:`.matching` and decides with
:mod:`.replacing`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from patchwright._records import replace
from patchwright.engine.diff import line_opcodes, matcher_opcodes
from patchwright.engine.matching.diagnose import not_found, rejected_at
from patchwright.engine.matching.evidence import (
    extend_edges,
    fill_gaps,
    same_as_file,
    without_edge_elisions,
)
from patchwright.engine.matching.index import LineIndex
from patchwright.engine.matching.locate import Hint, Match, locate_or_refuse
from patchwright.engine.matching.normalize import (
    indent_width,
    is_blank,
    leading,
    strip_key,
    strip_line_numbers,
)
from patchwright.engine.matching.policy import MatchOptions
from patchwright.engine.matching.reindent import Shift, detect_shift, replacement_shift
from patchwright.engine.matching.rungs import identity, keyed_matches, loosely_equal
from patchwright.engine.replacing.literal import (
    LooseFind,
    ambiguity_hint,
    char_matches,
    char_splices,
    folded_matches,
    line_numbers,
    loose_find,
    unnumbered,
    unnumbered_replacement,
    whole_lines,
)
from patchwright.engine.replacing.splice import (
    Splice,
    compose_splice,
    noted,
    tolerated,
    unicode_warning,
    with_matched,
)
from patchwright.model.edits import (
    HunkLine,
    OldText,
)
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.reports import Rung
from patchwright.model.text import TextFile, split_lines


def old_text(
    file: TextFile,
    index: LineIndex,
    anchor: OldText,
    replacement: str,
    label: str,
    options: MatchOptions,
) -> list[Splice]:
    """The splices of a search-text edit: every copy with ``replace_all``, else the
    one copy, literal first and through the ladder when no literal copy is found."""
    text = anchor.text
    if text and text == replacement:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"{label or 'The edit'}: the new text is identical to the old text, so the edit "
            f"changes nothing.{_cleanup_told(file, index, text)} No change was made.",
            "Send only edits that change something; if the file should differ in "
            "whitespace only, copy the old text exactly from the file (with the blanks "
            "to remove) and leave them out of the new text.",
        )
    if not text:
        if not file.lines:
            return [Splice(0, 0, *split_lines(replacement), Rung.EXACT)]
        raise PatchwrightError(
            ErrorCode.EMPTY_SEARCH,
            f"{label or 'The edit'} has empty search text but the file is not empty.",
            "Give the exact text to replace, or use an append / prepend / overwrite operation.",
        )
    if anchor.whole_lines and not anchor.replace_all:
        return _lines_or_loosely(file, index, anchor, replacement, label, options)
    final_newline = file.ends_with_newline
    every = not anchor.replace_all  # a single edit must be unique, overlaps included
    spans = char_matches(index, text, final_newline, every)
    rung = Rung.EXACT if "\r" not in text and not file.has_cr else Rung.NEWLINE
    warnings: tuple[str, ...] = ()
    if not spans:
        numbered = unnumbered(text)
        if numbered is not None:
            spans = char_matches(index, numbered, final_newline, every)
            rung = Rung.EXACT
            if spans:
                text = numbered
                replacement, warnings = unnumbered_replacement(replacement, label)
    if not spans and options.allows(Rung.UNICODE):
        spans = folded_matches(index, text, final_newline, every)
        rung = Rung.UNICODE
        if spans and every and whole_lines(index.joined, spans):
            # Whole lines matched loosely: as lines, unchanged ones keep the file's
            # punctuation (a literal replacement would rewrite them all).
            return [_line_mode(file, index, anchor, replacement, label, options)]
        if spans:
            warnings = (*warnings, unicode_warning(label))
    if spans:
        if anchor.replace_all:
            _check_growth(index, len(spans), len(text), len(replacement), label, options)
        return char_splices(file, index, spans, text, replacement, anchor, label, rung, warnings)
    return _lines_or_loosely(file, index, anchor, replacement, label, options)


def _cleanup_told(file: TextFile, index: LineIndex, text: str) -> str:
    """For an edit whose old and new text are the same: where the file holds that text
    with trailing blanks it leaves off (a cleanup written without the blanks it means
    to remove), or that the file's CRLF endings are not part of any text; else ""."""
    body = text.replace("\r\n", "\n").removesuffix("\n")
    found = keyed_matches(index, body.split("\n"), Rung.TRAILING_WHITESPACE, 0)
    trailing = [m for m in found if file.lines[m.start : m.end] != body.split("\n")]
    if len(trailing) == 1:
        m = trailing[0]
        where = f"line {m.start + 1}" if m.end == m.start + 1 else f"lines {m.start + 1}-{m.end}"
        return (
            f" The file's {where} hold this text with trailing blanks your old text leaves "
            "off; to remove them, the old text must show them."
        )
    if file.has_cr:
        return (
            " The file has CRLF line endings, which no old or new text carries: an edit "
            "keeps each line's ending."
        )
    return ""


def _lines_or_loosely(
    file: TextFile,
    index: LineIndex,
    anchor: OldText,
    replacement: str,
    label: str,
    options: MatchOptions,
) -> list[Splice]:
    """The ladder's whole-line match, else (not found by any rung) the loose reading."""
    try:
        return [_line_mode(file, index, anchor, replacement, label, options)]
    except PatchwrightError as err:
        if err.code != ErrorCode.NOT_FOUND or anchor.replace_all:
            raise
        return _loosely(file, index, anchor, replacement, label, options, err)


def _loosely(
    file: TextFile,
    index: LineIndex,
    anchor: OldText,
    replacement: str,
    label: str,
    options: MatchOptions,
    err: PatchwrightError,
) -> list[Splice]:
    """A search text found by no rung, read loosely (:func:`loose_find`): over-escaped,
    with other blanks inside its lines, or a sub-line text without the blanks at its
    lines' edges. One copy read so (in a mode that tolerates blanks) is taken, with
    what was assumed told; several, or a new text that cannot be fitted, keep the
    refusal, which then says what was found where."""
    found = loose_find(
        index, anchor.text, replacement, file.ends_with_newline, edges=not anchor.whole_lines
    )
    if found is None or (anchor.whole_lines and not _whole(index, found, anchor.text)):
        raise err
    lines = line_numbers(index, [a for a, _ in found.spans])
    where = ", ".join(map(str, lines[:10]))
    name = label or "The edit"
    if len(found.spans) > 1:
        # not found as written (its code says so); the loose copies are only told
        raise PatchwrightError(
            ErrorCode.NOT_FOUND,
            f"{name}: your old text is not in the file as written; with "
            f"{found.assumed} it occurs {len(found.spans)} times (lines {where}). "
            "No change was made.",
            "Copy the text to replace exactly from the file (re-read it), with enough "
            "surrounding lines that it occurs once.",
            details={"loose_lines": lines, "assumed": found.assumed},
        )
    new = None if found.told_only else _fit_edges(index, found)
    if new is None or not options.allows(Rung.TRAILING_WHITESPACE):
        why = ""
        if found.told_only:
            why = (
                ", where the blanks differ from yours (a blank added or removed between "
                "two characters is not taken as the same text)"
            )
        elif new is None:
            why = (
                ", but your new text has another number of lines, so it cannot be told "
                "which file indentation each of its lines takes"
            )
        raise PatchwrightError(
            ErrorCode.NOT_FOUND,
            f"{name}: your old text is not in the file as written; with {found.assumed} "
            f"it stands at line {lines[0]} as {_shown(index, found.spans[0])}{why}. "
            "No change was made.",
            f"Re-read line {lines[0]} and copy the text to replace exactly as it stands there.",
            details={"line": lines[0], "assumed": found.assumed},
        )
    warning = f"{label or 'edit'}: old text found at line {lines[0]} only with {found.assumed}"
    splices = char_splices(
        file, index, found.spans, found.text, new, anchor, label, Rung.BLANKS, (warning,)
    )
    return [replace(s, assumed=(found.assumed,)) for s in splices]


def _whole(index: LineIndex, found: LooseFind, text: str) -> bool:
    """Whether every copy found stands for whole lines, as a whole-line text must (its
    final newline, when it has one, taken as the line's end)."""
    size = len(index.joined)
    return whole_lines(index.joined, [(a, min(b, size)) for a, b in found.spans])


def _shown(index: LineIndex, span: tuple[int, int]) -> str:
    """The file's text at ``span`` quoted for a message (shortened past 80 characters)."""
    text = index.joined[span[0] : span[1]]
    return repr(text if len(text) <= 80 else text[:77] + "...")


def _fit_edges(index: LineIndex, found: LooseFind) -> str | None:
    """The new text to write over a loosely found copy: as written, except that a text
    read without the indentation at its lines' edges gives each new line the file
    indentation of the matched line it stands for (same number of lines only; ``None``
    when the numbers differ and some matched line is indented)."""
    a, b = found.spans[0]
    matched = index.joined[a:b].removesuffix("\n").split("\n")
    old = found.text.strip(" \t").removesuffix("\n").split("\n")
    new = found.replacement.removesuffix("\n").split("\n")
    if len(matched) != len(old):
        return None
    indents = [m[: len(m) - len(m.lstrip(" \t"))] for m in matched]
    lost = [k for k in range(1, len(old)) if indents[k] and not old[k][:1].isspace()]
    if not lost:
        return found.replacement
    if len(new) != len(old):
        return None
    final = "\n" if found.replacement.endswith("\n") else ""
    return (
        "\n".join(
            indents[k] + line if k in lost and not line[:1].isspace() else line
            for k, line in enumerate(new)
        )
        + final
    )


def _check_growth(
    index: LineIndex, copies: int, old: int, new: int, label: str, options: MatchOptions
) -> None:
    """Refuse a ``replace_all`` whose result would pass ``options.max_chars``, from the
    count of its copies, before anything is built: 100,000 copies of one character
    replaced by 10,000 once built a text of 1 GB only to refuse it afterwards."""
    limit = options.max_chars
    if limit is None or new <= old:
        return
    size = len(index.joined) + copies * (new - old)
    if size > limit:
        raise PatchwrightError(
            ErrorCode.TOO_LARGE,
            f"{label or 'The edit'}: replacing all {copies:,} copies would make the file "
            f"about {size:,} characters, over the limit of {limit:,} bytes a file may have. "
            "Nothing was changed.",
            "Replace fewer copies per call (a longer, more specific old text), or ask the "
            "user to raise the workspace's file size limit.",
            details={"copies": copies, "estimated_chars": size, "limit": limit},
        )


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
    if numbered is not None and not keyed_matches(index, pattern, Rung.EXACT, 0):
        pattern = numbered
        replacement, notes = unnumbered_replacement(replacement, label)
    rep = replacement.replace("\r\n", "\n").replace("\r", "\n")
    new = rep[:-1].split("\n") if rep.endswith("\n") else (rep.split("\n") if rep else [])
    hint = Hint(anchor.hint_line - 1) if anchor.hint_line else None
    edges = [False, False]
    elisions = options.allows(Rung.ELISION)
    exact = keyed_matches(index, pattern, Rung.EXACT, 0) if elisions else []
    if elisions and not exact:
        pattern, *edges = without_edge_elisions(pattern)
    try:
        # One exact copy is what the ladder would find first: no second search for it.
        match = (
            exact[0]
            if len(exact) == 1 and Rung.EXACT in options.rungs
            else locate_or_refuse(index, pattern, new, options, hint, label=label)
        )
    except PatchwrightError as err:
        if err.code == ErrorCode.AMBIGUOUS:
            err.hint = ambiguity_hint(anchor.replace_all_supported)
        lenient = anchor.whole_lines and options.allows(Rung.TRIMMED_EDGES)
        if not lenient or err.code != ErrorCode.NOT_FOUND or len(pattern) < 2 or pattern[0].strip():
            raise
        # A blank first line that is not in the file: models open the block with one.
        # Without it (and without the replacement's own blank first line) or not at all.
        pattern, new = pattern[1:], new[1:] if new and not new[0].strip() else new
        try:
            match = locate_or_refuse(index, pattern, new, options, hint, label=label)
        except PatchwrightError:
            raise err from None
    # The replacement is the region's whole new text: it shows lines the search text
    # left out, at its edges and inside.
    match, pattern = fill_gaps(file.lines, match, pattern, new, label)
    searched = pattern
    shared = _shared_opcodes(pattern, new)
    kept = (
        None
        if shared is None
        else [(i1, j1, i2 - i1) for t, i1, i2, j1, _ in shared if t == "equal"]
    )
    match, pattern = extend_edges(file.lines, match, pattern, new, (edges[0], edges[1]), kept)
    moved = _moved_with_old(file, match, pattern, new)
    how = ""
    if moved is not None:
        pattern, new, how = moved
        notes = (*notes, f"{label or 'edit'}: new lines re-indented ({how})")
    # the alignment made before still stands for the block unless it was widened or moved
    kept_ops = shared if pattern is searched and moved is None else None
    ops = kept_ops if kept_ops is not None else _opcodes(pattern, new)
    body, same = _diff_body(pattern, new, ops)
    assumed = f"new lines moved with the old ({how})" if how else ""
    framed = None if how else _frame_of_repeats(file, match, pattern, new, ops, label)
    if framed is not None:
        pattern, new, how, assumed = framed
        told = f"new lines re-indented ({how})" if how else assumed
        notes = (*notes, f"{label or 'edit'}: {told}")
        kept_ops = None
        ops = _opcodes(pattern, new)
        body, same = _diff_body(pattern, new, ops)
    # Lines the search and the replacement share, whatever their indentation (the
    # search text may be indented off): only what the replacement adds at an edge can
    # repeat the file's neighbouring lines.
    keyed_ops = (
        ops
        if kept_ops is not None or _keys_tell_apart(pattern, new)
        else _opcodes([strip_key(p) for p in pattern], [strip_key(n) for n in new])
    )
    _check_repeated_edges(file, match, label, pattern, new, keyed_ops)
    if match.rung == Rung.TRIMMED_EDGES:
        partial = _partial_edges(file, match, pattern, new, label)
        if partial is not None:
            return noted(partial, notes)
    try:
        splice = compose_splice(
            file, body, match, label, same_frame_lines=same, complete=True, frame=options.frame
        )
    except PatchwrightError as err:
        if err.code != ErrorCode.NOT_FOUND:
            raise
        raise not_found(index, pattern, new, label, options, rejected_at(err)) from None
    if assumed:
        splice = replace(splice, reindent=how, assumed=(*splice.assumed, assumed))
    return noted(splice, notes)


def _reindents_what_it_repeats(
    file: TextFile, match: Match, pattern: list[str], new: list[str], ops: Sequence[Opcode]
) -> bool:
    """A search text shifted from the file whose replacement repeats some of its lines
    verbatim (they would keep the file's indentation) while giving others, same words,
    another indentation: the edit re-indents, and which frame the repeated lines are in
    is unknown (reading them as context would undo the re-indentation)."""
    if match.spans != identity(match.start, len(pattern)):
        return False
    found = file.lines[match.start : match.end]
    if found == pattern:
        return False  # found as written: no shift (what detect_shift would say, slower)
    shift = detect_shift(pattern, found)
    if shift is None or shift.is_identity:
        return False
    repeated = any(
        tag == "equal" and pattern[i].strip() and pattern[i] != found[i]
        for tag, i1, i2, _, _ in ops
        for i in range(i1, i2)
    )
    if not repeated:
        return False
    indents: dict[str, set[str]] = {}
    for line in pattern:
        if line.strip():
            indents.setdefault(strip_key(line), set()).add(leading(line))
    return any(
        line.strip()
        and strip_key(line) in indents
        and leading(line) not in indents[strip_key(line)]
        for line in new
    )


def _frame_of_repeats(
    file: TextFile,
    match: Match,
    pattern: list[str],
    new: list[str],
    ops: Sequence[Opcode],
    label: str,
) -> tuple[list[str], list[str], str, str] | None:
    """When the replacement of a shifted search text repeats some of its lines as they
    are while it re-indents others (see :func:`_reindents_what_it_repeats`), the one
    reading its own margin allows (see :func:`_within_own_margin`); ``None`` when the
    replacement does not do that.

    Raises:
        PatchwrightError: ``AMBIGUOUS`` when the margin allows both readings or neither.
    """
    if not _reindents_what_it_repeats(file, match, pattern, new, ops):
        return None
    framed = _within_own_margin(file, match, pattern, new)
    if framed is None:
        raise PatchwrightError(
            ErrorCode.AMBIGUOUS,
            f"{label or 'The edit'}: its old lines stand at file lines {match.start + 1}-"
            f"{match.end} but are indented differently from them, and its new text repeats "
            "some of them as they are while it re-indents others, so it cannot be told "
            "which indentation the new lines are written in. No change was made.",
            "Copy the old lines with the file's exact indentation (re-read the file) and "
            "indent the new lines the way they must appear in the file.",
            details={"frame": "undecided", "line": match.start + 1},
        )
    return framed


def _within_own_margin(
    file: TextFile, match: Match, pattern: list[str], new: list[str]
) -> tuple[list[str], list[str], str, str] | None:
    """Settle the frame of a shifted search text whose replacement repeats some of its
    lines and re-indents others, by the block's own left margin: the replacement is
    the region's whole new text, so none of its lines stands left of the least
    indented line the search matched in the file. When one reading (the replacement
    as written, or moved by the search's shift) puts a line there and the other does
    not, the other is meant: the old lines as the file has them, the new lines in that
    reading, the shift they were moved by (``""`` when kept as written) and what was
    assumed. ``None`` when both or neither keep the margin."""
    from patchwright.engine.replacing.frame import plain_shift  # only for a shifted search

    found = file.lines[match.start : match.end]
    shift = detect_shift(pattern, found)
    solid = [line for line in found if not is_blank(line)]
    if shift is None or shift.is_identity or not solid:
        return None
    margin = min(indent_width(leading(line), shift.tab) for line in solid)
    known = dict(shift.mapping)

    def moved_width(line: str) -> int:
        indent = leading(line)
        if indent in known:
            return indent_width(known[indent], shift.tab)
        return round(indent_width(indent, shift.tab) * shift.scale) + shift.delta

    lines = [line for line in new if not is_blank(line)]
    keep_out = any(indent_width(leading(line), shift.tab) < margin for line in lines)
    shift_out = any(moved_width(line) < margin for line in lines)
    if keep_out and not shift_out and plain_shift(shift, new):
        moved = shift.describe()
        return (
            list(found),
            [shift.apply(line) for line in new],
            moved,
            f"new lines moved with the old ({moved})",
        )
    if shift_out and not keep_out:
        kept = f"new lines kept as written (the old lines were shifted: {shift.describe()})"
        return list(found), list(new), "", kept
    return None


def _moved_with_old(
    file: TextFile, match: Match, pattern: list[str], new: list[str]
) -> tuple[list[str], list[str], str] | None:
    """A replacement sharing no line with its shifted old text, written at the old
    text's base indentation, moves with it (see :func:`replacement_shift`): the old
    lines as the file has them, the new lines shifted alike, and the shift's name.
    ``None`` leaves the decision to the usual evidence."""
    if match.rung not in (Rung.INDENTATION, Rung.UNICODE) or match.spans != identity(
        match.start, len(pattern)
    ):
        return None
    found = file.lines[match.start : match.end]
    shift = replacement_shift(pattern, found, new) or _dedented_whole(pattern, found, new)
    if shift is None:
        return None
    return list(found), [shift.apply(line) for line in new], shift.describe()


def _dedented_whole(pattern: list[str], found: list[str], new: list[str]) -> Shift | None:
    """The shift of a search text written without the indentation all its file lines
    share (its least indented line at column 0), when the replacement is in that same
    frame: every replacement line with the words of a search line is indented like
    that search line, none like the file's. Models quote a block dedented as a whole,
    replacement included. ``None`` otherwise."""
    from patchwright.engine.replacing.frame import (  # only for a shifted search
        dedented,
        plain_shift,
    )

    shift = detect_shift(pattern, found)
    if shift is None or shift.is_identity or not dedented(pattern, found):
        return None
    if not plain_shift(shift, new):
        return None
    frames = {strip_key(p): (leading(p), leading(f)) for p, f in zip(pattern, found) if p.strip()}
    for line in new:
        hit = frames.get(strip_key(line)) if line.strip() else None
        if hit is not None and hit[0] != hit[1] and leading(line) != hit[0]:
            return None
    return shift


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
    same_end = bool(old and new) and strip_key(old[-1]) == strip_key(new[-1])
    same_start = bool(old and new) and strip_key(old[0]) == strip_key(new[0])
    blocks = [(j1, j2) for tag, _, _, j1, j2 in ops if tag == "equal"]
    first_kept = blocks[0][0] if blocks else len(new)
    last_kept = blocks[-1][1] if blocks else 0
    tail = [] if same_end else new[last_kept:]
    head = [] if same_start else new[:first_kept]
    after = file.lines[match.end : match.end + len(tail)]
    before = file.lines[max(0, match.start - max(1, len(head))) : match.start]
    # A repeat stands in the new text as the file has it (in the file's frame or the
    # matched lines' one); a new "  }" before the file's "}" is a line the edit adds.
    same = same_as_file(file.lines, match, old)
    for k in range(len(tail), 0, -1):
        if _same_keys(tail[-k:], after[:k]) and same(tail[-k:], after[:k]):
            raise _repeats(label, "ends", k, match.end + 1)
    for k in range(len(head), 0, -1):
        if _same_keys(head[:k], before[len(before) - k :]) and same(
            head[:k], before[len(before) - k :]
        ):
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
    if hit is not None and any(
        strip_key(t) == strip_key(file.lines[hit]) and same([t], [file.lines[hit]]) for t in tail
    ):
        raise _repeats(label, "ends", 1, hit + 1)
    hit = _first_real(file.lines, range(match.start - 1, max(-1, match.start - 4), -1))
    if hit is not None and any(
        strip_key(t) == strip_key(file.lines[hit]) and same([t], [file.lines[hit]]) for t in head
    ):
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
    """How ``new`` differs from ``old``, line by line (computed once per edit). Large
    blocks go through the engine's linear line diff: difflib's matcher is quadratic."""
    if len(old) * len(new) > _LARGE_BLOCK:
        return line_opcodes(old, new)
    return matcher_opcodes(old, new)


_LARGE_BLOCK = 40_000


def _keys_tell_apart(old: list[str], new: list[str]) -> bool:
    """Whether no two different lines of ``old`` and ``new`` share a whitespace-free key.

    Then comparing the keys and comparing the lines are the same comparisons: a matcher
    sees only which elements are equal, so its opcodes on the keys are its opcodes on the
    lines, and one alignment serves for both (they are the costliest step of a block).
    """
    distinct = set(old)
    distinct.update(new)
    return len({strip_key(line) for line in distinct}) == len(distinct)


def _shared_opcodes(old: list[str], new: list[str]) -> Sequence[Opcode] | None:
    """The opcodes of ``old`` into ``new`` when they also stand for the keys' opcodes and
    for the runs the keys share (see :func:`_keys_tell_apart`): small blocks, which both
    go through difflib's matcher, whose keys tell the lines apart. ``None`` otherwise."""
    if len(old) * len(new) > _LARGE_BLOCK or not _keys_tell_apart(old, new):
        return None
    return matcher_opcodes(old, new)


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
    splice = Splice(
        match.start, match.end, lines, endings, Rung.TRIMMED_EDGES, 1.0, "", "", warnings
    )
    if not loosely_equal(pattern[0], first):
        return None
    return with_matched(splice, file)
