"""Counters and last outcomes of a document session, safe to update from any thread.

* ``total_directives`` / ``total_patches``: directives (of any action / ``patch`` only)
  applied;
* ``conflicts`` / ``patch_conflicts``: directives refused with
  :class:`~patchwright.documents.errors.PatchApplyError` (a stale version, a context
  mismatch, an unreadable diff...), the document unchanged;
* ``invalid``: payloads refused by validation before reaching the document;
* ``avg_apply_latency_ms`` / ``avg_patch_latency_ms``: mean time spent applying a
  directive (applied or in conflict), over every action / over ``patch`` only;
* ``last_diff_summary``: the summary of the last outcome, ``applied: ...`` or
  ``failed: ...``; ``last_failure``: the summary and error of the last refusal.
"""

from __future__ import annotations

import threading
from typing import Any

from patchwright._records import record
from patchwright.documents.directives import ActionType
from patchwright.documents.errors import PatchApplyError
from patchwright.model import PatchwrightError


@record(frozen=True)
class MetricsSnapshot:
    """A consistent copy of the counters at one moment."""

    total_directives: int
    total_patches: int
    conflicts: int
    patch_conflicts: int
    invalid: int
    avg_apply_latency_ms: float
    avg_patch_latency_ms: float
    last_diff_summary: str | None
    last_failure: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "total_directives": self.total_directives,
            "total_patches": self.total_patches,
            "conflicts": self.conflicts,
            "patch_conflicts": self.patch_conflicts,
            "invalid": self.invalid,
            "avg_apply_latency_ms": round(self.avg_apply_latency_ms, 3),
            "avg_patch_latency_ms": round(self.avg_patch_latency_ms, 3),
            "last_diff_summary": self.last_diff_summary,
            "last_failure": self.last_failure,
        }


class DocumentMetrics:
    """Thread-safe recorder behind :class:`MetricsSnapshot`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._applied = 0
        self._patches = 0
        self._conflicts = 0
        self._patch_conflicts = 0
        self._invalid = 0
        self._timed = _Timer()  # every action
        self._patch_timed = _Timer()  # patch only
        self._last_summary: str | None = None
        self._last_failure: dict[str, Any] | None = None

    def record_applied(self, action: ActionType, summary: str, seconds: float) -> None:
        """Count an applied directive."""
        with self._lock:
            self._applied += 1
            if action is ActionType.PATCH:
                self._patches += 1
            self._time(action, seconds)
            self._last_summary = summary

    def record_failure(
        self, action: ActionType | None, error: PatchwrightError, summary: str, seconds: float
    ) -> None:
        """Count a refused directive (``action`` is ``None`` when the payload had none)."""
        with self._lock:
            if isinstance(error, PatchApplyError):
                self._conflicts += 1
                if action is ActionType.PATCH:
                    self._patch_conflicts += 1
                self._time(action, seconds)
            else:
                self._invalid += 1
            self._last_summary = summary
            self._last_failure = {
                "summary": summary,
                "action": None if action is None else action.value,
                "error": error.to_dict(),
            }

    def snapshot(self) -> MetricsSnapshot:
        """The counters now."""
        with self._lock:
            return MetricsSnapshot(
                total_directives=self._applied,
                total_patches=self._patches,
                conflicts=self._conflicts,
                patch_conflicts=self._patch_conflicts,
                invalid=self._invalid,
                avg_apply_latency_ms=self._timed.mean_ms(),
                avg_patch_latency_ms=self._patch_timed.mean_ms(),
                last_diff_summary=self._last_summary,
                last_failure=None if self._last_failure is None else dict(self._last_failure),
            )

    def _time(self, action: ActionType | None, seconds: float) -> None:
        self._timed.add(seconds)
        if action is ActionType.PATCH:
            self._patch_timed.add(seconds)


@record
class _Timer:
    """A running mean of durations."""

    count: int = 0
    seconds: float = 0.0

    def add(self, seconds: float) -> None:
        self.count += 1
        self.seconds += seconds

    def mean_ms(self) -> float:
        return 0.0 if self.count == 0 else 1000.0 * self.seconds / self.count
