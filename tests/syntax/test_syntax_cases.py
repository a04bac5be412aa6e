"""Scenario folders: ``fixtures/cases/NNN_name/{before, after, expected.json}``.

``before`` is absent for a file the edit creates. ``expected.json`` gives the file's path
(its name chooses the language; the texts carry no extension so linters leave the broken
ones alone), the language, the new errors (line and a substring of the message) and
optionally ``preexisting``, ``scope`` and ``checked``. Cases of a tree-sitter language
are skipped when its grammar is not installed (the ``syntax`` extra).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from patchwright.syntax import check_edit
from patchwright.syntax.languages import spec_for
from patchwright.syntax.stdlib_parsers import toml_module
from patchwright.syntax.treesitter import available

CASES = Path(__file__).parent / "fixtures" / "cases"


def _case_dirs() -> list[Path]:
    return sorted(path for path in CASES.iterdir() if path.is_dir())


def _load(folder: Path) -> tuple[str, str | None, str, dict[str, Any]]:
    before = folder / "before"
    expected = json.loads((folder / "expected.json").read_text())
    before_text = before.read_bytes().decode() if before.exists() else None
    after_text = (folder / "after").read_bytes().decode()
    return expected["path"], before_text, after_text, expected


@pytest.mark.parametrize("folder", _case_dirs(), ids=lambda path: path.name)
def test_case(folder: Path) -> None:
    path, before, after, expected = _load(folder)
    spec = spec_for(path)
    if spec is not None and spec.backend == "tree-sitter" and not available(spec):
        pytest.skip(f"tree-sitter grammar for {spec.name} not installed")
    if spec is not None and spec.backend == "toml" and toml_module() is None:
        pytest.skip("no TOML parser (Python 3.10 without tomli)")
    report = check_edit(path, before, after)
    assert report.language == expected["language"]
    assert report.checked == expected.get("checked", True)
    found = [(issue.line, issue.message) for issue in report.new_errors]
    wanted = expected["new_errors"]
    assert len(found) == len(wanted), found
    for (line, message), want in zip(found, wanted):
        assert line == want["line"], found
        assert want["message"].lower() in message.lower(), found
    if "preexisting" in expected:
        assert report.preexisting == expected["preexisting"]
    if "scope" in expected:
        assert report.scope == expected["scope"]
    assert bool(report.warning_text()) == bool(wanted)


def test_every_case_folder_is_complete() -> None:
    folders = _case_dirs()
    assert len(folders) >= 20
    for folder in folders:
        assert (folder / "expected.json").is_file(), folder
        assert (folder / "after").is_file(), folder
