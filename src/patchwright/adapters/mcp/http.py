"""The MCP server over streamable HTTP (``patchwright mcp --http HOST:PORT``).

The SDK's streamable-HTTP app runs under uvicorn on a socket bound here, before the
server starts, so port 0 (any free port) works and the real address is known and
announced. Every request passes :class:`HttpGuard` first (:class:`HttpAccess` says what
it allows):

* ``Origin``: a browser request is served only when its origin is the server's own
  (``http://127.0.0.1:PORT`` / ``http://localhost:PORT`` on loopback, ``http://HOST:PORT``
  for a named host) or one given with ``--allow-origin``: a page on ``localhost:9999``
  gets 403. Clients that send no ``Origin`` (not browsers) pass this check.
* ``Host``: on loopback it must name the loopback address and the server's port (DNS
  rebinding), else 421.
* Bearer token: off loopback the server refuses to start without one (``--token``, or
  ``--token generate`` to print a fresh one once); every request must then carry
  ``Authorization: Bearer TOKEN`` (401 otherwise). On loopback a given token is enforced.
* Size: the body limit is ``--max-message-mb`` (413 beyond it, before it is read whole).
* Time: a request's headers must arrive whole within :data:`HEADER_SECONDS` of its first
  byte (or of the connection, for one that sends nothing; the connection is closed
  otherwise), its body within :data:`BODY_SECONDS` (408), so slow clients cannot hold
  connections, and their descriptors, for ever; the server also raises its own limit
  of open descriptors to the system's (:func:`more_descriptors`).
* Sessions: a session with no request in flight for ``--session-idle-minutes`` (default
  :data:`DEFAULT_IDLE_MINUTES`) is closed (its ID then answers 404 and the client opens
  a new one), and one client address holds at most ``--max-sessions-per-client``
  sessions (default :data:`DEFAULT_SESSIONS_PER_CLIENT`; 503 beyond, until one ends or
  idles out): a flood of ``initialize`` requests from one address shuts out neither
  other clients nor, after the idle time, that address's later ones.
"""

from __future__ import annotations

import contextlib
import hmac
import ipaddress
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from typing import Any

import anyio
from mcp.server import Server
from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from patchwright._records import field, record
from patchwright.adapters.limits import DEFAULT_MAX_INPUT_MB, mb_to_bytes
from patchwright.adapters.mcp.server import DISCONNECTED

__all__ = [
    "ENDPOINT_PATH",
    "HttpAccess",
    "HttpGuard",
    "bind",
    "check_token",
    "http_access",
    "is_loopback",
    "serve_http",
    "url_of",
]

#: Environment variable that may hold the bearer token instead of ``--token``.
TOKEN_ENV = "PATCHWRIGHT_MCP_TOKEN"

#: The path the MCP endpoint is served at.
ENDPOINT_PATH = "/mcp"

# seconds open connections (event streams) get to finish after SIGINT / SIGTERM
_GRACE_SECONDS = 2

#: Minutes without a request in flight after which an HTTP session is closed.
DEFAULT_IDLE_MINUTES = 10.0
#: Sessions one client address may hold open at once.
DEFAULT_SESSIONS_PER_CLIENT = 32
#: Seconds a request body has to arrive whole.
BODY_SECONDS = 30.0
#: Seconds a request's headers have to arrive whole.
HEADER_SECONDS = 10.0
_SESSION_HEADER = "mcp-session-id"


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0 picks a free port).

    Raises:
        OSError: the address cannot be bound (in use, not local, no permission).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # accepted connections inherit it: an answer's event follows its headers at
        # once instead of waiting for the client's delayed ACK (about 40 ms per call)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


def url_of(sock: socket.socket) -> str:
    """The MCP endpoint URL of a bound socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}{ENDPOINT_PATH}"


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is reachable only from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@record(frozen=True)
class HttpAccess:
    """What the HTTP guard lets through (see module docstring).

    Attributes:
        allow_origins: extra ``Origin`` values accepted besides the server's own.
        token: the bearer token every request must carry, ``None`` for none.
        max_body_bytes: the largest request body.
        idle_seconds: a session with no request in flight this long is closed.
        sessions_per_client: the sessions one client address may hold open.
        body_seconds: the time a request body has to arrive whole.
    """

    allow_origins: tuple[str, ...] = ()
    token: str | None = None
    max_body_bytes: int = field(default_factory=lambda: mb_to_bytes(DEFAULT_MAX_INPUT_MB))
    idle_seconds: float = DEFAULT_IDLE_MINUTES * 60
    sessions_per_client: int = DEFAULT_SESSIONS_PER_CLIENT
    body_seconds: float = BODY_SECONDS


def http_access(
    host: str,
    *,
    allow_origins: Sequence[str] = (),
    token: str | None = None,
    max_message_mb: float = DEFAULT_MAX_INPUT_MB,
    environ: dict[str, str] | None = None,
    idle_minutes: float = DEFAULT_IDLE_MINUTES,
    sessions_per_client: int = DEFAULT_SESSIONS_PER_CLIENT,
    body_seconds: float = BODY_SECONDS,
) -> tuple[HttpAccess, str | None]:
    """The access rules for serving on ``host``, and a generated token to show once.

    ``token`` is a token, ``"generate"`` for a fresh one, or ``None`` (then the
    :data:`TOKEN_ENV` variable of ``environ``, if set, gives it).

    Raises:
        ValueError: off loopback without a token; an empty or blank token (given or in
            the variable), which must never mean "no authentication"; a malformed origin;
            an idle time or a session count that is not positive.
    """
    if not 0 < idle_minutes < float("inf"):
        raise ValueError(
            f"--session-idle-minutes takes a positive number of minutes (got {idle_minutes:g})"
        )
    if sessions_per_client < 1:
        raise ValueError(
            f"--max-sessions-per-client takes a positive number (got {sessions_per_client})"
        )
    if not 0 < body_seconds < float("inf"):
        raise ValueError(
            f"--body-timeout takes a positive number of seconds (got {body_seconds:g})"
        )
    import os

    env = os.environ if environ is None else environ
    given = token if token is not None else env.get(TOKEN_ENV)
    if given is not None:
        check_token(given, "--token" if token is not None else f"the {TOKEN_ENV} variable")
    shown = None
    if given == "generate":
        given = shown = secrets.token_urlsafe(32)
    if given is None and not is_loopback(host):
        raise ValueError(
            f"serving on {host}, which other machines can reach, needs a bearer token: "
            f"pass --token TOKEN (or set {TOKEN_ENV}), or --token generate to have one "
            "made and printed once"
        )
    for origin in allow_origins:
        if not origin.startswith(("http://", "https://")) or origin.endswith("/"):
            raise ValueError(
                f"--allow-origin takes an origin such as http://localhost:3000 (got {origin!r})"
            )
    access = HttpAccess(
        tuple(allow_origins), given, mb_to_bytes(max_message_mb), idle_minutes * 60,
        sessions_per_client, body_seconds,
    )  # fmt: skip
    return access, shown


def check_token(token: str, source: str) -> None:
    """Refuse a token that is not one: empty, blank, or holding spaces or control
    characters (a header cannot carry it, so no request could ever match it).

    An empty ``--token ''`` once turned authentication off on any interface; now a
    token is either real or the server does not start.

    Raises:
        ValueError: naming ``source`` (the option or the variable) and what to do.
    """
    if not token.strip():
        raise ValueError(
            f"{source} is empty: an empty token would leave the server open to anyone. "
            "Give a real token, or --token generate to have one made and printed once"
        )
    if any(ch.isspace() or not ch.isprintable() for ch in token):
        raise ValueError(
            f"{source} holds spaces or control characters, which an Authorization header "
            "cannot carry. Give a token of printable characters without spaces, or "
            "--token generate"
        )


class HttpGuard:
    """ASGI middleware applying :class:`HttpAccess` to every HTTP request."""

    def __init__(self, app: ASGIApp, access: HttpAccess, host: str, port: int) -> None:
        self.app = app
        self.access = access
        shown = f"[{host}]" if ":" in host else host
        names = [shown]
        if is_loopback(host):
            names += ["localhost", "127.0.0.1"] if ":" not in host else ["localhost"]
        unspecified = host in ("0.0.0.0", "::")
        own = [] if unspecified else [f"http://{n}:{port}" for n in names]
        self.origins = frozenset([*own, *access.allow_origins])
        # the Host check guards loopback against DNS rebinding; a server reachable from
        # other machines answers to names it cannot know, and the token guards it
        self.hosts = frozenset(f"{n}:{port}" for n in names) if is_loopback(host) else None
        self.expected = f"Bearer {access.token}".encode() if access.token else None
        self.sessions = SessionBook(access.sessions_per_client, access.idle_seconds)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse the request (421, 403, 401, 503, 408) or pass it on."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refusal = self._refusal(headers)
        if refusal is not None:
            await _refuse(refusal, scope, receive, send)
            return
        body = await _whole_body(receive, self.access.body_seconds, self.access.max_body_bytes)
        if body is None:
            text = (
                f"The request body did not arrive within {self.access.body_seconds:g} s; "
                "send it whole, promptly.\n"
            )
            await _refuse((408, text, {"Connection": "close"}), scope, receive, send)
            return
        # refused only now, its body read: the connection stays usable for the next one
        refusal = self.sessions.refusal(headers.get(_SESSION_HEADER), _client(scope))
        if refusal is not None:
            await _refuse(refusal, scope, _replay(body, receive), send)
            return
        await self.sessions.serve(self.app, scope, _replay(body, receive, scope), send)

    def _refusal(self, headers: Headers) -> tuple[int, str, dict[str, str]] | None:
        if self.hosts is not None and headers.get("host") not in self.hosts:
            return 421, "Host not accepted: use the address the server announced.\n", {}
        origin = headers.get("origin")
        if origin is not None and origin not in self.origins:
            return (
                403,
                f"Origin {origin} not allowed: only the server's own origin is, and those "
                "given to patchwright mcp with --allow-origin.\n",
                {},
            )
        if self.expected is not None:
            sent = headers.get("authorization", "").encode("latin-1", "replace")
            if not hmac.compare_digest(sent, self.expected):
                text = "A bearer token is required: send Authorization: Bearer TOKEN.\n"
                return 401, text, {"WWW-Authenticate": "Bearer"}
        return None


async def _refuse(
    refusal: tuple[int, str, dict[str, str]], scope: Scope, receive: Receive, send: Send
) -> None:
    status, text, extra = refusal
    await PlainTextResponse(text, status_code=status, headers=extra)(scope, receive, send)


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


async def _whole_body(receive: Receive, seconds: float, limit: int) -> list[Message] | None:
    """The request's body messages, or ``None`` when they took longer than ``seconds``.

    Reading stops early past ``limit`` bytes: the app's own size check answers 413 from
    what was read.
    """
    messages: list[Message] = []
    size = 0
    with anyio.move_on_after(seconds):
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                return messages  # the client went away: the app sees it so
            size += len(message.get("body", b""))
            if not message.get("more_body", False) or size > limit:
                return messages
    return None


def _replay(messages: list[Message], receive: Receive, scope: Scope | None = None) -> Receive:
    """A ``receive`` that gives ``messages`` first, then what ``receive`` gives.

    With ``scope``, the client's disconnection is noted in it (``DISCONNECTED``, an
    event the tool calls of this request watch: a write waiting for approval withdraws
    its proposal when the client that asked for it is gone).
    """
    queue = list(messages)
    gone = anyio.Event()
    if scope is not None:
        scope[DISCONNECTED] = gone

    async def replayed() -> Message:
        message = queue.pop(0) if queue else await receive()
        if message["type"] == "http.disconnect":
            gone.set()
        return message

    return replayed


class SessionBook:
    """The HTTP sessions each client address holds, as the guard sees them go by.

    A request without a session ID opens one; the session's ID is read from the
    answer's header and booked to the request's client address. A session is alive
    while a request of it is in flight or the last one ended less than ``idle`` seconds
    ago (the SDK's own idle time-out closes it then), until a request for it answers
    404 (ended) or a ``DELETE`` of it succeeds.
    """

    def __init__(self, per_client: int, idle: float) -> None:
        self.per_client, self.idle = per_client, idle
        self._client: dict[str, str] = {}  # session ID -> client address
        self._active: dict[str, int] = {}  # session ID -> requests in flight
        self._last: dict[str, float] = {}  # session ID -> when its last request ended

    def held(self, client: str) -> int:
        """The sessions ``client`` holds open now."""
        now = time.monotonic()
        for sid in [s for s, c in self._client.items() if c == client]:
            if not self._active[sid] and now - self._last[sid] > self.idle:
                self._forget(sid)
        return sum(1 for c in self._client.values() if c == client)

    def refusal(self, sid: str | None, client: str) -> tuple[int, str, dict[str, str]] | None:
        """503 for a request that would open one session too many for ``client``."""
        if sid is not None or self.held(client) < self.per_client:
            return None
        minutes = self.idle / 60
        text = (
            f"Too many open sessions from {client} ({self.per_client}): end one (HTTP DELETE "
            f"with its mcp-session-id), or wait; idle sessions close after {minutes:g} min.\n"
        )
        return 503, text, {"Retry-After": str(int(min(self.idle, 60)))}

    async def serve(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request to ``app``, booking the session it opens, uses or ends."""
        sid = Headers(scope=scope).get(_SESSION_HEADER)
        status = 0
        opened: str | None = None

        async def watched(message: Message) -> None:
            nonlocal status, opened
            if message["type"] == "http.response.start":
                status = message["status"]
                if sid is None and status < 400:
                    found = Headers(raw=message.get("headers", [])).get(_SESSION_HEADER)
                    if found is not None and found not in self._client:
                        opened = found
                        self._client[found], self._active[found] = _client(scope), 1
            await send(message)

        if sid is not None and sid in self._client:
            self._active[sid] += 1
        try:
            await app(scope, receive, watched)
        finally:
            for booked in (sid, opened):
                if booked is not None and booked in self._client:
                    self._active[booked] -= 1
                    self._last[booked] = time.monotonic()
            if sid is not None and (
                status == 404 or (scope["method"] == "DELETE" and status < 300)
            ):
                self._forget(sid)

    def _forget(self, sid: str) -> None:
        self._client.pop(sid, None)
        self._active.pop(sid, None)
        self._last.pop(sid, None)


def more_descriptors() -> None:
    """Raise this process's limit of open descriptors to the hard limit the system
    allows (often 1,024 soft against 500,000 hard): each client connection holds one."""
    try:
        import resource
    except ImportError:  # not on POSIX
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
        with contextlib.suppress(ValueError, OSError):  # refused: the soft limit stays
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _timed_protocol() -> Any:
    """uvicorn's httptools protocol with a deadline for a request's headers (see module
    docstring); ``"auto"`` (no deadline) where httptools is missing."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools is a dependency
        return "auto"

    class TimedHttpToolsProtocol(HttpToolsProtocol):
        """Closes a connection whose request headers take longer than HEADER_SECONDS."""

        _header_timer: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(HEADER_SECONDS, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            idle = self.cycle is None or self.cycle.response_complete
            if idle and not self.transport.is_closing():  # never cut an answer short
                self.transport.close()

    return TimedHttpToolsProtocol


async def serve_http(
    server: Server[Any],
    sock: socket.socket,
    *,
    on_ready: Callable[[str], None] | None = None,
    access: HttpAccess | None = None,
) -> None:
    """Serve ``server`` on the bound socket until SIGINT or SIGTERM.

    ``on_ready`` receives the endpoint URL once the server accepts connections;
    ``access`` (default: loopback rules, no token) is what :class:`HttpGuard` allows.

    Raises:
        ValueError: ``access`` is ``None`` but the socket is not on loopback.
    """
    import uvicorn

    host, port = sock.getsockname()[:2]
    if access is None:
        access, _ = http_access(host, environ={})
    app = server.streamable_http_app(
        streamable_http_path=ENDPOINT_PATH,
        host=host,
        max_request_body_size=access.max_body_bytes,
        session_idle_timeout=access.idle_seconds,
        # the guard checks Host and Origin itself, against this server's own address
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    more_descriptors()
    config = uvicorn.Config(
        HttpGuard(app, access, host, port),
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=_GRACE_SECONDS,
        http=_timed_protocol(),
    )
    web = uvicorn.Server(config)

    async def announce() -> None:
        # uvicorn sets `started` once it accepts connections
        while not web.started and not web.should_exit:
            await anyio.sleep(0.02)
        if web.started and on_ready is not None:
            on_ready(url_of(sock))
        # uvicorn sets `should_exit` on SIGINT / SIGTERM: the calls in flight are told
        # (a write waiting for approval withdraws its proposal) while their
        # connections may still answer
        while not web.should_exit:
            await anyio.sleep(0.05)
        from patchwright.adapters.mcp.server import stop_calls

        await stop_calls(server)

    async with anyio.create_task_group() as tg:
        tg.start_soon(announce)
        await web.serve(sockets=[sock])
        tg.cancel_scope.cancel()
