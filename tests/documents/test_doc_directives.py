"""Directive schema: acceptance, rejection with the field named, and the JSON Schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from patchwright.documents import (
    DIRECTIVE_SCHEMA,
    ActionType,
    Directive,
    TextRange,
    create_patch_directive,
    validate_directive,
)
from patchwright.model import ErrorCode, PatchwrightError

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "fixtures" / "directives.json").read_text(encoding="utf-8")
)
VERSION = "sha256:0123456789abcdef"
DIFF = "@@ -1 +1 @@\n-a\n+b\n"


def _ids(cases: list[dict[str, Any]]) -> list[Any]:
    return [pytest.param(case, id=case["name"]) for case in cases]


@pytest.mark.parametrize("case", _ids([c for c in CASES if c["valid"]]))
def test_valid_directive_is_accepted_by_validator_and_schema(case: dict[str, Any]) -> None:
    directive = validate_directive(case["payload"])
    assert directive.action.value == case["payload"]["action"].lower()
    jsonschema.validate(case["payload"], DIRECTIVE_SCHEMA)
    # The normal form validates again to the same directive.
    assert validate_directive(directive.to_dict()) == directive


@pytest.mark.parametrize("case", _ids([c for c in CASES if not c["valid"]]))
def test_invalid_directive_is_refused_naming_the_field(case: dict[str, Any]) -> None:
    with pytest.raises(PatchwrightError) as caught:
        validate_directive(case["payload"])
    error = caught.value
    assert error.code is ErrorCode.INVALID_REQUEST
    assert error.field == (case["field"] or None)
    assert error.message and error.message.endswith(".")


@pytest.mark.parametrize("case", _ids(CASES))
def test_schema_agrees_with_validator(case: dict[str, Any]) -> None:
    validator = jsonschema.Draft202012Validator(DIRECTIVE_SCHEMA)
    assert validator.is_valid(case["payload"]) is case["schema_valid"]


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(DIRECTIVE_SCHEMA)


def test_create_patch_directive_builds_a_valid_patch() -> None:
    directive = create_patch_directive(DIFF, VERSION, "rename b")
    assert directive == Directive(
        ActionType.PATCH, diff=DIFF, document_version=VERSION, rationale="rename b"
    )
    payload = directive.to_dict()
    assert payload == {
        "action": "patch",
        "diff": DIFF,
        "document_version": VERSION,
        "rationale": "rename b",
    }
    jsonschema.validate(payload, DIRECTIVE_SCHEMA)
    assert "rationale" not in create_patch_directive(DIFF, VERSION).to_dict()


@pytest.mark.parametrize(
    ("diff", "version", "field"),
    [("", VERSION, "diff"), ("  \n", VERSION, "diff"), (DIFF, "latest", "document_version")],
)
def test_create_patch_directive_refuses_bad_input(diff: str, version: str, field: str) -> None:
    with pytest.raises(PatchwrightError) as caught:
        create_patch_directive(diff, version)
    assert caught.value.field == field


def test_direct_construction_checks_the_rules() -> None:
    with pytest.raises(PatchwrightError) as caught:
        Directive(ActionType.PATCH, diff=DIFF, document_version=VERSION, content="x")
    assert caught.value.field == "content"
    with pytest.raises(PatchwrightError) as caught:
        Directive(ActionType.INSERT, content="x", target_range=TextRange(1, 2))
    assert caught.value.field == "target_range"


def test_validate_returns_an_existing_directive_unchanged() -> None:
    directive = Directive(ActionType.REPLACE, content="x")
    assert validate_directive(directive) is directive


def test_alias_value_is_kept_as_document_version() -> None:
    directive = validate_directive({"action": "patch", "diff": DIFF, "snapshot_version": VERSION})
    assert directive.document_version == VERSION


def test_range_forms_are_equivalent() -> None:
    as_list = validate_directive({"action": "replace", "content": "", "target_range": [2, 5]})
    as_dict = validate_directive(
        {"action": "replace", "content": "", "target_range": {"start": 2, "end": 5}}
    )
    assert as_list == as_dict
    assert as_list.target_range == TextRange(2, 5)


def test_errors_tell_how_to_fix() -> None:
    with pytest.raises(PatchwrightError) as caught:
        validate_directive({"action": "patch", "diff": DIFF})
    assert "snapshot" in caught.value.hint
    with pytest.raises(PatchwrightError) as caught:
        validate_directive(
            {"action": "patch", "diff": DIFF, "document_version": VERSION, "target_range": [0, 1]}
        )
    assert "replace" in caught.value.hint
