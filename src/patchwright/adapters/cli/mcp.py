"""``patchwright mcp``: serve the tools over the Model Context Protocol.

    patchwright mcp --root path/to/repo                      # stdio (what MCP clients launch)
    patchwright mcp --root . --http 127.0.0.1:8765           # streamable HTTP at /mcp
    patchwright mcp --access restricted --tools read_file    # read-only, one tool
    patchwright mcp --root . --no-history                    # no history: no undo
    patchwright mcp --preset anthropic                       # Anthropic's text editor tool

One process is one session: clipboards persist from call to call until it exits.
``--access restricted`` and the tool selection work as in ``patchwright call``. Exit codes: 0
when the client disconnects (stdio) or on Ctrl-C (one is enough, stdio or HTTP; over
stdio SIGTERM too, over HTTP SIGTERM stops it gracefully, then ends the process as
SIGTERM does), 2 on a usage error (an unknown tool, a root that is not a folder, an
address that cannot be bound). Calls in flight are told the server stops: a write
waiting for approval withdraws its proposal and says so.

Nothing but the protocol goes to standard output; one line of status goes to standard
error (the HTTP endpoint's URL, so ``--http 127.0.0.1:0`` can pick a free port).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import TYPE_CHECKING

from patchwright.adapters.cli.options import add_access, add_encoding, add_syntax
from patchwright.adapters.cli.tools import add_selection, toolbox_options

if TYPE_CHECKING:  # pragma: no cover
    from patchwright.adapters.mcp.http import HttpAccess
    from patchwright.tools import Toolbox

DEFAULT_HOST = "127.0.0.1"


def configure_mcp(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright mcp``."""
    parser.add_argument("--root", default=".", help="the workspace folder (default: here)")
    add_access(parser)
    add_selection(parser)
    add_syntax(parser)
    parser.add_argument(
        "--no-history",
        action="store_true",
        help="record no history (faster edits; undo and get_patch_change then refuse)",
    )
    add_encoding(parser)
    parser.add_argument(
        "--approve",
        action="store_true",
        help="hold every write until a person approves it (patchwright pending / review)",
    )
    parser.add_argument(
        "--approve-timeout", type=float, default=50.0, metavar="S",
        help="seconds a write waits for approval before it is dropped (default 50: under "
        "the 60 s after which common clients give up; raise it for clients that reset "
        "their time-out on progress)",
    )  # fmt: skip
    parser.add_argument(
        "--http",
        metavar="HOST:PORT",
        help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio; "
        f"HOST defaults to {DEFAULT_HOST}, PORT 0 picks a free port",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="HTTP: also accept browser requests from ORIGIN, e.g. http://localhost:3000 "
        "(repeatable; by default only the server's own origin)",
    )
    parser.add_argument(
        "--token",
        metavar="TOKEN",
        help="HTTP: require 'Authorization: Bearer TOKEN' ('generate' makes one and prints "
        "it once; also read from PATCHWRIGHT_MCP_TOKEN); required off loopback",
    )
    parser.add_argument(
        "--session-idle-minutes",
        type=float,
        default=10.0,
        metavar="MIN",
        help="HTTP: close a session after this long without a request (default 10)",
    )
    parser.add_argument(
        "--max-sessions-per-client",
        type=int,
        default=32,
        metavar="N",
        help="HTTP: sessions one client address may hold open (default 32)",
    )
    parser.add_argument(
        "--body-timeout",
        type=float,
        default=30.0,
        metavar="S",
        help="HTTP: seconds a request body has to arrive whole (default 30)",
    )
    parser.add_argument(
        "--max-message-mb",
        type=float,
        default=64.0,
        metavar="MB",
        help="refuse MCP messages larger than this, before reading them whole (default 64)",
    )


def parse_endpoint(value: str, option: str = "--http") -> tuple[str, int]:
    """``HOST:PORT``, ``:PORT``, ``PORT`` or ``[IPV6]:PORT`` as (host, port).

    Raises:
        ValueError: not one of those forms, or a port outside 0-65535.
    """
    text = value.strip()
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host, port_text = "", text
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    elif ":" in host:
        raise ValueError(f"write an IPv6 host in brackets, e.g. [::1]:8765 (got {value!r})")
    if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise ValueError(f"{option} takes HOST:PORT with a port from 0 to 65535 (got {value!r})")
    return host or DEFAULT_HOST, int(port_text)


def _fail(message: str) -> int:
    print(f"patchwright mcp: {message}", file=sys.stderr)
    return 2


def run_mcp(args: argparse.Namespace) -> int:
    """Serve until the client goes away (stdio) or SIGINT / SIGTERM arrives (HTTP)."""
    from patchwright.model import PatchwrightError
    from patchwright.tools import Toolbox
    from patchwright.workspace import Workspace

    try:
        endpoint = parse_endpoint(args.http) if args.http is not None else None
        access = _access(args, endpoint)
        toolbox = Toolbox(
            Workspace(
                args.root,
                mode=args.access,
                history=not args.no_history,
                session=f"mcp-{os.getpid()}",
                encoding=args.encoding,
            ),
            syntax_policy=args.syntax,
            approve=args.approve,
            approve_timeout=args.approve_timeout,
            **toolbox_options(args),
        )
    except ValueError as exc:
        return _fail(str(exc))
    except PatchwrightError as err:
        return _fail(err.render())
    return _serve(toolbox, endpoint, access, int(args.max_message_mb * 2**20))


def _access(args: argparse.Namespace, endpoint: tuple[str, int] | None) -> HttpAccess | None:
    """The HTTP access rules (ValueError: no token off loopback, an empty or blank
    token anywhere, a token without --http); a made token is shown."""
    if endpoint is None:
        if args.token is not None:  # never silently dropped (an empty one least of all)
            raise ValueError(
                "--token applies to --http only: add --http HOST:PORT, or leave --token out"
            )
        return None
    from patchwright.adapters.mcp.http import http_access

    access, shown = http_access(
        endpoint[0],
        allow_origins=args.allow_origin,
        token=args.token,
        max_message_mb=args.max_message_mb,
        idle_minutes=args.session_idle_minutes,
        sessions_per_client=args.max_sessions_per_client,
        body_seconds=args.body_timeout,
    )
    if shown is not None:
        print(f"patchwright mcp: bearer token (shown once): {shown}", file=sys.stderr)
    return access


def _serve(
    toolbox: Toolbox, endpoint: tuple[str, int] | None, access: HttpAccess | None, limit: int
) -> int:
    import logging

    import anyio

    from patchwright.adapters.mcp.server import build_server
    from patchwright.adapters.mcp.stdio import serve_stdio

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    server = build_server(toolbox)
    summary = f"{len(toolbox.specs())} tools on {toolbox.workspace.root} ({toolbox.workspace.mode})"
    if endpoint is None:

        def serving() -> None:  # once Ctrl-C is handled: no traceback from here on
            print(f"patchwright mcp: serving {summary} over stdio", file=sys.stderr, flush=True)

        with contextlib.suppress(KeyboardInterrupt):  # a Ctrl-C while starting
            anyio.run(serve_stdio, server, limit, serving)
        return 0
    from patchwright.adapters.mcp.http import bind, serve_http

    try:
        sock = bind(*endpoint)
    except OSError as exc:
        return _fail(f"cannot listen on {endpoint[0]}:{endpoint[1]}: {exc.strerror or exc}")

    def ready(url: str) -> None:
        print(f"patchwright mcp: serving {summary} at {url}", file=sys.stderr, flush=True)

    try:
        with contextlib.suppress(KeyboardInterrupt):
            anyio.run(lambda: serve_http(server, sock, on_ready=ready, access=access))
    finally:
        sock.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m patchwright.adapters.cli.mcp``: the same as ``patchwright mcp``."""
    parser = argparse.ArgumentParser(
        prog="patchwright mcp", description="Serve patchwright's tools over MCP."
    )
    configure_mcp(parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return run_mcp(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
