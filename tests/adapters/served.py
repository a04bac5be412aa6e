"""A patchwright server as a real subprocess, for the tests that talk to it over HTTP.

:func:`served` starts ``python -m patchwright ARGS`` with standard error piped, waits
(bounded) for the first line that announces an ``http://`` address, and yields that
address with the process; at the end it sends SIGTERM and waits for the process to stop
(killing it only if it hangs), so no test leaves a server behind.
"""

from __future__ import annotations

import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

#: Seconds to wait for the server to announce its address.
START_TIMEOUT = 60.0
_URL = re.compile(r"http://\S+")


@contextmanager
def served(
    args: list[str], env: Mapping[str, str], *, stop_timeout: float = 30.0
) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """Run ``patchwright ARGS`` with ``env``; yield the URL it announces and the process."""
    process = subprocess.Popen(
        [sys.executable, "-m", "patchwright", *args],
        env=dict(env), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stderr is not None
    stderr = process.stderr
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in stderr], daemon=True)
    reader.start()
    try:
        found = None
        while found is None:
            found = _URL.search(lines.get(timeout=START_TIMEOUT))
        yield found.group(0), process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=stop_timeout)
        except subprocess.TimeoutExpired:  # pragma: no cover - only when shutdown hangs
            process.kill()
            process.wait()
        reader.join(timeout=5)
        stderr.close()
