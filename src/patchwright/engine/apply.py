"""Apply a batch of edits to a text: resolve everything first, then splice once.

Composition rules (see :class:`~patchwright.model.edits.Composition`):

* simultaneous: every edit is resolved against the original; overlapping regions are
  an error naming both edits.
* sequential: each edit sees the previous result. Diff hunks all refer to the original
  text, so a batch made only of hunks is resolved against the original with offset
  tracking (linear, and what ``patch`` does); if that fails, the batch is replayed one
  hunk at a time on the evolving text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from patchwright._records import replace
from patchwright.engine.matching.index import HOT_AFTER, LineIndex
from patchwright.engine.matching.policy import MatchOptions
from patchwright.engine.matching.rungs import unique_exact_start
from patchwright.engine.replacing.compose import compose_exact
from patchwright.engine.replacing.placeholders import expand_placeholders
from patchwright.engine.replacing.splice import matched_text
from patchwright.engine.resolve import Splice, resolve
from patchwright.model.edits import (
    Composition,
    Edit,
    FileAction,
    FilePatch,
    Hunk,
)
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.reports import EngineResult, MatchReport, Rung
from patchwright.model.text import LF, TextFile, split_lines


def apply_edits(
    file: TextFile,
    edits: Sequence[Edit],
    *,
    composition: Composition = Composition.SEQUENTIAL,
    options: MatchOptions | None = None,
) -> EngineResult:
    """Apply ``edits`` to ``file`` and return the new text with one report per edit.

    Pure: ``file`` is not modified. All or nothing: an error means no edit applied.

    Raises:
        PatchwrightError: an edit could not be located, was ambiguous, invalid, or
            (simultaneous) overlapped another; ``details`` names the edit.
    """
    opts = options or MatchOptions()
    if composition == Composition.SIMULTANEOUS:
        return _simultaneous(file, edits, opts)
    if len(edits) > 1 and _independent(edits):
        # Resolving against the original is linear for the whole batch; it gives the
        # sequential result whenever no edit depends on another's output. When it
        # fails, the batch is replayed one edit at a time (the defining semantics).
        try:
            return _against_original(file, edits, opts)
        except PatchwrightError as first_error:
            try:
                return _sequential(file, edits, opts)
            except PatchwrightError as second_error:
                hunks = all(isinstance(e.anchor, Hunk) for e in edits)
                raise (first_error if hunks else second_error) from None
    return _sequential(file, edits, opts)


def _independent(edits: Sequence[Edit]) -> bool:
    """Whether no edit could be anchored on text an earlier edit introduces.

    Hunks always qualify (a diff's hunks all describe the original). For text anchors,
    the first line of each search text is looked up among the lines earlier
    replacements add; a hit means the batch must be replayed in order. (A search text
    that starts inside a line an earlier edit wrote is not caught here; it then fails
    against the original, and the batch is replayed in order all the same.)
    """
    introduced: set[str] = set()
    for edit in edits:
        anchor = edit.anchor
        if isinstance(anchor, Hunk):
            continue
        from patchwright.model.anchors import OldText  # not a diff's: start-up time
        from patchwright.model.text import split_lines

        if not isinstance(anchor, OldText) or not anchor.text.strip():
            return False
        first = next(line.strip() for line in split_lines(anchor.text)[0] if line.strip())
        if first in introduced:
            return False
        old = {line.strip() for line in split_lines(anchor.text)[0]}
        introduced.update(
            line.strip() for line in split_lines(edit.replacement)[0] if line.strip() not in old
        )
    return True


def _resolve_one(
    file: TextFile,
    index: LineIndex,
    edit: Edit,
    i: int,
    opts: MatchOptions,
    shift: int = 0,
    after: int = 0,
) -> list[Splice]:
    try:
        splices = resolve(file, index, edit, opts, hint_shift=shift, after=after)
        for splice in splices:
            _check_changes(file, splice, edit.label or f"edit {i + 1}")
        return splices
    except PatchwrightError as err:
        err.details.setdefault("edit_index", i)
        err.details.setdefault("edit_label", edit.label or f"edit {i + 1}")
        raise


# (edit label, (the shift its old lines matched with, whether its added lines moved))
Framed = list[tuple[str, tuple[str, bool]]]


def _resolve_framed(
    file: TextFile,
    index: LineIndex,
    edit: Edit,
    i: int,
    opts: MatchOptions,
    framed: Framed,
    shift: int = 0,
    after: int = 0,
    later: Callable[[], Framed] | None = None,
) -> list[Splice]:
    """:func:`_resolve_one`, with the indentation frame of an edit whose own evidence is
    balanced taken from the other edits of the same batch (``framed``: the labels and
    decided frames of those before it, extended with this edit's; ``later``: those of
    the edits after it, looked up only when needed).

    One hand wrote the whole patch: when other edits' old lines matched with the same
    shift and their own evidence decided whether their added lines moved with them
    (every such edit alike), this edit's added lines were written the same way. Only
    the engine's own decision (``frame`` auto) is extended so; a caller's frame stands."""
    try:
        splices = _resolve_one(file, index, edit, i, opts, shift, after)
    except PatchwrightError as err:
        if not _balanced(err, opts):
            raise
        settled = _sibling_frame(err, framed + (later() if later is not None else []))
        if settled is None:
            raise
        frame, label = settled
        try:
            splices = _resolve_one(file, index, edit, i, replace(opts, frame=frame), shift, after)
        except PatchwrightError:
            raise err from None
        return [replace(s, assumed=_told_sibling(s.assumed, frame, label)) for s in splices]
    framed.extend(_framed(edit, i, splices))
    return splices


def _framed(edit: Edit, i: int, splices: list[Splice]) -> Framed:
    own = edit.label or f"edit {i + 1}"
    return [(own, s.frame) for s in splices if s.frame is not None]


def _frames_of(
    file: TextFile, index: LineIndex, edits: Sequence[Edit], which: range, opts: MatchOptions
) -> Framed:
    """The frames the edits ``which`` decide on their own, resolved against ``file``
    (an edit that cannot be resolved there tells nothing)."""
    found: Framed = []
    for j in which:
        try:
            found.extend(_framed(edits[j], j, resolve(file, index, edits[j], opts)))
        except PatchwrightError:
            continue
    return found


def _balanced(err: PatchwrightError, opts: MatchOptions) -> bool:
    """Whether ``err`` is the engine's own undecided frame for a known shift."""
    return bool(
        opts.frame == "auto"
        and err.details.get("frame") == "undecided"
        and err.details.get("shift")
    )


def _told_sibling(assumed: tuple[str, ...], frame: str, label: str) -> tuple[str, ...]:
    """``assumed`` with the frame note of an edit whose frame the patch's other hunks
    settled saying so: the resolver's own note ("new lines kept as written (the old
    lines were shifted: ...)") gains where the frame came from, said once."""
    why = f", as in {label}, whose old lines were shifted alike"
    notes = list(assumed)
    for k, note in enumerate(notes):
        if note.startswith("new lines "):
            notes[k] = note + why
            return tuple(notes)
    how = "shifted like the old lines" if frame == "shift" else "kept as written"
    return (*notes, f"new lines {how}{why}")


def _sibling_frame(err: PatchwrightError, framed: Framed) -> tuple[str, str] | None:
    """The frame (``shift`` / ``keep``) and the label of another edit that settles
    ``err``, an undecided frame; ``None`` when no other edit was shifted alike or such
    edits went different ways."""
    shift = err.details.get("shift")
    alike = [(label, moved) for label, (described, moved) in framed if described == shift]
    if not alike or len({moved for _, moved in alike}) != 1:
        return None
    return ("shift" if alike[0][1] else "keep"), alike[0][0]


def _check_changes(file: TextFile, splice: Splice, label: str) -> None:
    """An edit found by tolerating a difference that then changes nothing (whitespace
    changes re-indented back into the file's own lines) did not do what was asked:
    refuse it rather than report it applied."""
    rung = Rung(splice.rung)
    if not rung.recovered or splice.end - splice.start != len(splice.lines):
        return
    if splice.lines != file.lines[splice.start : splice.end]:
        return
    raise PatchwrightError(
        ErrorCode.INVALID_REQUEST,
        f"{label}: found at line {splice.start + 1} by {rung.words}, but once matched the "
        "edit changes nothing there: what it changes is only what the match had to "
        "tolerate (whitespace, indentation or punctuation). No change was made.",
        "If the file should change in whitespace only, copy the old lines exactly from "
        "the file (re-read it first) and write the new lines as they must appear.",
        details={"line": splice.start + 1, "rung": rung.value},
    )


def _simultaneous(file: TextFile, edits: Sequence[Edit], opts: MatchOptions) -> EngineResult:
    index = LineIndex(file.lines)
    tagged: list[tuple[int, Splice]] = []
    for i, edit in enumerate(edits):
        tagged.extend((i, s) for s in _resolve_one(file, index, edit, i, opts))
    del index  # its joined text and line table (each about the file's size) go first
    _check_overlaps(tagged, edits)
    return _splice_all(file, tagged, edits)


def _against_original(file: TextFile, edits: Sequence[Edit], opts: MatchOptions) -> EngineResult:
    index = LineIndex(file.lines)
    tagged: list[tuple[int, Splice]] = []
    drift = 0  # how far the model's line numbers are off, learnt from the last hunk
    fast = opts.use_hints and opts.allows(Rung.EXACT)
    # settled at the first edit not found at its line number (a diff's never are)
    unhinted: bool | None = None
    framed: Framed = []  # frames the edits so far decided
    ahead: list[Framed] = []  # frames the edits after a balanced one decided, when needed
    for i, edit in enumerate(edits):
        hunk = edit.anchor
        splice = _exact_at_hint(file, hunk, drift) if fast else None
        if splice is None and unhinted is None:
            unhinted = _prepare_searches(index, edits, opts)
        if splice is None and unhinted:
            splice = _exact_unique(file, index, hunk)
            # one above the hunk before it goes through the ladder, which checks the order
            if splice is not None and (not tagged or splice.start >= tagged[-1][1].end):
                tagged.append((i, splice))
                continue
            splice = None
        if splice is not None:
            assert isinstance(hunk, Hunk) and hunk.old_start is not None
            drift = splice.start - (hunk.old_start - 1)
            tagged.append((i, splice))
            continue
        after = tagged[-1][1].end if tagged else 0

        def later(i: int = i, index: LineIndex = index) -> Framed:
            if not ahead:  # once per batch: every hunk is resolved against the original
                ahead.append(_frames_of(file, index, edits, range(i + 1, len(edits)), opts))
            return ahead[0]

        splices = _resolve_framed(
            file, index, edit, i, opts, framed, shift=drift, after=after, later=later
        )
        if isinstance(hunk, Hunk) and hunk.old_start is not None and hunk.old_lines:
            drift = splices[0].start - (hunk.old_start - 1)
        tagged.extend((i, s) for s in splices)
    del index  # its joined text and line table (each about the file's size) go first
    if _one_each_in_order(tagged):  # one after the other: nothing can overlap
        return _splice_in_order(file, tagged, edits)
    _check_overlaps(tagged, edits)
    return _splice_all(file, tagged, edits, as_seen=True)


def _exact_at_hint(file: TextFile, anchor: object, drift: int) -> Splice | None:
    """The splice of a diff hunk whose old lines stand exactly where its header (corrected
    by the drift seen so far) says, with no exact copy close enough to compete; ``None``
    for anything else, which then goes through the whole ladder.

    Diffs of thousands of hunks are almost all like this, and this path gives the same
    answer as :func:`~patchwright.engine.matching.locate.locate_block`'s hint fast path followed by
    :func:`~patchwright.engine.replacing.compose.compose`, minus the per-hunk bookkeeping.
    """
    if not isinstance(anchor, Hunk) or anchor.old_start is None or anchor.anchors:
        return None
    body = anchor.lines
    if not body or body[0][0] == "+" or body[-1][0] == "+":
        return None  # open edges are checked (and explained) by the ladder
    pattern = [text for op, text in body if op != "+"]
    size = len(pattern)
    lines = file.lines
    at = max(0, anchor.old_start - 1 + drift)
    end = at + size
    total = len(lines)
    if end > total or lines[at] != pattern[0] or lines[at:end] != pattern:
        return None
    if anchor.at_eof and end != total:
        return None
    first = pattern[0]
    low, high = max(0, at - 3), min(at + 4, total - size + 1)
    if lines[low:high].count(first) > 1:  # the first line repeats nearby: a full look
        for k in range(low, high):
            if k != at and lines[k] == first and lines[k : k + size] == pattern:
                return None  # a competing copy nearby: the ladder decides (or refuses)
    return _exact_splice(file, anchor, pattern, at, end)


def _prepare_searches(index: LineIndex, edits: Sequence[Edit], opts: MatchOptions) -> bool:
    """Name the lines a batch of many searches will look up to the line index; whether
    its hunks without line numbers are many enough to be placed through the line
    dictionary (OpenAI patches: it tells a unique exact copy at once)."""
    if len(edits) <= HOT_AFTER:
        return False
    expected = _searched_lines(edits)
    if expected:
        index.expect(expected)
    unnumbered = sum(1 for e in edits if isinstance(e.anchor, Hunk) and e.anchor.old_start is None)
    return opts.allows(Rung.EXACT) and unnumbered > HOT_AFTER


def _searched_lines(edits: Sequence[Edit]) -> set[str]:
    """The lines of each search block and unnumbered hunk of ``edits``: what
    :meth:`LineIndex.unique_line` will be asked about (hunks with line numbers are
    found at them, without it)."""
    wanted: set[str] = set()
    for edit in edits:
        anchor = edit.anchor
        if isinstance(anchor, Hunk):
            if anchor.old_start is None:
                wanted.update([text for op, text in anchor.lines if op != "+"])
            continue
        from patchwright.model.anchors import OldText  # not a diff's: start-up time

        if isinstance(anchor, OldText) and anchor.whole_lines:
            wanted.update(anchor.text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    return wanted


def _exact_unique(file: TextFile, index: LineIndex, anchor: object) -> Splice | None:
    """The splice of a hunk without line numbers or ``@@`` anchors whose old lines stand
    exactly once in the file, told by a line of them that occurs once (the line
    dictionary); ``None`` for anything else, which then goes through the whole ladder.

    The ladder's answer for such a hunk: its first rung finds the one exact copy, no
    hint or scope has a say, a hunk closed by old lines at both ends leaves no edge
    open, and an exact match composes without a shift or a warning.
    """
    if not isinstance(anchor, Hunk) or anchor.old_start is not None or anchor.anchors:
        return None
    body = anchor.lines
    if not body or body[0][0] == "+" or body[-1][0] == "+":
        return None  # open edges are checked (and explained) by the ladder
    pattern = [text for op, text in body if op != "+"]
    at = unique_exact_start(index, pattern)
    if at is None or at is False or at is True:
        return None
    end = at + len(pattern)
    if anchor.at_eof and end != len(file.lines):
        return None
    return _exact_splice(file, anchor, pattern, at, end)


def _exact_splice(file: TextFile, anchor: Hunk, pattern: list[str], at: int, end: int) -> Splice:
    """The splice of a hunk whose old lines ``pattern`` stand exactly at ``[at, end)``:
    what :func:`~patchwright.engine.replacing.compose.compose_exact` builds, with its
    matched text."""
    body = anchor.lines
    endings = file.endings
    low = at - 1 if at else 0
    if not anchor.newline and end < len(file.lines) and endings[low:end].count(LF) == end - low:
        # Every line around the hunk ends in LF and the last line of the file is not
        # touched: compose_exact would give each new line an LF, so the new lines are the
        # hunk's context and added texts (its context equals the file's lines).
        added = [text for op, text in body if op != "-"]
        return Splice(at, end, added, [LF] * len(added), Rung.EXACT, 1.0, LF.join(pattern) + LF)
    lines = file.lines
    composed = compose_exact(
        lines,
        endings,
        body,
        at,
        end,
        file.newline,
        anchor.no_newline_old,
        anchor.no_newline_new,
        anchor.newline,
    )
    matched = matched_text(file, at, end)
    return Splice(at, end, composed.lines, composed.endings, Rung.EXACT, 1.0, matched)


def _shifted(rep: MatchReport, delta: int) -> MatchReport:
    # Positional construction: a copy through replace() shows with 10^4 hunks.
    return MatchReport(
        rep.index,
        rep.label,
        rep.rung,
        rep.similarity,
        rep.orig_start + delta,
        rep.orig_end + delta,
        rep.orig_start,
        rep.orig_end,
        rep.new_start,
        rep.new_end,
        rep.count,
        rep.matched_text,
        rep.reindent,
        rep.warnings,
        rep.assumed,
    )


def _in_order(tagged: list[tuple[int, Splice]]) -> bool:
    """Whether the splices come in file order and in edit order (diffs do)."""
    starts = [s.start for _, s in tagged]
    return all(a <= b for a, b in pairwise(starts)) and all(
        i <= j for (i, _), (j, _) in pairwise(tagged)
    )


def _as_seen(reports: list[MatchReport], tagged: list[tuple[int, Splice]]) -> list[MatchReport]:
    """Sequential reports give ``old_*`` in the text each edit saw: shifted by the line
    count changes of earlier edits above it (the edits out of file order here; in order,
    :func:`_splice_all` shifts them as it places them)."""
    out: list[MatchReport] = []
    for rep in reports:
        delta = sum(
            len(s.lines) - (s.end - s.start)
            for j, s in tagged
            if j < rep.index and s.end <= rep.orig_start - 1
        )
        out.append(_shifted(rep, delta) if delta else rep)
    return out


def _check_overlaps(tagged: list[tuple[int, Splice]], edits: Sequence[Edit]) -> None:
    ordered = sorted(tagged, key=lambda t: (t[1].start, t[1].end))
    for (i, a), (j, b) in pairwise(ordered):
        touching_inserts = a.start == a.end == b.start == b.end
        if b.start < a.end or (touching_inserts and i != j):
            if touching_inserts and b.start == a.end and i < j:
                continue  # two insertions at one point: kept in request order
            la = edits[i].label or f"edit {i + 1}"
            lb = edits[j].label or f"edit {j + 1}"
            raise PatchwrightError(
                ErrorCode.OVERLAP,
                f"{la} (lines {a.start + 1}-{a.end}) and {lb} (lines {b.start + 1}-{b.end}) "
                "overlap. No change was made.",
                "Merge the two edits into one, or make them touch separate lines.",
                details={"edits": [min(i, j), max(i, j)]},
            )


def _splice_all(
    file: TextFile,
    tagged: list[tuple[int, Splice]],
    edits: Sequence[Edit],
    *,
    as_seen: bool = False,
) -> EngineResult:
    """Place every splice in one pass; ``as_seen``: reports in sequential terms (see
    :func:`_as_seen`)."""
    if as_seen and _one_each_in_order(tagged):
        return _splice_in_order(file, tagged, edits)
    tagged = expand_placeholders(file, tagged, edits)
    ordered = sorted(tagged, key=lambda t: (t[1].start, t[1].end, t[0]))
    old_lines, old_endings = file.lines, file.endings
    lines: list[str] = []
    endings: list[str] = []
    add_lines, add_endings = lines.extend, endings.extend
    cursor = 0
    placed: dict[int, list[tuple[Splice, int, int]]] = {}
    for i, s in ordered:
        start = s.start
        if start > cursor:
            add_lines(old_lines[cursor:start])
            add_endings(old_endings[cursor:start])
        new_start = len(lines)
        add_lines(s.lines)
        add_endings(s.endings)
        group = placed.get(i)
        if group is None:
            placed[i] = [(s, new_start, len(lines))]
        else:
            group.append((s, new_start, len(lines)))
        if s.end > cursor:
            cursor = s.end
    add_lines(old_lines[cursor:])
    add_endings(old_endings[cursor:])
    keep = any(s.keep_eof for _, s in tagged)
    _settle_endings(file, endings, keep)
    result = file.with_lines(lines, endings)
    # In file order, the edits above an edit moved it by exactly the lines they added
    # or removed: where its first splice landed minus where it was.
    shifted = as_seen and _in_order(tagged) and all(a is b for a, b in zip(ordered, tagged))
    reports = []
    for i in sorted(placed):
        group = placed[i]
        shift = group[0][1] - group[0][0].start if shifted else 0
        reports.append(_report(i, edits[i], group, shift))
    if as_seen and not shifted:
        reports = _as_seen(reports, tagged)
    return EngineResult(result, reports)


def _one_each_in_order(tagged: list[tuple[int, Splice]]) -> bool:
    """Whether edit ``k`` has exactly the ``k``-th splice and the splices follow each
    other in the file without overlapping (what a diff's hunks give). Such splices pass
    :func:`_check_overlaps` (insertions at one point come in request order)."""
    end = 0
    for k, (i, s) in enumerate(tagged):
        if i != k or s.start < end or s.end < s.start:
            return False
        end = s.end
    return True


def _splice_in_order(
    file: TextFile, tagged: list[tuple[int, Splice]], edits: Sequence[Edit]
) -> EngineResult:
    """:func:`_splice_all` of one splice per edit in file order, reported in sequential
    terms as it goes: each edit moved by exactly the lines the edits above it added or
    removed. The same result, without grouping the splices per edit first."""
    tagged = expand_placeholders(file, tagged, edits)
    old_lines, old_endings = file.lines, file.endings
    lines: list[str] = []
    endings: list[str] = []
    add_lines, add_endings = lines.extend, endings.extend
    cursor = 0
    gap = False  # a splice may leave a line without an ending before the last
    keep = False
    reports = []
    for i, s in tagged:
        start = s.start
        if start > cursor:
            add_lines(old_lines[cursor:start])
            add_endings(old_endings[cursor:start])
        new_a = len(lines)
        add_lines(s.lines)
        add_endings(s.endings)
        cursor = s.end
        gap = gap or "" in s.endings
        keep = keep or s.keep_eof
        shift = new_a - start
        # positional: a frozen record built by keyword shows with 10^4 hunks
        reports.append(MatchReport(
            i, edits[i].label or f"edit {i + 1}", s.rung, s.similarity, start + 1 + shift,
            cursor + shift, start + 1, cursor, new_a + 1, len(lines), s.count, s.matched_text,
            s.reindent, s.warnings, s.assumed,
        ))  # fmt: skip
    add_lines(old_lines[cursor:])
    add_endings(old_endings[cursor:])
    # the file's own lines lack an ending at its end only: the list is looked through
    # only when a splice brought an empty ending or went past that last line
    settled = gap or (old_endings and not old_endings[-1] and cursor >= len(old_endings))
    if settled:
        _settle_endings(file, endings, keep)
    elif keep:
        _settle_endings(file, endings, keep, scan=False)
    result = file.with_lines(lines, endings)
    if not settled and not keep:
        # no ending was settled: every line between the splices is the file's own, so
        # the report's diff need not compare them again
        result.mark_spliced(
            file, [(r.orig_start - 1, r.orig_end, r.new_start - 1, r.new_end) for r in reports]
        )
    return EngineResult(result, reports)


def _settle_endings(
    file: TextFile, endings: list[str], keep_eof: bool, *, scan: bool = True
) -> None:
    """Only the last line may lack an ending; line-based edits keep the file's EOF state.

    ``scan=False``: the caller knows no line before the last lacks its ending."""
    nl = file.newline
    last = len(endings) - 1
    if scan and last > 0 and "" in endings and endings.index("") < last:  # no copy of the list
        for i in range(last):
            if not endings[i]:
                endings[i] = nl
    if keep_eof and endings and file.endings:
        if file.endings[-1] == "":
            endings[-1] = ""
        elif not endings[-1]:
            endings[-1] = nl


def _report(
    i: int, edit: Edit, group: list[tuple[Splice, int, int]], shift: int = 0
) -> MatchReport:
    """The report of edit ``i`` from its placed splices; ``old_*`` moved by ``shift``."""
    first, new_a, new_b = group[0]
    if len(group) == 1:  # one splice per edit (every hunk): no sums over the group
        last, similarity, count, warnings = first, first.similarity, first.count, first.warnings
        assumed = first.assumed
    else:
        last, _, new_b = group[-1]
        similarity = min(s.similarity for s, _, _ in group)
        count = sum(s.count for s, _, _ in group)
        warnings = tuple(w for s, _, _ in group for w in s.warnings)
        assumed = tuple(dict.fromkeys(a for s, _, _ in group for a in s.assumed))
    # positional: a frozen record built by keyword shows with 10^4 hunks
    return MatchReport(
        i, edit.label or f"edit {i + 1}", first.rung, similarity,
        first.start + 1 + shift, last.end + shift, first.start + 1, last.end,
        new_a + 1, new_b, count, first.matched_text, first.reindent, warnings, assumed,
    )  # fmt: skip


def _sequential(file: TextFile, edits: Sequence[Edit], opts: MatchOptions) -> EngineResult:
    current = file
    history: list[tuple[int, int, int]] = []  # (start, old_len, new_len) per splice, in order
    reports: list[MatchReport] = []
    after = 0  # where the edit before ended, in the text as it now is
    framed: Framed = []  # frames the edits so far decided
    for i, edit in enumerate(edits):
        index = LineIndex(current.lines)
        try:
            splices = _resolve_framed(current, index, edit, i, opts, framed, after=after)
        except PatchwrightError as err:
            _told_in_original_lines(err, i, history)
            raise
        step = _splice_all(current, [(0, s) for s in splices], [edit])
        rep = step.reports[0]
        orig_a, orig_b = _map_back(rep.old_start - 1, rep.old_end, history)
        for s in sorted(splices, key=lambda s: s.start, reverse=True):
            history.append((s.start, s.end - s.start, len(s.lines)))
        reports.append(_renumber(rep, i, edit, orig_a + 1, orig_b))
        current = step.file
        last = max(splices, key=lambda s: s.start, default=None)
        after = last.start + len(last.lines) if last is not None else 0
    final = _forward_new_ranges(reports, history, edits)
    return EngineResult(current, final)


def _told_in_original_lines(
    err: PatchwrightError, i: int, history: list[tuple[int, int, int]]
) -> None:
    """An edit of a sequence is resolved against the text the edits before it would
    leave; when they moved lines, its refusal's line numbers count that text, not the
    file as it is: say so, and where its first line is in the file."""
    line = err.line if err.line is not None else err.details.get("line")
    if not isinstance(line, int) or not any(old != new for _, old, new in history):
        return
    orig = _map_back(line - 1, line, history)[0] + 1
    err.message += (
        f" (Its line numbers count the file as the edit(s) before it, 1-{i}, would leave "
        f"it; line {line} there is line {orig} of the file as it is.)"
    )


def _map_back(a: int, b: int, history: list[tuple[int, int, int]]) -> tuple[int, int]:
    for start, old_len, new_len in reversed(history):
        delta = new_len - old_len
        if a >= start + new_len:
            a -= delta
        elif a > start:
            a = start
        if b >= start + new_len:
            b -= delta
        elif b > start:
            b = start + old_len
    return a, b


def _renumber(rep: MatchReport, i: int, edit: Edit, orig_a: int, orig_b: int) -> MatchReport:
    return MatchReport(
        index=i,
        label=edit.label or f"edit {i + 1}",
        rung=rep.rung,
        similarity=rep.similarity,
        old_start=rep.old_start,
        old_end=rep.old_end,
        orig_start=orig_a,
        orig_end=orig_b,
        new_start=rep.new_start,
        new_end=rep.new_end,
        count=rep.count,
        matched_text=rep.matched_text,
        reindent=rep.reindent,
        warnings=rep.warnings,
        assumed=rep.assumed,
    )


def _forward_new_ranges(
    reports: list[MatchReport], history: list[tuple[int, int, int]], edits: Sequence[Edit]
) -> list[MatchReport]:
    """Express each edit's new lines in the final text (later edits may move them)."""
    out = []
    pos = 0
    for rep in reports:
        a, b = rep.new_start - 1, rep.new_end
        steps = history[pos + rep.count :]
        pos += rep.count
        for start, old_len, new_len in steps:
            delta = new_len - old_len
            if start + old_len <= a:
                a += delta
                b += delta
        out.append(
            MatchReport(
                rep.index,
                rep.label,
                rep.rung,
                rep.similarity,
                rep.old_start,
                rep.old_end,
                rep.orig_start,
                rep.orig_end,
                a + 1,
                b,
                rep.count,
                rep.matched_text,
                rep.reindent,
                rep.warnings,
                rep.assumed,
            )
        )
    _ = edits
    return out


def apply_file_patch(
    file: TextFile | None, patch: FilePatch, options: MatchOptions | None = None
) -> tuple[TextFile | None, list[MatchReport]]:
    """Apply one :class:`FilePatch` to a file's text (``None``: the file does not exist).

    Returns the new text (``None`` when the file is deleted) and the reports. Moving is
    the caller's business (it only changes where the text is written).

    Raises:
        PatchwrightError: ``file_exists`` / ``file_not_found`` for creations and deletions
            that do not fit the file's existence, ``unsupported`` for binary patches, and
            every engine error.
    """
    where = patch.path
    if patch.binary:
        raise PatchwrightError(
            ErrorCode.UNSUPPORTED,
            f"{where}: the patch carries a binary change, which patchwright does not apply.",
            "Edit binary files with another tool; send text changes only.",
            path=where,
        )
    if patch.action == FileAction.CREATE:
        if file is not None:
            raise PatchwrightError(
                ErrorCode.FILE_EXISTS,
                f"{where}: the patch creates this file, but it already exists.",
                "Send an update to the existing file instead (re-read it first), or delete it "
                "in a separate step if it must be replaced.",
                path=where,
            )
        lines, endings = split_lines(patch.content or "")
        created = TextFile(lines, endings)
        return created, [_whole_report(created)]
    if patch.action == FileAction.DELETE:
        if file is None:
            raise PatchwrightError(
                ErrorCode.FILE_NOT_FOUND,
                f"{where}: the patch deletes this file, but it does not exist.",
                "Check the path (it is relative to the workspace root).",
                path=where,
            )
        return None, []
    if file is None:
        if patch.edits and all(_creates(e) for e in patch.edits):
            file = TextFile()
        else:
            raise PatchwrightError(
                ErrorCode.FILE_NOT_FOUND,
                f"{where}: the file does not exist.",
                "Check the path (relative to the workspace root), or create the file with "
                "an add-file patch / an empty search text.",
                path=where,
            )
    try:
        result = apply_edits(file, patch.edits, composition=patch.composition, options=options)
    except PatchwrightError as err:
        raise err.with_context(path=where) from None
    return result.file, result.reports


def _creates(edit: Edit) -> bool:
    anchor = edit.anchor
    if isinstance(anchor, Hunk):  # a diff's: its anchors' module stays unloaded
        return not anchor.old_lines
    from patchwright.model.anchors import OldText, WholeFile

    if isinstance(anchor, OldText):
        return anchor.text == ""
    return isinstance(anchor, WholeFile)


def _whole_report(file: TextFile) -> MatchReport:
    n = len(file.lines)
    return MatchReport(0, "create", Rung.WHOLE_FILE, 1.0, 1, 0, 1, 0, 1, n)
