"""bench/history.py on a few commits, SQLite only (the PostgreSQL side is tests/history's)."""

from __future__ import annotations

from pathlib import Path

import pytest

import history


def test_per_call_rows_and_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATCHWRIGHT_STATE_DIR", str(tmp_path / "state"))
    rows = history.per_call(None, 4, tmp_path)
    assert [r[0] for r in rows] == ["none", "sqlite"]
    assert rows[0][3] == "-" and float(str(rows[1][3])) > 0  # history time only with one
    assert rows[1][-1] == "1.00x"
    assert history.many("sqlite", None, 2, 3, tmp_path) > 0
    committed = history.open_store("sqlite", tmp_path / "many-sqlite", None)
    assert len(committed.history.list_batches(limit=100)) == 2 * (1 + 1 + 3)
