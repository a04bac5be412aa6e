"""Document state, snapshots, annotations and the undo/redo history.

A :class:`DocumentState` is immutable: text, selection and annotations together. Undo
and redo swap whole states, so they restore text, version and selection exactly, and an
applied directive is one history entry whatever it changed.

Annotations (action ``annotate``) attach a note to a range without changing the text.
They are part of the state, so undoing an ``annotate`` removes its note, and when later
edits move the text the annotation's range moves with it (see
:func:`patchwright.documents.spans.map_offset`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from patchwright._records import field, record, replace
from patchwright.documents.directives import TextRange
from patchwright.documents.spans import Span, line_offsets, map_offset
from patchwright.documents.versions import full_digest, short_version, text_fingerprint
from patchwright.model import ErrorCode, PatchwrightError


@record(frozen=True)
class Annotation:
    """A note attached to ``[start, end)`` of the text.

    Attributes:
        id: ``ann-<n>``, unique within its session.
        version: the document version the note was written against.
    """

    id: str
    start: int
    end: int
    note: str
    version: str
    rationale: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "id": self.id,
            "range": [self.start, self.end],
            "note": self.note,
            "version": self.version,
            "rationale": self.rationale,
        }


@record(frozen=True)
class DocumentState:
    """Everything undo restores: the text, the selection and the annotations."""

    text: str
    selection: TextRange
    annotations: tuple[Annotation, ...] = ()

    @cached_property
    def digest(self) -> str:
        """The full SHA-256 hex digest of ``text`` (computed once: hashing is not free)."""
        return full_digest(self.text)

    @property
    def version(self) -> str:
        """The version of ``text``: ``sha256:`` + the first 16 hex digits of :attr:`digest`."""
        return short_version(self.digest)

    def after_edit(self, text: str, spans: Sequence[Span], selection: TextRange) -> DocumentState:
        """The state once ``spans`` turned this text into ``text``: annotations follow."""
        moved = tuple(
            replace(
                a,
                start=map_offset(spans, a.start, side="start"),
                end=map_offset(spans, a.end, side="end"),
            )
            for a in self.annotations
        )
        return DocumentState(text, selection, moved)


@record(frozen=True)
class DocumentSnapshot:
    """What a caller needs to write an edit against the document.

    Attributes:
        line_offsets: the offset at which each line starts (see :mod:`.spans`).
        selection: the range ``selection_hash`` covers.
        selection_hash: the fingerprint of the selected text, to send back as
            ``selection_fingerprint``.
    """

    text: str
    version: str
    line_offsets: list[int]
    selection: TextRange
    selection_text: str
    selection_hash: str
    annotations: tuple[Annotation, ...] = field(default=())

    @classmethod
    def of(cls, state: DocumentState, selection: TextRange | None = None) -> DocumentSnapshot:
        """Snapshot ``state``, hashing ``selection`` (default: the state's selection).

        Raises:
            PatchwrightError: ``out_of_range`` when ``selection`` passes the end of the text.
        """
        chosen = selection or state.selection
        check_range(chosen, len(state.text), field="selection")
        selected = state.text[chosen.start : chosen.end]
        return cls(
            text=state.text,
            version=state.version,
            line_offsets=line_offsets(state.text),
            selection=chosen,
            selection_text=selected,
            selection_hash=text_fingerprint(selected),
            annotations=state.annotations,
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "text": self.text,
            "version": self.version,
            "length": len(self.text),
            "line_offsets": self.line_offsets,
            "selection": self.selection.to_list(),
            "selection_text": self.selection_text,
            "selection_hash": self.selection_hash,
            "annotations": [a.to_dict() for a in self.annotations],
        }


def check_range(target: TextRange, length: int, *, field: str) -> None:
    """Refuse a range that passes the end of a text of ``length`` characters.

    Raises:
        PatchwrightError: ``out_of_range`` naming ``field``.
    """
    if target.end > length:
        raise PatchwrightError(
            ErrorCode.OUT_OF_RANGE,
            f"`{field}` [{target.start}, {target.end}] passes the end of the document "
            f"({length} characters).",
            "Take a fresh snapshot and compute offsets from its text.",
            field=field,
        )


class History:
    """Bounded undo and redo stacks of :class:`DocumentState`. Not thread safe by itself."""

    def __init__(self, limit: int = 100) -> None:
        if limit < 1:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"The history limit must be at least 1; found {limit}.",
                "",
                field="history_limit",
            )
        self._limit = limit
        self._undo: list[DocumentState] = []
        self._redo: list[DocumentState] = []

    @property
    def undo_depth(self) -> int:
        """How many steps can be undone."""
        return len(self._undo)

    @property
    def redo_depth(self) -> int:
        """How many undone steps can be redone."""
        return len(self._redo)

    def record(self, before: DocumentState) -> None:
        """Remember ``before`` as one undo step; a new step forgets every redo step."""
        self._undo.append(before)
        if len(self._undo) > self._limit:
            del self._undo[0]
        self._redo.clear()

    def undo(self, current: DocumentState) -> DocumentState:
        """The state before the last step; ``current`` becomes redoable.

        Raises:
            PatchwrightError: ``history`` when there is nothing to undo.
        """
        if not self._undo:
            raise _empty("undo")
        self._redo.append(current)
        return self._undo.pop()

    def redo(self, current: DocumentState) -> DocumentState:
        """The state the last undo left; ``current`` becomes undoable again.

        Raises:
            PatchwrightError: ``history`` when there is nothing to redo.
        """
        if not self._redo:
            raise _empty("redo")
        self._undo.append(current)
        return self._redo.pop()


def _empty(what: str) -> PatchwrightError:
    return PatchwrightError(
        ErrorCode.HISTORY,
        f"There is nothing to {what}.",
        "Check `can_undo` / `can_redo` first." if what == "undo" else "Undo a step first.",
    )
