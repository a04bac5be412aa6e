"""The catalogue: every tool patchwright has, by canonical name, and how a host picks some.

Each contract or dialect lives in its own folder and hands the catalogue its specs:

=============================  ===============================================================
``navigation``                 ``read_file`` (numbered lines; spec 001), ``list_files``,
                               ``search_files`` (read-only)
``apply_patch``                ``apply_patch``: one patch text, any format, many files
``patch``                      ``patch``: regions, appends, overwrites, clipboards (spec 000)
``write_patch``                ``workspace_write_patch``: line patches, many files (spec 001)
``history``                    ``get_patch_change``, ``undo`` (spec 001)
``file_edits``                 ``edit_file``, ``edit_lines``, ``apply_diff`` (spec 002)
``documents``                  ``build_diff``, ``document_snapshot``, ``document_edit``
                               (spec 003)
``anthropic_editor``           ``str_replace_based_edit_tool`` (Anthropic's text editor)
``codex``                      ``codex_apply_patch``: Codex CLI's ``apply_patch`` (``input``)
``claude_code``                ``Read``, ``Edit``, ``MultiEdit``, ``Write``
``cursor``                     ``cursor_edit_file``: Cursor's ``edit_file`` (a lazy snippet)
``notebook``                   ``NotebookEdit`` (Claude Code's notebook cell tool)
=============================  ===============================================================

:func:`select_specs` turns a choice (single tools, or a preset from :mod:`.presets`) and
renames into the specs a host publishes, with descriptions rendered for exactly the
tools exposed (see :mod:`.descriptions`). Running a call is the dispatcher's job
(:mod:`.dispatch`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from patchwright._records import replace
from patchwright.model import ErrorCode, PatchwrightError
from patchwright.tools.descriptions import render
from patchwright.tools.jsonschema import model_schema
from patchwright.tools.presets import DEFAULT_PRESET, preset
from patchwright.tools.spec import ToolSpec

__all__ = ["TOOL_NAMES", "catalogue", "input_schema", "select_specs", "setup_error"]

#: Every tool, by canonical name, in the order they are listed.
TOOL_NAMES: tuple[str, ...] = (
    "read_file",
    "list_files",
    "search_files",
    "patch",
    "edit_file",
    "edit_lines",
    "apply_diff",
    "apply_patch",
    "workspace_write_patch",
    "get_patch_change",
    "undo",
    "build_diff",
    "document_snapshot",
    "document_edit",
    "str_replace_based_edit_tool",
    "codex_apply_patch",
    "Read",
    "Edit",
    "MultiEdit",
    "Write",
    "cursor_edit_file",
    "NotebookEdit",
)
_NAME_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")


def input_schema(spec: ToolSpec) -> dict[str, Any]:
    """The JSON schema of ``spec``'s arguments (flat: no ``$defs``, no ``$ref``)."""
    return model_schema(spec.request_model)


def catalogue(*, use_patch_edits: bool = True) -> dict[str, ToolSpec]:
    """Every tool's spec by canonical name (descriptions still hold placeholders).

    Each family is imported here, on first use, so ``import patchwright.tools`` stays
    light.
    """
    from patchwright.tools import (
        anthropic_editor,
        apply_patch,
        claude_code,
        codex,
        cursor,
        navigation,
    )
    from patchwright.tools.documents import build_diff, edit, snapshot
    from patchwright.tools.file_edits import apply_diff, edit_file, edit_lines
    from patchwright.tools.history import tool as history
    from patchwright.tools.navigation import read_file
    from patchwright.tools.notebook import tool as notebook
    from patchwright.tools.patch import tool as patch
    from patchwright.tools.write_patch import tool as write_patch

    specs = [
        read_file.SPEC,
        *navigation.SPECS,
        patch.SPEC,
        edit_file.SPEC,
        edit_lines.SPEC,
        apply_diff.SPEC,
        apply_patch.SPEC,
        write_patch.SPEC,
        history.GET_SPEC,
        history.UNDO_SPEC,
        build_diff.SPEC,
        snapshot.snapshot_spec(use_patch_edits),
        edit.edit_spec(use_patch_edits),
        anthropic_editor.SPEC,
        codex.SPEC,
        *claude_code.SPECS,
        cursor.SPEC,
        notebook.SPEC,
    ]
    found = {s.name: s for s in specs}
    return {name: found[name] for name in TOOL_NAMES}


def chosen_tools(
    tools: Sequence[str] | None, preset_name: str | None
) -> tuple[list[str], dict[str, str]]:
    """The canonical names and renames a choice means: ``tools`` when given (single
    tools, no renames), else the preset's (``default`` when none is named).

    Raises:
        PatchwrightError: ``invalid_request`` for an unknown preset.
    """
    if tools is not None:
        return list(tools), {}
    chosen = preset(preset_name or DEFAULT_PRESET)
    return list(chosen.tools), dict(chosen.rename)


def select_specs(
    tools: Sequence[str] | None = None,
    rename: Mapping[str, str] | None = None,
    *,
    preset: str | None = None,
    use_patch_edits: bool = True,
) -> list[ToolSpec]:
    """The tools a host exposes, renamed, with descriptions naming the exposed tools.

    ``tools`` picks single tools by canonical name; otherwise ``preset`` (default:
    ``default``) chooses them. ``rename`` applies on top of a preset's own renames.

    Raises:
        PatchwrightError: ``invalid_request`` for an unknown tool or preset, an invalid
            name, or two tools exposed under one name.
    """
    known = catalogue(use_patch_edits=use_patch_edits)
    chosen, renames = chosen_tools(tools, preset)
    renames.update(rename or {})
    for name in [*chosen, *renames]:
        if name not in known:
            raise setup_error(
                f"Unknown tool {name!r}.", f"Known tools: {', '.join(TOOL_NAMES)}.", "tools"
            )
    names = {n: renames.get(n, n) for n in TOOL_NAMES}
    exposed: dict[str, str] = {}
    for canonical in dict.fromkeys(chosen):
        public = names[canonical]
        if not _NAME_RE.fullmatch(public):
            raise setup_error(
                f"Invalid tool name {public!r} for {canonical}.",
                "Use 1 to 64 letters, digits, '_' or '-'.",
                "rename",
            )
        if public in exposed:
            raise setup_error(
                f"Two tools would be exposed as {public!r}: {exposed[public]} and {canonical}.",
                "Rename one of them, or expose only one.",
                "rename",
            )
        exposed[public] = canonical
    visible = frozenset(exposed.values())
    return [
        replace(
            known[canonical],
            name=public,
            description=render(known[canonical].description, names, visible),
        )
        for public, canonical in exposed.items()
    ]


def setup_error(message: str, hint: str, field: str) -> PatchwrightError:
    """The ``invalid_request`` error of a bad tool selection (names ``field``)."""
    return PatchwrightError(ErrorCode.INVALID_REQUEST, message, hint, field=field)
