"""``apply_patch``: one patch text in any format patchwright reads, over many files.

``models`` holds the request model, ``report`` the answer, ``tool`` the handler. The
planning and the all-or-nothing commit are :func:`patchwright.api.apply_patch_text`'s,
the same the command line uses.
"""

from patchwright.tools.apply_patch.tool import SPEC

__all__ = ["SPEC"]
