"""Editor directives: the schema, its validation, and a builder for patch directives.

A directive is a JSON object. Fields:

================== ==================================================================
``action``         ``insert`` | ``replace`` | ``annotate`` | ``patch`` (any letter case)
``content``        insert / replace / annotate: the text to insert, the replacement
                   (may be empty: a deletion), or the note. Forbidden for ``patch``.
``target_range``   insert / replace / annotate: ``[start, end]`` or
                   ``{"start": s, "end": e}``, character offsets into the document text,
                   ``0 <= start <= end``, end exclusive. Forbidden for ``patch``.
``diff``           patch only: a unified diff of the document (required, not blank).
``document_version`` the version of the snapshot the directive was written against.
                   Required for ``patch``, optional otherwise. Also accepted under the
                   names ``snapshot_version``, ``version`` and ``document_digest``.
``selection_fingerprint`` insert / replace / annotate only: the fingerprint of the
                   text currently in ``target_range`` (soft verification).
``rationale``      optional free text, kept for the transcript.
================== ==================================================================

Rules beyond the JSON shape: ``insert`` and ``annotate`` need non-empty ``content``;
``insert`` takes an empty range (``start == end``) because inserting into a non-empty
range is ambiguous (``replace`` says it); two version aliases must not disagree; an
unknown field is refused (it is usually a misspelt one). ``null`` counts as absent for
every optional field, since JSON tooling often fills absent fields with ``null``.

:data:`DIRECTIVE_SCHEMA` states the shape as JSON Schema for hosts that publish it;
:func:`validate_directive` is the authority and explains every refusal by field.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from patchwright._records import record

__all__ = [
    "DIRECTIVE_SCHEMA",
    "LEGACY_ACTIONS",
    "ActionType",
    "Directive",
    "TextRange",
    "create_patch_directive",
    "validate_directive",
]

from patchwright.documents.schema import DIRECTIVE_SCHEMA, FIELDS, VERSION_FIELDS
from patchwright.documents.versions import normalize_token
from patchwright.model import ErrorCode, PatchwrightError


class ActionType(str, Enum):
    """What a directive does."""

    INSERT = "insert"
    REPLACE = "replace"
    ANNOTATE = "annotate"
    PATCH = "patch"


LEGACY_ACTIONS = (ActionType.INSERT, ActionType.REPLACE, ActionType.ANNOTATE)
_EXAMPLE_PATCH = (
    '{"action": "patch", "document_version": "sha256:0123456789abcdef", '
    '"diff": "--- a/document\\n+++ b/document\\n@@ -1 +1 @@\\n-old\\n+new\\n"}'
)


@record(frozen=True)
class TextRange:
    """Character offsets ``[start, end)`` into a document text (Python string indices)."""

    start: int
    end: int

    def __post_init__(self) -> None:
        if self.start < 0 or self.end < self.start:
            raise _invalid(
                "target_range",
                f"[{self.start}, {self.end}] is not a range: offsets must satisfy "
                "0 <= start <= end.",
                "Give [start, end] with the smaller offset first; end is exclusive.",
            )

    @property
    def empty(self) -> bool:
        """Whether the range selects nothing (a caret position)."""
        return self.start == self.end

    def to_list(self) -> list[int]:
        """``[start, end]``."""
        return [self.start, self.end]


@record(frozen=True)
class Directive:
    """A validated directive. Build one with :func:`validate_directive` or directly.

    Construction checks the cross-field rules of the module docstring and raises
    :class:`PatchwrightError` (``invalid_request``, with ``field``) when one is broken.
    """

    action: ActionType
    content: str | None = None
    target_range: TextRange | None = None
    diff: str | None = None
    document_version: str | None = None
    selection_fingerprint: str | None = None
    rationale: str | None = None

    def __post_init__(self) -> None:
        if self.action is ActionType.PATCH:
            _check_patch(self)
        else:
            _check_legacy(self)
        if self.document_version is not None:
            normalize_token(self.document_version, field="document_version")
        if self.selection_fingerprint is not None:
            normalize_token(self.selection_fingerprint, field="selection_fingerprint")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, without absent fields."""
        data: dict[str, Any] = {"action": self.action.value}
        if self.content is not None:
            data["content"] = self.content
        if self.target_range is not None:
            data["target_range"] = self.target_range.to_list()
        for key in ("diff", "document_version", "selection_fingerprint", "rationale"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        return data


def validate_directive(payload: object) -> Directive:
    """Check a directive payload against the schema and return it as a :class:`Directive`.

    Accepts an existing :class:`Directive` unchanged.

    Raises:
        PatchwrightError: ``invalid_request`` with ``field`` set, saying what was expected,
            what was found, and how to fix it.
    """
    if isinstance(payload, Directive):
        return payload
    if not isinstance(payload, Mapping):
        raise _invalid(
            "",
            f"A directive must be a JSON object, not {type(payload).__name__}.",
            f"Send an object such as {_EXAMPLE_PATCH}.",
        )
    data = {key: value for key, value in payload.items() if value is not None}
    _check_fields(data)
    return Directive(
        action=_action(data.get("action")),
        content=_optional_str(data, "content"),
        target_range=_range(data.get("target_range")),
        diff=_optional_str(data, "diff"),
        document_version=_version(data),
        selection_fingerprint=_optional_str(data, "selection_fingerprint"),
        rationale=_optional_str(data, "rationale"),
    )


def create_patch_directive(diff: str, version: str, rationale: str | None = None) -> Directive:
    """A patch directive for ``diff`` written against the document at ``version``.

    Raises:
        PatchwrightError: ``invalid_request`` for a blank diff or a malformed version.
    """
    return Directive(ActionType.PATCH, diff=diff, document_version=version, rationale=rationale)


# field parsing ----------------------------------------------------------------------------


def _check_fields(data: Mapping[Any, Any]) -> None:
    unknown = sorted(str(key) for key in data if key not in FIELDS)
    if unknown:
        raise _invalid(
            unknown[0],
            f"Unknown directive field(s): {', '.join(unknown)}.",
            f"Use only: {', '.join(FIELDS)}.",
        )
    if "action" not in data:
        raise _invalid(
            "action",
            "The directive has no `action`.",
            "Set `action` to one of: insert, replace, annotate, patch.",
        )


def _action(value: object) -> ActionType:
    names = ", ".join(a.value for a in ActionType)
    if isinstance(value, str):
        try:
            return ActionType(value.lower())
        except ValueError:
            pass
    raise _invalid(
        "action",
        f"`action` must be one of {names}; found {value!r}.",
        "Use `patch` with a unified diff for structural edits, `replace`/`insert` for "
        "one range, `annotate` to attach a note.",
    )


def _optional_str(data: Mapping[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    raise _invalid(key, f"`{key}` must be a string; found {type(value).__name__}.", "")


def _range(value: object) -> TextRange | None:
    if value is None:
        return None
    start: object = None
    end: object = None
    if isinstance(value, (list, tuple)) and len(value) == 2:
        start, end = value
    elif isinstance(value, Mapping) and set(value) == {"start", "end"}:
        start, end = value["start"], value["end"]
    if _is_int(start) and _is_int(end):
        assert isinstance(start, int) and isinstance(end, int)
        return TextRange(start, end)
    raise _invalid(
        "target_range",
        f'`target_range` must be [start, end] or {{"start": s, "end": e}} with integer '
        f"character offsets; found {value!r}.",
        "Take offsets from the snapshot (its `line_offsets` map lines to offsets).",
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _version(data: Mapping[str, Any]) -> str | None:
    given = {key: data[key] for key in VERSION_FIELDS if key in data}
    for key, value in given.items():
        normalize_token(value, field=key)
    if len(given) > 1:
        digits = {normalize_token(value, field=key) for key, value in given.items()}
        shortest = min(len(d) for d in digits)
        if len({d[:shortest] for d in digits}) > 1:
            raise _invalid(
                "document_version",
                f"The directive names two different versions: {given}.",
                "Send one `document_version`: the version of the snapshot the edit is based on.",
            )
    if not given:
        return None
    return str(next(iter(given.values())))


# cross-field rules --------------------------------------------------------------------------


def _check_patch(d: Directive) -> None:
    if d.diff is None or not d.diff.strip():
        raise _invalid(
            "diff",
            "A patch directive needs a non-empty `diff`.",
            f"Send a unified diff of the document, e.g. {_EXAMPLE_PATCH}.",
        )
    for key in ("content", "target_range", "selection_fingerprint"):
        if getattr(d, key) is not None:
            raise _invalid(
                key,
                f"A patch directive must not carry `{key}`: the diff alone says what changes "
                "and its context lines say where.",
                f"Drop `{key}`, or use action `replace` for a range edit.",
            )
    if d.document_version is None:
        raise _invalid(
            "document_version",
            "A patch directive needs `document_version`: the version of the snapshot the "
            "diff was computed from.",
            "Take a snapshot, compute the diff against its text, and send its `version`.",
        )


def _check_legacy(d: Directive) -> None:
    action = d.action.value
    if d.diff is not None:
        raise _invalid(
            "diff",
            f"`diff` belongs to action `patch`, not `{action}`.",
            "Use action `patch` to send a diff, or drop `diff`.",
        )
    if d.content is None or (d.action is not ActionType.REPLACE and not d.content):
        what = "the replacement text (empty deletes the range)"
        if d.action is ActionType.INSERT:
            what = "the non-empty text to insert"
        elif d.action is ActionType.ANNOTATE:
            what = "the non-empty note to attach"
        raise _invalid("content", f"Action `{action}` needs `content`: {what}.", "")
    if d.action is ActionType.INSERT and d.target_range is not None and not d.target_range.empty:
        r = d.target_range
        raise _invalid(
            "target_range",
            f"Action `insert` takes an empty range (start == end); found [{r.start}, {r.end}].",
            f"Insert at [{r.start}, {r.start}], or use `replace` to change the text in the range.",
        )


def _invalid(field: str, message: str, hint: str) -> PatchwrightError:
    return PatchwrightError(ErrorCode.INVALID_REQUEST, message, hint, field=field or None)
