"""The reference servers of ``concurrency.py --reference``, measured briefly."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from concurrency import Run, Server, _ceilings, _editing, reference_served


@pytest.mark.parametrize("kind", ["noop", "plain"])
def test_the_sdk_reference_answers_every_session(kind: str, tmp_path: Path) -> None:
    with reference_served(tmp_path, kind) as server:
        run = anyio.run(_editing, server, tmp_path, 2, 0.3, kind == "plain")
    assert run.latencies and run.server_cpu >= 0 and run.client_cpu > 0
    edited = [(tmp_path / f"s{i}.py").read_text() for i in range(2)]
    # the plain tool wrote every session's edits (checked line by line in _editing too);
    # the no-op one left both files as the client wrote them
    assert all(("# edit" in text) == (kind == "plain") for text in edited)


def test_server_cpu_is_read_from_proc(tmp_path: Path) -> None:
    with reference_served(tmp_path, "noop") as server:
        assert isinstance(server, Server)
        assert server.cpu() > 0  # the interpreter's start-up alone takes CPU time


def test_ceilings_follow_from_cpu_per_call() -> None:
    # one session: 100 calls/s, the server busy 40%; at 16: 4 ms server, 1 ms client a call
    one = Run(100, [0.01] * 100, server_cpu=0.4, client_cpu=0.1, elapsed=1.0)
    busy = Run(250, [0.064] * 250, server_cpu=1.0, client_cpu=0.25, elapsed=1.0)
    header, rows = _ceilings({"x": {1: one, 4: one, 16: busy, 32: busy}})
    assert header[0] == "server" and len(rows[0]) == len(header)
    assert rows[0][:5] == ["x", 100, "40%", "4.0", "1.0"]
    assert rows[0][5:] == ["250 calls/s (2.50x)", "400 calls/s (4.00x)"]
