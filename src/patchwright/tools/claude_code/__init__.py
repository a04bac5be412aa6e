"""Claude Code's file tools: ``Read``, ``Edit``, ``MultiEdit``, ``Write``.

``models`` holds the request models (``file_path``, ``old_string``, ``new_string``,
``replace_all``, ``edits``, ``content``, ``offset``, ``limit``), ``tool`` the handlers.
Edits and writes go through the same string-replacement core as ``edit_file``.
"""

from patchwright.tools.claude_code.tool import SPECS

__all__ = ["SPECS"]
