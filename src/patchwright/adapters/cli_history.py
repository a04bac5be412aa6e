"""``patchwright log`` / ``show`` / ``undo``: the workspace history from the shell."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default=".", help="the workspace folder (default: here)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def configure_log(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright log``."""
    _common(parser)
    parser.add_argument("-n", "--limit", type=int, default=20, help="how many batches")


def configure_show(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright show``."""
    _common(parser)
    parser.add_argument("id", help="a batch (b-...), file patch (f-...) or change (c-...) ID")


def configure_undo(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright undo``."""
    _common(parser)
    parser.add_argument("id", nargs="?", help="the batch to revert (default: the latest)")


def run_log(args: argparse.Namespace) -> int:
    """List recent batches, newest first."""
    from patchwright.workspace import Workspace

    batches = Workspace(args.root).history.list_batches(limit=args.limit)
    if args.json:
        print(json.dumps(batches, indent=2))
        return 0
    if not batches:
        print("No changes recorded for this workspace.")
    for b in batches:
        files = ", ".join(f["path"] for f in b["files"])
        flags = f" (reverted by {b['reverted_by']})" if b.get("reverted_by") else ""
        flags += f" (reverts {b['reverts']})" if b.get("reverts") else ""
        print(f"{b['id']}  {b['created_at']}  {b['tool'] or '-':<20} {files}{flags}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Print one record with its diff."""
    from patchwright.model import PatchwrightError
    from patchwright.workspace import Workspace

    try:
        item = Workspace(args.root).history.get(args.id)
    except PatchwrightError as err:
        print(err.render(), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(item, indent=2))
        return 0
    _print_item(item)
    return 0


def _print_item(item: dict[str, Any]) -> None:
    kind = item.get("kind")
    if kind == "batch":
        print(f"batch {item['id']}  {item['created_at']}  tool={item['tool']}")
        if item.get("label"):
            print(f"  {item['label']}")
        for f in item["files"]:
            print(f"file {f['id']}  {f['action']} {f['path']}")
            sys.stdout.write(f.get("diff") or "")
    elif kind == "file":
        print(f"file {item['id']}  {item['action']} {item['path']}  (batch {item['batch_id']})")
        sys.stdout.write(item.get("diff") or "")
    else:
        print(json.dumps(item, indent=2))


def run_undo(args: argparse.Namespace) -> int:
    """Revert a batch; refuses (exit 1) when a file changed since."""
    from patchwright.model import PatchwrightError
    from patchwright.workspace import Workspace

    try:
        record = Workspace(args.root).undo(args.id)
    except PatchwrightError as err:
        print(err.render(), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(record.to_dict(), indent=2))
        return 0
    print(f"Reverted {record.reverts} as batch {record.batch_id}.")
    for f in record.files:
        sys.stdout.write(f.diff)
    return 0
