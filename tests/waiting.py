"""A call running in a thread (an agent's server waiting for approval), for the tests of
approval mode: what it returned or raised, and a bounded wait for its end."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any


class Waiting:
    """A commit running in a thread, and what it returned or raised."""

    def __init__(self, call: Callable[[], Any]) -> None:
        self.result: Any = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(call,), daemon=True)
        self.thread.start()

    def _run(self, call: Callable[[], Any]) -> None:
        try:
            self.result = call()
        except BaseException as exc:
            self.error = exc

    def join(self) -> None:
        self.thread.join(60)
        assert not self.thread.is_alive(), "the waiting commit never returned"
