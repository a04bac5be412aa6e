"""The PostgreSQL server stopped mid-run: edits are refused, no file is torn, nothing is lost.

The documented behaviour (docs/history.md): while the shared history is unreachable,
every edit is refused with a ``history`` error saying so, and nothing is written. A
commit in flight when the connection drops is rolled back at once; its batch, which
may have reached the store, is remembered in the state folder and deleted from the
store before this workspace's next use of it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pg_server import PgServer

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import FileChange, OsFileSystem, Workspace, sha256_hex


class StopServer(OsFileSystem):
    """Stops the server at one step of the next commit, when armed:

    * ``write``: as it writes its first file into the tree (after the batch's IDs were
      drawn from the history, before the batch is recorded);
    * ``commit point``: as it removes its journal's manifest (after the batch was
      recorded), and fails that step as a full disk would.
    """

    def __init__(self, server: PgServer, root: Path) -> None:
        self.server = server
        self.root = str(root)
        self.armed = ""

    def write_new(self, path: str, data: bytes, mode_bits: int | None) -> None:
        if self.armed == "write" and path.startswith(self.root):
            self.armed = ""
            self.server.stop("fast")
        super().write_new(path, data, mode_bits)

    def unlink(self, path: str) -> None:
        if self.armed == "commit point" and path.endswith("/manifest.json"):
            self.armed = ""
            self.server.stop("fast")
            raise OSError(28, "No space left on device (injected)")
        super().unlink(path)


def _give_up_after_a_second(ws: Workspace) -> None:
    """Refuse after 1 s once the server is gone (a loaded machine may need longer to
    connect while it runs, so the default applies until then)."""
    ws.history.backend.timeout = 1  # type: ignore[attr-defined]


def _version(i: int) -> bytes:
    return f"version {i}\n".encode()


def _refused_unreachable(exc: PatchwrightError) -> None:
    assert "unreachable" in exc.message, exc.render()
    assert "\nTraceback" not in exc.render()


def test_server_stopped_mid_run(
    own_server: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATCHWRIGHT_HISTORY_URL", own_server.new_database())
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    fs = StopServer(own_server, root)
    ws = Workspace(root, state_dir=state, fs=fs)
    done = [ws.commit([FileChange("a.txt", _version(i))]).batch_id for i in range(5)]

    # the connection drops while the commit writes: rolled back, the file whole
    _give_up_after_a_second(ws)
    fs.armed = "write"
    with pytest.raises(PatchwrightError) as info:
        ws.commit([FileChange("a.txt", _version(5), expected_sha256=sha256_hex(_version(4)))])
    assert info.value.code == ErrorCode.HISTORY and info.value.details["unreachable"]
    _refused_unreachable(info.value)
    assert not own_server.running()
    assert sorted(p.name for p in root.iterdir()) == ["a.txt"]
    assert (root / "a.txt").read_bytes() == _version(4)
    assert list((ws.state_folder / "journal").iterdir()) == []
    (in_flight,) = [p.name for p in (ws.state_folder / "history-forget").iterdir()]

    # while the server is down: refused before anything is written, by every workspace
    monkeypatch.setenv("PATCHWRIGHT_HISTORY_TIMEOUT", "1")
    for attempt in (ws, Workspace(root, state_dir=state)):
        with pytest.raises(PatchwrightError) as info:
            attempt.commit([FileChange("b.txt", b"new")])
        assert info.value.code == ErrorCode.HISTORY and info.value.details["unreachable"]
        _refused_unreachable(info.value)
    assert sorted(p.name for p in root.iterdir()) == ["a.txt"]
    assert (root / "a.txt").read_bytes() == _version(4)

    # back up: the in-flight batch is forgotten first, nothing recorded is lost
    monkeypatch.delenv("PATCHWRIGHT_HISTORY_TIMEOUT")
    own_server.start()
    again = Workspace(root, state_dir=state)
    assert [b["id"] for b in again.history.list_batches()] == done[::-1]
    assert list((again.state_folder / "history-forget").iterdir()) == []
    with pytest.raises(PatchwrightError):
        again.history.get(in_flight)
    after = again.commit(
        [FileChange("a.txt", _version(6), expected_sha256=sha256_hex(_version(4)))]
    )
    assert again.history.get(after.batch_id)["files"][0]["before_sha256"] == sha256_hex(_version(4))
    assert again.undo().reverts == after.batch_id
    assert (root / "a.txt").read_bytes() == _version(4)


def test_a_recorded_batch_rolled_back_while_the_server_is_down_is_forgotten_later(
    own_server: PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    url = own_server.new_database()
    monkeypatch.setenv("PATCHWRIGHT_HISTORY_URL", url)
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    fs = StopServer(own_server, root)
    ws = Workspace(root, state_dir=state, fs=fs)
    kept = ws.commit([FileChange("a.txt", _version(0))]).batch_id
    _give_up_after_a_second(ws)
    fs.armed = "commit point"
    with pytest.raises(PatchwrightError) as info:
        ws.commit([FileChange("a.txt", _version(1), expected_sha256=sha256_hex(_version(0)))])
    assert info.value.code == ErrorCode.IO_ERROR and "put back" in info.value.message
    assert (root / "a.txt").read_bytes() == _version(0)
    assert list((ws.state_folder / "journal").iterdir()) == []
    (rolled_back,) = [p.name for p in (ws.state_folder / "history-forget").iterdir()]

    own_server.start()
    with psycopg.connect(url) as conn:  # it did reach the store before the failure
        ids = {r[0] for r in conn.execute("SELECT id FROM batches")}
    assert ids == {kept, rolled_back}
    again = Workspace(root, state_dir=state)
    assert [b["id"] for b in again.history.list_batches()] == [kept]
    assert list((again.state_folder / "history-forget").iterdir()) == []
