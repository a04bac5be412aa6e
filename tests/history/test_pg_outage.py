"""The PostgreSQL server stopped mid-run: edits are refused, no file is torn, nothing is lost.

The documented behaviour (docs/history.md): while the shared history is unreachable,
every edit is refused with a ``history`` error saying so and nothing is written. A
commit in flight when the connection drops is rolled back; its journal stays until the
store is reachable again, so the batch is removed from the history if it got there, and
the next workspace opened once the server is back finishes that.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pg_server import PgServer, start_server

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import FileChange, OsFileSystem, Workspace, sha256_hex
from patchwright.workspace.history.postgres import close_pools


class StopServerOnWrite(OsFileSystem):
    """Stops the server when armed and the commit writes its first file into the tree,
    after the batch's IDs were drawn from the history and before it is recorded."""

    def __init__(self, server: PgServer, root: Path) -> None:
        self.server = server
        self.root = str(root)
        self.armed = False

    def write_new(self, path: str, data: bytes, mode_bits: int | None) -> None:
        if self.armed and path.startswith(self.root):
            self.armed = False
            self.server.stop("fast")
        super().write_new(path, data, mode_bits)


@pytest.fixture
def own_server() -> Iterator[PgServer]:
    server = start_server()
    try:
        yield server
    finally:
        close_pools()
        server.remove()


def _version(i: int) -> bytes:
    return f"version {i}\n".encode()


def _refused_unreachable(exc: PatchwrightError) -> None:
    assert "unreachable" in exc.message, exc.render()
    assert "\nTraceback" not in exc.render()


def test_server_stopped_mid_run(
    own_server: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATCHWRIGHT_HISTORY_URL", own_server.new_database())
    monkeypatch.setenv("PATCHWRIGHT_HISTORY_TIMEOUT", "1")
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    fs = StopServerOnWrite(own_server, root)
    ws = Workspace(root, state_dir=state, fs=fs)
    done = [ws.commit([FileChange("a.txt", _version(i))]).batch_id for i in range(5)]

    # the connection drops while the commit writes: rolled back, the file whole
    fs.armed = True
    with pytest.raises(PatchwrightError) as info:
        ws.commit([FileChange("a.txt", _version(5), expected_sha256=sha256_hex(_version(4)))])
    _refused_unreachable(info.value)
    assert not own_server.running()
    assert sorted(p.name for p in root.iterdir()) == ["a.txt"]
    assert (root / "a.txt").read_bytes() == _version(4)
    (in_flight,) = [p.name for p in (ws.state_folder / "journal").iterdir()]

    # while the server is down: refused before anything is written
    with pytest.raises(PatchwrightError) as info:
        ws.commit([FileChange("b.txt", b"new")])
    assert info.value.code == ErrorCode.HISTORY and info.value.details["unreachable"]
    _refused_unreachable(info.value)
    with pytest.raises(PatchwrightError) as info:
        Workspace(root, state_dir=state)  # its recovery needs the store
    _refused_unreachable(info.value)
    assert sorted(p.name for p in root.iterdir()) == ["a.txt"]
    assert (root / "a.txt").read_bytes() == _version(4)

    # back up: the in-flight batch is finished off, nothing recorded is lost
    monkeypatch.setenv("PATCHWRIGHT_HISTORY_TIMEOUT", "30")
    own_server.start()
    again = Workspace(root, state_dir=state)
    assert again.recovered == [in_flight]
    assert list((again.state_folder / "journal").iterdir()) == []
    assert [b["id"] for b in again.history.list_batches()] == done[::-1]
    with pytest.raises(PatchwrightError):
        again.history.get(in_flight)
    after = again.commit(
        [FileChange("a.txt", _version(6), expected_sha256=sha256_hex(_version(4)))]
    )
    assert again.history.get(after.batch_id)["files"][0]["before_sha256"] == sha256_hex(_version(4))
    assert again.undo().reverts == after.batch_id
    assert (root / "a.txt").read_bytes() == _version(4)
