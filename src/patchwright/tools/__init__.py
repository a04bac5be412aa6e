"""The tools layer: one folder per contract or dialect, a catalogue, presets, one dispatcher.

    from patchwright.tools import Toolbox
    from patchwright.workspace import Workspace

    toolbox = Toolbox(Workspace("repo"))                  # the default preset
    result = toolbox.call("read_file", {"path": "src/app.py"})

Presets (:mod:`.presets`): ``default`` (``read_file``, ``list_files``, ``search_files``,
``edit_file``, ``apply_patch``, ``undo``), ``anthropic`` (``str_replace_based_edit_tool``),
``openai`` (``apply_patch`` with one ``input``), ``claude-code`` (``Read``, ``Edit``,
``MultiEdit``, ``Write``) and ``spec`` (the eleven tools of the four specified contracts).

Layout:

* ``catalogue``: every tool by canonical name and the choice a host makes
  (:func:`select_specs`); ``presets``: the named tool sets; ``dispatch``: :class:`Toolbox`;
* ``spec``, ``context``, ``validation``, ``jsonschema``, ``schemas``, ``descriptions``:
  what a tool is, what its handler gets, how its request is checked and published;
* ``files``, ``writing``, ``diff_report``, ``next_steps``: reading, the hand-off to the
  write path, the checks around an edit, shared answers;
* one folder per family, named for its job: ``navigation``, ``apply_patch``, ``patch``,
  ``write_patch``, ``history``, ``file_edits``, ``documents``, ``anthropic_editor``,
  ``codex``, ``claude_code``, ``cursor``, ``notebook`` (the spec a family implements is
  named in its docstring). Within a family, request models sit below the tool and its
  report, so no two tool modules import each other.

Importing this package loads the catalogue's machinery only; each tool family is
imported when the catalogue is first built.
"""

from patchwright.tools.catalogue import TOOL_NAMES, catalogue, input_schema, select_specs
from patchwright.tools.context import ToolContext
from patchwright.tools.dispatch import Toolbox, internal_error, parse_arguments
from patchwright.tools.presets import DEFAULT_PRESET, PRESETS, Preset, preset
from patchwright.tools.schemas import (
    FORMATS,
    anthropic_tool,
    mcp_tool,
    openai_tool,
    tool_definitions,
)
from patchwright.tools.session import Session, load_session, save_session, session_path
from patchwright.tools.spec import ToolAnnotations, ToolHooks, ToolSpec

__all__ = [
    "DEFAULT_PRESET",
    "FORMATS",
    "PRESETS",
    "TOOL_NAMES",
    "Preset",
    "Session",
    "ToolAnnotations",
    "ToolContext",
    "ToolHooks",
    "ToolSpec",
    "Toolbox",
    "anthropic_tool",
    "catalogue",
    "input_schema",
    "internal_error",
    "load_session",
    "mcp_tool",
    "openai_tool",
    "parse_arguments",
    "preset",
    "save_session",
    "select_specs",
    "session_path",
    "tool_definitions",
]
