"""The tool registry and the one dispatcher, :class:`Toolbox`.

    toolbox = Toolbox(Workspace("repo"))
    result = toolbox.call("patch", {"path": "a.py", "patches": [...]})
    result.ok, result.text, result.diff, result.data

A host picks the tools it exposes (``tools=``, canonical names) and may rename them
(``rename={"apply_diff": "patch"}``); :meth:`Toolbox.specs` lists the exposed tools and
:func:`select_specs` does the same without a workspace (for printing schemas).
:meth:`Toolbox.call` never raises for a bad call: malformed JSON, an unknown tool,
arguments that do not fit the request model, refusals and internal errors all come back
as a failed :class:`~patchwright.model.ToolResult`.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.syntax import SyntaxPolicy
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import render
from patchwright.tools.gate import CallGate
from patchwright.tools.jsonschema import model_schema
from patchwright.tools.session import Session
from patchwright.tools.spec import ToolAnnotations, ToolHooks, ToolSpec
from patchwright.tools.validation import validate_request
from patchwright.workspace import DEFAULT_APPROVAL_TIMEOUT, Mode, Workspace

__all__ = [
    "TOOL_NAMES",
    "ToolAnnotations",
    "ToolHooks",
    "ToolSpec",
    "Toolbox",
    "catalog",
    "input_schema",
    "select_specs",
]

log = logging.getLogger("patchwright.tools")
# A library logs; the host decides where it goes (no "last resort" printing to stderr).
log.addHandler(logging.NullHandler())

#: Every tool, by canonical name, in the order they are listed.
TOOL_NAMES: tuple[str, ...] = (
    "read_file",
    "patch",
    "edit_file",
    "edit_lines",
    "apply_diff",
    "workspace_write_patch",
    "get_patch_change",
    "undo",
    "build_diff",
    "document_snapshot",
    "document_edit",
)
_NAME_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
_POLICIES = ("off", "warn", "reject")


def input_schema(spec: ToolSpec) -> dict[str, Any]:
    """The JSON schema of ``spec``'s arguments (flat: no ``$defs``, no ``$ref``)."""
    return model_schema(spec.request_model)


def catalog(*, use_patch_edits: bool = True) -> dict[str, ToolSpec]:
    """Every tool's spec by canonical name (descriptions still hold placeholders)."""
    from patchwright.tools import (
        apply_diff,
        build_diff,
        documents,
        edit_file,
        edit_lines,
        history_tools,
        patch_tool,
        read_file,
        write_patch,
    )

    specs = [
        read_file.SPEC,
        patch_tool.SPEC,
        edit_file.SPEC,
        edit_lines.SPEC,
        apply_diff.SPEC,
        write_patch.SPEC,
        history_tools.GET_SPEC,
        history_tools.UNDO_SPEC,
        build_diff.SPEC,
        documents.snapshot_spec(use_patch_edits),
        documents.edit_spec(use_patch_edits),
    ]
    return {s.name: s for s in specs}


def select_specs(
    tools: Sequence[str] | None = None,
    rename: Mapping[str, str] | None = None,
    *,
    use_patch_edits: bool = True,
) -> list[ToolSpec]:
    """The tools a host exposes, renamed, with descriptions naming the exposed tools.

    Raises:
        PatchwrightError: ``invalid_request`` for an unknown tool, an invalid name, or
            two tools exposed under one name.
    """
    known = catalog(use_patch_edits=use_patch_edits)
    chosen = list(TOOL_NAMES if tools is None else tools)
    renames = dict(rename or {})
    for name in [*chosen, *renames]:
        if name not in known:
            raise _setup_error(
                f"Unknown tool {name!r}.", f"Known tools: {', '.join(TOOL_NAMES)}.", "tools"
            )
    names = {n: renames.get(n, n) for n in TOOL_NAMES}
    exposed: dict[str, str] = {}
    for canonical in dict.fromkeys(chosen):
        public = names[canonical]
        if not _NAME_RE.fullmatch(public):
            raise _setup_error(
                f"Invalid tool name {public!r} for {canonical}.",
                "Use 1 to 64 letters, digits, '_' or '-'.",
                "rename",
            )
        if public in exposed:
            raise _setup_error(
                f"Two tools would be exposed as {public!r}: {exposed[public]} and {canonical}.",
                "Rename one of them, or expose only one.",
                "rename",
            )
        exposed[public] = canonical
    return [
        replace(
            known[canonical],
            name=public,
            description=render(known[canonical].description, names),
        )
        for public, canonical in exposed.items()
    ]


def _setup_error(message: str, hint: str, field: str) -> PatchwrightError:
    return PatchwrightError(ErrorCode.INVALID_REQUEST, message, hint, field=field)


class Toolbox:
    """The tools of one workspace, ready to be called by name.

    Args:
        workspace: where files are read and written.
        session: clipboards, notes and metrics shared between calls (default: new).
        tools: canonical names of the tools to expose (default: all of them).
        rename: canonical name -> exposed name.
        syntax_policy: after each edit, ``off``, ``warn`` (report new syntax errors) or
            ``reject`` (refuse edits that introduce one).
        use_patch_edits: ``document_edit`` offers action ``patch`` (the default action)
            when True, only the legacy actions when False.
        approve: hold every write as a proposal a person approves or rejects
            (forwarded to :meth:`Workspace.require_approval`).
        approve_timeout: seconds a write waits for that decision.

    Raises:
        PatchwrightError: ``invalid_request`` for a bad selection, name or policy.
    """

    def __init__(
        self,
        workspace: Workspace,
        *,
        session: Session | None = None,
        tools: Sequence[str] | None = None,
        rename: Mapping[str, str] | None = None,
        syntax_policy: SyntaxPolicy = "warn",
        use_patch_edits: bool = True,
        approve: bool = False,
        approve_timeout: float = DEFAULT_APPROVAL_TIMEOUT,
    ) -> None:
        if approve:
            workspace.require_approval(approve_timeout)
        if syntax_policy not in _POLICIES:
            raise _setup_error(
                f"Unknown syntax policy {syntax_policy!r}.",
                "Use one of: off, warn, reject.",
                "syntax_policy",
            )
        self.workspace = workspace
        self.session = session if session is not None else Session()
        self.syntax_policy: SyntaxPolicy = syntax_policy
        self.use_patch_edits = use_patch_edits
        self._specs = {
            s.name: s for s in select_specs(tools, rename, use_patch_edits=use_patch_edits)
        }
        self._names = {n: (rename or {}).get(n, n) for n in TOOL_NAMES}
        self._exposed = frozenset(s.canonical for s in self._specs.values())
        self._gate = CallGate()

    def specs(self) -> list[ToolSpec]:
        """The exposed tools, renamed, in catalog order."""
        return list(self._specs.values())

    def spec(self, name: str) -> ToolSpec:
        """The exposed tool called ``name``.

        Raises:
            PatchwrightError: ``invalid_request`` when no exposed tool has that name.
        """
        try:
            return self._specs[name]
        except KeyError:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"Unknown tool {name!r}.",
                f"Available tools: {', '.join(self._specs)}.",
                field="name",
            ) from None

    def set_mode(self, mode: Mode, *, timeout: float | None = None) -> None:
        """Change the workspace mode once no tool call is running (new calls wait).

        Raises:
            PatchwrightError: ``invalid_request`` for an unknown mode; ``lock_timeout``.
        """
        with self._gate.idle(timeout):
            self.workspace.set_mode(mode, timeout=timeout)

    def call(self, name: str, arguments: Mapping[str, Any] | str | None = None) -> ToolResult:
        """Run tool ``name`` with ``arguments`` (a mapping or a JSON object text).

        Never raises for a bad call: every refusal is a failed result.
        """
        try:
            spec = self.spec(name)
        except PatchwrightError as err:
            return ToolResult.failure(err)
        try:
            with self._gate.call():
                result = self._run(spec, arguments)
        except PatchwrightError as err:
            _notify_failed(spec, err, unexpected=False)
            return _failure(spec, err)
        except Exception as exc:  # the dispatcher must answer, whatever went wrong
            log.exception("tool %s failed unexpectedly", spec.name)
            internal = _internal_error(spec, exc)
            _notify_failed(spec, internal, unexpected=True)
            return _failure(spec, internal)
        if spec.hooks.succeeded is not None:
            spec.hooks.succeeded(result)
        return result

    def _run(self, spec: ToolSpec, arguments: Mapping[str, Any] | str | None) -> ToolResult:
        args = parse_arguments(arguments)
        if spec.hooks.started is not None:
            spec.hooks.started(args)
        dry_run = "dry_run" in spec.request_model.model_fields and args.get("dry_run") is True
        if spec.writes and not dry_run:
            # a writing tool is disabled as a whole in restricted mode, whatever it is sent
            self.workspace.ensure_writable()
        request = validate_request(spec.request_model, args, spec.name)
        ctx = ToolContext(
            self.workspace,
            self.session,
            self.syntax_policy,
            self.use_patch_edits,
            spec.canonical,
            self._names,
            self._exposed,
        )
        result: ToolResult = spec.handler(ctx, request)
        return result


def parse_arguments(arguments: Mapping[str, Any] | str | None) -> dict[str, Any]:
    """The arguments as a dict (a JSON text is parsed; ``None`` and ``""`` mean none).

    Raises:
        PatchwrightError: ``invalid_request`` for text that is not a JSON object.
    """
    if arguments is None:
        return {}
    if isinstance(arguments, str):
        if not arguments.strip():
            return {}
        try:
            parsed = json.loads(arguments)
        except ValueError as exc:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"The arguments are not valid JSON: {exc}.",
                'Send the arguments as one JSON object, e.g. {"path": "src/app.py"}.',
                field="arguments",
            ) from None
        arguments = parsed
    if not isinstance(arguments, Mapping):
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"The arguments must be a JSON object, not {type(arguments).__name__}.",
            "Send the arguments as one JSON object with the tool's fields.",
            field="arguments",
        )
    return dict(arguments)


def _failure(spec: ToolSpec, err: PatchwrightError) -> ToolResult:
    data = spec.hooks.error_data(err) if spec.hooks.error_data is not None else {}
    return ToolResult.failure(err, **data)


def _notify_failed(spec: ToolSpec, err: PatchwrightError, *, unexpected: bool) -> None:
    if spec.hooks.failed is not None:
        spec.hooks.failed(err, unexpected)


def _internal_error(spec: ToolSpec, exc: Exception) -> PatchwrightError:
    # Workspace commits are atomic, so a failure before the commit changed nothing and
    # one after it left a complete commit.
    return PatchwrightError(
        ErrorCode.INTERNAL,
        f"{spec.name} failed with an internal error ({type(exc).__name__}). Any file "
        "change is all-or-nothing; re-read the file to see its current state.",
        "Retry once; if it fails again, use another tool for this edit.",
        details={"internal": True, "exception": type(exc).__name__},
    )
