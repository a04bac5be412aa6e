"""OpenAI's ``apply_patch``: Codex CLI's tool (one ``input`` string in the
``*** Begin Patch`` format) and the operations of the hosted Responses API tool
(``create_file`` / ``update_file`` / ``delete_file`` with a per-file diff).

``models`` holds the request model (an operation is turned into patch text there),
``tool`` the handler, which applies the text as ``apply_patch`` does.
"""

from patchwright.tools.codex.tool import SPEC

__all__ = ["SPEC"]
