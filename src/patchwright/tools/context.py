"""What a tool handler gets besides its request: the workspace, the session, the settings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from patchwright.syntax import SyntaxPolicy
from patchwright.tools.session import Session
from patchwright.workspace import Workspace


@dataclass(frozen=True)
class ToolContext:
    """Everything a handler may use.

    Attributes:
        workspace: the files (every read and write goes through it).
        session: clipboards, notes and metrics that live between calls.
        syntax_policy: what to do when an edit breaks a file's syntax.
        use_patch_edits: whether ``document_edit`` offers ``patch`` (else legacy actions).
        tool: the canonical name of the tool being called.
        names: canonical name -> exposed name, for messages that name another tool.
    """

    workspace: Workspace
    session: Session
    syntax_policy: SyntaxPolicy = "warn"
    use_patch_edits: bool = True
    tool: str = ""
    names: Mapping[str, str] = field(default_factory=dict)

    def name_of(self, canonical: str) -> str:
        """The name a tool is exposed under (its canonical name when not renamed)."""
        return self.names.get(canonical, canonical)
