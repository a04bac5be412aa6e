"""The reference servers of ``concurrency.py --reference``, measured briefly."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from concurrency import Server, _editing, reference_served


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
