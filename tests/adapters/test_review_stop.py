"""``patchwright review`` stops on one Ctrl-C or SIGTERM, cleanly, also with a browser's
connection open."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

TIMEOUT = 30


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_one_signal_stops_the_review_page(tmp_path: Path, stop: signal.Signals) -> None:
    root = tmp_path / "root"
    root.mkdir()
    process = subprocess.Popen(
        [sys.executable, "-m", "patchwright", "review", "--root", str(root), "--no-open",
         "--port", "0"],
        env={**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")},
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        url = process.stdout.readline()
        port = int(re.findall(r":(\d+)/", url)[0])
        # a browser's kept-alive connection, idle: it must not hold the stop back
        with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as browser:
            browser.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            assert browser.recv(64).startswith(b"HTTP/1.1 ")
            process.send_signal(stop)
            _, err = process.communicate(timeout=TIMEOUT)
    finally:
        if process.poll() is None:  # pragma: no cover - only when the stop fails
            process.kill()
            process.communicate()
    assert "Traceback" not in err and "Fatal" not in err, err
    # Ctrl-C exits 0; SIGTERM, once served out, ends the process as SIGTERM does
    assert process.returncode == (0 if stop is signal.SIGINT else -stop), err
