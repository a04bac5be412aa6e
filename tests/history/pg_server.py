"""A throwaway PostgreSQL server: initdb into a temp folder, a unix socket only, removed after.

Debian's ``postgresql`` package provides ``initdb`` and ``pg_ctl`` (on PATH or in
``/usr/lib/postgresql/<version>/bin``). PostgreSQL refuses to run as root, so when the
caller is root the server runs as the package's ``postgres`` user, which is given the
temp folder. Used by the tests of the shared history and by bench/history.py.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

_USER = "pwtest"
#: Why PostgreSQL tests were skipped in this run (printed at its end by conftest.py).
MISSING: list[str] = []


def find_binaries() -> Path | None:
    """The folder holding ``pg_ctl`` and ``initdb``, ``None`` when PostgreSQL is missing."""
    found = shutil.which("pg_ctl")
    candidates = [os.path.dirname(os.path.realpath(found))] if found else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if os.path.exists(os.path.join(folder, "initdb")):
            return Path(folder)
    return None


class PgServer:
    """One server; :meth:`start`, then :meth:`url` per database, :meth:`remove` at the end.

    Args:
        bin_dir: the folder of ``pg_ctl`` and ``initdb``.
        fsync: whether the server fsyncs (on for benchmarks, off makes tests faster).
    """

    def __init__(self, bin_dir: Path, *, fsync: bool = False) -> None:
        self.bin_dir = bin_dir
        self.fsync = fsync
        # a short path: a unix socket's path is limited to about 100 bytes
        self.folder = Path(tempfile.mkdtemp(prefix="pw-pg-", dir="/tmp"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.run_as: str | None = None
        if os.geteuid() == 0:
            self.run_as = "postgres"
            entry = pwd.getpwnam(self.run_as)  # KeyError: the package's user is missing
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)

    def _run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        options: dict[str, Any] = {}
        if self.run_as is not None:
            entry = pwd.getpwnam(self.run_as)
            options = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
        return subprocess.run(
            args, check=True, capture_output=True, text=True, timeout=timeout,
            cwd=self.folder, **options,
        )  # fmt: skip

    def start(self) -> PgServer:
        """initdb (first time) and start; returns self."""
        if not self.data.exists():
            self._run(
                str(self.bin_dir / "initdb"), "-D", str(self.data), "-U", _USER,
                "--auth=trust", "-E", "UTF8", "--no-sync",
            )  # fmt: skip
        settings = (
            f"-c listen_addresses='' -c unix_socket_directories={self.folder} "
            f"-c fsync={'on' if self.fsync else 'off'} -c max_connections=100"
        )
        self._run(
            str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
            "-o", settings, "-w", "-t", "60", "start",
        )  # fmt: skip
        return self

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: disconnect clients; ``immediate``: like a crash)."""
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def running(self) -> bool:
        """Whether the server is up."""
        status = subprocess.run(
            [str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "status"],
            capture_output=True, check=False,
        )  # fmt: skip
        return status.returncode == 0

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` on this server (through its socket)."""
        return f"postgresql://{_USER}@/{database}?host={self.folder}"

    def new_database(self) -> str:
        """Create a fresh empty database; its URL."""
        import psycopg

        name = f"h_{secrets.token_hex(6)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def remove(self) -> None:
        """Stop the server if it runs and delete its folder."""
        try:
            if self.running():
                self.stop("immediate")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def _unavailable(reason: str) -> None:
    import pytest

    if os.environ.get("CI") == "true":
        pytest.fail(f"PostgreSQL is required under CI: {reason}", pytrace=False)
    MISSING.append(reason)
    pytest.skip(f"PostgreSQL unavailable: {reason}")


def start_server(*, fsync: bool = False) -> PgServer:
    """A started throwaway server for a test, or a skip saying why not (under CI, where
    .ci/run installs PostgreSQL, a failure instead)."""
    bin_dir = find_binaries()
    if bin_dir is None:
        _unavailable("pg_ctl/initdb not found (install Debian's postgresql package)")
    assert bin_dir is not None
    try:
        server = PgServer(bin_dir, fsync=fsync)
    except KeyError:
        _unavailable("running as root and the 'postgres' user does not exist")
        raise
    try:
        return server.start()
    except (OSError, subprocess.SubprocessError) as exc:
        log = server.log.read_text(errors="replace") if server.log.exists() else ""
        server.remove()
        _unavailable(f"the server did not start ({exc}): {log[-2000:]}")
        raise
