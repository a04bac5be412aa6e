"""What a tool is: its name, description, request model, handler and annotations.

A :class:`ToolSpec` is all a host needs to publish a tool (the JSON schema comes from
the request model, see :mod:`.jsonschema`) and all the :class:`~.registry.Toolbox`
needs to run it. Specs are immutable; renaming a tool makes a new spec that remembers
its canonical name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from patchwright._records import record
from patchwright.model import PatchwrightError, ToolResult

if TYPE_CHECKING:  # pragma: no cover
    from patchwright.tools.context import ToolContext

Handler = Callable[["ToolContext", Any], ToolResult]
"""A tool's implementation: the context and the validated request in, a result out."""


@record(frozen=True)
class ToolAnnotations:
    """Hints a host shows or acts on (MCP tool annotations).

    Attributes:
        read_only: the tool never changes a file.
        destructive: the tool may overwrite or remove existing content.
        idempotent: calling it twice with the same arguments has no further effect.
    """

    read_only: bool
    destructive: bool
    idempotent: bool


READ_ONLY = ToolAnnotations(read_only=True, destructive=False, idempotent=True)
WRITES = ToolAnnotations(read_only=False, destructive=True, idempotent=False)


@record(frozen=True)
class ToolHooks:
    """Optional per-tool reactions to a call's life cycle (logging, result envelopes).

    Attributes:
        started: called with the raw arguments before validation.
        succeeded: called with the successful result.
        failed: called with the refusal; ``unexpected`` is True for an internal error.
        error_data: builds ``ToolResult.data`` for a refusal (e.g. an envelope).
    """

    started: Callable[[Mapping[str, Any]], None] | None = None
    succeeded: Callable[[ToolResult], None] | None = None
    failed: Callable[[PatchwrightError, bool], None] | None = None
    error_data: Callable[[PatchwrightError], dict[str, Any]] | None = None


@record(frozen=True)
class ToolSpec:
    """One tool.

    Attributes:
        name: the name the tool is exposed under (after any renaming).
        title: a short human title.
        description: what the tool does and how to use it, written for a model.
        request_model: the pydantic model of the arguments (its JSON schema is published).
        handler: the implementation.
        annotations: read-only / destructive / idempotent hints.
        contract: which specification the tool implements.
        canonical: the tool's own name, whatever it is exposed as.
        hooks: optional life-cycle reactions.
        read_only_when: for a writing tool some of whose calls only read (a ``view``
            command), tells those calls apart from the raw arguments: restricted mode
            lets them through.
        examples: complete example arguments, published where a host takes them
            (Anthropic's ``input_examples``).
    """

    name: str
    title: str
    description: str
    request_model: type[BaseModel]
    handler: Handler
    annotations: ToolAnnotations
    contract: str
    canonical: str = ""
    hooks: ToolHooks = ToolHooks()
    read_only_when: Callable[[Mapping[str, Any]], bool] | None = None
    examples: tuple[dict[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if not self.canonical:
            object.__setattr__(self, "canonical", self.name)

    @property
    def writes(self) -> bool:
        """Whether the tool may change files (refused in restricted mode)."""
        return not self.annotations.read_only

    def call_writes(self, args: Mapping[str, Any]) -> bool:
        """Whether a call with the raw ``args`` may change files (a dry run does not)."""
        if not self.writes:
            return False
        if "dry_run" in self.request_model.model_fields and args.get("dry_run") is True:
            return False
        return self.read_only_when is None or not self.read_only_when(args)
