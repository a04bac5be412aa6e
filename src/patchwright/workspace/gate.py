"""Restricted and unrestricted modes, and the wait for idle when the mode changes.

In ``restricted`` mode every writing operation is refused with ``restricted`` and the
exact text of spec 000 REQ-PATCH-009 (:data:`RESTRICTED_MESSAGE`); reading still works.

Every operation (read or write) runs inside :meth:`ModeGate.operation`, counted by a
:class:`DrainGate`. A mode change
waits until the operations in flight have finished, and operations that arrive while it
waits are held back until it is done, so a stream of new calls cannot starve it
(spec 000: "mode change waits for idle"). Operations must not nest: an inner one would
wait for a mode change that waits for the outer one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

from patchwright._lazy import lazy_literals
from patchwright.model.errors import ErrorCode, PatchwrightError

#: The workspace modes: ``get_args(Mode)``, kept as a constant so that no run-time use
#: of the alias imports ``typing`` (start-up time).
MODES = ("restricted", "unrestricted")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    Mode = Literal["restricted", "unrestricted"]
else:
    __getattr__ = lazy_literals(__name__, {"Mode": MODES}, globals())

#: spec 000 REQ-PATCH-009, word for word.
RESTRICTED_MESSAGE = (
    "Patch tool is disabled in Restricted mode. Use request_mode_upgrade to request write access."
)

#: Seconds a write waits for a decision in approval mode (approval.py) unless told
#: otherwise: less than the 60 s after which common MCP clients (the TypeScript and
#: Python SDKs, most hosts) give up on a call whose time-out progress does not reset, so
#: the agent reads "timed out, nothing written" rather than a transport error. A client
#: that resets its time-out on progress can wait longer: raise it (``--approve-timeout``).
#: It lives here, beside the other modes, so that the workspace facade names its default
#: without importing approval mode.
DEFAULT_APPROVAL_TIMEOUT = 50.0


def restricted_error() -> PatchwrightError:
    """The refusal every writing tool gives in restricted mode (no hint: the text is exact)."""
    return PatchwrightError(ErrorCode.RESTRICTED, RESTRICTED_MESSAGE)


def check_mode(mode: str) -> Mode:
    """Validate a mode name.

    Raises:
        PatchwrightError: ``invalid_request`` for anything but the two modes.
    """
    if mode not in MODES:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"Unknown workspace mode {mode!r}; expected 'restricted' or 'unrestricted'.",
            field="mode",
        )
    return mode  # type: ignore[return-value]  # narrowed by the membership test


class DrainGate:
    """Work counted in flight, and sections that run alone once it has drained.

    The one gate of two granularities: the workspace's operations (:class:`ModeGate`) and
    a toolbox's whole tool calls (``tools/dispatch.py``), so that a mode change "waits for
    idle" (spec 000 REQ-PATCH-009). Work that arrives while a section waits is held back
    until the section is done, so a stream of new work cannot starve it.
    """

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._active = 0
        self._draining = 0

    @contextmanager
    def entered(self, check: Callable[[], None] | None = None) -> Iterator[None]:
        """Run one unit of work (waits while a drained section is pending or running).

        ``check`` runs once the work is let in, before it counts (under the gate's lock,
        so no drained section runs meanwhile), and refuses it by raising.
        """
        with self._cond:
            while self._draining:
                self._cond.wait()
            if check is not None:
                check()
            self._active += 1
        try:
            yield
        finally:
            with self._cond:
                self._active -= 1
                self._cond.notify_all()

    @contextmanager
    def drained(
        self, timeout: float | None, timed_out: Callable[[int], PatchwrightError]
    ) -> Iterator[None]:
        """Hold new work back, wait for the work in flight, then run the body alone.

        Raises:
            PatchwrightError: ``timed_out(count)`` (the count still running) when work
                is still running after ``timeout`` seconds; the body does not run then.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            self._draining += 1
            try:
                while self._active:
                    remaining = None if deadline is None else deadline - time.monotonic()
                    if remaining is not None and remaining <= 0:
                        raise timed_out(self._active)
                    self._cond.wait(remaining)
                yield
            finally:
                self._draining -= 1
                self._cond.notify_all()


class ModeGate:
    """The current mode plus the workspace's operations in flight."""

    def __init__(self, mode: str) -> None:
        self._mode: Mode = check_mode(mode)
        self._drain = DrainGate()

    @property
    def mode(self) -> Mode:
        """The current mode."""
        return self._mode

    def ensure_writable(self) -> None:
        """Raise the REQ-PATCH-009 refusal when in restricted mode."""
        if self._mode == "restricted":
            raise restricted_error()

    def operation(self, *, writing: bool) -> AbstractContextManager[None]:
        """Run one operation; a writing one is refused in restricted mode."""
        return self._drain.entered(self.ensure_writable if writing else None)

    def set_mode(self, mode: str, *, timeout: float | None = None) -> None:
        """Change the mode once every operation in flight has finished.

        Raises:
            PatchwrightError: ``invalid_request`` for an unknown mode; ``lock_timeout``
                when operations are still running after ``timeout`` seconds (the mode is
                then unchanged).
        """
        new_mode = check_mode(mode)

        def timed_out(running: int) -> PatchwrightError:
            return PatchwrightError(
                ErrorCode.LOCK_TIMEOUT,
                f"The mode change to {new_mode!r} timed out: {running} operation(s) still running.",
                "Try again once the running edits have finished.",
            )

        with self._drain.drained(timeout, timed_out):
            self._mode = new_mode
