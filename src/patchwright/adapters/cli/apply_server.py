"""``patchwright apply-server``: the fast-apply drop-in (see
:mod:`patchwright.adapters.mcp.apply_server`).

Point a Morph- or Relace-compatible client's base URL at the address it prints (for
example ``http://127.0.0.1:8766/v1``); its API key is the token when one is required.
"""

from __future__ import annotations

import argparse
import contextlib
import sys

from patchwright.adapters.cli.mcp import parse_endpoint

#: Where the server listens when ``--listen`` is not given (a fixed port, so a client's
#: base URL can be configured once).
DEFAULT_LISTEN = "127.0.0.1:8766"


def configure_apply_server(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright apply-server``."""
    parser.add_argument(
        "--listen",
        default=DEFAULT_LISTEN,
        metavar="HOST:PORT",
        help=f"where to listen (default {DEFAULT_LISTEN}; PORT 0 picks a free port)",
    )
    parser.add_argument(
        "--token",
        metavar="TOKEN",
        help="require 'Authorization: Bearer TOKEN' (the client's API key); 'generate' "
        "makes one and prints it once; also read from PATCHWRIGHT_MCP_TOKEN; required "
        "off loopback",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="also accept browser requests from ORIGIN (repeatable)",
    )
    parser.add_argument(
        "--max-message-mb",
        type=float,
        default=64.0,
        metavar="MB",
        help="refuse request bodies larger than this (default 64)",
    )


def run_apply_server(args: argparse.Namespace) -> int:
    """Serve until SIGINT or SIGTERM; 2 for a bad address or a missing token."""
    import anyio

    from patchwright.adapters.mcp.apply_server import serve_apply
    from patchwright.adapters.mcp.http import bind, http_access

    try:
        host, port = parse_endpoint(args.listen, "--listen")
        access, shown = http_access(
            host,
            allow_origins=args.allow_origin,
            token=args.token,
            max_message_mb=args.max_message_mb,
        )
    except ValueError as exc:
        return _fail(str(exc))
    if shown is not None:
        print(f"patchwright apply-server: bearer token (shown once): {shown}", file=sys.stderr)
    try:
        sock = bind(host, port)
    except OSError as exc:
        return _fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")

    def ready(url: str) -> None:
        print(f"patchwright apply-server: fast-apply base URL {url}", file=sys.stderr, flush=True)

    try:
        with contextlib.suppress(KeyboardInterrupt):
            anyio.run(lambda: serve_apply(sock, access=access, on_ready=ready))
    finally:
        sock.close()
    return 0


def _fail(message: str) -> int:
    print(f"patchwright apply-server: {message}", file=sys.stderr)
    return 2
