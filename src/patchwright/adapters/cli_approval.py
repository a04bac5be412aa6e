"""``patchwright pending`` / ``approve`` / ``reject``: decide on writes held for approval.

A server started with ``patchwright mcp --approve`` holds every write as a proposal;
these commands list the proposals of a workspace and decide on them. The agent's call
that waits gets "applied", or "rejected by the user: <reason>". Exit codes: 0 done,
1 refused (unknown ID, no longer pending, stale: a file changed since it was proposed),
2 usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from patchwright.model.quoting import quote_name, visible, visible_lines

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable

    from patchwright.workspace import Workspace


def _root(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default=".", help="the workspace folder (default: here)")


def configure_pending(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright pending``."""
    _root(parser)
    parser.add_argument("--json", action="store_true", help="print a JSON list of objects")


def configure_approve(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright approve``."""
    _root(parser)
    parser.add_argument("id", help="the proposal to write (p-..., see 'patchwright pending')")


def configure_reject(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright reject``."""
    _root(parser)
    parser.add_argument("id", help="the proposal to refuse (p-..., see 'patchwright pending')")
    parser.add_argument(
        "--reason", required=True, help="why; the agent reads it to change its edit"
    )


def _open(root: str, command: str) -> Workspace | None:
    from patchwright.model import PatchwrightError
    from patchwright.workspace import Workspace

    try:
        return Workspace(root)
    except PatchwrightError as err:
        print(
            visible_lines(f"patchwright {command}: --root {quote_name(root)}: {err.message}"),
            file=sys.stderr,
        )
        return None


def run_pending(args: argparse.Namespace) -> int:
    """List the proposals waiting for a decision, oldest first."""
    ws = _open(args.root, "pending")
    if ws is None:
        return 2
    pending = ws.proposals.pending()
    if args.json:
        print(json.dumps([p.to_dict() for p in pending], indent=2))
        return 0
    if not pending:
        print(f"No changes wait for approval in {quote_name(str(ws.root))}.")
    for p in pending:
        # a label or a name can neither erase nor add a line of this listing
        files = ", ".join(quote_name(f["path"]) for f in p.files)
        who = f" [{visible(p.session)}]" if p.session else ""
        print(f"{p.id}  {p.created_at}  {visible(p.tool or '-')}{who}  {files}")
        if p.label:
            print(f"    {visible(p.label)}")
    return 0


def run_approve(args: argparse.Namespace) -> int:
    """Write a proposal; refuses (exit 1) when a file changed since it was proposed."""

    def approve(ws: Workspace) -> str:
        record = ws.proposals.approve(args.id)
        return f"Applied {args.id} as batch {record.batch_id}."

    return _decide(args.root, "approve", approve)


def run_reject(args: argparse.Namespace) -> int:
    """Refuse a proposal; the waiting agent gets the reason."""

    def reject(ws: Workspace) -> str:
        ws.proposals.reject(args.id, args.reason)
        return f"Rejected {args.id}: {visible(args.reason.strip())}"

    return _decide(args.root, "reject", reject)


def _decide(root: str, command: str, decide: Callable[[Workspace], str]) -> int:
    from patchwright.model import PatchwrightError

    ws = _open(root, command)
    if ws is None:
        return 2
    try:
        print(visible_lines(decide(ws)))
    except PatchwrightError as err:
        print(visible_lines(err.render()), file=sys.stderr)
        return 2 if err.field == "reason" else 1
    return 0
