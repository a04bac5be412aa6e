"""Resolve a diff hunk (unified diff or ``*** Begin Patch``): where its old lines stand
and what replaces them.

A hunk carries more evidence than a search text: its header's line number, ``@@``
anchor lines that scope the search, context edges that say "start (end) of file", and
a body whose added lines are placed against the removed and context lines around them.

Above both rooms, like :mod:`.resolve`: it finds with :mod:`.matching` and decides with
:mod:`.replacing`.
"""

from __future__ import annotations

from collections.abc import Sequence

from patchwright._records import record, replace
from patchwright.engine.matching.index import LineIndex
from patchwright.engine.matching.locate import (
    Hint,
    Match,
    locate_block,
    locate_or_refuse,
)
from patchwright.engine.matching.normalize import is_elision, strip_key
from patchwright.engine.matching.policy import MatchOptions
from patchwright.engine.matching.rungs import keyed_matches
from patchwright.engine.replacing.splice import Splice, compose_splice, noted
from patchwright.model.edits import Hunk
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.reports import Rung
from patchwright.model.text import TextFile


def resolve_hunk(
    file: TextFile,
    index: LineIndex,
    hunk: Hunk,
    label: str,
    options: MatchOptions,
    hint_shift: int,
    after: int = 0,
) -> Splice:
    """The splice of a diff hunk: its old lines located through the ladder (near its
    header's line, ``hint_shift`` lines off as earlier hunks moved the file, inside its
    ``@@`` anchors' scope), its body composed against what was found. ``after`` is the
    line where the hunk before it ended (a hunk without line numbers is checked
    against that order).

    Raises:
        PatchwrightError: not found, ambiguous, or placed against the evidence.
    """
    open_edges = (False, False)
    if options.allows(Rung.ELISION):
        hunk, open_edges = _without_edge_elisions(index, hunk)
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
        shorter = _without_last_empty(hunk) if err.code == ErrorCode.NOT_FOUND else None
        if shorter is not None:
            return resolve_hunk(file, index, shorter, label, options, hint_shift, after)
        if err.code != ErrorCode.AMBIGUOUS:
            raise
        err.hint = _HUNK_AMBIGUITY_HINT  # a diff has no replace_all
        picked = _at_open_edge(index, hunk, options, err, hint, open_edges)
        if picked is not None:
            match = picked
        elif not hunk.anchors:
            raise
        else:
            match = _anchored(index, pattern, options, err, scope)
    _check_open_edges(hunk, match, len(file.lines), label, open_edges)
    if hint is not None and abs(match.start - hint.line) > _FAR:
        _check_near_evidence(index, pattern, match, hint, options, label)
    if hunk.old_start is None:
        _check_own_evidence(index, pattern, match, scope, after, options, label)
    try:
        splice = compose_splice(
            file,
            hunk.lines,
            match,
            label,
            hunk.no_newline_old,
            hunk.no_newline_new,
            convert=hunk.newline,
            frame=options.frame,
        )
    except PatchwrightError as err:
        if err.code != ErrorCode.NOT_FOUND:
            raise
        from patchwright.engine.matching.diagnose import (  # failures: start-up
            not_found,
            rejected_at,
        )

        raise not_found(index, pattern, hunk.new_lines, label, options, rejected_at(err)) from None
    return noted(splice, _scope_warnings(scope, match, label))


def _without_edge_elisions(index: LineIndex, hunk: Hunk) -> tuple[Hunk, tuple[bool, bool]]:
    """The hunk without ``...`` context lines at its start and end, and whether it had
    them there. Such a line says only that the file goes on beyond the context shown:
    added lines next to it stay with the context line on their other side. (Unless the
    file has the lines as written: then ``...`` is text.)"""
    body = list(hunk.lines)
    lo, hi = 0, len(body)
    while lo < hi and body[lo].op == " " and is_elision(body[lo].text):
        lo += 1
    while hi > lo and body[hi - 1].op == " " and is_elision(body[hi - 1].text):
        hi -= 1
    if (lo, hi) == (0, len(body)) or not any(hl.op != "+" for hl in body[lo:hi]):
        return hunk, (False, False)
    if keyed_matches(index, hunk.old_lines, Rung.EXACT, 0):
        return hunk, (False, False)
    start = None if hunk.old_start is None else hunk.old_start + lo
    return replace(hunk, lines=tuple(body[lo:hi]), old_start=start), (lo > 0, hi < len(body))


# A match this many lines from where the hunk's header points is "far"; a region this
# close to the header is "at" it (headers of damaged hunks are off by a few lines).
_FAR = 40
_AT_HEADER = 25


def _check_near_evidence(
    index: LineIndex,
    pattern: Sequence[str],
    match: Match,
    hint: Hint,
    options: MatchOptions,
    label: str,
) -> None:
    """A hunk found far from its header while a near copy of its lines stands at the
    header: two pieces of evidence disagree (a hunk that lost a line can match exactly
    elsewhere). Refuse, naming both places, rather than take the far one silently."""
    from patchwright.engine.matching import fuzzy  # only for a hunk found far away: slow to import

    for region in fuzzy.best_regions(index, pattern):
        near = abs(region.start - hint.line) <= _AT_HEADER
        if near and region.start != match.start and region.similarity >= options.fuzzy_threshold:
            raise PatchwrightError(
                ErrorCode.AMBIGUOUS,
                f"{label or 'The hunk'}: its lines stand at line {match.start + 1} "
                f"({match.rung.words}), far from line {hint.line + 1} where its header "
                f"points, and lines {region.start + 1}-{region.end} there are "
                f"{region.similarity:.0%} similar. It cannot be told which place is meant. "
                "No change was made.",
                "Copy the hunk's lines exactly from the place you mean (re-read the file) "
                "and give that place's line numbers in the header.",
                details={"lines": [match.start + 1, region.start + 1], "rung": match.rung.value},
            )


def _check_own_evidence(
    index: LineIndex,
    pattern: Sequence[str],
    match: Match,
    scope: _Scope,
    after: int,
    options: MatchOptions,
    label: str,
) -> None:
    """A hunk without line numbers found where its own evidence says it is not (outside
    the block of its ``@@`` line, or above the hunk before it, while an OpenAI patch's
    hunks come in the file's order) while its lines stand where that evidence puts
    them with one more line between them: a hunk that lost a context line can match
    exactly at a look-alike place. Refuse, naming both places. A match the evidence
    agrees with, or one with no such copy where the evidence points, is kept (hunks
    given out of order, look-alike blocks that differ in a line)."""
    lo = max(scope.lo, after)
    hi = _block_end(index, scope) if scope.lo else len(index.lines)
    if lo <= match.start < hi or lo >= hi or not options.allows(Rung.OMITTED):
        return
    from patchwright.engine.matching.rungs import omitted_matches  # only against the evidence

    for near in omitted_matches(index, pattern, lo):
        if not lo <= near.start < hi or near.end > hi:
            continue
        covered = {a for a, _ in near.spans}
        left = next(k for k in range(near.start, near.end) if k not in covered)
        wheres = []
        if scope.lo:
            wheres.append(f"inside the block of its @@ line (lines {scope.lo}-{hi})")
        if after:
            wheres.append(f"after the hunk before it (which ends at line {after})")
        where = " and ".join(wheres)
        raise PatchwrightError(
            ErrorCode.AMBIGUOUS,
            f"{label or 'The hunk'}: its lines stand at line {match.start + 1} "
            f"({match.rung.words}), but not {where}, where the hunk's own evidence puts "
            f"it; lines {near.start + 1}-{near.end} there hold the same lines with one "
            f"more, line {left + 1}, which the hunk may have left out. It cannot be told "
            "which place is meant. No change was made.",
            "Copy the hunk's lines exactly from the place you mean (re-read the file), "
            "with an @@ line naming the enclosing class or function.",
            details={"lines": [match.start + 1, near.start + 1], "rung": match.rung.value},
        )


# Lines that close a block at the indentation of the line that opened it.
_CLOSING = ("}", ")", "]", "end")


def _block_end(index: LineIndex, scope: _Scope) -> int:
    """Where the block of the last ``@@`` line found ends: the first non-blank line
    after it indented no deeper than it that does not close it (the anchored region's
    end, ``scope.hi``, at the latest)."""
    lines = index.lines
    head = lines[scope.lo - 1]
    depth = len(head) - len(head.lstrip())
    for k in range(scope.lo, scope.hi):
        line = lines[k]
        body = line.lstrip()
        if body and len(line) - len(body) <= depth and not body.startswith(_CLOSING):
            return k
    return scope.hi


def _without_last_empty(hunk: Hunk) -> Hunk | None:
    """The hunk without a last context line that is empty, when it has more context:
    models leave an empty line before ``*** End Patch`` or the next hunk, and the file
    need not have a blank line there (tried only when the hunk is not found with it)."""
    body = hunk.lines
    if len(body) < 2 or body[-1] != (" ", "") or not any(hl.op == " " for hl in body[:-1]):
        return None
    return replace(hunk, lines=body[:-1])


def _check_open_edges(
    hunk: Hunk, match: Match, size: int, label: str, elided: tuple[bool, bool] = (False, False)
) -> None:
    """A hunk whose added lines sit at its very end, after context, says nothing about
    what follows them: diffs only end that way at the end of the file. Anywhere else
    the model most likely left out the line after the insertion point, and the lines
    could belong before or after it. Likewise at the start of a hunk and of the file.
    An edge ``...`` (``elided``) says the file goes on there: nothing is left open."""
    ops = [hl.op for hl in hunk.lines]
    name = label or "The hunk"
    if ops and ops[-1] == "+" and _last_old(ops) == " " and match.end != size and not elided[1]:
        raise PatchwrightError(
            ErrorCode.AMBIGUOUS,
            f"{name} ends with added lines and no context after them, as a hunk does only "
            f"at the end of the file (a '*** Begin Patch' hunk marks it with "
            f"'*** End of File'), but its context matched at lines "
            f"{match.start + 1}-{match.end} and the file goes on (line {match.end + 1}: "
            f"{file_line_preview(size, match)}), so the new lines could go before that line "
            "or after lines the hunk left out.",
            "Add the line(s) that follow the insertion point as context, so it is clear "
            "where the new lines go.",
        )
    if ops and ops[0] == "+" and _last_old(ops[::-1]) == " " and match.start != 0 and not elided[0]:
        raise PatchwrightError(
            ErrorCode.AMBIGUOUS,
            f"{name} starts with added lines and no context before them, as a hunk does "
            f"only at the start of the file, but its context matched at line "
            f"{match.start + 1}, so the new lines could go right before it or before lines "
            "the hunk left out.",
            "Add the line(s) before the insertion point as context, so it is clear where "
            "the new lines go.",
        )


def _anchored(
    index: LineIndex,
    pattern: Sequence[str],
    options: MatchOptions,
    err: PatchwrightError,
    scope: _Scope,
) -> Match:
    """The match an ambiguous hunk's ``@@`` anchors settle, or ``err`` (told which anchors
    were missing) when they do not."""
    picked = None if scope.missing else _first_in_scope(index, pattern, options, err, scope)
    if picked is not None:
        return picked
    if scope.missing:
        err.message += (
            f" The @@ anchor line(s) {_quoted(scope.missing)} were not found in the "
            "file (in order), so they could not narrow the search."
        )
    raise err


def _at_open_edge(
    index: LineIndex,
    hunk: Hunk,
    options: MatchOptions,
    err: PatchwrightError,
    hint: Hint | None,
    open_edges: tuple[bool, bool],
) -> Match | None:
    """Settle an ambiguous hunk that is open at one end (added lines after its last
    context line, or before its first) when its header puts it at that edge of the file.

    Such a hunk can only stand at the file's end (start): :func:`_check_open_edges`
    refuses it anywhere else. When the header's line is exactly the one candidate at
    that edge, both say the same place, as diffs of repeated lines at a file's edge do
    (a line added after the last of several identical ones).

    A hunk that ends (starts) with removed lines after context before them (after
    them) is settled the same way: diff tools cut a hunk's context short only at the
    file's edge, so such a hunk says it ends (starts) there too, and the header's line
    must agree (the last of several identical lines removed). It is not refused
    elsewhere: placed by its removed lines, nothing it says is open. ``None``
    otherwise."""
    rung = err.details.get("rung")
    if hint is None or not isinstance(rung, str):
        return None
    ops = [hl.op for hl in hunk.lines]
    # open: added lines after (before) context; cut: context before (after) the changes
    # and none after (before) them
    open_end = ops[-1] == "+" and _last_old(ops) == " "
    open_start = ops[0] == "+" and _last_old(ops[::-1]) == " "
    at_eof = (open_end or (ops[0] == " " and ops[-1] != " ")) and not open_edges[1]
    at_bof = (open_start or (ops[-1] == " " and ops[0] != " ")) and not open_edges[0]
    if not (at_eof or at_bof):
        return None
    try:
        match = locate_block(
            index, hunk.old_lines, options, None, at_eof=at_eof, at_bof=at_bof, rungs=(Rung(rung),)
        )
    except PatchwrightError:
        return None  # still several at that edge
    return match if match is not None and match.start == hint.line else None


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


@record(frozen=True)
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
    match = locate_block(sub, pattern, options, None, lo=starts[0], rungs=(Rung(rung),))
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
    match = Match(at, at, Rung.EXACT, 1.0, ())
    return compose_splice(
        file,
        body,
        match,
        label,
        hunk.no_newline_old,
        hunk.no_newline_new,
        convert=hunk.newline,
    )
