"""Fixture-driven parser tests.

Every ``tests/fixtures/formats/<format>/<name>.patch`` is parsed with its folder's
format and compared with ``<name>.json`` (see ``formats_patchjson``). Every
``errors/<format>__<name>.patch`` must fail with the code, line and message fragment
given in its JSON file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from formats_patchjson import patchset_json

from patchwright.formats import detect_format, parse_patch
from patchwright.model import PatchwrightError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "formats"
FORMAT_DIRS = {"unified": "unified", "v4a": "v4a", "search_replace": "search-replace"}


def _cases(folder: str) -> list[Path]:
    return sorted((FIXTURES / folder).glob("*.patch"))


def _read(path: Path) -> str:
    # Bytes, then decode: CRLF fixtures must reach the parser unchanged.
    return path.read_bytes().decode("utf-8")


def _expected(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.with_suffix(".json").read_text("utf-8"))
    return data


SUCCESS = [(d, p) for d in FORMAT_DIRS for p in _cases(d)]
ERRORS = _cases("errors")


def test_fixture_folders_are_populated() -> None:
    assert len(SUCCESS) >= 50
    assert len(ERRORS) >= 25
    for _, path in SUCCESS:
        assert path.with_suffix(".json").is_file(), path


@pytest.mark.parametrize(("folder", "path"), SUCCESS, ids=lambda v: getattr(v, "stem", v))
def test_parses_to_expected_structure(folder: str, path: Path) -> None:
    text = _read(path)
    expected = _expected(path)
    assert patchset_json(parse_patch(text, FORMAT_DIRS[folder])) == expected


@pytest.mark.parametrize(("folder", "path"), SUCCESS, ids=lambda v: getattr(v, "stem", v))
def test_auto_detection_reads_the_same(folder: str, path: Path) -> None:
    text = _read(path)
    assert detect_format(text) == FORMAT_DIRS[folder]
    assert patchset_json(parse_patch(text)) == _expected(path)


@pytest.mark.parametrize("path", ERRORS, ids=lambda p: p.stem)
def test_refuses_with_code_and_line(path: Path) -> None:
    fmt = path.stem.split("__", 1)[0]
    expected = _expected(path)["error"]
    with pytest.raises(PatchwrightError) as info:
        parse_patch(_read(path), fmt)
    err = info.value
    assert err.code.value == expected["code"]
    assert err.line == expected["line"]
    assert expected["message_contains"] in err.message
    assert err.hint, "every refusal tells the model how to fix the patch"
    if err.line is not None:
        assert err.message.startswith(f"Line {err.line}: ")
