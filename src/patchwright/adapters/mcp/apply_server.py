"""A drop-in for fast-apply services (``patchwright apply-server``).

IDE agents send a lazy edit snippet to a second model that writes the whole merged file
back. Morph- and Relace-compatible clients do it with an OpenAI chat-completions request
whose user message holds the file and the snippet in tags::

    <instruction>what the edit does (optional)</instruction>
    <code>the file as it is</code>
    <update>the snippet, with // ... existing code ... markers</update>

This server answers that request with the deterministic merge of
:func:`patchwright.merge_snippet`: the merged file as the assistant message, or, when the
merge cannot be sure, an error response naming the refusal, so the client can fall back to
its model. Nothing is read from or written to disk.

It sits with the MCP server because it is a server of the same kind: an HTTP endpoint
behind the MCP transport's guard (:mod:`.http`), started by a command of the command line.

Routes (all ``POST``, JSON):

=================================  =========================================================
``/v1/chat/completions``           OpenAI chat completions (Morph's base URL ``.../v1``);
                                   ``stream: true`` answers one server-sent event chunk
``/v1/apply/chat/completions``     the same under Relace's OpenAI-compatible base URL
``/v1/code/apply``                 Relace's REST shape: ``initialCode``, ``editSnippet``
                                   (and ``instruction``) in, ``mergedCode`` out
=================================  =========================================================

Errors use OpenAI's shape, ``{"error": {"message", "type", "param", "code"}}``: 400 for a
request that is not of this form (the field is named), 413 for a body over the limit, and
422 for a refused merge (``code`` is the refusal's, e.g. ``ambiguous``). Access is that of
``patchwright mcp --http`` (:class:`~patchwright.adapters.mcp.http.HttpGuard`): loopback by
default, a bearer token (the client's API key) required off loopback.
"""

from __future__ import annotations

import json
import re
import socket
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from patchwright.adapters.mcp.http import HttpAccess, HttpGuard, http_access
from patchwright.model import PatchwrightError

__all__ = [
    "ApplyPrompt",
    "RequestError",
    "build_app",
    "parse_prompt",
    "serve_apply",
]

#: The model name answered when a request names none.
MODEL_NAME = "patchwright-merge"

_CODE_OPEN = "<code>"
_UPDATE_CLOSE = "</update>"
# where the file ends and the snippet begins; the file itself may hold `</code>` (HTML,
# Markdown), so the boundary is the closing tag directly followed by the update's opening
_BOUNDARY = re.compile(r"</code>\s*<update>")
_INSTRUCTION = re.compile(r"<instruction>(.*?)</instruction>", re.DOTALL)


class RequestError(Exception):
    """A request this server cannot read: answered 400 with ``param`` naming the field."""

    def __init__(self, message: str, param: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.param = param
        self.status = status


@dataclass(frozen=True)
class ApplyPrompt:
    """What a fast-apply request asks for.

    Attributes:
        code: the file as it is (the text between ``<code>`` and ``</code>``).
        update: the lazy snippet (between ``<update>`` and ``</update>``).
        instruction: what the edit is for, when given (not needed by the merge).
    """

    code: str
    update: str
    instruction: str = ""


def parse_prompt(content: str) -> ApplyPrompt:
    """The file and snippet of a fast-apply user message.

    Raises:
        RequestError: a tag is missing, or the boundary between file and snippet occurs
            more than once (the file itself holds ``</code><update>``).
    """
    param = "messages[].content"
    start = content.find(_CODE_OPEN)
    end = content.rfind(_UPDATE_CLOSE)
    if start < 0 or end < 0:
        raise RequestError(
            "The user message needs the file in <code>...</code> followed by the edit "
            "snippet in <update>...</update>.",
            param,
        )
    inner = content[start + len(_CODE_OPEN) : end]
    boundaries = list(_BOUNDARY.finditer(inner))
    if len(boundaries) != 1:
        found = "no" if not boundaries else f"{len(boundaries)}"
        raise RequestError(
            f"Expected one '</code>' directly followed by '<update>', found {found}: "
            "send the file and the snippet each once, file first.",
            param,
        )
    cut = boundaries[0]
    head = content[:start]
    instruction = _INSTRUCTION.search(head)
    return ApplyPrompt(
        code=inner[: cut.start()],
        update=inner[cut.end() :],
        instruction=instruction.group(1).strip() if instruction else "",
    )


def _user_content(body: dict[str, Any]) -> str:
    """The text of the last user message of a chat-completions body."""
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise RequestError("'messages' must be a non-empty list of chat messages.", "messages")
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            return _text_of(message.get("content"))
    raise RequestError("No message with role 'user' holds the <code> and <update>.", "messages")


def _text_of(content: object) -> str:
    """A message's text: a string, or the text parts of a content list joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [
            p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text"
        ]
        if parts:
            return "".join(str(p) for p in parts)
    raise RequestError(
        "The user message's content must be a string or a list of text parts.",
        "messages[].content",
    )


def _merge(prompt: ApplyPrompt) -> str:
    """The merged file (the refusal is raised as :class:`PatchwrightError`)."""
    from patchwright import merge_snippet

    return merge_snippet(prompt.code, prompt.update)


def _error(status: int, message: str, kind: str, param: str | None, code: str) -> JSONResponse:
    body = {"error": {"message": message, "type": kind, "param": param, "code": code}}
    return JSONResponse(body, status_code=status)


def _refusal(err: PatchwrightError) -> JSONResponse:
    """A refused merge: 422, with the refusal's whole text for the client's log."""
    return _error(422, err.render(), "merge_refused", "messages", err.code.value)


async def _json_body(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, read up to ``limit`` bytes.

    Raises:
        RequestError: too large (413), not JSON, or not an object.
    """
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise RequestError(
                f"The request body is larger than {limit} bytes: raise --max-message-mb "
                "or send a smaller file.",
                "body",
                status=413,
            )
        chunks.append(chunk)
    try:
        body = json.loads(b"".join(chunks))
    except (ValueError, UnicodeDecodeError) as exc:
        raise RequestError(f"The body is not JSON: {exc}.", "body") from None
    if not isinstance(body, dict):
        raise RequestError("The body must be a JSON object.", "body")
    return body


def _completion(model: str, text: str) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": "stop",
            }
        ],
    }


async def _stream(model: str, text: str) -> AsyncIterator[bytes]:
    """The merged file as one chat-completion chunk, then the end of the stream."""
    ident, created = f"chatcmpl-{uuid.uuid4().hex}", int(time.time())
    for delta, finish in (({"role": "assistant", "content": text}, None), ({}, "stop")):
        chunk = {
            "id": ident,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        yield f"data: {json.dumps(chunk)}\n\n".encode()
    yield b"data: [DONE]\n\n"


def build_app(max_body_bytes: int) -> Starlette:
    """The fast-apply routes (without the access guard; see :func:`serve_apply`)."""

    async def chat(request: Request) -> Response:
        try:
            body = await _json_body(request, max_body_bytes)
            prompt = parse_prompt(_user_content(body))
            model = str(body.get("model") or MODEL_NAME)
            merged = await anyio.to_thread.run_sync(_merge, prompt)
        except RequestError as exc:
            return _error(exc.status, exc.message, "invalid_request_error", exc.param, "invalid")
        except PatchwrightError as err:
            return _refusal(err)
        if body.get("stream"):
            return StreamingResponse(_stream(model, merged), media_type="text/event-stream")
        return JSONResponse(_completion(model, merged))

    async def code_apply(request: Request) -> Response:
        try:
            body = await _json_body(request, max_body_bytes)
            prompt = _rest_prompt(body)
            merged = await anyio.to_thread.run_sync(_merge, prompt)
        except RequestError as exc:
            return _error(exc.status, exc.message, "invalid_request_error", exc.param, "invalid")
        except PatchwrightError as err:
            return _refusal(err)
        return JSONResponse({"mergedCode": merged})

    return Starlette(
        routes=[
            Route("/v1/chat/completions", chat, methods=["POST"]),
            Route("/v1/apply/chat/completions", chat, methods=["POST"]),
            Route("/v1/code/apply", code_apply, methods=["POST"]),
        ]
    )


def _rest_prompt(body: dict[str, Any]) -> ApplyPrompt:
    """The prompt of Relace's REST shape (``initialCode``, ``editSnippet``)."""
    if body.get("stream"):
        raise RequestError(
            "/v1/code/apply answers whole: leave out 'stream', or use /v1/chat/completions.",
            "stream",
        )
    values = {}
    for name in ("initialCode", "editSnippet"):
        value = body.get(name)
        if not isinstance(value, str):
            raise RequestError(f"'{name}' must be a string.", name)
        values[name] = value
    instruction = body.get("instruction")
    return ApplyPrompt(
        values["initialCode"],
        values["editSnippet"],
        instruction if isinstance(instruction, str) else "",
    )


async def serve_apply(
    sock: socket.socket,
    *,
    access: HttpAccess | None = None,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve the fast-apply routes on the bound socket until SIGINT or SIGTERM.

    ``on_ready`` receives the base URL (``http://HOST:PORT/v1``) once the server accepts
    connections; ``access`` (default: loopback rules, no token) is what
    :class:`~patchwright.adapters.mcp.http.HttpGuard` lets through.

    Raises:
        ValueError: ``access`` is ``None`` but the socket is not on loopback.
    """
    import uvicorn

    host, port = sock.getsockname()[:2]
    if access is None:
        access, _ = http_access(host, environ={})
    app = HttpGuard(build_app(access.max_body_bytes), access, host, port)
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    web = uvicorn.Server(config)

    async def announce() -> None:
        # uvicorn sets `started` once it accepts connections
        while not web.started and not web.should_exit:
            await anyio.sleep(0.02)
        if web.started and on_ready is not None:
            shown = f"[{host}]" if ":" in host else host
            on_ready(f"http://{shown}:{port}/v1")

    async with anyio.create_task_group() as tg:
        tg.start_soon(announce)
        await web.serve(sockets=[sock])
        tg.cancel_scope.cancel()
