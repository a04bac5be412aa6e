"""Cursor's edit tool: ``edit_file`` with ``target_file``, ``instructions``, ``code_edit``.

The model writes a lazy snippet (the new code with ``// ... existing code ...`` markers for
what stays) and patchwright merges it deterministically
(:mod:`patchwright.engine.replacing.snippet`) instead of asking a second model to.
Exposed as ``edit_file`` by the ``cursor`` preset; its canonical name is
``cursor_edit_file``.
"""

from patchwright.tools.cursor.tool import SPEC

__all__ = ["SPEC"]
