"""``patchwright log`` / ``show`` / ``undo`` / ``history``: the history from the shell.

``log --all-workspaces`` lists every workspace's batches: with
``PATCHWRIGHT_HISTORY_URL`` those of every machine sharing the PostgreSQL history,
otherwise those of every workspace in this machine's state folder. ``show`` takes any
ID the store holds; ``undo`` refuses, naming the machine and folder to run it in, a
batch recorded elsewhere. ``history migrate`` applies the store's schema migrations.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from patchwright.model.quoting import quote_name, visible, visible_lines

TYPE_CHECKING = False  # no ``typing`` checks at run time: start-up time
if TYPE_CHECKING:  # pragma: no cover
    from patchwright.model import PatchwrightError


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", default=".", help="the workspace folder (default: here)")
    parser.add_argument("--json", action="store_true", help="print JSON")


def _refused(err: PatchwrightError) -> int:
    print(visible_lines(err.render()), file=sys.stderr)
    return 1


def configure_log(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright log``."""
    _common(parser)
    parser.add_argument("-n", "--limit", type=int, default=20, help="how many batches")
    parser.add_argument(
        "--all-workspaces",
        action="store_true",
        help="every workspace's batches (of every machine, with a shared PostgreSQL history)",
    )


def configure_show(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright show``."""
    _common(parser)
    parser.add_argument("id", help="a batch (b-...), file patch (f-...) or change (c-...) ID")


def configure_undo(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright undo``."""
    _common(parser)
    parser.add_argument("id", nargs="?", help="the batch to revert (default: the latest)")


def configure_history(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright history``."""
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    migrate = sub.add_parser(
        "migrate",
        help="apply the history store's schema migrations (also done on first use)",
        description="Apply the schema migrations the history store lacks: the shared "
        "PostgreSQL history when PATCHWRIGHT_HISTORY_URL is set, else this workspace's.",
    )
    _common(migrate)


def run_log(args: argparse.Namespace) -> int:
    """List recent batches, newest first."""
    from patchwright.model import PatchwrightError
    from patchwright.workspace import Workspace, default_state_dir
    from patchwright.workspace.history import list_all_workspaces

    try:
        if args.all_workspaces:
            batches = list_all_workspaces(default_state_dir(), args.limit)
        else:
            batches = Workspace(args.root).history.list_batches(limit=args.limit)
    except PatchwrightError as err:
        return _refused(err)
    if args.json:
        print(json.dumps(batches, indent=2))
        return 0
    if not batches:
        print("No changes recorded" + ("." if args.all_workspaces else " for this workspace."))
    for b in batches:
        files = ", ".join(quote_name(f["path"]) for f in b["files"])
        flags = f" (reverted by {b['reverted_by']})" if b.get("reverted_by") else ""
        flags += f" (reverts {b['reverts']})" if b.get("reverts") else ""
        machine, where = quote_name(b.get("machine") or "-"), quote_name(b.get("workspace") or "-")
        place = f"{machine}:{where}  " * args.all_workspaces
        print(
            f"{b['id']}  {b['created_at']}  {place}{visible(b['tool'] or '-'):<20} {files}{flags}"
        )
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Print one record with its diff."""
    from patchwright.model import PatchwrightError
    from patchwright.workspace import Workspace

    try:
        item = Workspace(args.root).history.get(args.id)
    except PatchwrightError as err:
        return _refused(err)
    if args.json:
        print(json.dumps(item, indent=2))
        return 0
    _print_item(item)
    return 0


def _print_item(item: dict[str, Any]) -> None:
    kind = item.get("kind")
    if kind == "batch":
        print(f"batch {item['id']}  {item['created_at']}  tool={visible(str(item['tool']))}")
        if item.get("machine"):
            machine, where = quote_name(item["machine"]), quote_name(item["workspace"] or "-")
            print(f"  on {machine} in {where}  session {visible(str(item['session']))}")
        if item.get("label"):
            print(f"  {visible(item['label'])}")
        for f in item["files"]:
            print(f"file {f['id']}  {f['action']} {quote_name(f['path'])}")
            sys.stdout.write(visible_lines(f.get("diff") or ""))
    elif kind == "file":
        path = quote_name(item["path"])
        print(f"file {item['id']}  {item['action']} {path}  (batch {item['batch_id']})")
        sys.stdout.write(visible_lines(item.get("diff") or ""))
    else:
        print(json.dumps(item, indent=2))


def run_undo(args: argparse.Namespace) -> int:
    """Revert a batch; refuses (exit 1) when a file changed since or it is not this
    workspace's batch."""
    from patchwright.model import PatchwrightError
    from patchwright.workspace import Workspace

    try:
        record = Workspace(args.root).undo(args.id)
    except PatchwrightError as err:
        return _refused(err)
    if args.json:
        print(json.dumps(record.to_dict(), indent=2))
        return 0
    print(f"Reverted {record.reverts} as batch {record.batch_id}.")
    for f in record.files:
        sys.stdout.write(visible_lines(f.diff))
    return 0


def run_history(args: argparse.Namespace) -> int:
    """``history migrate``: bring the store's schema up to date and say what was done."""
    from patchwright.model import PatchwrightError
    from patchwright.workspace import Workspace

    try:
        store = Workspace(args.root).history
        applied = store.migrate()
        versions = store.versions()
    except PatchwrightError as err:
        return _refused(err)
    if args.json:
        report = {"store": store.describe(), "applied": applied, "versions": versions}
        print(json.dumps(report, indent=2))
        return 0
    done = f"applied {', '.join(map(str, applied))}" if applied else "nothing to apply"
    print(f"History {store.describe()}: schema version {max(versions)} ({done}).")
    return 0
