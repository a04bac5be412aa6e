"""The matching ladder for blocks of whole lines.

:func:`locate_block` tries each allowed rung (see :mod:`patchwright.engine.matching.rungs`) in
order and returns the first rung's *unique* match. A rung with several candidates is an
error listing their lines (unless a position hint singles one out beyond doubt); later
rungs are not tried then, because a looser rung can only find more candidates.
"""

from __future__ import annotations

from collections.abc import Sequence

from patchwright.engine.matching.index import LineIndex
from patchwright.engine.matching.policy import MatchOptions
from patchwright.engine.matching.rungs import (
    KEYED,
    Hint,
    Match,
    elided_matches,
    exact_at,
    identity,
    keyed_matches,
    omitted_matches,
    trimmed_matches,
)
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.reports import Rung

__all__ = ["Hint", "Match", "locate_block", "locate_or_refuse"]


def locate_block(
    index: LineIndex,
    pattern: Sequence[str],
    options: MatchOptions,
    hint: Hint | None = None,
    *,
    label: str = "",
    at_eof: bool = False,
    lo: int = 0,
    rungs: Sequence[Rung] | None = None,
    at_bof: bool = False,
) -> Match | None:
    """Find ``pattern`` in the file through the ladder; ``None`` when no rung matches.

    ``rungs`` restricts the ladder further (still in ladder order, still within
    ``options``); ``at_eof`` (``at_bof``) keeps only matches that end (start) at the
    end (start) of the file.

    Raises:
        PatchwrightError: ``ambiguous`` when the first rung that matches matches more than
            once and no hint settles it.
    """
    if hint is not None and options.use_hints and (rungs is None or Rung.EXACT in rungs):
        # An exact match right at the hinted line, with no other exact match close
        # enough to compete (the hint rule needs the runner-up 4+ lines away), is the
        # answer without searching the whole file.
        at = hint.line
        edges = (not at_eof or at + len(pattern) == len(index.lines)) and (not at_bof or at == 0)
        if edges and exact_at(index, pattern, at):
            near = range(max(lo, at - 3), at + 4)
            if at >= lo and not any(k != at and exact_at(index, pattern, k) for k in near):
                return Match(at, at + len(pattern), Rung.EXACT, 1.0, identity(at, len(pattern)))
    for rung in options.rungs:
        if rungs is not None and rung not in rungs:
            continue
        if rung == Rung.NEWLINE:
            continue  # lines carry no endings: the exact rung already ignores them
        candidates = _candidates(index, pattern, rung, options, lo)
        if at_eof:
            candidates = [m for m in candidates if m.end == len(index.lines)]
        if at_bof:
            candidates = [m for m in candidates if m.start == 0]
        if candidates:
            return _pick(candidates, hint, options, label, rung)
    return None


def _candidates(
    index: LineIndex, pattern: Sequence[str], rung: Rung, options: MatchOptions, lo: int
) -> list[Match]:
    if rung in KEYED:
        return keyed_matches(index, pattern, rung, lo)
    if rung == Rung.TRIMMED_EDGES:
        return trimmed_matches(index, pattern, lo)
    if rung == Rung.ELISION:
        return elided_matches(index, pattern, lo)
    if rung == Rung.OMITTED:
        return omitted_matches(index, pattern, lo)
    if rung == Rung.FUZZY:
        # with rapidfuzz: slow to import, rarely needed
        from patchwright.engine.matching import fuzzy

        return [
            r
            for r in fuzzy.best_regions(index, pattern, lo)
            if r.similarity >= options.fuzzy_threshold and fuzzy.trustworthy(index, pattern, r)
        ]
    return []


def locate_or_refuse(
    index: LineIndex,
    pattern: Sequence[str],
    new_lines: Sequence[str],
    options: MatchOptions,
    hint: Hint | None = None,
    *,
    label: str = "",
    at_eof: bool = False,
    lo: int = 0,
) -> Match:
    """:func:`locate_block`, but a fuzzy match where the edit's new text already stands
    is refused (it would apply the edit a second time), and a miss raises the
    explanatory ``not_found`` (or ``already_applied``) error."""
    loose = [r for r in options.rungs if r != Rung.FUZZY]
    for start in dict.fromkeys((lo, 0)):
        match = locate_block(
            index, pattern, options, hint, label=label, at_eof=at_eof, lo=start, rungs=loose
        )
        if match is not None:
            return match
    # explanations are needed only past the loose rungs: start-up time of a clean apply
    from patchwright.engine.matching.diagnose import already_applied_error, not_found

    if options.allows(Rung.FUZZY):
        # several fuzzy places (ambiguous) say nothing of where the old text was
        # expected, so nothing of an edit made before: the ambiguity is told as it is
        match = locate_block(
            index, pattern, options, hint, label=label, at_eof=at_eof, lo=lo, rungs=(Rung.FUZZY,)
        )
        if match is not None:
            near = (match.start, match.end)
            applied = already_applied_error(index, pattern, new_lines, label, near=near)
            if applied is not None:
                raise applied
            return match
    raise not_found(index, pattern, new_lines, label, options)


def _pick(
    candidates: list[Match],
    hint: Hint | None,
    options: MatchOptions,
    label: str,
    rung: Rung,
) -> Match:
    unique = {m.start: m for m in candidates}
    if len(unique) == 1:
        return next(iter(unique.values()))
    ordered = sorted(unique.values(), key=lambda m: m.start)
    if hint is not None and options.use_hints:
        by_distance = sorted(ordered, key=lambda m: abs(m.start - hint.line))
        d1 = abs(by_distance[0].start - hint.line)
        d2 = abs(by_distance[1].start - hint.line)
        # Only a hint that is clearly closer to one candidate decides; the numbers models
        # write are often a little off, never by a large factor of the distance.
        if d1 <= 100 and d2 >= 2 * d1 + 4:
            return by_distance[0]
    where = ", ".join(str(m.start + 1) for m in ordered[:10])
    more = f" and {len(ordered) - 10} more" if len(ordered) > 10 else ""
    name = f"{label}: " if label else ""
    raise PatchwrightError(
        ErrorCode.AMBIGUOUS,
        f"{name}the text matches {len(ordered)} places (at lines {where}{more}; "
        f"rung: {rung}). No change was made.",
        "Include more surrounding lines so the text occurs exactly once, or use "
        "replace_all / a line range when every occurrence is meant.",
        details={"lines": [m.start + 1 for m in ordered], "rung": rung},
    )
