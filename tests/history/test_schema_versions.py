"""The schema versions an up-to-date store is recognised by are those of the migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from patchwright.workspace.history.backend import SCHEMA_VERSIONS, Scope
from patchwright.workspace.history.migrations import LATEST, MIGRATIONS
from patchwright.workspace.history.sqlite import SQLiteBackend


def test_schema_versions_name_every_migration() -> None:
    assert {m.version for m in MIGRATIONS} == SCHEMA_VERSIONS
    assert max(SCHEMA_VERSIONS) == LATEST


def test_a_store_missing_one_version_is_migrated_again(tmp_path: Path) -> None:
    database = tmp_path / "history.sqlite"
    scope = Scope("machine", str(tmp_path), "session")
    first = SQLiteBackend(database, scope)
    assert first.migrate() == sorted(SCHEMA_VERSIONS)
    first.close()
    with sqlite3.connect(database) as db:  # as if the newest migration had never run
        db.execute("ALTER TABLE batches DROP COLUMN answer")  # what version 7 added
        db.execute("DELETE FROM schema_migrations WHERE version = ?", (LATEST,))
    db.close()
    second = SQLiteBackend(database, scope)
    assert second.migrate() == [LATEST]
    second.close()
    third = SQLiteBackend(database, scope)
    assert third.migrate() == []  # up to date: told by the versions alone
    third.close()
