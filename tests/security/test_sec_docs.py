"""docs/security.md maps each guarantee to its test: every test its table names exists.

A row names test files (``test_x.py``, under ``tests/security/`` unless a folder is
given) and test functions (``file.py::name``; ``::name`` for another function of the
file named before it in the same cell).
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TABLE_START = "| Guarantee | Test |"
_REFERENCE = re.compile(r"`((?:[\w/]+/)?test_\w+\.py)?(?:::(\w+))?`")


def _rows() -> list[str]:
    text = (REPO / "docs" / "security.md").read_text(encoding="utf-8")
    table = text[text.index(TABLE_START) :].split("\n\n", 1)[0]
    return [line for line in table.splitlines()[2:] if line.startswith("|")]


def _named(rows: list[str]) -> list[tuple[Path, str | None]]:
    named: list[tuple[Path, str | None]] = []
    for row in rows:
        cell = row.rstrip(" |").rsplit(" | ", 1)[-1]
        current: Path | None = None
        for file, function in _REFERENCE.findall(cell):
            if file:
                current = REPO / file if "/" in file else REPO / "tests" / "security" / file
            if current is None:
                continue  # an inline code span that names no test
            named.append((current, function or None))
    return named


def test_every_test_the_guarantees_table_names_exists() -> None:
    rows = _rows()
    assert len(rows) >= 15  # every item of the red-team pass has its row
    named = _named(rows)
    assert len(named) >= len(rows)
    missing = []
    for path, function in named:
        if not path.is_file():
            missing.append(str(path.relative_to(REPO)))
        elif function and f"def {function}(" not in path.read_text(encoding="utf-8"):
            missing.append(f"{path.relative_to(REPO)}::{function}")
    assert missing == []


def test_the_check_finds_a_missing_test() -> None:
    rows = ["| a guarantee | `test_sec_token.py::test_that_does_not_exist` |"]
    ((path, function),) = _named(rows)
    assert path.is_file() and function == "test_that_does_not_exist"
    assert f"def {function}(" not in path.read_text(encoding="utf-8")
