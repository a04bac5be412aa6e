"""Tool calls in flight, so a mode change waits for whole calls, not single file operations.

The workspace already waits for its own operations to finish before changing mode. A
tool call, though, reads a file, thinks, then commits: two workspace operations. If the
mode flipped between them the call would fail half-way. :class:`CallGate` counts whole
calls; :meth:`CallGate.idle` holds new calls back and waits until none is running, so a
mode change "waits for idle" at the granularity a caller sees (spec 000 REQ-PATCH-009).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from patchwright.model import ErrorCode, PatchwrightError


class CallGate:
    """Counts calls in flight and lets one caller wait until there are none."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._active = 0
        self._closing = 0

    @contextmanager
    def call(self) -> Iterator[None]:
        """Run one call (waits while an :meth:`idle` section is pending or running)."""
        with self._cond:
            while self._closing:
                self._cond.wait()
            self._active += 1
        try:
            yield
        finally:
            with self._cond:
                self._active -= 1
                self._cond.notify_all()

    @contextmanager
    def idle(self, timeout: float | None = None) -> Iterator[None]:
        """Hold new calls back, wait for running ones, then run the body alone.

        Raises:
            PatchwrightError: ``lock_timeout`` when calls are still running after
                ``timeout`` seconds (nothing is done then).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            self._closing += 1
            try:
                while self._active:
                    remaining = None if deadline is None else deadline - time.monotonic()
                    if remaining is not None and remaining <= 0:
                        raise PatchwrightError(
                            ErrorCode.LOCK_TIMEOUT,
                            f"Timed out waiting for {self._active} tool call(s) to finish.",
                            "Try again once the running calls have finished.",
                        )
                    self._cond.wait(remaining)
                yield
            finally:
                self._closing -= 1
                self._cond.notify_all()
