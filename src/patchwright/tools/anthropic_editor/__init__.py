"""Anthropic's text editor tool, ``str_replace_based_edit_tool``, over patchwright's engine.

``models`` holds the request model (one object, five commands), ``views`` the
read-only ``view`` of a file or folder, ``tool`` the handler. Names and behaviour follow
Anthropic's documentation of the tool; underneath, every edit goes through the same
unique-match ladder, atomic write and sandbox as the other tools.
"""

from patchwright.tools.anthropic_editor.tool import SPEC

__all__ = ["SPEC"]
