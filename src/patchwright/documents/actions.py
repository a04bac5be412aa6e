"""The range actions: ``insert``, ``replace`` and ``annotate``.

* The range is ``target_range`` when given, else the current selection (for ``insert``,
  the caret: the selection's end).
* ``selection_fingerprint``, when given, must be the fingerprint of the text now in that
  range; a mismatch is refused, since the text the caller saw has changed.
* ``insert`` puts ``content`` at the range (which is empty); ``replace`` swaps the range
  for ``content`` (an empty content deletes it). The span reported is exactly that range
  and its replacement, and the selection hint covers the new text.
* ``annotate`` stores ``content`` as a note on the range, text unchanged (see
  :mod:`.state`). It is still a real change of the document state: one undo step.

A replacement equal to the text it replaces is refused as ``already applied``: it would
record an undo step that changes nothing.
"""

from __future__ import annotations

from patchwright._records import record
from patchwright.documents.directives import ActionType, Directive, TextRange
from patchwright.documents.errors import ConflictReason, PatchApplyError
from patchwright.documents.spans import Span
from patchwright.documents.state import Annotation, DocumentState
from patchwright.documents.versions import text_fingerprint, token_matches

SNIPPET_LIMIT = 400


@record(frozen=True)
class Change:
    """A directive's effect, computed before anything is committed."""

    state: DocumentState
    spans: tuple[Span, ...]
    selection_hint: TextRange
    warnings: tuple[str, ...] = ()
    annotation: Annotation | None = None
    rungs: tuple[str, ...] = ()


def apply_range_action(state: DocumentState, directive: Directive, annotation_id: str) -> Change:
    """Compute the effect of an insert, replace or annotate directive on ``state``.

    Raises:
        PatchApplyError: ``range out of bounds`` or ``fingerprint mismatch``.
    """
    target = resolve_range(state, directive)
    selected = state.text[target.start : target.end]
    check_fingerprint(directive, selected, state.version)
    if directive.action is ActionType.ANNOTATE:
        note = Annotation(
            id=annotation_id,
            start=target.start,
            end=target.end,
            note=directive.content or "",
            version=state.version,
            rationale=directive.rationale,
        )
        new_state = DocumentState(state.text, state.selection, (*state.annotations, note))
        return Change(new_state, (), target, annotation=note)
    content = directive.content or ""
    if content == selected:
        raise PatchApplyError(
            ConflictReason.ALREADY_APPLIED,
            f"The replacement for [{target.start}, {target.end}] equals the text already "
            "there; nothing would change.",
            "Check the snapshot: the edit may already be in the document.",
            expected_snippet=clip(content),
            actual_snippet=clip(selected),
            actual_version=state.version,
        )
    text = state.text[: target.start] + content + state.text[target.end :]
    end = target.start + len(content)
    span = Span(target.start, target.end, target.start, end)
    hint = TextRange(target.start, end)
    return Change(state.after_edit(text, [span], hint), (span,), hint)


def resolve_range(state: DocumentState, directive: Directive) -> TextRange:
    """The range a range action works on (see the module docstring).

    Raises:
        PatchApplyError: ``range out of bounds`` when it passes the end of the text.
    """
    target = directive.target_range
    if target is None:
        caret = state.selection.end
        target = (
            TextRange(caret, caret) if directive.action is ActionType.INSERT else state.selection
        )
    length = len(state.text)
    if target.end > length:
        raise PatchApplyError(
            ConflictReason.RANGE_OUT_OF_BOUNDS,
            f"`target_range` [{target.start}, {target.end}] passes the end of the document, "
            f"which has {length} characters.",
            "Take a fresh snapshot and compute offsets from its text and `line_offsets`.",
            field="target_range",
            actual_version=state.version,
            details={"length": length},
        )
    return target


def check_fingerprint(directive: Directive, selected: str, version: str) -> None:
    """Refuse the directive when its fingerprint does not match ``selected``.

    Raises:
        PatchApplyError: ``fingerprint mismatch`` showing the text actually in the range.
    """
    token = directive.selection_fingerprint
    if token is None or token_matches(token, selected, field="selection_fingerprint"):
        return
    raise PatchApplyError(
        ConflictReason.FINGERPRINT_MISMATCH,
        "`selection_fingerprint` does not match the text now in the range: the document "
        "changed since the caller read it.",
        "Take a fresh snapshot of the selection and resend with its `selection_hash`.",
        field="selection_fingerprint",
        actual_snippet=clip(selected),
        actual_version=version,
        details={"expected_fingerprint": token, "actual_fingerprint": text_fingerprint(selected)},
    )


def clip(text: str, limit: int = SNIPPET_LIMIT) -> str:
    """``text`` cut to ``limit`` characters for error evidence."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
