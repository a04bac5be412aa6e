"""Refusals that teach: when nothing matches, say where the closest text is and why.

A model corrects its edit in one retry when it sees the closest region's line numbers,
a short diff between what it asked for and what is there, and the likely cause (tabs
vs spaces, CRLF, trailing blanks, typographic quotes, missing lines). When the new text
stands where the old text was expected and none of the lines it removes is there,
the edit was most likely applied before (and only then is that said).
"""

from __future__ import annotations

from collections.abc import Sequence

from patchwright.engine.matching.index import LineIndex
from patchwright.engine.matching.normalize import PUNCT_TABLE, is_elision, leading, unicode_key
from patchwright.engine.matching.policy import MatchOptions
from patchwright.engine.matching.rungs import MIN_FUZZY_LINES, keyed_matches
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.model.reports import Rung

_MAX_DIFF_LINES = 24


def not_found(
    index: LineIndex,
    pattern: Sequence[str],
    new_lines: Sequence[str],
    label: str,
    options: MatchOptions,
    rejected_at: tuple[int, int, str] | None = None,
) -> PatchwrightError:
    """Build the ``not_found`` (or ``already_applied``) error for ``pattern``.

    ``rejected_at`` is a region the ladder found but did not take after all (0-based
    ``start``, ``end``) and why, as a clause (a line to remove that is not there): when
    it is the closest region, that is the reason given for not accepting it.
    """
    name = f"{label}: " if label else ""
    tried = ", ".join(r for r in options.rungs if r != Rung.NEWLINE)
    if not options.explain:  # the caller only asks whether the edit applies
        return PatchwrightError(
            ErrorCode.NOT_FOUND,
            f"{name}old text not found (tried: {tried}). No change was made.",
            "Re-read the file and copy the lines to change exactly as they are.",
            details={"edit_label": label, "rungs_tried": tried},
        )
    from patchwright.engine.matching import fuzzy  # only on a refusal: rapidfuzz is slow to import

    regions = fuzzy.best_regions(index, pattern)
    if not regions:
        elided = any(is_elision(p) for p in pattern)
        return PatchwrightError(
            ErrorCode.NOT_FOUND,
            f"{name}old text not found: {_unplaced(pattern)} (tried: {tried}). No change was made.",
            "Re-read the file and copy the lines to change exactly as they are"
            + (" (the lines around the change too, not '...')." if elided else "."),
            details={"edit_label": label, "rungs_tried": tried},
        )
    best = regions[0]
    # where the old text was expected, a single changed line is evidence enough
    applied = already_applied_error(index, pattern, new_lines, label, near=(best.start, best.end))
    if applied is not None:
        return applied
    found = index.lines[best.start : best.end]
    cause = likely_cause(pattern, index.lines, best.spans)
    diff = _short_diff(pattern, found, best.start)
    threshold = (
        f"; fuzzy threshold {options.fuzzy_threshold:.0%}" if options.allows(Rung.FUZZY) else ""
    )
    where = f"lines {best.start + 1}-{best.end}"
    hint = (
        f"Re-read {where} and copy them exactly (same indentation, whitespace and "
        "punctuation) as the text to replace."
    )
    # A region close enough for the fuzzy rung that failed its safety check: say why,
    # or the model cannot tell what to change about an edit that was "close".
    rejected = None
    if options.allows(Rung.FUZZY) and best.similarity >= options.fuzzy_threshold:
        from patchwright.engine.matching import fuzzy

        rejected = fuzzy.distrust(index, pattern, best)
    if rejected is None and rejected_at is not None and rejected_at[:2] == (best.start, best.end):
        rejected = rejected_at[2]
    verdict = ""
    if rejected is not None:
        verdict = (
            f"The closest region ({where}, {best.similarity:.0%} similar) was not accepted: "
            f"{rejected}. "
        )
        hint = (
            f"Include more unchanged lines or fix the differing ones: re-read {where} and "
            "copy them exactly (same indentation, whitespace and punctuation)."
        )
    details: dict[str, object] = {
        "edit_label": label,
        "closest": {
            "start": best.start + 1,
            "end": best.end,
            "similarity": round(best.similarity, 4),
        },
        "cause": cause,
        "diff": diff,
    }
    if rejected is not None:
        details["rejected"] = rejected
    return PatchwrightError(
        ErrorCode.NOT_FOUND,
        f"{name}old text not found (tried: {tried}{threshold}). The closest region is {where} "
        f"({best.similarity:.0%} similar):\n{diff}\n"
        f"{verdict}Likely cause: {cause}. No change was made.",
        hint,
        details=details,
    )


def _unplaced(pattern: Sequence[str]) -> str:
    """Why no region resembles ``pattern``, in words that are true of it."""
    solid = [p for p in pattern if p.strip() and not is_elision(p)]
    if not solid:
        return "it holds only blank lines and '...' elisions, which do not say where it goes"
    if len(solid) < MIN_FUZZY_LINES:
        return (
            f"it is not in the file, and with {len(solid)} non-blank line(s) it is too "
            "short to look for similar text"
        )
    return "nothing in the file resembles it"


def rejected_at(err: PatchwrightError) -> tuple[int, int, str] | None:
    """The region a ``not_found`` error raised while building a match names, and the
    reason it gives (``details`` ``region`` and ``reason``), for :func:`not_found`."""
    region, reason = err.details.get("region"), err.details.get("reason")
    if region is None or not isinstance(reason, str):
        return None
    return int(region[0]), int(region[1]), reason


def already_applied_error(
    index: LineIndex,
    pattern: Sequence[str],
    new_lines: Sequence[str],
    label: str,
    *,
    near: tuple[int, int] | None = None,
) -> PatchwrightError | None:
    """The ``already_applied`` error when it is true: the edit's new text stands where
    its old text was expected (``near``: file lines ``[start, end)`` of the region most
    like the old text) and the old text is not in the file, nor, around that place, any
    line the edit removes. ``None`` otherwise (and always without ``near``: a new text
    found elsewhere says nothing about this edit)."""
    if near is None:
        return None
    applied = _already_applied(index, pattern, new_lines, near)
    if applied is None:
        return None
    name = f"{label}: " if label else ""
    end = applied + len(new_lines)
    lines = f"line {end}" if end == applied + 1 else f"lines {applied + 1}-{end}"
    return PatchwrightError(
        ErrorCode.ALREADY_APPLIED,
        f"{name}the text to replace is not in the file, and file {lines}, where it was "
        f"expected, already {'holds' if end == applied + 1 else 'hold'} the replacement "
        "text (none of the lines the edit removes is there): the edit looks already "
        "applied. No change was made.",
        f"Re-read {lines}; if the change is there, skip this edit.",
        details={"line": applied + 1, "edit_label": label},
    )


# A new text this short (a closing brace, ``return None``) turns up anywhere: finding it
# proves nothing about this edit.
_MIN_APPLIED_LINES = 2
_MIN_TELLING_CHARS = 4


def _already_applied(
    index: LineIndex,
    pattern: Sequence[str],
    new_lines: Sequence[str],
    near: tuple[int, int] | None,
) -> int | None:
    """Where the whole new block stands (0-based), when that says "applied before": the
    block has a few real lines (one is enough where the edit would go, with ``near``),
    differs from the old text beyond whitespace, is in the file (there, with ``near``)
    and the old text is not."""
    new_keys = [unicode_key(line) for line in new_lines]
    solid = [k for k in new_keys if k]
    if len(solid) < (1 if near is not None else _MIN_APPLIED_LINES):
        return None
    # what the edit adds must say something: an added blank line or brace found where
    # the old text left one out proves nothing
    old_keys = {unicode_key(line) for line in pattern}
    added = [k for k in solid if k not in old_keys]
    if not any(sum(ch.isalnum() for ch in k) >= _MIN_TELLING_CHARS for k in added):
        return None
    if new_keys == [unicode_key(line) for line in pattern]:
        return None
    # the new text as written, its outer blanks aside (a sub-line text has no
    # indentation; context keeps the file's trailing blanks): a change of inner blanks
    # is a change too, and a change of outer blanks shows as a removed line still there
    hits = keyed_matches(index, list(new_lines), Rung.INDENTATION, 0)
    if near is not None:
        hits = [m for m in hits if m.start < near[1] and near[0] < m.end]
    if not hits or (pattern and keyed_matches(index, list(pattern), Rung.UNICODE, 0)):
        return None
    hit = hits[0]
    # The lines the edit removes (words the new text does not have) must be gone from
    # the place: one still there means the edit was not made, whatever else matches.
    removed = {p for p in pattern if p.strip() and p not in set(new_lines)}
    lo = min(hit.start, near[0]) if near is not None else hit.start
    hi = max(hit.end, near[1]) if near is not None else hit.end
    if removed & set(index.lines[lo:hi]):
        return None
    reworded = {unicode_key(p) for p in removed} - set(new_keys)
    if not reworded:
        return hit.start
    from rapidfuzz.fuzz import ratio  # only on a refusal: slow to import

    here = {unicode_key(line) for line in index.lines[lo:hi]}
    if any(k in here or any(ratio(k, h) >= _STILL_THERE for h in here) for k in reworded):
        return None
    return hit.start


# A removed line this similar to a line where the edit would go (a typo apart) is still
# there: the edit was not made.
_STILL_THERE = 90.0


def likely_cause(
    pattern: Sequence[str], lines: Sequence[str], spans: Sequence[tuple[int, int]]
) -> str:
    """Name the most likely reason ``pattern`` did not match the aligned file lines."""
    causes: list[str] = []
    missing = sum(1 for a, b in spans if a == b)
    for p, (a, b) in zip(pattern, spans):
        if b != a + 1:
            continue
        f = lines[a]
        if p == f:
            continue
        if "\r" in p:
            causes.append("CRLF line endings in your text")
        elif p.rstrip() == f.rstrip():
            causes.append("trailing whitespace differs")
        elif p.strip() == f.strip():
            lp, lf = leading(p), leading(f)
            if ("\t" in lp) != ("\t" in lf):
                causes.append("tabs vs spaces in the indentation")
            else:
                causes.append("indentation differs")
        elif p.translate(PUNCT_TABLE).strip() == f.translate(PUNCT_TABLE).strip():
            causes.append("typographic quotes, dashes or special spaces")
        else:
            causes.append("the line's content differs (the file may have changed)")
    covered = sum(b - a for a, b in spans)
    region = (max(b for _, b in spans) - min(a for a, _ in spans)) if spans else 0
    if missing:
        causes.append(f"{missing} line(s) of your text are not in the file")
    if region > covered:
        causes.append(f"your text leaves out {region - covered} line(s) that the file has")
    if not causes:
        return "unknown"
    ranked = sorted(set(causes), key=lambda c: (-causes.count(c), causes.index(c)))
    return "; ".join(ranked[:3])


def _short_diff(want: Sequence[str], have: Sequence[str], start: int) -> str:
    import difflib  # only on a refusal

    rows = list(
        difflib.unified_diff(
            list(want),
            list(have),
            "your text",
            f"file lines {start + 1}-{start + len(have)}",
            n=1,
            lineterm="",
        )
    )
    if len(rows) > _MAX_DIFF_LINES:
        rows = [*rows[:_MAX_DIFF_LINES], f"... ({len(rows) - _MAX_DIFF_LINES} more diff lines)"]
    return "\n".join(rows)


# Why a hunk failed, in spec 002's words (the failure form of apply and apply_diff).
HUNK_FAILURE_REASONS = {
    ErrorCode.AMBIGUOUS: "ambiguous context",
    ErrorCode.ALREADY_APPLIED: "already applied",
    ErrorCode.OVERLAP: "overlaps another hunk",
    ErrorCode.OUT_OF_RANGE: "out of range",
    ErrorCode.EXPECTED_MISMATCH: "context mismatch",
    ErrorCode.NOT_FOUND: "context mismatch",
}


def first_difference(
    expected: Sequence[str], lines: Sequence[str], start: int
) -> tuple[int, str, str | None] | None:
    """The first of ``expected`` (meant to stand from 1-based line ``start``) that differs
    from the file's ``lines``: its line number, the expected text and the text found
    (``None`` past the end of the file); ``None`` when every line agrees."""
    for offset, want in enumerate(expected):
        number = start + offset
        have = lines[number - 1] if 0 < number <= len(lines) else None
        if have != want:
            return number, want, have
    return None


def quote_line(text: str | None) -> str:
    """A line in double quotes for an error message (``(end of file)`` for ``None``)."""
    if text is None:
        return "(end of file)"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
