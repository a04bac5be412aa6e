"""A compact JSON view of a parsed PatchSet, for fixture files.

Fields holding their default value are left out, so a fixture lists what matters;
the comparison is still exact (a field that should be absent must be absent).
Hunk lines are written with their prefix: ``" ctx"``, ``"-old"``, ``"+new"``.
"""

from __future__ import annotations

from typing import Any

from patchwright.model import (
    Composition,
    Edit,
    FileAction,
    FilePatch,
    Hunk,
    OldText,
    PatchSet,
)


def _hunk(hunk: Hunk) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": "hunk", "lines": [hl.op + hl.text for hl in hunk.lines]}
    for key in ("old_start", "old_count", "new_start", "new_count", "source_line"):
        value = getattr(hunk, key)
        if value is not None:
            data[key] = value
    if hunk.anchors:
        data["anchors"] = list(hunk.anchors)
    for key in ("no_newline_old", "no_newline_new", "at_eof"):
        if getattr(hunk, key):
            data[key] = True
    return data


def _edit(edit: Edit) -> dict[str, Any]:
    anchor = edit.anchor
    if isinstance(anchor, Hunk):
        data = _hunk(anchor)
    elif isinstance(anchor, OldText):
        data = {"kind": "old_text", "text": anchor.text, "replacement": edit.replacement}
    else:  # pragma: no cover - the parsers produce no other anchors
        raise AssertionError(f"unexpected anchor {anchor!r}")
    data["label"] = edit.label
    return data


def _file(fp: FilePatch) -> dict[str, Any]:
    data: dict[str, Any] = {"path": fp.path}
    if fp.action is not FileAction.UPDATE:
        data["action"] = fp.action.value
    if fp.composition is not Composition.SEQUENTIAL:
        data["composition"] = fp.composition.value
    for key in ("content", "move_to", "old_mode", "new_mode", "source_line"):
        value = getattr(fp, key)
        if value is not None:
            data[key] = value
    if fp.binary:
        data["binary"] = True
    if fp.edits:
        data["edits"] = [_edit(e) for e in fp.edits]
    return data


def patchset_json(ps: PatchSet) -> dict[str, Any]:
    """The fixture view of ``ps``."""
    data: dict[str, Any] = {"format": ps.format, "files": [_file(f) for f in ps.files]}
    if ps.warnings:
        data["warnings"] = list(ps.warnings)
    return data
