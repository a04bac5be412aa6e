"""The review page's web application (starlette), guarded by a random token.

Routes::

    GET  /                               the page (plain HTML, CSS and JavaScript)
    GET  /static/{name}                  app.js, style.css; /static/pygments.css
    GET  /api/batches?file=&session=&since=&until=&machine=&status=&scope=fleet
    GET  /api/batches/{id}?view=unified|split
    POST /api/batches/{id}/undo          the same checks as ``patchwright undo``
    GET  /api/proposals
    GET  /api/proposals/{id}?view=unified|split
    POST /api/proposals/{id}/approve
    POST /api/proposals/{id}/reject      {"reason": "..."}

Every request needs the token: in the query (``?token=``, how the printed URL carries
it; the page then gets a cookie holding it), in that cookie, or in the
``X-Patchwright-Token`` header. A request without one is answered 401, with a wrong one
403. Requests that change something (POST) must carry the header, which a page on
another site cannot set, so a link elsewhere cannot undo or approve. The ``Host``
header must name the address served (a loopback name on loopback), which defeats DNS
rebinding. Handlers are plain functions, so starlette runs them in worker threads: an
undo waiting for a file lock never blocks the event loop.

Every answer forbids framing (``Content-Security-Policy: frame-ancestors 'none'`` and
``X-Frame-Options: DENY``), so another page cannot show the buttons under its own. The
cookie is ``HttpOnly`` and ``SameSite=Strict``, and its name carries the port served:
browsers send a host's cookies to every port of it, and two review pages (or a page and
another server) on one host must not take each other's token for their own.

``scope=fleet`` lists every workspace and machine of a shared history: the page is for
people, who may look at the whole fleet, where an agent reads only its own workspace.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from patchwright.adapters.review.data import Filters, ReviewData
from patchwright.adapters.review.render import style_css
from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import Workspace

COOKIE = "patchwright_review"
#: Headers sent with every answer: the page may not be framed by any other page.
SECURITY_HEADERS = {
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
HEADER = "X-Patchwright-Token"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
_STATIC = {"app.js": "text/javascript", "style.css": "text/css"}
_STATUS = {
    ErrorCode.HISTORY: 409,
    ErrorCode.CONFLICT: 409,
    ErrorCode.STALE: 409,
    ErrorCode.RESTRICTED: 403,
    ErrorCode.INVALID_REQUEST: 400,
}


def new_token() -> str:
    """A fresh random token (32 bytes, URL-safe)."""
    return secrets.token_urlsafe(32)


def cookie_name(port: int | None) -> str:
    """The token cookie's name for a page served on ``port``."""
    return f"{COOKIE}_{port}" if port else COOKIE


def _port(request: Request) -> int | None:
    server = request.scope.get("server")
    return int(server[1]) if server and server[1] is not None else None


def _static(name: str) -> str:
    return (resources.files("patchwright.adapters.review") / "static" / name).read_text("utf-8")


def _error(err: PatchwrightError) -> JSONResponse:
    return JSONResponse({"error": err.to_dict()}, status_code=_STATUS.get(err.code, 500))


def _bad(message: str, field: str) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": "invalid_request", "message": message, "field": field}},
        status_code=400,
    )


def _view(request: Request) -> str:
    return "split" if request.query_params.get("view") == "split" else "unified"


class _Guard(BaseHTTPMiddleware):
    """Token and Host checks (see the module docstring)."""

    def __init__(self, app: Any, token: str, hosts: tuple[str, ...]) -> None:
        super().__init__(app)
        self.token, self.hosts = token, hosts

    async def dispatch(
        self, request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await self._checked(request, call_next)
        response.headers.update(SECURITY_HEADERS)
        return response

    async def _checked(
        self, request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        host = (request.headers.get("host") or "").rsplit(":", 1)[0].strip("[]")
        if self.hosts and host not in self.hosts:
            return PlainTextResponse("Unknown host name.", status_code=403)
        cookie = cookie_name(_port(request))
        header = request.headers.get(HEADER, "")
        offered = header or request.query_params.get("token") or request.cookies.get(cookie, "")
        if not offered:
            return PlainTextResponse(
                "This page needs the token: open the URL 'patchwright review' printed.",
                status_code=401,
            )
        if not secrets.compare_digest(offered.encode(), self.token.encode()):
            return PlainTextResponse("Wrong token.", status_code=403)
        if request.method != "GET" and not secrets.compare_digest(
            header.encode(), self.token.encode()
        ):
            return PlainTextResponse(f"Changes need the {HEADER} header.", status_code=403)
        response = await call_next(request)
        if request.query_params.get("token"):
            response.set_cookie(cookie, self.token, httponly=True, samesite="strict", path="/")
        return response


def build_app(workspace: Workspace, token: str, *, hosts: tuple[str, ...] = ()) -> Starlette:
    """The review application for ``workspace``.

    ``hosts`` lists the host names requests may use (empty: any, for tests that call
    the app in process).
    """
    data = ReviewData(workspace)

    def page(request: Request) -> Response:
        text = _static("index.html").replace("{{TOKEN}}", token)
        text = text.replace("{{ROOT}}", _escape(str(workspace.root)))
        return HTMLResponse(text, headers={"Cache-Control": "no-store"})

    def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name == "pygments.css":
            return Response(style_css(), media_type="text/css")
        if name not in _STATIC:
            return PlainTextResponse("Not found.", status_code=404)
        return Response(_static(name), media_type=_STATIC[name])

    def batches(request: Request) -> Response:
        try:
            filters = Filters.from_query(dict(request.query_params))
        except ValueError as exc:
            return _bad(str(exc), str(exc).split(" ", 1)[0])
        fleet = request.query_params.get("scope") == "fleet"
        return _answer(lambda: data.batches(filters, fleet=fleet))

    def batch(request: Request) -> Response:
        return _answer(lambda: data.batch_html(request.path_params["id"], _view(request)))

    def undo(request: Request) -> Response:
        return _answer(lambda: workspace.undo(request.path_params["id"]).to_dict())

    def proposals(request: Request) -> Response:
        return _answer(lambda: {"proposals": data.proposals()})

    def proposal(request: Request) -> Response:
        return _answer(lambda: data.proposal_html(request.path_params["id"], _view(request)))

    def approve(request: Request) -> Response:
        return _answer(lambda: workspace.proposals.approve(request.path_params["id"]).to_dict())

    async def reject(request: Request) -> Response:
        try:
            body = json.loads(await request.body() or b"{}")
            reason = str(body.get("reason", "")) if isinstance(body, dict) else ""
        except ValueError:
            return _bad('Send a JSON object such as {"reason": "..."}.', "reason")
        from starlette.concurrency import run_in_threadpool

        return await run_in_threadpool(
            _answer,
            lambda: workspace.proposals.reject(request.path_params["id"], reason).to_dict(),
        )

    routes = [
        Route("/", page),
        Route("/static/{name}", static),
        Route("/api/batches", batches),
        Route("/api/batches/{id}", batch),
        Route("/api/batches/{id}/undo", undo, methods=["POST"]),
        Route("/api/proposals", proposals),
        Route("/api/proposals/{id}", proposal),
        Route("/api/proposals/{id}/approve", approve, methods=["POST"]),
        Route("/api/proposals/{id}/reject", reject, methods=["POST"]),
    ]
    return Starlette(routes=routes, middleware=[Middleware(_Guard, token=token, hosts=hosts)])


def _answer(produce: Callable[[], Any]) -> Response:
    try:
        return JSONResponse(produce())
    except PatchwrightError as err:
        return _error(err)


def _escape(text: str) -> str:
    import html

    return html.escape(text)
