"""Apply a unified diff to a document text: ``text + diff -> PatchResult``.

The diff is read by :func:`patchwright.formats.parse_unified` (``--- a/x`` / ``+++ b/x``
headers optional, bare ``@@`` hunks accepted) and applied by
:func:`patchwright.engine.apply_edits`: hunks are found by their context and removed
lines, header line numbers only break ties. By default matching is the engine's tolerant
ladder without the fuzzy rung (:data:`DEFAULT_MATCH_OPTIONS`): context that is not in
the document is a ``context mismatch``, never a guess.

The diff must describe one document: one file section (its path is not checked: a
document has none), updating it, or creating it when the document is empty. Every
refusal is a :class:`~patchwright.documents.errors.PatchApplyError` whose reason names
the problem and whose snippets show what the diff expected and what the document holds.

Spans are computed from the engine's per-hunk line ranges, trimmed to the characters
that really changed, then verified: applying the spans to the old text must give the new
text exactly, otherwise one span covering every difference is reported instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from patchwright._records import record
from patchwright.documents.actions import clip
from patchwright.documents.errors import ConflictReason, PatchApplyError
from patchwright.documents.spans import (
    Span,
    line_offsets,
    line_range_offsets,
    trimmed_span,
    whole_text_span,
)
from patchwright.engine import MatchOptions, apply_edits
from patchwright.formats import parse_unified
from patchwright.model import (
    Edit,
    ErrorCode,
    FileAction,
    FilePatch,
    Hunk,
    MatchReport,
    PatchwrightError,
    TextFile,
)

DEFAULT_MATCH_OPTIONS = MatchOptions(mode="tolerant")
_NO_HEADER_NOTE = "without a file header"

_REASONS: dict[ErrorCode, ConflictReason] = {
    ErrorCode.NOT_FOUND: ConflictReason.CONTEXT_MISMATCH,
    ErrorCode.EXPECTED_MISMATCH: ConflictReason.CONTEXT_MISMATCH,
    ErrorCode.AMBIGUOUS: ConflictReason.AMBIGUOUS_CONTEXT,
    ErrorCode.OVERLAP: ConflictReason.OVERLAPPING_EDITS,
    ErrorCode.ALREADY_APPLIED: ConflictReason.ALREADY_APPLIED,
    ErrorCode.OUT_OF_RANGE: ConflictReason.RANGE_OUT_OF_BOUNDS,
}


@record(frozen=True)
class PatchResult:
    """A diff applied to a text.

    Attributes:
        text: the new text.
        spans: changed regions, sorted, old and new character offsets.
        hunks: how many hunks the diff had.
        warnings: parser repairs and tolerant-match notes.
        rungs: the matching-ladder rung that placed each hunk (the write path refuses a
            loosely placed edit that breaks the syntax).
    """

    text: str
    spans: tuple[Span, ...]
    hunks: int
    warnings: tuple[str, ...] = ()
    rungs: tuple[str, ...] = ()


def apply_patch(
    text: str, diff: str, *, options: MatchOptions | None = None, version: str | None = None
) -> PatchResult:
    """Apply the unified ``diff`` to ``text``.

    ``version`` is only quoted in errors (the caller has checked it).

    Raises:
        PatchApplyError: ``invalid diff`` (unreadable, several files, deletion, no
            change), ``context mismatch``, ``ambiguous context``, ``overlapping edits``
            or ``already applied``.
    """
    options = options or DEFAULT_MATCH_OPTIONS
    try:
        patch_set = parse_unified(diff)
    except PatchwrightError as exc:
        raise _converted(exc, None, text, version, options) from None
    fp = _single_update(patch_set.files, text, version)
    # A document has no path, so the parser's note that bare hunks name no file is noise.
    warnings = [w for w in patch_set.warnings if _NO_HEADER_NOTE not in w]
    reports: list[MatchReport] = []
    if fp.action is FileAction.CREATE:
        new_text = fp.content or ""
        hunks = 1
    else:
        try:
            result = apply_edits(
                TextFile.from_text(text),
                fp.edits,
                composition=fp.composition,
                options=options,
            )
        except PatchwrightError as exc:
            raise _converted(exc, fp, text, version, options) from None
        new_text = result.file.text
        reports = result.reports
        hunks = len(fp.edits)
        warnings.extend(result.warnings)
    if new_text == text:
        raise _invalid_diff(
            "The diff changes nothing: every hunk leaves its lines as they are.",
            "Put the lines to remove after '-' and the lines to add after '+'.",
            version,
            code=ErrorCode.INVALID_REQUEST,
        )
    spans = _spans(text, new_text, reports)
    rungs = tuple(r.rung for r in reports)
    return PatchResult(new_text, spans, hunks, tuple(warnings), rungs)


def _single_update(files: Sequence[FilePatch], text: str, version: str | None) -> FilePatch:
    if len(files) != 1:
        names = ", ".join(fp.path or "(unnamed)" for fp in files)
        raise _invalid_diff(
            f"The diff touches {len(files)} files ({names}); a document patch edits one document.",
            "Send one file section with the hunks for this document.",
            version,
            code=ErrorCode.UNSUPPORTED,
        )
    fp = files[0]
    if fp.binary or fp.action is FileAction.DELETE:
        what = "a binary change" if fp.binary else "a deletion"
        raise _invalid_diff(
            f"The diff describes {what}; a document patch changes text in place.",
            "To empty the document, remove its lines with '-' lines in a hunk.",
            version,
            code=ErrorCode.UNSUPPORTED,
        )
    if fp.action is FileAction.CREATE and text:
        raise PatchApplyError(
            ConflictReason.CONTEXT_MISMATCH,
            "The diff creates the document from nothing ('--- /dev/null'), but the document "
            f"is not empty ({len(text)} characters).",
            "Take a snapshot and diff against its text.",
            expected_snippet="",  # a diff from /dev/null expects an empty document
            actual_snippet=clip(text),
            actual_version=version,
            field="diff",
        )
    return fp


def _spans(old: str, new: str, reports: Sequence[MatchReport]) -> tuple[Span, ...]:
    if reports:
        old_offsets, new_offsets = line_offsets(old), line_offsets(new)
        spans = []
        for rep in sorted(reports, key=lambda r: r.orig_start):
            old_window = line_range_offsets(old_offsets, len(old), rep.orig_start, rep.orig_end)
            new_window = line_range_offsets(new_offsets, len(new), rep.new_start, rep.new_end)
            span = trimmed_span(old, new, old_window, new_window)
            if span.old_start != span.old_end or span.new_start != span.new_end:
                spans.append(span)
        if spans and _rebuild(old, new, spans) == new:
            return tuple(spans)
    whole = whole_text_span(old, new)
    return () if whole is None else (whole,)


def _rebuild(old: str, new: str, spans: Sequence[Span]) -> str | None:
    """``old`` with every span replaced by its new text; ``None`` if spans are inconsistent."""
    parts: list[str] = []
    cursor = 0
    shift = 0
    for span in spans:
        if span.old_start < cursor or span.new_start - span.old_start != shift:
            return None
        parts.append(old[cursor : span.old_start])
        parts.append(new[span.new_start : span.new_end])
        cursor = span.old_end
        shift = span.new_end - span.old_end
    parts.append(old[cursor:])
    return "".join(parts)


def _converted(
    exc: PatchwrightError,
    fp: FilePatch | None,
    text: str,
    version: str | None,
    options: MatchOptions,
) -> PatchApplyError:
    reason = _REASONS.get(exc.code, ConflictReason.INVALID_DIFF)
    hunks = _failed_hunks(exc, fp)
    expected = clip("\n".join(line for _, hunk in hunks for line in hunk.old_lines))
    first = hunks[0][1] if hunks else None
    details: dict[str, Any] = dict(exc.details)
    return PatchApplyError(
        reason,
        exc.message,
        exc.hint,
        code=exc.code,
        expected_snippet=expected if hunks else None,
        actual_snippet=_actual_snippet(exc, hunks, text, fp, options),
        actual_version=version,
        field="diff",
        line=exc.line if exc.line is not None else (first.source_line if first else None),
        details=details,
    )


def _failed_hunks(exc: PatchwrightError, fp: FilePatch | None) -> list[tuple[int, Hunk]]:
    """The hunks the error names, with their index: one, or both of an overlapping pair."""
    indexes = exc.details.get("edits")
    if not isinstance(indexes, list):
        indexes = [exc.details.get("edit_index")]
    found = []
    for index in indexes:
        if fp is None or not isinstance(index, int) or not 0 <= index < len(fp.edits):
            return []
        anchor = fp.edits[index].anchor
        if not isinstance(anchor, Hunk):
            return []
        found.append((index, anchor))
    return found


def _actual_snippet(
    exc: PatchwrightError,
    hunks: Sequence[tuple[int, Hunk]],
    text: str,
    fp: FilePatch | None,
    options: MatchOptions,
) -> str | None:
    """The document lines the error points at, as ``(first line, count)``.

    The closest region when the engine found one; the text the hunk would produce when it
    looks already applied; for overlapping hunks, the lines both were found at; for a
    context mismatch with nothing alike in the document, the lines at the hunk header's
    position (the start of the document without one), so the model sees what is there.
    """
    where: tuple[int, int] | None = None
    closest = exc.details.get("closest")
    hunk = hunks[0][1] if hunks else None
    if isinstance(closest, dict) and isinstance(closest.get("start"), int):
        first, last = closest["start"], closest.get("end", closest["start"])
        where = (first, (last if isinstance(last, int) else first) - first + 1)
    elif exc.code is ErrorCode.ALREADY_APPLIED and isinstance(exc.details.get("line"), int):
        where = (exc.details["line"], len(hunk.new_lines) if hunk is not None else 1)
    elif exc.code is ErrorCode.OVERLAP and fp is not None and len(hunks) == 2:
        where = _union(text, [fp.edits[index] for index, _ in hunks], options)
    elif hunk is not None and exc.code in (ErrorCode.NOT_FOUND, ErrorCode.EXPECTED_MISMATCH):
        where = (max(1, hunk.old_start or 1), len(hunk.old_lines))
    if where is None:
        return None
    first, count = where
    lines = TextFile.from_text(text).lines
    first = min(first, max(1, len(lines)))  # a header past the end: show the last line
    return clip("\n".join(lines[first - 1 : first - 1 + max(count, 1)]))


def _union(text: str, edits: Sequence[Edit], options: MatchOptions) -> tuple[int, int] | None:
    """The lines covering where each edit is found alone, as ``(first line, count)``.

    Each hunk of an overlapping pair was located before the overlap was seen, so each
    one applied alone is found again at the same place.
    """
    starts, ends = [], []
    for edit in edits:
        try:
            report = apply_edits(TextFile.from_text(text), [edit], options=options).reports[0]
        except PatchwrightError:
            return None
        starts.append(report.orig_start)
        ends.append(max(report.orig_end, report.orig_start))
    return min(starts), max(ends) - min(starts) + 1


def _invalid_diff(
    message: str, hint: str, version: str | None, *, code: ErrorCode
) -> PatchApplyError:
    return PatchApplyError(
        ConflictReason.INVALID_DIFF, message, hint, code=code, field="diff", actual_version=version
    )
