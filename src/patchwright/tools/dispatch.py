"""The dispatcher, :class:`Toolbox`: runs a call by name over one workspace.

    toolbox = Toolbox(Workspace("repo"))                    # the default preset
    toolbox = Toolbox(Workspace("repo"), preset="anthropic")
    result = toolbox.call("edit_file", {"path": "a.py", "old_string": ..., "new_string": ...})
    result.ok, result.text, result.diff, result.data

Which tools exist and which a host exposes is the catalogue's business
(:mod:`.catalogue`, :mod:`.presets`); the dispatcher parses the arguments, refuses a
writing tool in restricted mode, validates the request model, and runs the handler.
:meth:`Toolbox.call` never raises for a bad call: malformed JSON, an unknown tool,
arguments that do not fit the request model, refusals and internal errors all come back
as a failed :class:`~patchwright.model.ToolResult`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.syntax import SyntaxPolicy, check_policy
from patchwright.tools.catalogue import TOOL_NAMES, chosen_tools, select_specs
from patchwright.tools.context import ToolContext
from patchwright.tools.session import Session, Sessions
from patchwright.tools.spec import ToolSpec
from patchwright.tools.validation import validate_request
from patchwright.workspace import DEFAULT_APPROVAL_TIMEOUT, Mode, Workspace
from patchwright.workspace.gate import DrainGate

__all__ = ["Toolbox", "parse_arguments"]

log = logging.getLogger("patchwright.tools")
# A library logs; the host decides where it goes (no "last resort" printing to stderr).
log.addHandler(logging.NullHandler())


class Toolbox:
    """The tools of one workspace, ready to be called by name.

    Args:
        workspace: where files are read and written.
        session: clipboards, notes, metrics, reads and confirm tokens shared between the
            calls that name no session (default: new); :meth:`session_for` gives each
            client session of a server its own.
        tools: canonical names of single tools to expose (overrides ``preset``).
        rename: canonical name -> exposed name (on top of the preset's own names).
        preset: the named tool set to expose when ``tools`` is not given (default:
            ``default``; see :mod:`.presets`).
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
        preset: str | None = None,
        approve: bool = False,
        approve_timeout: float = DEFAULT_APPROVAL_TIMEOUT,
    ) -> None:
        if approve:
            workspace.require_approval(approve_timeout)
        check_policy(syntax_policy, "syntax_policy")
        self.workspace = workspace
        self.session = session if session is not None else Session()
        self._sessions = Sessions(self.session)
        self.syntax_policy: SyntaxPolicy = syntax_policy
        self.use_patch_edits = use_patch_edits
        specs = select_specs(tools, rename, preset=preset, use_patch_edits=use_patch_edits)
        self._specs = {s.name: s for s in specs}
        renames = {**chosen_tools(tools, preset)[1], **(rename or {})}
        self._names = {n: renames.get(n, n) for n in TOOL_NAMES}
        self._exposed = frozenset(s.canonical for s in self._specs.values())
        # whole calls in flight: a call reads, then commits (two workspace operations),
        # and a mode change must not fall between them
        self._calls = DrainGate()

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
        with self._calls.drained(timeout, _calls_running):
            self.workspace.set_mode(mode, timeout=timeout)

    def session_for(self, key: str | None) -> Session:
        """The session of the client session ``key`` (an MCP session id), made when new;
        :attr:`session` for ``None``. The least recently used of more than
        :data:`~patchwright.tools.session.KEPT_SESSIONS` named sessions is dropped."""
        return self._sessions.get(key)

    def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | str | None = None,
        *,
        session: Session | None = None,
    ) -> ToolResult:
        """Run tool ``name`` with ``arguments`` (a mapping or a JSON object text), in
        ``session`` (default: :attr:`session`): what it read and the confirm tokens it
        was given.

        Never raises for a bad call: every refusal is a failed result.
        """
        try:
            spec = self.spec(name)
        except PatchwrightError as err:
            return ToolResult.failure(err)
        try:
            with self._calls.entered():
                result = self._run(spec, arguments, self.session if session is None else session)
        except PatchwrightError as err:
            if err.code is ErrorCode.RESTRICTED and not err.hint:
                err.hint = restricted_hint(self._names, self._exposed)
            _notify_failed(spec, err, unexpected=False)
            return _failure(spec, err)
        except Exception as exc:  # the dispatcher must answer, whatever went wrong
            log.exception("tool %s failed unexpectedly", spec.name)
            internal = internal_error(spec.name, exc)
            _notify_failed(spec, internal, unexpected=True)
            return _failure(spec, internal)
        if spec.hooks.succeeded is not None:
            spec.hooks.succeeded(result)
        self._note_answer(result)
        return result

    def _note_answer(self, result: ToolResult) -> None:
        """Keep the text the model is answered beside the batch the call made (shown by
        ``patchwright review`` and ``show``); a history that cannot take it is logged,
        the edit being done already."""
        batch_id = result.data.get("batch_id")
        if not isinstance(batch_id, str) or result.data.get("dry_run") is True:
            return
        if not self.workspace.keeps_history:
            return
        try:
            self.workspace.history.note_answer(batch_id, result.text)
        except PatchwrightError as err:
            log.warning("the answer of batch %s was not recorded: %s", batch_id, err.message)

    def _run(
        self, spec: ToolSpec, arguments: Mapping[str, Any] | str | None, session: Session
    ) -> ToolResult:
        args = without_nulls(parse_arguments(arguments))
        if spec.hooks.started is not None:
            spec.hooks.started(args)
        if spec.call_writes(args):
            # a writing tool is disabled as a whole in restricted mode, whatever it is sent
            self.workspace.ensure_writable()
        request = validate_request(spec.request_model, args, spec.name)
        ctx = ToolContext(
            self.workspace,
            session,
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


def without_nulls(args: dict[str, Any]) -> dict[str, Any]:
    """``args`` without ``null`` values, in nested objects too: a model bound by a strict
    schema sends ``null`` for every optional field it leaves out, which means "not
    given"."""
    return {k: _drop_nulls(v) for k, v in args.items() if v is not None}


def _drop_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_nulls(v) for v in value]
    return value


def restricted_hint(names: Mapping[str, str], exposed: frozenset[str]) -> str:
    """The next step after a write refused in restricted mode: ask the user (the
    workspace's sentence names ``request_mode_upgrade``, offered when exposed)."""
    if "request_mode_upgrade" in exposed:
        return (
            f"Call {names.get('request_mode_upgrade', 'request_mode_upgrade')} to ask the "
            "user for write access, or ask the user directly."
        )
    return (
        "This workspace is read-only: ask the user for write access (they can restart "
        "the server without --mode restricted); reading still works."
    )


def _failure(spec: ToolSpec, err: PatchwrightError) -> ToolResult:
    data = spec.hooks.error_data(err) if spec.hooks.error_data is not None else {}
    if "candidates" in err.details:  # a refusal's places and confirm tokens (tools.confirm)
        data = {**data, "candidates": err.details["candidates"]}
    return ToolResult.failure(err, **data)


def _notify_failed(spec: ToolSpec, err: PatchwrightError, *, unexpected: bool) -> None:
    if spec.hooks.failed is not None:
        spec.hooks.failed(err, unexpected)


def _calls_running(count: int) -> PatchwrightError:
    return PatchwrightError(
        ErrorCode.LOCK_TIMEOUT,
        f"Timed out waiting for {count} tool call(s) to finish.",
        "Try again once the running calls have finished.",
    )


def internal_error(tool: str, exc: Exception) -> PatchwrightError:
    """The refusal of a call to ``tool`` that failed unexpectedly with ``exc``: the one
    answer the dispatcher and the MCP server give, naming the exception's type only (its
    text may hold paths or data the model should not see)."""
    # Workspace commits are atomic, so a failure before the commit changed nothing and
    # one after it left a complete commit.
    return PatchwrightError(
        ErrorCode.INTERNAL,
        f"{tool} failed with an internal error ({type(exc).__name__}). Any file "
        "change is all-or-nothing; re-read the file to see its current state.",
        "Retry once; if it fails again, use another tool for this edit.",
        details={"internal": True, "exception": type(exc).__name__},
    )
