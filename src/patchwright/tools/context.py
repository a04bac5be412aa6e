"""What a tool handler gets besides its request: the workspace, the session, the settings."""

from __future__ import annotations

from collections.abc import Mapping

from patchwright._records import field, record
from patchwright.syntax import SyntaxPolicy
from patchwright.tools.session import Session
from patchwright.workspace import Workspace


@record(frozen=True)
class ToolContext:
    """Everything a handler may use.

    Attributes:
        workspace: the files (every read and write goes through it).
        session: clipboards, notes and metrics that live between calls.
        syntax_policy: what to do when an edit breaks a file's syntax.
        use_patch_edits: whether ``document_edit`` offers ``patch`` (else legacy actions).
        tool: the canonical name of the tool being called.
        names: canonical name -> exposed name, for messages that name another tool.
        exposed: canonical names of the tools the host exposes; ``None`` when not known
            (a handler called directly), and then no other tool should be named.
    """

    workspace: Workspace
    session: Session
    syntax_policy: SyntaxPolicy = "warn"
    use_patch_edits: bool = True
    tool: str = ""
    names: Mapping[str, str] = field(default_factory=dict)
    exposed: frozenset[str] | None = None

    def name_of(self, canonical: str) -> str:
        """The name a tool is exposed under (its canonical name when not renamed)."""
        return self.names.get(canonical, canonical)

    def exposed_name(self, canonical: str) -> str | None:
        """The name tool ``canonical`` is exposed under, or ``None`` when the host hides
        it (or the exposed tools are not known): a message must not send the model to a
        tool it cannot call."""
        if self.exposed is None or canonical not in self.exposed:
            return None
        return self.name_of(canonical)

    def first_exposed(self, *canonicals: str) -> str | None:
        """The exposed name of the first of ``canonicals`` the host exposes, or ``None``:
        a hint offers whichever tool of a kind (a reader, an undo) the model has."""
        for canonical in canonicals:
            name = self.exposed_name(canonical)
            if name is not None:
                return name
        return None
