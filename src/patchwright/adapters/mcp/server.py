"""The tools of one :class:`~patchwright.tools.Toolbox`, served over MCP.

    server = build_server(Toolbox(Workspace("repo")))
    anyio.run(serve_stdio, server)          # mcp/stdio.py; or serve_http (mcp/http.py)

Built on the low-level ``mcp.server.Server`` of the official SDK rather than on its
``MCPServer`` decorator API: that one derives each tool's input schema from a Python
function's signature, while every patchwright tool already has its schema (from its
request model) and a dispatcher that takes the raw arguments. The low-level server takes
exactly those: a ``tools/list`` answer and a ``tools/call`` handler.

Listing: name, title, description, input schema and annotations come from
:func:`patchwright.tools.schemas.mcp_tool`, the same request models every other host
sees. A call answers (:func:`wire_result`) with the model-facing text as the first
content item, the unified diff (when something changed) as a second one meant for the
user (for a dry run, for the model as well: the preview is what it asked for), and the
whole :class:`~patchwright.model.ToolResult` as structured content. A refusal, a
malformed call or an internal failure is a tool result with ``isError`` set; the server
never stops because of a call.

Restricted mode: a write is refused with spec 000's sentence and a hint to ask the user.
When the client supports elicitation, the server asks the user itself ("allow writes?")
and, when granted, switches the workspace to unrestricted and runs the call.

Sessions: every connection shares the toolbox (its workspace and history), while what a
client read, the confirm tokens it was given, its clipboards and notes belong to its MCP
session (:meth:`Toolbox.session_for`): over streamable HTTP the one named by the
``mcp-session-id`` header the SDK gives each client session (a bounded number of them,
the least recently used dropped), over stdio the one peer's (the toolbox's own session,
as for a request without that header). Calls run at
the same time, each in a worker thread (anyio's, bounded by a capacity limiter of
:data:`WORKERS` threads): the SDK's dispatcher starts a task per request, so a slow call
(a large search, a write waiting for approval, a slow PostgreSQL) never holds up the
others, and the per-file locks of the workspace order the writes to one file.

Approval mode: a call whose write waits for a person's decision sends a progress
notification every :data:`PROGRESS_SECONDS` (when the client asked for progress), so a
client that resets its time-out on progress keeps waiting. When the client cancels the
request (``notifications/cancelled``), disconnects, or the server stops
(:func:`stop_calls`), the call's :class:`~patchwright.workspace.approval.Caller` leaves
and the write withdraws its proposal: it can no longer be approved.
"""

from __future__ import annotations

import functools
import logging
import time
import weakref
from collections.abc import Callable
from typing import Any, TypeVar, cast

import anyio
import anyio.to_thread
from mcp import types
from mcp.server import Server
from mcp.server.context import ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from patchwright import __version__
from patchwright.model import ErrorCode, ToolResult
from patchwright.tools import Session, Toolbox, ToolSpec, internal_error, mcp_tool
from patchwright.workspace import calling_as
from patchwright.workspace.approval import Caller, calling

__all__ = [
    "DISCONNECTED",
    "GRANTED",
    "PROGRESS_SECONDS",
    "SERVER_NAME",
    "WORKERS",
    "build_server",
    "call_result",
    "caller_of",
    "instructions",
    "session_id",
    "stop_calls",
    "tool_definition",
    "tracing_configured",
    "wire_result",
    "write_access",
]

log = logging.getLogger("patchwright.mcp")

#: The name the server reports in its ``serverInfo``.
SERVER_NAME = "patchwright"

#: Worker threads tool calls run in at most (more calls wait for a free one). Threads
#: mostly wait (file locks, fsync, approval, a database), so many more than cores.
WORKERS = 64
#: Seconds between progress notifications while a write waits for approval.
PROGRESS_SECONDS = 5.0
#: The key of an HTTP request's ASGI scope under which the transport keeps an event set
#: once the client disconnected (mcp/http.py): the calls of that request are told.
DISCONNECTED = "patchwright.disconnected"
# seconds a stopping server waits for its calls to answer (a write waiting for
# approval answers within one poll of the proposal store)
_STOP_GRACE = 5.0

_Context = ServerRequestContext[Any, Any]
# the header the SDK's streamable HTTP transport names a client session by (its
# MCP_SESSION_ID_HEADER; not imported, so that a stdio server loads no HTTP code)
MCP_SESSION_ID_HEADER = "mcp-session-id"


def tool_definition(spec: ToolSpec) -> types.Tool:
    """The MCP ``Tool`` that lists ``spec``."""
    return types.Tool.model_validate(mcp_tool(spec))


def call_result(result: ToolResult) -> types.CallToolResult:
    """The MCP answer to a call that produced ``result`` (:func:`wire_result` as the
    SDK's model)."""
    return types.CallToolResult.model_validate(wire_result(result))


def wire_result(result: ToolResult) -> dict[str, Any]:
    """The MCP answer to a call that produced ``result``, in its wire form (JSON names,
    no ``null`` fields).

    The text is for the model; the diff, when there is one, follows as a second text
    item addressed to the user; the structured content is ``result.to_dict()``. A
    handler answers with this dict rather than with the SDK's models: the SDK validates
    and dumps an answer on its way out anyway, and building the models first, then
    dumping them, cost as much again.
    """
    content: list[dict[str, Any]] = [{"type": "text", "text": result.text}]
    if result.diff:
        preview = result.data.get("dry_run") is True
        audience = ["user", "assistant"] if preview else ["user"]
        content.append({"type": "text", "text": result.diff, "annotations": {"audience": audience}})
    return {
        "content": content,
        "structuredContent": result.to_dict(),
        "isError": not result.ok,
        "resultType": "complete",  # the 2026 protocol's; the SDK drops it for older ones
    }


def instructions(toolbox: Toolbox) -> str:
    """What the server tells a client about itself when it connects."""
    workspace = toolbox.workspace
    lines = [
        f"patchwright edits the text files under {workspace.root}; every path is "
        "relative to that folder and cannot leave it.",
        "Read a file before editing it and copy the text to replace exactly. A refused "
        "edit changes nothing: its message says what was expected, what was found and "
        "how to fix the call.",
    ]
    if workspace.mode == "restricted":
        lines.append("The workspace is read-only (restricted mode): writing tools are refused.")
    if any(spec.canonical == "undo" for spec in toolbox.specs()):
        lines.append("Every change is recorded as a batch; undo reverts one.")
    return " ".join(lines)


class _ToolService:
    """The ``tools/list`` and ``tools/call`` handlers over one toolbox."""

    def __init__(self, toolbox: Toolbox, workers: int = WORKERS) -> None:
        self._toolbox = toolbox
        self._tools = [tool_definition(spec) for spec in toolbox.specs()]
        self._workers = workers
        self._limiter: anyio.CapacityLimiter | None = None  # made in the event loop
        self._callers: set[Caller] = set()
        self._stopping: str | None = None

    async def list_tools(
        self, ctx: _Context, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=list(self._tools))

    async def call_tool(
        self, ctx: _Context, params: types.CallToolRequestParams
    ) -> dict[str, Any] | types.InputRequiredResult:
        # the batches and proposals of this call name its client and session
        with calling_as(*caller_of(ctx)):
            return await self._call_tool(ctx, params)

    async def _call_tool(
        self, ctx: _Context, params: types.CallToolRequestParams
    ) -> dict[str, Any] | types.InputRequiredResult:
        try:
            call = functools.partial(self._toolbox.call, session=self._session(ctx))
            result = await self._run(ctx, call, params.name, params.arguments)
            if _refused_as_restricted(result):
                granted = await write_access(ctx, params)
                if isinstance(granted, types.InputRequiredResult):
                    return granted
                if granted:
                    await self._run(ctx, self._toolbox.set_mode, "unrestricted")
                    result = await self._run(ctx, call, params.name, params.arguments)
                    result.warnings.append(GRANTED)
                    result.text += f"\n({GRANTED})"
            return wire_result(result)
        except Exception as exc:  # the server must answer, whatever went wrong
            log.exception("tool %s failed unexpectedly", params.name)
            return wire_result(ToolResult.failure(internal_error(params.name, exc)))

    def _session(self, ctx: _Context) -> Session:
        """The session of the client that sent this request: its MCP session id over
        streamable HTTP; the toolbox's own over stdio or without an id."""
        return self._toolbox.session_for(session_id(ctx))

    def stop(self, reason: str) -> None:
        """Tell every call in flight, and every later one, that its caller is gone."""
        self._stopping = reason
        for caller in list(self._callers):
            caller.leave(reason)

    @property
    def busy(self) -> int:
        """How many calls are in flight."""
        return len(self._callers)

    async def _run(self, ctx: _Context, function: Callable[..., _T], *args: Any) -> _T:
        """``function(*args)`` in a worker thread, for the caller of this request.

        A call that started runs to its end even when its request is cancelled (a
        commit is never abandoned halfway); the cancellation reaches the call as its
        caller leaving, which withdraws a proposal it waits on.
        """
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self._workers)
        caller = Caller()
        if self._stopping is not None:
            caller.leave(self._stopping)
        self._callers.add(caller)
        finished = anyio.Event()
        failure: Exception | None = None
        try:
            async with anyio.create_task_group() as watchers:
                watchers.start_soon(_watch, ctx, caller, finished)
                try:
                    result = await anyio.to_thread.run_sync(
                        _in_call, caller, function, *args, limiter=self._limiter
                    )
                except Exception as exc:  # raised as is below, not in an exception group
                    failure = exc
                finally:
                    finished.set()
                    watchers.cancel_scope.cancel()
        finally:
            self._callers.discard(caller)
        if failure is not None:
            raise failure
        return result


def caller_of(ctx: _Context) -> tuple[str, str]:
    """The client of a call (``clientInfo``'s name and version) and its session (the HTTP
    ``mcp-session-id``), each empty when the client did not say."""
    params = ctx.session.client_params
    info = params.client_info if params is not None else None
    client = f"{info.name} {info.version}".strip() if info is not None else ""
    headers = getattr(ctx.request, "headers", None)
    session = str(headers.get("mcp-session-id") or "") if headers is not None else ""
    return client, session


_T = TypeVar("_T")


def session_id(ctx: _Context | None) -> str | None:
    """The MCP session id of the HTTP request behind ``ctx`` (the ``mcp-session-id``
    header), or ``None`` (stdio, or a request without one)."""
    headers = getattr(getattr(ctx, "request", None), "headers", None)
    value = headers.get(MCP_SESSION_ID_HEADER) if headers is not None else None
    return value if isinstance(value, str) and value else None


def _disconnected(ctx: _Context | None) -> bool:
    """Whether the client that sent this request over HTTP has gone away."""
    scope = getattr(getattr(ctx, "request", None), "scope", None)
    gone = scope.get(DISCONNECTED) if isinstance(scope, dict) else None
    return isinstance(gone, anyio.Event) and gone.is_set()


def _in_call(caller: Caller, function: Callable[..., _T], *args: Any) -> _T:
    with calling(caller):
        return function(*args)


async def _watch(ctx: _Context, caller: Caller, finished: anyio.Event) -> None:
    """While a call runs: report progress while its write waits for approval, and
    make its caller leave when the request is cancelled (the client cancelled it or
    disconnected, or the server stops)."""
    sent = 0.0
    try:
        while True:
            await anyio.sleep(0.25)
            if _disconnected(ctx):
                caller.leave("the client disconnected")
            since = caller.waiting_since
            if since is None:
                continue
            waited = time.monotonic() - since
            if sent and waited - sent < PROGRESS_SECONDS:
                continue
            sent = max(waited, 0.001)
            await ctx.session.report_progress(
                sent,
                message=f"Waiting for the user to approve {caller.proposal_id} "
                f"({waited:.0f} s so far).",
            )
    except anyio.get_cancelled_exc_class():
        if not finished.is_set():
            caller.leave("the client cancelled the call or disconnected")
        raise


GRANTED = "The user granted write access for this session."
_ALLOW_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "allow": {
            "type": "boolean",
            "title": "Allow writes",
            "description": "Let the agent change files in this workspace for this session.",
        }
    },
    "required": ["allow"],
}


def _refused_as_restricted(result: ToolResult) -> bool:
    return result.error is not None and result.error.code is ErrorCode.RESTRICTED


_ASK_KEY = "write_access"


def _question(tool: str) -> str:
    return (
        f"The agent called {tool}, which changes files, but this patchwright workspace is "
        "read-only (restricted mode). Allow writes for the rest of this session?"
    )


def _allowed(answer: types.ElicitResult) -> bool:
    return answer.action == "accept" and (answer.content or {}).get("allow") is True


async def write_access(
    ctx: _Context, params: types.CallToolRequestParams
) -> bool | types.InputRequiredResult:
    """Whether the user grants write access for a call refused in restricted mode.

    Asked through MCP elicitation when the client supports it: on the 2026 protocol the
    question goes back as an ``InputRequiredResult`` (returned as is; the client asks
    and retries the call with the answer), on earlier ones as an ``elicitation/create``
    request. False when the client cannot ask, the user declines, or asking fails.
    """
    answer = (params.input_responses or {}).get(_ASK_KEY)
    if isinstance(answer, types.ElicitResult):
        return _allowed(answer)
    capabilities = ctx.session.client_capabilities
    if capabilities is None or capabilities.elicitation is None:
        return False
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        question = types.ElicitRequestFormParams(
            message=_question(params.name), requested_schema=_ALLOW_SCHEMA
        )
        return types.InputRequiredResult(
            input_requests={_ASK_KEY: types.ElicitRequest(params=question)}
        )
    try:
        asked = await ctx.session.elicit_form(_question(params.name), _ALLOW_SCHEMA, ctx.request_id)
    except Exception:  # a client that cannot answer has not granted anything
        log.warning("asking the user for write access failed", exc_info=True)
        return False
    return _allowed(asked)


def build_server(toolbox: Toolbox, *, name: str = SERVER_NAME) -> Server[Any]:
    """An MCP server exposing ``toolbox``'s tools (run it with ``mcp_stdio.serve_stdio``, or
    over HTTP with :func:`patchwright.adapters.mcp.http.serve_http`)."""
    service = _ToolService(toolbox)
    server: Server[Any] = Server(
        name,
        version=__version__,
        title="patchwright",
        description="Precise, safe file editing for LLM coding agents.",
        instructions=instructions(toolbox),
        on_list_tools=service.list_tools,
        # the SDK takes a handler's answer as a wire dict too (its HandlerResult), though
        # the signature of this argument names the model only
        on_call_tool=cast(Any, service.call_tool),
    )
    if not tracing_configured():
        server.middleware = [m for m in server.middleware if not _traces(m)]
    _SERVICES[server] = service
    return server


_SERVICES: weakref.WeakKeyDictionary[Server[Any], _ToolService] = weakref.WeakKeyDictionary()


async def stop_calls(server: Server[Any], reason: str = "the server is stopping") -> None:
    """Tell the calls in flight on ``server`` (built by :func:`build_server`) that the
    server stops, and wait a little for them to answer: a write waiting for approval
    withdraws its proposal and answers so. Calls that arrive later are told at once."""
    service = _SERVICES.get(server)
    if service is None:
        return
    service.stop(reason)
    with anyio.move_on_after(_STOP_GRACE):
        while service.busy:
            await anyio.sleep(0.05)


def tracing_configured() -> bool:
    """Whether OpenTelemetry has a tracer provider (set by the host or by
    ``opentelemetry-instrument``) when the server is built.

    Without one, the SDK's tracing middleware makes a span that records nothing for every
    message, about 30 µs per call, so :func:`build_server` leaves it out; a provider set
    only after the server was built is not seen.
    """
    from opentelemetry import trace

    return not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)


def _traces(middleware: object) -> bool:
    return type(middleware).__name__ == "OpenTelemetryMiddleware"
