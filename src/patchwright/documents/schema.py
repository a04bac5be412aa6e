"""The directive schema as JSON Schema (draft 2020-12), for hosts that publish it.

It states the shape of a directive; :func:`patchwright.documents.directives.validate_directive`
is the authority and adds the rules JSON Schema cannot say well (two version aliases
must agree, ``insert`` takes an empty range, ``start <= end``). Every payload the
validator accepts also passes this schema. ``action`` is matched without regard to
letter case, as the validator does.
"""

from __future__ import annotations

from typing import Any

from patchwright.documents.versions import TOKEN_PATTERN

VERSION_FIELDS = ("document_version", "snapshot_version", "version", "document_digest")
FIELDS = (
    "action",
    "content",
    "target_range",
    "diff",
    *VERSION_FIELDS,
    "selection_fingerprint",
    "rationale",
)


def _any_case(*words: str) -> str:
    """A pattern matching any of ``words`` in any letter case (ECMA regex has no flags)."""
    alternatives = ("".join(f"[{c.lower()}{c.upper()}]" for c in word) for word in words)
    return "^(?:" + "|".join(alternatives) + ")$"


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


_NULL: dict[str, Any] = {"type": "null"}
_TOKEN: dict[str, Any] = {"type": "string", "pattern": TOKEN_PATTERN}
_OFFSET: dict[str, Any] = {"type": "integer", "minimum": 0}
_RANGE: dict[str, Any] = {
    "description": "Character offsets [start, end) into the document text; end exclusive.",
    "anyOf": [
        {"type": "array", "prefixItems": [_OFFSET, _OFFSET], "minItems": 2, "maxItems": 2},
        {
            "type": "object",
            "properties": {"start": _OFFSET, "end": _OFFSET},
            "required": ["start", "end"],
            "additionalProperties": False,
        },
        _NULL,
    ],
}
_VERSION_DOC = (
    "Version of the snapshot the directive was written against ('sha256:' + hex digits, "
    "at least 12). Required for patch."
)

DIRECTIVE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "DocumentDirective",
    "description": "One edit of an editor document: a unified diff (patch) or a range edit.",
    "type": "object",
    "properties": {
        "action": {
            "type": "string",
            "pattern": _any_case("insert", "replace", "annotate", "patch"),
            "description": "insert | replace | annotate | patch.",
        },
        "content": {
            **_nullable({"type": "string"}),
            "description": "insert/replace/annotate: the text to insert, the replacement, "
            "or the note. Not allowed with patch.",
        },
        "target_range": _RANGE,
        "diff": {
            **_nullable({"type": "string", "pattern": "\\S"}),
            "description": "patch only: a unified diff of the document.",
        },
        **{key: {**_nullable(_TOKEN), "description": _VERSION_DOC} for key in VERSION_FIELDS},
        "selection_fingerprint": {
            **_nullable(_TOKEN),
            "description": "insert/replace/annotate: the snapshot's selection_hash of the "
            "text in target_range; refused when the text changed.",
        },
        "rationale": {**_nullable({"type": "string"}), "description": "Why, for the transcript."},
    },
    "required": ["action"],
    "additionalProperties": False,
    "allOf": [
        {
            "if": {"properties": {"action": {"pattern": _any_case("insert", "annotate")}}},
            "then": {"properties": {"content": {"minLength": 1}}},
        },
        {
            "if": {"properties": {"action": {"pattern": _any_case("patch")}}},
            "then": {
                "required": ["diff"],
                "properties": {
                    "diff": {"type": "string"},
                    "content": _NULL,
                    "target_range": _NULL,
                    "selection_fingerprint": _NULL,
                },
                "anyOf": [
                    {"required": [key], "properties": {key: _TOKEN}} for key in VERSION_FIELDS
                ],
            },
            "else": {
                "required": ["content"],
                "properties": {"content": {"type": "string"}, "diff": _NULL},
            },
        },
    ],
}
