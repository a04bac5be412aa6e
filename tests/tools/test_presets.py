"""Presets: what each exposes, how big its listing is, and how hosts pick one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from patchwright.model import PatchwrightError
from patchwright.tools import (
    PRESETS,
    TOOL_NAMES,
    Toolbox,
    catalogue,
    select_specs,
    tool_definitions,
)
from patchwright.tools.dispatch import without_nulls
from patchwright.tools.schemas import strict_schema
from patchwright.workspace import Workspace

DEFAULT_LIMIT = 10_000


def _listing(preset: str) -> str:
    return json.dumps({"tools": tool_definitions(select_specs(preset=preset), "mcp")})


def test_the_default_preset_is_lean_and_complete() -> None:
    names = [s.name for s in select_specs()]
    assert names == ["read_file", "list_files", "search_files", "edit_file", "apply_patch", "undo"]
    assert len(_listing("default")) <= DEFAULT_LIMIT


def test_each_preset_names_the_tools_its_dialect_knows() -> None:
    assert [s.name for s in select_specs(preset="anthropic")] == ["str_replace_based_edit_tool"]
    openai = select_specs(preset="openai")
    assert "apply_patch" in [s.name for s in openai]
    assert next(s for s in openai if s.name == "apply_patch").canonical == "codex_apply_patch"
    assert [s.name for s in select_specs(preset="claude-code")] == [
        "Read", "Edit", "MultiEdit", "Write", "NotebookEdit"]  # fmt: skip
    assert len(select_specs(preset="spec")) == 11
    assert set(TOOL_NAMES) == set(catalogue())


def test_single_tools_win_over_a_preset_and_unknown_presets_are_refused(tmp_path: Path) -> None:
    toolbox = Toolbox(Workspace(tmp_path, state_dir=tmp_path / ".s"), tools=["apply_patch"])
    assert [s.name for s in toolbox.specs()] == ["apply_patch"]
    with pytest.raises(PatchwrightError) as info:
        select_specs(preset="vim")
    assert info.value.field == "preset" and "default" in info.value.hint


@pytest.mark.parametrize("preset", list(PRESETS))
def test_descriptions_name_only_exposed_tools(preset: str) -> None:
    specs = select_specs(preset=preset)
    exposed = {s.name for s in specs}
    for spec in specs:
        assert "{tool:" not in spec.description and "{if:" not in spec.description
        for name in TOOL_NAMES:
            if "_" in name and name not in exposed:
                assert f" {name}" not in spec.description, (spec.name, name)


def _strict_ok(schema: dict[str, Any]) -> None:
    if schema.get("type") == "object" or "properties" in schema:
        assert schema["additionalProperties"] is False
        assert sorted(schema["required"]) == sorted(schema["properties"])
        for sub in schema["properties"].values():
            _strict_ok(sub)
    for key in ("items",):
        if isinstance(schema.get(key), dict):
            _strict_ok(schema[key])
    for sub in schema.get("anyOf", []):
        _strict_ok(sub)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_openai_strict_schemas_follow_the_rules_and_fit_the_sdk(preset: str) -> None:
    from openai.types.chat import ChatCompletionFunctionToolParam
    from openai.types.responses import FunctionToolParam

    from patchwright.integrations.openai import chat_completions_tools, responses_tools

    for tool in tool_definitions(select_specs(preset=preset), "openai", strict=True):
        assert tool["function"]["strict"] is True
        _strict_ok(tool["function"]["parameters"])
        assert TypeAdapter(ChatCompletionFunctionToolParam).validate_python(tool) == tool
    assert chat_completions_tools(preset, strict=True)[0]["function"]["strict"] is True
    for tool in responses_tools(preset, strict=True):
        assert tool["strict"] is True and TypeAdapter(FunctionToolParam).validate_python(tool)
        _strict_ok(tool["parameters"])


def test_a_strict_call_with_nulls_means_not_given(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one\n")
    toolbox = Toolbox(Workspace(tmp_path, state_dir=tmp_path / ".s"))
    strict = strict_schema(select_specs()[0].request_model.model_json_schema())
    assert strict["additionalProperties"] is False
    args = {"path": "a.txt", "start_line": None, "end_line": None, "limit": None}
    assert toolbox.call("read_file", args).ok
    assert without_nulls({"a": None, "b": [{"c": None, "d": 1}]}) == {"b": [{"d": 1}]}


def test_anthropic_examples_and_cache_control() -> None:
    from anthropic.types import ToolParam

    from patchwright.integrations.anthropic import messages_tools

    specs = select_specs(preset="spec") + select_specs(preset="claude-code")
    for spec in specs:
        schema = spec.request_model.model_json_schema()
        nested = any(  # an array of objects (pydantic refers to their model)
            '"array"' in json.dumps(p) and "$ref" in json.dumps(p)
            for p in schema.get("properties", {}).values()
        )
        assert bool(spec.examples) == nested, spec.name
        for example in spec.examples:
            spec.request_model.model_validate(example)
    tools = tool_definitions(specs, "anthropic", cache_control=True)
    assert tools[-1]["cache_control"] == {"type": "ephemeral"}
    assert all("cache_control" not in t for t in tools[:-1])
    for tool in tools:
        fitted = dict(TypeAdapter(ToolParam).validate_python(tool))
        if "input_examples" in fitted:  # an Iterable field validates lazily
            fitted["input_examples"] = list(fitted["input_examples"])
        assert fitted == tool
    editor = messages_tools("anthropic")
    assert editor == [{"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"}]
    with pytest.raises(PatchwrightError):
        tool_definitions(specs, "mcp", strict=True)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "patchwright", "tools", *args],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_the_tools_command_takes_presets_strict_and_stats() -> None:
    out = _cli("--preset", "anthropic", "--format", "anthropic", "--cache-control")
    assert out.returncode == 0
    assert json.loads(out.stdout)[0]["cache_control"] == {"type": "ephemeral"}
    strict = json.loads(_cli("--format", "openai", "--strict").stdout)
    assert all(t["function"]["strict"] for t in strict)
    stats = _cli("--stats").stdout.splitlines()
    assert stats[0].split()[:3] == ["preset", "tools", "characters"]
    default = next(r for r in stats if r.startswith("*default"))
    assert int(default.split()[1]) == 6 and int(default.split()[2]) == len(_listing("default"))
    bad = _cli("--preset", "vim")
    assert bad.returncode == 2 and "Unknown preset" in bad.stderr
