"""``patchwright review [--root R] [--port N] [--no-open]``: serve the review page.

The page is served on loopback by default and reached through a URL carrying a random
token, printed on one line of standard output (``--port 0``, the default, picks a free
port). The browser opens on it unless ``--no-open``. Ctrl-C or SIGTERM stops the server.
Exit codes: 0 stopped, 2 usage error (a root that is not a folder, an address that
cannot be bound).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import socket

    from patchwright.workspace import Workspace

DEFAULT_HOST = "127.0.0.1"


def configure_review(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright review``."""
    parser.add_argument("--root", default=".", help="the workspace folder (default: here)")
    parser.add_argument(
        "--port", type=int, default=0, help="port to listen on (default 0: a free port)"
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to listen on (default {DEFAULT_HOST}; others expose your files)",
    )
    parser.add_argument("--no-open", action="store_true", help="do not open a browser")


def _fail(message: str) -> int:
    print(f"patchwright review: {message}", file=sys.stderr)
    return 2


def run_review(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C / SIGTERM."""
    from patchwright.model import PatchwrightError
    from patchwright.workspace import Workspace

    if not 0 <= args.port <= 65535:
        return _fail(f"--port must be from 0 to 65535, got {args.port}")
    try:
        workspace = Workspace(args.root, session="review")
    except PatchwrightError as err:
        return _fail(f"--root {args.root}: {err.message}")
    from patchwright.adapters.mcp.http import bind

    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        return _fail(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}")
    try:
        _serve(workspace, sock, args.host, open_browser=not args.no_open)
    finally:
        sock.close()
    return 0


def _serve(workspace: Workspace, sock: socket.socket, host: str, *, open_browser: bool) -> None:
    import anyio
    import uvicorn

    from patchwright.adapters.review.app import LOOPBACK_NAMES, build_app, new_token

    token = new_token()
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/?token={token}"
    hosts = LOOPBACK_NAMES if host in LOOPBACK_NAMES else (host,)
    app = build_app(workspace, token, hosts=hosts)
    config = uvicorn.Config(app, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=2)  # fmt: skip
    web = uvicorn.Server(config)

    async def announce() -> None:
        while not web.started and not web.should_exit:
            await anyio.sleep(0.02)
        if web.started:
            print(f"patchwright review: {url}", flush=True)
            if open_browser:
                import webbrowser

                webbrowser.open(url)

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(announce)
            await web.serve(sockets=[sock])
            tg.cancel_scope.cancel()

    with contextlib.suppress(KeyboardInterrupt):
        anyio.run(main)
