"""An in-memory editor document that applies directives deterministically.

:class:`DocumentSession` holds one text with its version, a selection and annotations.
Callers take a :meth:`~DocumentSession.snapshot`, write a directive against its version
and send it to :meth:`~DocumentSession.apply` (or :meth:`~DocumentSession.submit` from
any thread). Guarantees:

* **Stale first.** A directive naming a version that is not the document's current one
  is refused (``stale version``) before any parsing or matching.
* **All or nothing.** A refused directive raises
  :class:`~patchwright.documents.errors.PatchApplyError` (or ``invalid_request`` for a
  malformed payload) and leaves text, version, selection, annotations and history as
  they were.
* **One step each.** Every applied directive is exactly one undo step; undo and redo
  restore text, version, selection and annotations together.
* **One at a time, in order.** Directives are applied one by one in the order they were
  submitted, whichever thread submitted them and whichever thread drains the queue;
  each is checked against the version it names, so of two directives written against
  the same snapshot the second is refused as stale unless it names no version.

Patches are matched with the engine's tolerant ladder (exact, then rungs tolerant of line
endings, whitespace, indentation, trimmed edges, typographic punctuation and ``...``
elisions) and never fuzzily unless
the session is built with ``MatchOptions(mode="fuzzy")``: a diff whose context is not in
the document is refused as a ``context mismatch`` rather than guessed at.
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import Any

from patchwright.documents.actions import Change, apply_range_action
from patchwright.documents.directives import ActionType, Directive, TextRange, validate_directive
from patchwright.documents.errors import ConflictReason, PatchApplyError
from patchwright.documents.metrics import DocumentMetrics, MetricsSnapshot
from patchwright.documents.patches import DEFAULT_MATCH_OPTIONS, apply_patch
from patchwright.documents.results import EditResult, applied_summary
from patchwright.documents.state import (
    Annotation,
    DocumentSnapshot,
    DocumentState,
    History,
    check_range,
)
from patchwright.documents.versions import token_names
from patchwright.engine import MatchOptions
from patchwright.model import ErrorCode, PatchwrightError

DirectiveInput = Directive | Mapping[str, Any]
SelectionInput = TextRange | tuple[int, int] | list[int]


class DocumentSession:
    """A versioned text document with undo/redo, a directive queue and metrics.

    Args:
        text: the initial text.
        selection: the initial selection (default: a caret at offset 0).
        match_options: how patch context is matched (default: tolerant, never fuzzy).
        history_limit: undo steps kept (the oldest are dropped first).
        clock: seconds for latency metrics (tests inject a fake one).

    Raises:
        PatchwrightError: ``out_of_range`` for a selection past the end of ``text``.
    """

    def __init__(
        self,
        text: str = "",
        *,
        selection: SelectionInput | None = None,
        match_options: MatchOptions | None = None,
        history_limit: int = 100,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        chosen = _as_range(selection) if selection is not None else TextRange(0, 0)
        check_range(chosen, len(text), field="selection")
        self._state = DocumentState(text, chosen)
        self._options = match_options or DEFAULT_MATCH_OPTIONS
        self._history = History(history_limit)
        self._metrics = DocumentMetrics()
        self._clock = clock
        self._lock = threading.RLock()
        # Reentrant: a future's callback runs inside drain() and may apply another directive.
        self._drain_lock = threading.RLock()
        self._queue: collections.deque[tuple[DirectiveInput, Future[EditResult]]] = (
            collections.deque()
        )
        self._queue_lock = threading.Lock()
        self._annotation_ids = 0

    # reading --------------------------------------------------------------------------------
    @property
    def state(self) -> DocumentState:
        """The current state (immutable: text, selection, annotations)."""
        return self._state

    @property
    def text(self) -> str:
        """The current text."""
        return self._state.text

    @property
    def version(self) -> str:
        """The current version digest (``sha256:`` + 16 hex digits)."""
        return self._state.version

    @property
    def selection(self) -> TextRange:
        """The current selection."""
        return self._state.selection

    @property
    def annotations(self) -> tuple[Annotation, ...]:
        """Notes stored by ``annotate`` directives, with ranges kept up to date."""
        return self._state.annotations

    def snapshot(self, selection: SelectionInput | None = None) -> DocumentSnapshot:
        """Text, version, line offsets and the hash of ``selection`` (default: the current one).

        Raises:
            PatchwrightError: ``out_of_range`` / ``invalid_request`` for a bad selection.
        """
        chosen = None if selection is None else _as_range(selection)
        return DocumentSnapshot.of(self._state, chosen)

    def metrics(self) -> MetricsSnapshot:
        """Counters, latencies, the last diff summary and the last failure."""
        return self._metrics.snapshot()

    # directives -----------------------------------------------------------------------------
    def apply(self, directive: DirectiveInput) -> EditResult:
        """Validate and apply one directive, after every directive submitted before it.

        Raises:
            PatchApplyError: the directive conflicts with the document (stale version,
                context mismatch, fingerprint mismatch...); nothing changed.
            PatchwrightError: ``invalid_request`` for a malformed payload.
        """
        future = self.submit(directive)
        self.drain()
        return future.result()

    def submit(self, directive: DirectiveInput) -> Future[EditResult]:
        """Queue a directive (from any thread); :meth:`drain` applies it in order."""
        future: Future[EditResult] = Future()
        with self._queue_lock:
            self._queue.append((directive, future))
        return future

    @property
    def pending(self) -> int:
        """Directives submitted and not yet applied."""
        with self._queue_lock:
            return len(self._queue)

    def drain(self) -> int:
        """Apply every queued directive in submission order; returns how many were taken.

        Each outcome (result or refusal) goes to its directive's future. Only one thread
        drains at a time; a concurrent caller waits and then finds the queue handled.
        """
        taken = 0
        with self._drain_lock:
            while True:
                with self._queue_lock:
                    if not self._queue:
                        return taken
                    directive, future = self._queue.popleft()
                if not future.set_running_or_notify_cancel():
                    continue
                taken += 1
                try:
                    future.set_result(self._apply_now(directive))
                except PatchwrightError as exc:
                    future.set_exception(exc)

    # history ----------------------------------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        """Whether :meth:`undo` has a step to undo."""
        return self._history.undo_depth > 0

    @property
    def can_redo(self) -> bool:
        """Whether :meth:`redo` has a step to redo."""
        return self._history.redo_depth > 0

    def undo(self) -> DocumentSnapshot:
        """Undo the last step (directive or :meth:`set_text`); returns the restored snapshot.

        Raises:
            PatchwrightError: ``history`` when there is nothing to undo.
        """
        with self._lock:
            self._state = self._history.undo(self._state)
            return DocumentSnapshot.of(self._state)

    def redo(self) -> DocumentSnapshot:
        """Redo the last undone step; returns the restored snapshot.

        Raises:
            PatchwrightError: ``history`` when there is nothing to redo.
        """
        with self._lock:
            self._state = self._history.redo(self._state)
            return DocumentSnapshot.of(self._state)

    # direct edits by the host -------------------------------------------------------------------
    def set_text(self, text: str, *, selection: SelectionInput | None = None) -> str:
        """Replace the whole text as the host's own edit (one undo step); returns the version.

        The selection becomes ``selection``, by default a caret at the end of the text.
        Annotations are dropped: their ranges mean nothing in unrelated text. Setting the
        text it already has records no undo step.

        Raises:
            PatchwrightError: ``out_of_range`` for a selection past the end of ``text``.
        """
        chosen = _as_range(selection) if selection is not None else TextRange(len(text), len(text))
        check_range(chosen, len(text), field="selection")
        with self._lock:
            if text != self._state.text:
                self._history.record(self._state)
            self._state = DocumentState(text, chosen)
            return self._state.version

    def set_selection(self, selection: SelectionInput) -> None:
        """Move the selection (not an undo step).

        Raises:
            PatchwrightError: ``out_of_range`` / ``invalid_request`` for a bad selection.
        """
        chosen = _as_range(selection)
        with self._lock:
            check_range(chosen, len(self._state.text), field="selection")
            self._state = DocumentState(self._state.text, chosen, self._state.annotations)

    # internals ----------------------------------------------------------------------------------
    def _apply_now(self, payload: DirectiveInput) -> EditResult:
        started = self._clock()
        action: ActionType | None = None
        try:
            directive = validate_directive(payload)
            action = directive.action
            with self._lock:
                result = self._commit(directive)
        except PatchwrightError as exc:
            action = action or _peek_action(payload)
            self._metrics.record_failure(
                action, exc, _failure_summary(action, exc), self._clock() - started
            )
            raise
        self._metrics.record_applied(directive.action, result.summary, self._clock() - started)
        return result

    def _commit(self, directive: Directive) -> EditResult:
        before = self._state
        _check_version(directive, before)
        try:
            if directive.action is ActionType.PATCH:
                change = self._patch(before, directive)
            else:
                change = apply_range_action(before, directive, f"ann-{self._annotation_ids + 1}")
        except PatchApplyError as exc:
            exc.with_versions(directive.document_version, before.version)
            raise
        if change.annotation is not None:
            self._annotation_ids += 1
        self._history.record(before)
        self._state = change.state
        delta = sum(span.delta for span in change.spans)
        note = change.annotation
        detail = "" if note is None else f"note {note.id} on [{note.start}, {note.end}]"
        return EditResult(
            action=directive.action,
            text=change.state.text,
            version=change.state.version,
            previous_version=before.version,
            spans=change.spans,
            summary=applied_summary(directive.action, delta, change.state.version, detail),
            selection_hint=change.selection_hint,
            warnings=change.warnings,
            rungs=change.rungs,
            annotation=change.annotation,
            rationale=directive.rationale,
        )

    def _patch(self, before: DocumentState, directive: Directive) -> Change:
        assert directive.diff is not None  # guaranteed by Directive validation
        result = apply_patch(
            before.text, directive.diff, options=self._options, version=before.version
        )
        last = result.spans[-1]
        hint = TextRange(last.new_start, last.new_end)
        return Change(
            before.after_edit(result.text, result.spans, hint),
            result.spans,
            hint,
            result.warnings,
            rungs=result.rungs,
        )


def _check_version(directive: Directive, state: DocumentState) -> None:
    token = directive.document_version
    if token is None or token_names(token, state.digest):
        return
    raise PatchApplyError(
        ConflictReason.STALE_VERSION,
        f"The directive was written against version {token}, but the document is now at "
        f"{state.version}: it changed since that snapshot.",
        "Take a fresh snapshot, recompute the edit against its text, and resend it with "
        "the new `document_version`.",
        field="document_version",
        expected_version=token,
        actual_version=state.version,
        versions_match=False,
    )


def _failure_summary(action: ActionType | None, error: PatchwrightError) -> str:
    if isinstance(error, PatchApplyError):
        return error.summary(action.value if action else "directive")
    where = f"`{error.field}`" if error.field else "payload"
    return f"failed: invalid directive ({where}: {error.code.value})"


def _peek_action(payload: DirectiveInput) -> ActionType | None:
    """The action a refused payload meant, when it named a valid one (for metrics)."""
    value = payload.get("action") if isinstance(payload, Mapping) else None
    if isinstance(value, str) and value.lower() in {a.value for a in ActionType}:
        return ActionType(value.lower())
    return None


def _as_range(value: SelectionInput) -> TextRange:
    if isinstance(value, TextRange):
        return value
    if (
        isinstance(value, (tuple, list))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return TextRange(value[0], value[1])
    raise PatchwrightError(
        ErrorCode.INVALID_REQUEST,
        f"A selection is (start, end) with integer character offsets; found {value!r}.",
        "",
        field="selection",
    )
