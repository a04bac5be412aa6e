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
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
from collections.abc import Callable, Sequence
from typing import Any

import anyio
from mcp.server import Server
from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from patchwright._records import field, record
from patchwright.adapters.limits import DEFAULT_MAX_INPUT_MB, mb_to_bytes

__all__ = [
    "ENDPOINT_PATH",
    "HttpAccess",
    "HttpGuard",
    "bind",
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
    """

    allow_origins: tuple[str, ...] = ()
    token: str | None = None
    max_body_bytes: int = field(default_factory=lambda: mb_to_bytes(DEFAULT_MAX_INPUT_MB))


def http_access(
    host: str,
    *,
    allow_origins: Sequence[str] = (),
    token: str | None = None,
    max_message_mb: float = DEFAULT_MAX_INPUT_MB,
    environ: dict[str, str] | None = None,
) -> tuple[HttpAccess, str | None]:
    """The access rules for serving on ``host``, and a generated token to show once.

    ``token`` is a token, ``"generate"`` for a fresh one, or ``None`` (then the
    :data:`TOKEN_ENV` variable of ``environ``, if set, gives it).

    Raises:
        ValueError: off loopback without a token; a malformed origin.
    """
    import os

    env = os.environ if environ is None else environ
    given = token if token is not None else env.get(TOKEN_ENV) or None
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
    access = HttpAccess(tuple(allow_origins), given, mb_to_bytes(max_message_mb))
    return access, shown


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

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse the request (421, 403, 401) or pass it on."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self._refusal(Headers(scope=scope))
        if refusal is not None:
            status, text, extra = refusal
            await PlainTextResponse(text, status_code=status, headers=extra)(scope, receive, send)
            return
        await self.app(scope, receive, send)

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
        # the guard checks Host and Origin itself, against this server's own address
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    config = uvicorn.Config(
        HttpGuard(app, access, host, port),
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=_GRACE_SECONDS,
    )
    web = uvicorn.Server(config)

    async def announce() -> None:
        # uvicorn sets `started` once it accepts connections
        while not web.started and not web.should_exit:
            await anyio.sleep(0.02)
        if web.started and on_ready is not None:
            on_ready(url_of(sock))

    async with anyio.create_task_group() as tg:
        tg.start_soon(announce)
        await web.serve(sockets=[sock])
        tg.cancel_scope.cancel()
