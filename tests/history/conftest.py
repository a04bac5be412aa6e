"""Fixtures for the history tests: a real, throwaway PostgreSQL server.

One server serves the whole run (``pg_server``), each test gets a fresh database in it
(``pg_url``, also set as ``PATCHWRIGHT_HISTORY_URL``). Without PostgreSQL the tests that
need it are skipped with a reason printed at the end of the run, except under CI
(``CI=true``), where .ci/run installs the package and a missing server is a failure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pg_server import MISSING, PgServer, start_server

from patchwright.workspace import Workspace
from patchwright.workspace.history.postgres import close_pools


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if MISSING:
        terminalreporter.write_sep("!", "PostgreSQL history tests SKIPPED", red=True, bold=True)
        for reason in sorted(set(MISSING)):
            terminalreporter.write_line(f"  {reason}", red=True)


def _serve() -> Iterator[PgServer]:
    server = start_server()
    try:
        yield server
    finally:
        close_pools()
        server.remove()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One server for the run (each test takes a fresh database in it: ``pg_url``)."""
    yield from _serve()


@pytest.fixture
def own_server() -> Iterator[PgServer]:
    """A server of the test's own, which it may stop and start."""
    yield from _serve()


@pytest.fixture
def pg_url(pg_server: PgServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    url = pg_server.new_database()
    monkeypatch.setenv("PATCHWRIGHT_HISTORY_URL", url)
    yield url
    close_pools()


@pytest.fixture
def make_root(tmp_path: Path) -> Callable[[str], Path]:
    def make(name: str) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        return folder

    return make


@pytest.fixture
def open_ws(tmp_path: Path) -> Callable[..., Workspace]:
    """A workspace on ``root`` with the state folder ``tmp_path/<machine>`` (one per machine)."""

    def make(root: Path, machine: str = "m1", **options: Any) -> Workspace:
        return Workspace(root, state_dir=tmp_path / f"state-{machine}", **options)

    return make
