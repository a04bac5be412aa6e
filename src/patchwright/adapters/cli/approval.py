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
    from patchwright.adapters.cli.terminal import COLOR_CHOICES

    _root(parser)
    parser.add_argument("--json", action="store_true", help="print a JSON list of objects")
    parser.add_argument(
        "--color", choices=COLOR_CHOICES, default="auto",
        help="colour the diffs (default auto: on a terminal, unless NO_COLOR is set)",
    )  # fmt: skip
    parser.add_argument("--no-diff", action="store_true", help="list the proposals without diffs")


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
    """List the proposals waiting for a decision, oldest first, each with its diff.

    With a shared history these are every machine's; a proposal of another workspace
    is shown with the machine and folder that made it (approving it has that machine's
    waiting server write it).
    """
    from patchwright.adapters.cli.terminal import use_color, write_diff
    from patchwright.model import PatchwrightError

    ws = _open(args.root, "pending")
    if ws is None:
        return 2
    try:
        decisions = ws.proposals
        pending = decisions.pending()
    except PatchwrightError as err:
        print(err.render(), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps([p.to_dict() for p in pending], indent=2))
        return 0
    if not pending:
        print(f"No changes wait for approval in {quote_name(str(ws.root))}.")
    color = use_color(args.color, sys.stdout)
    for p in pending:
        # a label or a name can neither erase nor add a line of this listing
        files = ", ".join(quote_name(f["path"]) for f in p.files)
        who = f" [{visible(p.session)}]" if p.session else ""
        here = decisions.store.is_here(p)
        where = "" if here else f"  {quote_name(p.machine)}:{quote_name(p.workspace)}"
        print(f"{p.id}  {p.created_at}  {visible(p.tool or '-')}{who}{where}  {files}")
        if p.label:
            print(f"    {visible(p.label)}")
        if not args.no_diff:
            for f in p.files:
                write_diff(f.get("diff") or "", sys.stdout, color=color)
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
