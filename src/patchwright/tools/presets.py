"""Presets: the tool sets an agent sees, named after the editing dialect it was trained on.

=================  ==========================================================================
``default``        ``read_file``, ``list_files``, ``search_files``, ``edit_file``,
                   ``apply_patch``, ``undo``: lean, every format through one patch tool
``anthropic``      ``str_replace_based_edit_tool`` (view / create / str_replace / insert /
                   undo_edit), as Anthropic's text editor tool names it
``openai``         ``apply_patch`` taking one ``input`` string (Codex CLI's tool, or the
                   hosted tool's operations), with ``read_file``, ``list_files`` and
                   ``search_files`` to look around
``claude-code``    ``Read``, ``Edit``, ``MultiEdit``, ``Write``, ``NotebookEdit``, as Claude
                   Code names them
``cursor``         ``edit_file`` taking a lazy snippet (``target_file``, ``instructions``,
                   ``code_edit``), as Cursor's agent writes edits, with ``read_file``,
                   ``list_files`` and ``search_files``
``spec``           the four specified contracts: all eleven spec tools
=================  ==========================================================================

A preset is data: canonical tool names plus the names some of them are exposed under.
"""

from __future__ import annotations

from collections.abc import Mapping

from patchwright._records import field, record
from patchwright.model import ErrorCode, PatchwrightError

__all__ = ["DEFAULT_PRESET", "PRESETS", "Preset", "preset"]


@record(frozen=True)
class Preset:
    """A named tool set.

    Attributes:
        name: what ``--preset`` takes.
        tools: canonical names, in the order they are listed.
        rename: canonical name -> exposed name, for tools known under another name.
        summary: one line saying who the preset is for.
    """

    name: str
    tools: tuple[str, ...]
    summary: str
    rename: Mapping[str, str] = field(default_factory=dict)


#: The preset used when none is named.
DEFAULT_PRESET = "default"

#: Every preset, by name.
PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "default",
            ("read_file", "list_files", "search_files", "edit_file", "apply_patch", "undo"),
            "read, find, edit by string, patch many files in any format, undo",
        ),
        Preset(
            "anthropic",
            ("str_replace_based_edit_tool",),
            "Anthropic's text editor tool: one tool with five commands",
        ),
        Preset(
            "openai",
            ("read_file", "list_files", "search_files", "codex_apply_patch"),
            "OpenAI's apply_patch (Codex CLI's input string or the hosted tool's operations)",
            {"codex_apply_patch": "apply_patch"},
        ),
        Preset(
            "claude-code",
            ("Read", "Edit", "MultiEdit", "Write", "NotebookEdit"),
            "Claude Code's file tools",
        ),
        Preset(
            "cursor",
            ("read_file", "list_files", "search_files", "cursor_edit_file"),
            "Cursor's edit_file: lazy snippets merged without a second model",
            {"cursor_edit_file": "edit_file"},
        ),
        Preset(
            "spec",
            (
                "read_file",
                "patch",
                "edit_file",
                "edit_lines",
                "apply_diff",
                "workspace_write_patch",
                "get_patch_change",
                "undo",
                "build_diff",
                "document_snapshot",
                "document_edit",
            ),
            "the four specified contracts (specs 000-003)",
        ),
    )
}


def preset(name: str) -> Preset:
    """The preset called ``name``.

    Raises:
        PatchwrightError: ``invalid_request`` naming the known presets.
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"Unknown preset {name!r}.",
            f"Use one of: {', '.join(PRESETS)}.",
            field="preset",
        ) from None
