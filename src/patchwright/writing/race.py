"""A write that lost the race to another writer is planned again (:func:`racing`)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext

from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.workspace import Workspace

#: How often a write is planned again when another writer changed its file between this
#: call's read and its commit (each try is a whole read, plan and commit).
RACE_TRIES = 8

#: Tries made without holding anything; the rest hold the raced files' locks from the
#: read to the commit, so they cannot lose again to a writer that keeps winning.
_OPTIMISTIC_TRIES = 2

TYPE_CHECKING = False
if TYPE_CHECKING:  # ``typing`` stays off the start-up path (docs/architecture.md)
    from typing import TypeVar

    _T = TypeVar("_T")


def racing(
    ws: Workspace,
    attempt: Callable[[], _T],
    stale: Callable[[_T], PatchwrightError | None] = lambda _result: None,
) -> _T:
    """``attempt()`` (a whole read, plan and commit), made again when its commit found
    a file changed by another writer since this call read it.

    The first tries hold nothing, so writers of different parts of one file run side by
    side; after those, the raced files are held (:meth:`Workspace.exclusive`) from the
    read to the commit, so a busy file still gets the edit. ``stale`` tells a refusal
    that ``attempt`` returns rather than raises.

    Raises:
        PatchwrightError: what ``attempt`` raised; ``stale`` after :data:`RACE_TRIES`.
    """
    held: set[str] = set()
    for tries in range(1, RACE_TRIES + 1):
        holding = ws.exclusive(held) if held else nullcontext()
        with holding:
            try:
                result = attempt()
            except PatchwrightError as err:
                if err.code is not ErrorCode.STALE or tries == RACE_TRIES:
                    raise
                raced = err
            else:
                refused = stale(result)
                if refused is None or refused.code is not ErrorCode.STALE or tries == RACE_TRIES:
                    return result
                raced = refused
        if tries >= _OPTIMISTIC_TRIES:
            held |= _raced_paths(raced)
    raise AssertionError("unreachable")  # the last try returns or raises


def _raced_paths(err: PatchwrightError) -> set[str]:
    files = err.details.get("files")
    paths = {f["path"] for f in files if isinstance(f, dict)} if isinstance(files, list) else set()
    return paths | ({err.path} if err.path else set())
