"""The dispatcher: selection, renaming, schemas, and calls that never raise."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tool_helpers import ok, refused, write

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.tools import (
    PRESETS,
    Toolbox,
    anthropic_tool,
    input_schema,
    mcp_tool,
    openai_tool,
    select_specs,
    tool_definitions,
)


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [k for k in node if k in ("$ref", "$defs", "definitions")]
        return found + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def test_the_spec_preset_exposes_the_eleven_spec_tools(toolbox: Toolbox) -> None:
    assert [s.name for s in toolbox.specs()] == list(PRESETS["spec"].tools)
    assert len(toolbox.specs()) == 11
    for spec in toolbox.specs():
        assert spec.description and spec.title and spec.contract
        assert spec.canonical == spec.name


def test_schemas_are_flat_and_described() -> None:
    for spec in select_specs(preset="spec"):
        schema = input_schema(spec)
        assert schema["type"] == "object"
        assert _refs(schema) == [], spec.name
        assert "title" not in schema
        for name, prop in schema["properties"].items():
            assert prop.get("description"), f"{spec.name}.{name} has no description"
            assert "anyOf" not in prop, f"{spec.name}.{name} is published as a union"
        json.dumps(schema)


def test_selection_and_renaming(make_toolbox: Callable[..., Toolbox], root: Path) -> None:
    toolbox = make_toolbox(tools=["read_file", "apply_diff"], rename={"apply_diff": "patch"})
    assert [s.name for s in toolbox.specs()] == ["read_file", "patch"]
    assert toolbox.spec("patch").canonical == "apply_diff"
    write(root, "a.txt", "one\ntwo\n")
    ok(toolbox, "patch", target="a.txt", diff="@@ -1,2 +1,2 @@\n one\n-two\n+2\n")
    assert (root / "a.txt").read_text() == "one\n2\n"
    gone = toolbox.call("edit_file", {"path": "a.txt"})
    assert not gone.ok and "Available tools: read_file, patch" in gone.text
    history = toolbox.workspace.history.list_batches()
    assert history[0]["tool"] == "apply_diff"  # recorded under the canonical name


def test_renamed_tools_are_named_in_descriptions() -> None:
    specs = {
        s.canonical: s
        for s in select_specs(preset="spec", rename={"read_file": "workspace_read_file"})
    }
    assert "workspace_read_file" in specs["workspace_write_patch"].description
    assert specs["read_file"].name == "workspace_read_file"


@pytest.mark.parametrize(
    ("tools", "rename", "field"),
    [
        (["nope"], None, "tools"),
        (None, {"patch": "bad name!"}, "rename"),
        (None, {"apply_diff": "patch"}, "rename"),  # two tools exposed as "patch"
        (None, {"ghost": "x"}, "tools"),
    ],
)
def test_bad_selection_is_refused(
    tools: list[str] | None, rename: dict[str, str] | None, field: str
) -> None:
    with pytest.raises(PatchwrightError) as info:
        select_specs(tools, rename, preset="spec")
    assert info.value.code is ErrorCode.INVALID_REQUEST and info.value.field == field


def test_bad_syntax_policy_is_refused(make_toolbox: Callable[..., Toolbox]) -> None:
    with pytest.raises(PatchwrightError) as info:
        make_toolbox(syntax_policy="loud")
    assert info.value.field == "syntax_policy"


def test_arguments_as_json_text(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "x\n")
    assert toolbox.call("read_file", '{"path": "a.txt"}').ok
    bad = toolbox.call("read_file", "{not json")
    assert not bad.ok and bad.error is not None and bad.error.field == "arguments"
    not_object = toolbox.call("read_file", "[1, 2]")
    assert not not_object.ok and "must be a JSON object" in not_object.text


def test_validation_errors_name_the_field_and_the_fix(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "x\n")
    missing = refused(toolbox, "patch", patches=[{"operation": "append_eof", "newText": "y"}])
    assert missing.error is not None and missing.error.field == "path"
    assert "required field is missing" in missing.text and "Add `path`" in missing.text
    wrong = refused(toolbox, "patch", path="a.txt", patches=[{"operation": "repalce"}])
    assert wrong.error is not None and wrong.error.field == "patches[0].operation"
    assert "'replace', 'append_eof', 'prepend_bof' or 'overwrite'" in wrong.text
    extra = refused(
        toolbox,
        "patch",
        path="a.txt",
        patches=[{"operation": "append_eof", "newText": "y", "new_text": "z"}],
    )
    assert extra.error is not None and extra.error.field == "patches[0].new_text"
    assert "accepted fields here: operation, oldText, newText" in extra.text
    typed = refused(toolbox, "read_file", path=5)
    assert "must be a string, got 5" in typed.text
    assert (root / "a.txt").read_text() == "x\n"


def test_unexpected_exception_becomes_error_result(
    toolbox: Toolbox, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(root, "a.txt", "x\n")

    def boom(*_: object, **__: object) -> None:
        raise RuntimeError("disk gremlin")

    monkeypatch.setattr("patchwright.tools.patch.tool.apply_edits", boom)
    result = toolbox.call(
        "patch", {"path": "a.txt", "patches": [{"operation": "append_eof", "newText": "y"}]}
    )
    assert not result.ok and result.error is not None
    assert result.error.code == ErrorCode.INTERNAL
    assert result.error.details == {"internal": True, "exception": "RuntimeError"}
    assert "internal error" in result.text
    assert (root / "a.txt").read_text() == "x\n"


def test_host_schema_shapes() -> None:
    spec = next(s for s in select_specs(preset="spec") if s.name == "edit_file")
    schema = input_schema(spec)
    assert openai_tool(spec) == {
        "type": "function",
        "function": {"name": "edit_file", "description": spec.description, "parameters": schema},
    }
    assert anthropic_tool(spec) == {
        "name": "edit_file",
        "description": spec.description,
        "input_schema": schema,
        "input_examples": [dict(e) for e in spec.examples],  # edits is an array of objects
    }
    mcp = mcp_tool(spec)
    assert mcp["inputSchema"] == schema and mcp["title"] == spec.title
    assert mcp["annotations"] == {
        "title": spec.title,
        "readOnlyHint": False,
        "destructiveHint": True,
        "idempotentHint": False,
        "openWorldHint": False,
    }
    read = mcp_tool(next(s for s in select_specs(preset="spec") if s.name == "read_file"))
    assert read["annotations"]["readOnlyHint"] is True
    listing = tool_definitions(select_specs(preset="spec"), "json-schema")
    assert {d["name"] for d in listing} == set(PRESETS["spec"].tools)
    assert all(d["contract"] for d in listing)
    with pytest.raises(PatchwrightError):
        tool_definitions(select_specs(preset="spec"), "yaml")


def test_mcp_shape_is_accepted_by_the_sdk() -> None:
    from mcp.types import Tool

    for definition in tool_definitions(select_specs(preset="spec"), "mcp"):
        tool = Tool.model_validate(definition)
        assert tool.name == definition["name"]
