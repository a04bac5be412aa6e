"""``patchwright log`` / ``show`` / ``undo`` / ``history``: the history from the shell.

``log --all-workspaces`` lists every workspace's batches: with
``PATCHWRIGHT_HISTORY_URL`` those of every machine sharing the PostgreSQL history,
otherwise those of every workspace in this machine's state folder. ``log`` narrows the
list with ``--file``, ``--session`` (session or client), ``--since``, ``--until``,
``--machine`` and ``--status``. ``show`` takes an ID of this workspace's history (a
batch, file patch or change) or a proposal (``p-``); ``show --all-workspaces`` reads any
workspace's record of a shared history: like ``log --all-workspaces`` it is a view for
people, where an agent reads only its own workspace. ``undo`` refuses, naming the
machine and folder to run it in, a batch recorded elsewhere. ``history migrate``
applies the store's schema migrations.
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


#: How many of the newest batches ``log``'s filters look through.
FILTER_WINDOW = 5000


def _color(parser: argparse.ArgumentParser) -> None:
    from patchwright.adapters.cli.terminal import COLOR_CHOICES

    parser.add_argument(
        "--color", choices=COLOR_CHOICES, default="auto",
        help="colour diffs (default auto: on a terminal, unless NO_COLOR is set)",
    )  # fmt: skip


def configure_log(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright log``."""
    _common(parser)
    parser.add_argument("-n", "--limit", type=int, default=20, help="how many batches")
    parser.add_argument(
        "--all-workspaces",
        action="store_true",
        help="every workspace's batches (of every machine, with a shared PostgreSQL history; "
        "a view for people)",
    )
    parser.add_argument("--file", default="", help="only batches touching a path containing this")
    parser.add_argument(
        "--session", default="", help="only batches whose session or client name contains this"
    )
    parser.add_argument("--since", default="", help="only batches since (ISO 8601 time, or 2h, 1d)")
    parser.add_argument("--until", default="", help="only batches until (ISO 8601 time, or 2h)")
    parser.add_argument("--machine", default="", help="only batches recorded on this machine")
    parser.add_argument(
        "--status", default="", choices=("", "active", "undone", "undo"),
        help="active (not undone), undone, or undo (batches that undo another)",
    )  # fmt: skip


def configure_show(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``patchwright show``."""
    _common(parser)
    _color(parser)
    parser.add_argument(
        "id", help="a batch (b-...), file patch (f-...), change (c-...) or proposal (p-...) ID"
    )
    parser.add_argument(
        "--all-workspaces",
        action="store_true",
        help="read a record of any workspace of a shared history (a view for people)",
    )


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
    """List recent batches, newest first (narrowed by the filters given)."""
    from patchwright.adapters.review.data import Filters
    from patchwright.model import PatchwrightError
    from patchwright.workspace import Workspace, default_state_dir
    from patchwright.workspace.history import list_all_workspaces

    if args.limit < 1:
        print(f"patchwright log: --limit must be 1 or more, got {args.limit}", file=sys.stderr)
        return 2
    try:
        filters = Filters.from_query(
            {k: getattr(args, k) for k in ("file", "session", "since", "until", "machine",
                                           "status")}
        )  # fmt: skip
    except ValueError as exc:
        print(f"patchwright log: --{exc}", file=sys.stderr)
        return 2
    window = FILTER_WINDOW if filters != Filters() else args.limit
    try:
        if args.all_workspaces:
            batches = list_all_workspaces(default_state_dir(), window)
        else:
            batches = Workspace(args.root).history.list_batches(limit=window)
    except PatchwrightError as err:
        return _refused(err)
    batches = [b for b in batches if filters.accepts(b)][: args.limit]
    if args.json:
        print(json.dumps(batches, indent=2))
        return 0
    if not batches:
        where = "" if args.all_workspaces else " for this workspace"
        narrowed = " that match" if filters != Filters() else ""
        print(f"No changes{narrowed} recorded{where}.")
    for b in batches:
        files = ", ".join(quote_name(f["path"]) for f in b["files"])
        flags = f" (reverted by {b['reverted_by']})" if b.get("reverted_by") else ""
        flags += f" (reverts {b['reverts']})" if b.get("reverts") else ""
        machine, where = quote_name(b.get("machine") or "-"), quote_name(b.get("workspace") or "-")
        place = f"{machine}:{where}  " * args.all_workspaces
        who = " ".join(visible(w) for w in _caller(b) if w)
        who = f"[{who}]  " if who else ""
        tool = visible(b["tool"] or "-")
        print(f"{b['id']}  {b['created_at']}  {place}{tool:<20} {who}{files}{flags}")
    return 0


def _caller(batch: dict[str, Any]) -> tuple[str, str]:
    from patchwright.adapters.review.data import caller

    return caller(batch)


def run_show(args: argparse.Namespace) -> int:
    """Print one record with its diff."""
    from patchwright.adapters.cli.terminal import use_color
    from patchwright.model import PatchwrightError
    from patchwright.workspace import Workspace

    try:
        ws = Workspace(args.root)
        if args.id.startswith("p-"):
            proposal = ws.proposals.get(args.id)
            item = proposal.to_dict() | {"kind": "proposal"}
        else:
            item = ws.history.get(args.id, anywhere=args.all_workspaces)
    except PatchwrightError as err:
        return _refused(err)
    if args.json:
        print(json.dumps(item, indent=2))
        return 0
    _print_item(item, color=use_color(args.color, sys.stdout))
    return 0


def _print_item(item: dict[str, Any], *, color: bool) -> None:
    from patchwright.adapters.cli.terminal import write_diff

    kind = item.get("kind")
    if kind == "batch":
        print(f"batch {item['id']}  {item['created_at']}  tool={visible(str(item['tool']))}")
        if item.get("machine"):
            machine, where = quote_name(item["machine"]), quote_name(item["workspace"] or "-")
            print(f"  on {machine} in {where}  session {visible(str(item['session']))}")
        client, session = _caller(item)
        if client or session:
            print(f"  by {visible(' '.join(w for w in (client, session) if w))}")
        if item.get("label"):
            print(f"  {visible(item['label'])}")
        if item.get("answer"):
            print("  answered: " + visible(item["answer"]).replace("\n", "\n            "))
        for f in item["files"]:
            print(f"file {f['id']}  {f['action']} {quote_name(f['path'])}")
            write_diff(f.get("diff") or "", sys.stdout, color=color)
    elif kind == "file":
        path = quote_name(item["path"])
        print(f"file {item['id']}  {item['action']} {path}  (batch {item['batch_id']})")
        write_diff(item.get("diff") or "", sys.stdout, color=color)
    elif kind == "proposal":
        tool = visible(item["tool"])
        print(f"proposal {item['id']}  {item['created_at']}  {item['status']}  tool={tool}")
        machine, where = quote_name(item["machine"]), quote_name(item["workspace"] or "-")
        print(f"  from {machine} in {where}  session {visible(item['session'] or '-')}")
        if item.get("reason"):
            print(f"  reason: {visible(item['reason'])}")
        if item.get("batch_id"):
            print(f"  applied as batch {item['batch_id']}")
        if item.get("label"):
            print(f"  {visible(item['label'])}")
        for f in item["files"]:
            print(f"file {f['action']} {quote_name(f['path'])}")
            write_diff(f.get("diff") or "", sys.stdout, color=color)
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
