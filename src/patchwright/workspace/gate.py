"""Restricted and unrestricted modes, and the wait for idle when the mode changes.

In ``restricted`` mode every writing operation is refused with ``restricted`` and the
exact text of spec 000 REQ-PATCH-009 (:data:`RESTRICTED_MESSAGE`); reading still works.

Every operation (read or write) runs inside :meth:`ModeGate.operation`. A mode change
waits until the operations in flight have finished, and operations that arrive while it
waits are held back until it is done, so a stream of new calls cannot starve it
(spec 000: "mode change waits for idle"). Operations must not nest: an inner one would
wait for a mode change that waits for the outer one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

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


class ModeGate:
    """The current mode plus a count of operations in flight."""

    def __init__(self, mode: str) -> None:
        self._mode: Mode = check_mode(mode)
        self._cond = threading.Condition()
        self._active = 0
        self._switching = 0

    @property
    def mode(self) -> Mode:
        """The current mode."""
        return self._mode

    def ensure_writable(self) -> None:
        """Raise the REQ-PATCH-009 refusal when in restricted mode."""
        if self._mode == "restricted":
            raise restricted_error()

    @contextmanager
    def operation(self, *, writing: bool) -> Iterator[None]:
        """Run one operation; a writing one is refused in restricted mode."""
        with self._cond:
            while self._switching:
                self._cond.wait()
            if writing:
                self.ensure_writable()
            self._active += 1
        try:
            yield
        finally:
            with self._cond:
                self._active -= 1
                self._cond.notify_all()

    def set_mode(self, mode: str, *, timeout: float | None = None) -> None:
        """Change the mode once every operation in flight has finished.

        Raises:
            PatchwrightError: ``invalid_request`` for an unknown mode; ``lock_timeout``
                when operations are still running after ``timeout`` seconds (the mode is
                then unchanged).
        """
        new_mode = check_mode(mode)
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            self._switching += 1
            try:
                while self._active:
                    remaining = None if deadline is None else deadline - time.monotonic()
                    if remaining is not None and remaining <= 0:
                        raise PatchwrightError(
                            ErrorCode.LOCK_TIMEOUT,
                            f"The mode change to {new_mode!r} timed out: {self._active} "
                            "operation(s) still running.",
                            "Try again once the running edits have finished.",
                        )
                    self._cond.wait(remaining)
                self._mode = new_mode
            finally:
                self._switching -= 1
                self._cond.notify_all()
