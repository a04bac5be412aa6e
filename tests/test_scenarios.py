"""Whole-tree scenarios, walked by one test: ``tests/fixtures/scenarios/NNN_name/``.

Each folder holds:

* ``input/``: the tree before (copied to a temporary folder, the workspace root);
* ``patch``: the patch, handed to ``patchwright apply`` as a file;
* ``args`` (optional): more arguments for the command, one per line (``--dry-run``);
* ``expected/``: the whole tree after, byte for byte (files and folders, nothing more); or
* ``expected_error``: lines that must each occur in what the command printed when it
  refused; the tree must then be exactly ``input/``.

A refusal must exit 1 and an application 0. The command runs in this process
(``patchwright.adapters.cli.main``), so a scenario costs no interpreter start.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from patchwright.adapters.cli import main

SCENARIOS = Path(__file__).resolve().parent / "fixtures" / "scenarios"


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and every folder (``None``) under ``root``, by path."""
    return {
        p.relative_to(root).as_posix(): (p.read_bytes() if p.is_file() else None)
        for p in sorted(root.rglob("*"))
    }


@pytest.mark.parametrize("folder", sorted(SCENARIOS.iterdir()), ids=lambda p: p.name)
def test_scenario(folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "root"
    shutil.copytree(folder / "input", root)
    args_file = folder / "args"
    extra = args_file.read_text().split("\n") if args_file.exists() else []
    argv = ["apply", str(folder / "patch"), "--root", str(root), *[a for a in extra if a]]
    code = main(argv)
    printed = capsys.readouterr()
    expected_error = folder / "expected_error"
    if expected_error.exists():
        assert code == 1, printed
        for line in expected_error.read_text().splitlines():
            assert line in printed.out + printed.err, (line, printed)
        assert _tree(root) == _tree(folder / "input")
    else:
        assert code == 0, printed
        assert _tree(root) == _tree(folder / "expected")
