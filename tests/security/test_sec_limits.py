"""Every count and limit argument is validated (issue 34, item 11).

``search_files`` with ``limit: -1`` once returned 5,000 matches (cap 200), ``list_files``
1,501 files (cap 1,000): a negative limit slipped past ``min(limit, cap)``. Every
integer argument of every tool that declares a minimum in its schema is now refused
below it (``invalid_request`` or ``out_of_range``, naming the field) before anything is
read or written; the table below must name every such field, so a new one is covered
or this test fails.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from patchwright.tools import Toolbox
from patchwright.tools.catalogue import catalogue, input_schema
from patchwright.workspace import Workspace

TEXT = "".join(f"line {n}\n" for n in range(1, 6))
Args = Callable[[Any], dict[str, Any]]


def _sha(root: Path) -> str:
    return hashlib.sha256((root / "a.txt").read_bytes()).hexdigest()


def _change(root: Path, change: dict[str, Any]) -> dict[str, Any]:
    return {"files": [{"docPath": "a.txt", "originalSha256": _sha(root), "changes": [change]}]}


# tool, field as the error names it, the arguments with the value put in
CASES: dict[tuple[str, str], Callable[[Path, int], dict[str, Any]]] = {
    ("read_file", "start_line"): lambda r, v: {"path": "a.txt", "start_line": v},
    ("read_file", "end_line"): lambda r, v: {"path": "a.txt", "start_line": 1, "end_line": v},
    ("read_file", "limit"): lambda r, v: {"path": "a.txt", "limit": v},
    ("list_files", "limit"): lambda r, v: {"limit": v},
    ("search_files", "limit"): lambda r, v: {"pattern": "line", "limit": v},
    ("edit_lines", "start_line"): lambda r, v: {
        "path": "a.txt", "start_line": v, "new_content": "x"},
    ("edit_lines", "end_line"): lambda r, v: {
        "path": "a.txt", "start_line": 1, "end_line": v, "new_content": "x"},
    ("workspace_write_patch", "files[0].changes[0].afterLine"): lambda r, v: _change(
        r, {"operation": "insert", "afterLine": v - 1 if v == 0 else v, "newLines": ["x"]}),
    ("workspace_write_patch", "files[0].changes[0].startLine"): lambda r, v: _change(
        r, {"operation": "delete", "startLine": v, "endLine": 1, "expectedOriginalLines": []}),
    ("workspace_write_patch", "files[0].changes[0].endLine"): lambda r, v: _change(
        r, {"operation": "delete", "startLine": 1, "endLine": v, "expectedOriginalLines": []}),
    ("build_diff", "start"): lambda r, v: {
        "original": "a\n", "updated": "b\n", "document": "a\n", "start": v - 1 if v == 0 else v},
    ("build_diff", "context"): lambda r, v: {
        "original": "a\n", "updated": "b\n", "context": v - 1 if v == 0 else v},
    ("document_snapshot", "start_line"): lambda r, v: {"path": "a.txt", "start_line": v},
    ("document_snapshot", "end_line"): lambda r, v: {"path": "a.txt", "end_line": v},
    ("str_replace_based_edit_tool", "insert_line"): lambda r, v: {
        "command": "insert", "path": "a.txt", "insert_line": v - 1 if v == 0 else v,
        "insert_text": "x\n"},
    ("Read", "offset"): lambda r, v: {"file_path": "a.txt", "offset": v},
    ("Read", "limit"): lambda r, v: {"file_path": "a.txt", "limit": v},
}  # fmt: skip


def _integer_fields(schema: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, int]]:
    """Integer properties with a ``minimum``, at any depth (arrays of objects too)."""
    for name, prop in schema.get("properties", {}).items():
        branches = [prop, *prop.get("anyOf", [])]
        if any(b.get("type") == "integer" for b in branches) and "minimum" in prop:
            yield prefix + name, prop["minimum"]
        for branch in branches:
            items = branch.get("items")
            if isinstance(items, dict) and items.get("properties"):
                yield from _integer_fields(items, f"{prefix}{name}[0].")


def test_the_table_names_every_integer_argument_with_a_minimum() -> None:
    declared = set()
    for name, spec in catalogue().items():
        for field, _ in _integer_fields(input_schema(spec)):
            declared.add((name, field))
    assert declared == set(CASES)


@pytest.mark.parametrize(("tool", "field"), sorted(CASES))
@pytest.mark.parametrize("value", [-1, 0, -(2**63)])
def test_a_count_below_its_minimum_is_refused_naming_the_field(
    tmp_path: Path, tool: str, field: str, value: int
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text(TEXT)
    toolbox = Toolbox(Workspace(str(root), state_dir=str(tmp_path / "state")), tools=[tool])
    result = toolbox.call(tool, CASES[tool, field](root, value))
    assert not result.ok, (tool, field, value, result.text)
    assert result.error is not None
    assert result.error.code.value in ("invalid_request", "out_of_range")
    assert result.error.field == field, result.text
    assert (root / "a.txt").read_text() == TEXT and sorted(p.name for p in root.iterdir()) == [
        "a.txt"
    ]


@pytest.mark.parametrize(("tool", "cap"), [("list_files", 1000), ("search_files", 200)])
def test_the_caps_hold_whatever_limit_is_asked(tmp_path: Path, tool: str, cap: int) -> None:
    for n in range(cap + 5):
        (tmp_path / f"f{n:05}.txt").write_text("line\n")
    toolbox = Toolbox(Workspace(str(tmp_path), state_dir=str(tmp_path / ".." / "st")))
    args: dict[str, Any] = {"pattern": "line"} if tool == "search_files" else {}
    for limit in (cap + 1, 10**9):
        result = toolbox.call(tool, {**args, "limit": limit})
        assert result.ok and result.data is not None
        shown = result.data["files"] if tool == "list_files" else result.data["matches"]
        assert len(shown) == cap and result.data["truncated"]
