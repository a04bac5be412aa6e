"""The tools layer: one module per tool contract, one dispatcher.

    from patchwright.tools import Toolbox
    from patchwright.workspace import Workspace

    toolbox = Toolbox(Workspace("repo"))
    result = toolbox.call("read_file", {"path": "src/app.py"})

Tools (canonical names; a host may expose a subset and rename them):

=========================  ==========================================================
``read_file``              numbered lines, SHA256, line count, newline style, paging
``patch``                  spec 000: replace / append_eof / prepend_bof / overwrite
``edit_file``              spec 002: string replacement, one edit or a batch
``edit_lines``             spec 002: replace lines by number
``apply_diff``             spec 002: apply a unified diff to one target file
``workspace_write_patch``  spec 001: line-based multi-file batch with SHA256 checks
``get_patch_change``       spec 001: a stored batch / file patch / change by ID
``undo``                   revert a batch by ID
``build_diff``             spec 003: original + updated text -> unified diff
``document_snapshot``      spec 003: text + document_version of a file
``document_edit``          spec 003: patch (diff + document_version) or legacy actions
=========================  ==========================================================

Importing this package loads only the registry; each tool module is imported when the
catalog is first built.
"""

from patchwright.tools.context import ToolContext
from patchwright.tools.registry import (
    TOOL_NAMES,
    Toolbox,
    catalog,
    input_schema,
    parse_arguments,
    select_specs,
)
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
    "FORMATS",
    "TOOL_NAMES",
    "Session",
    "ToolAnnotations",
    "ToolContext",
    "ToolHooks",
    "ToolSpec",
    "Toolbox",
    "anthropic_tool",
    "catalog",
    "input_schema",
    "load_session",
    "mcp_tool",
    "openai_tool",
    "parse_arguments",
    "save_session",
    "select_specs",
    "session_path",
    "tool_definitions",
]
