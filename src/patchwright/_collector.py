"""The cyclic garbage collector paused while patchwright builds many long- or short-lived
objects that reference counting alone frees or keeps.

Importing modules at start-up and planning a large patch each allocate hundreds of
thousands of objects. Every so many allocations the collector walks all live objects
again, finding nothing to free: a tenth of a one-line ``patchwright apply`` and about
25 ms of a 200,000-line patch (docs/benchmarks.md). The collector is process-wide, so
a pause only happens when it is running and the outer pause alone resumes it: a nested
call, or a call in another thread while one is paused, leaves it to the first.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused(*, freeze: bool = False) -> Iterator[None]:
    """Pause the collector for the ``with`` block, then resume it.

    With ``freeze``, what exists when the block ends is moved out of the collector's
    sight for good (``gc.freeze``): for start-up, whose modules, classes and functions
    live as long as the process, so that no later collection walks them again.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        gc.enable()
