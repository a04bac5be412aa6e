"""The SQLite store: old databases carried over by the migrations, one connection, WAL."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from patchwright.workspace import FileChange, Workspace, sha256_hex
from patchwright.workspace.history.migrations import MIGRATIONS
from patchwright.workspace.state import state_paths


@pytest.fixture(autouse=True)
def _sqlite(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PATCHWRIGHT_HISTORY_URL", raising=False)


def _old_store(database: Path) -> None:
    """A database as patchwright wrote it before migrations existed, with one batch."""
    database.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(database) as db:
        for statement in MIGRATIONS[0].sqlite:  # version 1 is that schema, verbatim
            db.execute(statement)
        db.execute(
            "INSERT INTO batches (id, created_at, tool, label, key, meta, reverts) "
            "VALUES ('b-0ld0ba7c', '2025-01-01T00:00:00.000+00:00', 'edit_file', '', NULL, "
            "'{}', NULL)"
        )
        db.execute(
            "INSERT INTO files (id, batch_id, position, path, move_from, action, key, label, "
            "before_sha256, after_sha256, before_mode, after_mode, diff, meta) VALUES "
            "('f-0ld0f11e', 'b-0ld0ba7c', 0, 'a.txt', NULL, 'update', NULL, '', ?, ?, 420, "
            "420, '', '{}')",
            (sha256_hex(b"old\n"), sha256_hex(b"new\n")),
        )
        db.executemany(
            "INSERT INTO blobs (sha256, data) VALUES (?, ?)",
            [(sha256_hex(b"old\n"), b"old\n"), (sha256_hex(b"new\n"), b"new\n")],
        )
    db.close()


def test_an_old_store_is_migrated_and_stays_readable(tmp_path: Path) -> None:
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    (root / "a.txt").write_bytes(b"new\n")
    _old_store(Path(state_paths(str(root.resolve()), state).database))

    ws = Workspace(root, state_dir=state)
    assert ws.history.versions() == [m.version for m in MIGRATIONS]
    (old,) = ws.history.list_batches()
    assert old["id"] == "b-0ld0ba7c" and old["files"][0]["path"] == "a.txt"
    assert (old["workspace"], old["session"]) == (str(root.resolve()), None)
    assert old["machine"] == ws.history.scope.machine  # the opener's, filled in once
    ws.undo("b-0ld0ba7c")
    assert (root / "a.txt").read_bytes() == b"old\n"
    new = ws.history.list_batches()[0]
    assert new["reverts"] == "b-0ld0ba7c" and new["session"] == ws.history.scope.session


def test_one_connection_per_workspace_in_wal_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[object] = []
    real = sqlite3.connect

    def counting(*args: object, **kwargs: object) -> sqlite3.Connection:
        opened.append(args[0])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sqlite3, "connect", counting)
    root = tmp_path / "root"
    root.mkdir()
    ws = Workspace(root, state_dir=tmp_path / "state")
    for i in range(5):
        ws.commit([FileChange("a.txt", b"%d" % i)])
    ws.undo()
    ws.history.list_batches()
    # reads and writes in turn: one connection (a read finding it busy takes another)
    assert len(opened) == 1
    with ws.history.backend.transaction(write=False) as tx:
        mode = tx.rows("PRAGMA journal_mode")[0]
        sync = tx.rows("PRAGMA synchronous")[0]
    assert list(mode.values()) == ["wal"] and list(sync.values()) == [1]  # NORMAL


def test_machine_name_is_kept_per_state_folder(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    first = Workspace(root, state_dir=tmp_path / "a").history.scope.machine
    assert Workspace(root, state_dir=tmp_path / "a").history.scope.machine == first
    assert Workspace(root, state_dir=tmp_path / "b").history.scope.machine != first
    assert (tmp_path / "a" / "machine").read_text().strip() == first


def test_a_malformed_history_url_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from patchwright.model import ErrorCode, PatchwrightError

    monkeypatch.setenv("PATCHWRIGHT_HISTORY_URL", "mysql://db/x")
    with pytest.raises(PatchwrightError) as info:
        Workspace(tmp_path, state_dir=tmp_path / "s")
    assert info.value.code == ErrorCode.INVALID_REQUEST
    assert info.value.field == "PATCHWRIGHT_HISTORY_URL"
    assert "mysql://..." in info.value.message and "postgresql://" in info.value.hint


def test_a_postgres_url_without_psycopg_installed_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    from patchwright.model import ErrorCode, PatchwrightError

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "psycopg" else real(name)
    )
    monkeypatch.setenv("PATCHWRIGHT_HISTORY_URL", "postgresql://nobody@/nothing")
    with pytest.raises(PatchwrightError) as info:
        Workspace(tmp_path, state_dir=tmp_path / "s")
    assert info.value.code == ErrorCode.HISTORY and "psycopg is not installed" in info.value.message
    assert "patchwright[postgres]" in info.value.hint
