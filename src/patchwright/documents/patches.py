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
from dataclasses import dataclass
from typing import Any

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


@dataclass(frozen=True)
class PatchResult:
    """A diff applied to a text.

    Attributes:
        text: the new text.
        spans: changed regions, sorted, old and new character offsets.
        hunks: how many hunks the diff had.
        warnings: parser repairs and tolerant-match notes.
    """

    text: str
    spans: tuple[Span, ...]
    hunks: int
    warnings: tuple[str, ...] = ()


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
    try:
        patch_set = parse_unified(diff)
    except PatchwrightError as exc:
        raise _converted(exc, None, text, version) from None
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
                options=options or DEFAULT_MATCH_OPTIONS,
            )
        except PatchwrightError as exc:
            raise _converted(exc, fp, text, version) from None
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
    return PatchResult(new_text, spans, hunks, tuple(warnings))


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
    exc: PatchwrightError, fp: FilePatch | None, text: str, version: str | None
) -> PatchApplyError:
    reason = _REASONS.get(exc.code, ConflictReason.INVALID_DIFF)
    hunk = _failed_hunk(exc, fp)
    expected = None if hunk is None else clip("\n".join(hunk.old_lines))
    details: dict[str, Any] = dict(exc.details)
    return PatchApplyError(
        reason,
        exc.message,
        exc.hint,
        code=exc.code,
        expected_snippet=expected,
        actual_snippet=_actual_snippet(exc, hunk, text),
        actual_version=version,
        field="diff",
        line=exc.line if exc.line is not None else (hunk.source_line if hunk else None),
        details=details,
    )


def _failed_hunk(exc: PatchwrightError, fp: FilePatch | None) -> Hunk | None:
    index = exc.details.get("edit_index")
    if fp is None or not isinstance(index, int) or not 0 <= index < len(fp.edits):
        return None
    anchor = fp.edits[index].anchor
    return anchor if isinstance(anchor, Hunk) else None


def _actual_snippet(exc: PatchwrightError, hunk: Hunk | None, text: str) -> str | None:
    """The document lines the error points at: the closest region, or the applied text."""
    first: int | None = None
    count = 0
    closest = exc.details.get("closest")
    if isinstance(closest, dict) and isinstance(closest.get("start"), int):
        first, last = closest["start"], closest.get("end", closest["start"])
        count = (last if isinstance(last, int) else first) - first + 1
    elif exc.code is ErrorCode.ALREADY_APPLIED and isinstance(exc.details.get("line"), int):
        first = exc.details["line"]
        count = len(hunk.new_lines) if hunk is not None else 1
    if first is None:
        return None
    lines = TextFile.from_text(text).lines
    return clip("\n".join(lines[first - 1 : first - 1 + max(count, 1)]))


def _invalid_diff(
    message: str, hint: str, version: str | None, *, code: ErrorCode
) -> PatchApplyError:
    return PatchApplyError(
        ConflictReason.INVALID_DIFF, message, hint, code=code, field="diff", actual_version=version
    )
