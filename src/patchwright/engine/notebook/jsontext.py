"""Where each part of a JSON text stands, and how its own writer laid it out.

A notebook is JSON written by some tool (nbformat, VS Code, Colab, an editor) with its
own indentation, separators and escaping. To change one cell and leave every other byte
alone, the writer needs the span of each value in the original text and the layout to
write new values in. :func:`object_members` and :func:`array_items` give the spans (the
standard library's decoder reads each value, at C speed); :class:`Layout` and
:func:`detect_layout` say how new JSON must look to blend in; :func:`dump` writes a value
that way at a given indentation.
"""

from __future__ import annotations

import json
import re
from typing import Any

from patchwright._records import record

_WS = " \t\n\r"
_DECODER = json.JSONDecoder()
# a \u escape of a character past ASCII (U+0080 and up): the writer escaped non-ASCII
_ESCAPED_NON_ASCII = re.compile(
    r"\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})"
)


class JsonShapeError(ValueError):
    """The text is not the JSON shape expected at ``position``."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(message)
        self.position = position


@record(frozen=True)
class Member:
    """One ``"key": value`` of an object: where its key starts and its value's span."""

    key: str
    key_start: int
    value_start: int
    value_end: int


def skip_space(text: str, i: int) -> int:
    """The first position at or after ``i`` that is not JSON whitespace."""
    n = len(text)
    while i < n and text[i] in _WS:
        i += 1
    return i


def _value_end(text: str, i: int) -> int:
    try:
        return int(_DECODER.raw_decode(text, i)[1])
    except json.JSONDecodeError as err:
        raise JsonShapeError(err.msg, err.pos) from None


def object_members(text: str, start: int) -> tuple[list[Member], int]:
    """The members of the object whose ``{`` stands at ``start``, and the position just
    after its ``}``.

    Raises:
        JsonShapeError: the text there is not a JSON object.
    """
    if text[start : start + 1] != "{":
        raise JsonShapeError("expected an object", start)
    i = skip_space(text, start + 1)
    members: list[Member] = []
    if text[i : i + 1] == "}":
        return members, i + 1
    while True:
        if text[i : i + 1] != '"':
            raise JsonShapeError("expected a key", i)
        key, after = _DECODER.raw_decode(text, i)
        colon = skip_space(text, after)
        if text[colon : colon + 1] != ":":
            raise JsonShapeError("expected ':'", colon)
        value = skip_space(text, colon + 1)
        end = _value_end(text, value)
        members.append(Member(key, i, value, end))
        k = skip_space(text, end)
        if text[k : k + 1] == ",":
            i = skip_space(text, k + 1)
            continue
        if text[k : k + 1] == "}":
            return members, k + 1
        raise JsonShapeError("expected ',' or '}'", k)


def array_items(text: str, start: int) -> tuple[list[tuple[int, int]], int]:
    """The span of each item of the array whose ``[`` stands at ``start``, and the
    position of its ``]``.

    Raises:
        JsonShapeError: the text there is not a JSON array.
    """
    if text[start : start + 1] != "[":
        raise JsonShapeError("expected an array", start)
    i = skip_space(text, start + 1)
    items: list[tuple[int, int]] = []
    if text[i : i + 1] == "]":
        return items, i
    while True:
        end = _value_end(text, i)
        items.append((i, end))
        k = skip_space(text, end)
        if text[k : k + 1] == ",":
            i = skip_space(text, k + 1)
            continue
        if text[k : k + 1] == "]":
            return items, k
        raise JsonShapeError("expected ',' or ']'", k)


def line_indent(text: str, position: int) -> str | None:
    """The whitespace before ``position`` on its line (``None`` when something else
    stands before it on that line)."""
    start = text.rfind("\n", 0, position) + 1
    lead = text[start:position]
    return lead if lead.strip(" \t") == "" else None


@record(frozen=True)
class Layout:
    """How a JSON text was written, so new values blend in.

    Attributes:
        indent: one level of indentation (``" "`` for nbformat's ``indent=1``), ``None``
            for JSON written on one line.
        item_sep / key_sep: the separators after an item and after a key.
        ensure_ascii: non-ASCII characters written as ``\\u`` escapes.
        newline: the line break the text uses.
    """

    indent: str | None = " "
    item_sep: str = ","
    key_sep: str = ": "
    ensure_ascii: bool = False
    newline: str = "\n"


def detect_layout(text: str, top: list[Member]) -> Layout:
    """The layout of ``text``, whose top-level object has the members ``top``."""
    newline = "\r\n" if "\r\n" in text else "\n"
    indent: str | None = None
    if top:
        lead = line_indent(text, top[0].key_start)
        if lead is not None and "\n" in text[: top[0].key_start]:
            indent = lead or None
    key_sep = ": "
    if top:
        after_key = _DECODER.raw_decode(text, top[0].key_start)[1]
        key_sep = text[after_key : top[0].value_start] or ":"
    item_sep = ","
    if indent is None and len(top) > 1:
        item_sep = text[top[0].value_end : top[1].key_start] or ","
    # raw non-ASCII text: not escaped; all ASCII: escaped when an escape of one is seen
    ensure_ascii = text.isascii() and _ESCAPED_NON_ASCII.search(text) is not None
    return Layout(indent, item_sep, key_sep, ensure_ascii, newline)


def dump(value: Any, layout: Layout, at: str) -> str:
    """``value`` as JSON in ``layout``, its inner lines indented from ``at`` (the
    indentation of the line it starts on)."""
    out = json.dumps(
        value,
        indent=layout.indent,
        ensure_ascii=layout.ensure_ascii,
        separators=(layout.item_sep if layout.indent is None else ",", layout.key_sep),
    )
    if layout.indent is not None:
        # json.dumps escapes every newline inside strings: each one left is layout
        out = out.replace("\n", layout.newline + at)
    return out


__all__ = [
    "JsonShapeError",
    "Layout",
    "Member",
    "array_items",
    "detect_layout",
    "dump",
    "line_indent",
    "object_members",
    "skip_space",
]
