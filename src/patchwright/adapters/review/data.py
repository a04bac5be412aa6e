"""What the review page shows, read through the workspace's public history methods.

:class:`ReviewData` turns history batches and pending proposals into JSON-ready
summaries (time, client and session, tool, files, lines added and removed, the batch's
description, the answer its call gave and its changes' descriptions), filters them
(:class:`Filters`, which ``patchwright log`` uses too) by file, client or session,
machine, status and time, and renders one batch's or proposal's diff as HTML. A batch
never changes once recorded, apart from who undid it and the answer noted once its call
answered, so its full record is read once and kept (the answer taken from each
listing).
"""

from __future__ import annotations

import re
import threading
from datetime import datetime, timedelta, timezone
from typing import Any

from patchwright._records import record
from patchwright.adapters.diffstat import count
from patchwright.adapters.review.render import files_html
from patchwright.model.quoting import quote_name, visible, visible_lines
from patchwright.workspace import Workspace

#: The newest batches the page lists (filters apply within them).
LIST_LIMIT = 500

#: Batch statuses a filter may ask for: not undone, undone, an undo itself.
STATUSES = ("active", "undone", "undo")


@record(frozen=True)
class Filters:
    """What a list of batches is narrowed to (the review page's and ``patchwright log``'s).

    Attributes:
        file: a fragment of a path the batch touches (any case).
        session: a fragment of the batch's session or client name (any case).
        since / until: a time range (inclusive).
        machine: the machine that recorded it (exactly; the fleet view).
        status: one of :data:`STATUSES`, or empty for any.
    """

    file: str = ""
    session: str = ""
    since: datetime | None = None
    until: datetime | None = None
    machine: str = ""
    status: str = ""

    @classmethod
    def from_query(cls, query: dict[str, str]) -> Filters:
        """Filters from query parameters ``file``, ``session``, ``since``, ``until``,
        ``machine`` and ``status``.

        Raises:
            ValueError: a time that is not ISO 8601 or a duration, or an unknown status
                (the message names the parameter).
        """
        status = query.get("status", "").strip()
        if status and status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}, got {status!r}.")
        return cls(
            file=query.get("file", "").strip(),
            session=query.get("session", "").strip(),
            since=parse_time(query.get("since", ""), "since"),
            until=parse_time(query.get("until", ""), "until"),
            machine=query.get("machine", "").strip(),
            status=status,
        )

    def accepts(self, batch: dict[str, Any]) -> bool:
        """Whether a batch as listed (:meth:`History.list_batches`) passes every filter."""
        paths = [f["path"] for f in batch["files"]] + [
            f["move_from"] for f in batch["files"] if f.get("move_from")
        ]
        if self.file and not any(self.file.lower() in p.lower() for p in paths):
            return False
        if self.session and not any(self.session.lower() in who.lower() for who in caller(batch)):
            return False
        if self.machine and batch.get("machine") != self.machine:
            return False
        if self.status and self.status != batch_status(batch):
            return False
        created = parse_time(batch["created_at"], "created_at")
        if self.since is not None and created is not None and created < self.since:
            return False
        return not (self.until is not None and created is not None and created > self.until)


def caller(batch: dict[str, Any]) -> tuple[str, str]:
    """The client (name and version, from MCP ``clientInfo``) and session that made a
    batch, each empty when not recorded."""
    meta = batch.get("meta") or {}
    return str(meta.get("client") or ""), str(meta.get("session") or "")


def batch_status(batch: dict[str, Any]) -> str:
    """``undo`` for a batch that undoes another, ``undone``, or ``active``."""
    if batch.get("reverts"):
        return "undo"
    return "undone" if batch.get("reverted_by") else "active"


# a change described only by its number ("Edit 1"): the answer says more
_NUMBERED = re.compile(r"(?:Edit \d+)?")
_DURATION = re.compile(r"(\d+)\s*([smhdw])")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_time(text: str, name: str) -> datetime | None:
    """An ISO 8601 time (``Z`` allowed; no zone means UTC) or a duration back from now
    (``30m``, ``2h``, ``1d``), or ``None`` for empty text.

    Raises:
        ValueError: text that is neither, naming ``name``.
    """
    if not text.strip():
        return None
    duration = _DURATION.fullmatch(text.strip())
    if duration:
        seconds = int(duration.group(1)) * _UNIT_SECONDS[duration.group(2)]
        return datetime.now(timezone.utc) - timedelta(seconds=seconds)
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(
            f"{name} must be an ISO 8601 time such as 2026-01-31T09:30:00Z or a duration "
            f"such as 2h, got {text!r}."
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


class ReviewData:
    """Batches and proposals of one workspace (or, with a shared history, of the fleet),
    ready for the page.

    The page is for people: a batch is read by ID from any workspace of the store (the
    fleet view), where an agent's reads stay in its own workspace.
    """

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._full: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    @property
    def shared(self) -> bool:
        """Whether the history holds other workspaces and machines (a fleet view exists)."""
        return self.workspace.history.shared

    def batch(self, batch_id: str) -> dict[str, Any]:
        """A batch's full record (cached; see the module docstring).

        Raises:
            PatchwrightError: ``history`` for an unknown ID.
        """
        with self._lock:
            cached = self._full.get(batch_id)
        if cached is None:
            cached = self.workspace.history.get(batch_id, anywhere=True)
            if cached.get("kind") != "batch":
                from patchwright.model import ErrorCode, PatchwrightError

                raise PatchwrightError(
                    ErrorCode.HISTORY,
                    f"{batch_id!r} is not a batch ID.",
                    "Batch IDs start with 'b-'.",
                )
            with self._lock:
                self._full[batch_id] = cached
        return cached

    def batches(self, filters: Filters, *, fleet: bool = False) -> dict[str, Any]:
        """Summaries of the newest batches passing ``filters``, every session and machine
        seen; ``fleet``: of every workspace and machine of a shared history."""
        history = self.workspace.history
        listed = history.list_batches(limit=LIST_LIMIT, all_workspaces=fleet and self.shared)
        sessions = sorted({who for b in listed for who in caller(b) if who})
        machines = sorted({str(b["machine"]) for b in listed if b.get("machine")})
        return {
            "batches": [self._summary(b) for b in listed if filters.accepts(b)],
            "sessions": sessions,
            "machines": machines,
            "total": len(listed),
            "shared": self.shared,
        }

    def _here(self, item: dict[str, Any]) -> bool:
        scope = self.workspace.history.scope
        place = (item.get("machine"), item.get("workspace"))
        return not self.shared or place == (scope.machine, scope.workspace)

    def _summary(self, brief: dict[str, Any]) -> dict[str, Any]:
        full = self.batch(brief["id"])
        with self._lock:  # the answer is noted just after the batch: keep the newest
            full["answer"] = brief.get("answer")
        added = removed = 0
        descriptions: list[str] = []
        for f in full["files"]:
            plus, minus = count(f.get("diff") or "")
            added, removed = added + plus, removed + minus
            descriptions.extend(
                c["description"] for c in f["changes"] if not _NUMBERED.fullmatch(c["description"])
            )
        client, session = caller(brief)
        return {
            "id": brief["id"],
            "created_at": brief["created_at"],
            # what the page shows, control characters visible (quoting.py)
            "tool": visible(brief["tool"]) if brief["tool"] else brief["tool"],
            "client": visible(client) if client else client,
            "session": visible(session) if session else session,
            "label": visible(brief["label"] or ""),
            "answer": visible_lines(brief.get("answer") or ""),
            "changes": [visible(d) for d in descriptions],
            "paths": [quote_name(f["path"]) for f in brief["files"]],
            "added": added,
            "removed": removed,
            "reverts": brief["reverts"],
            "reverted_by": brief["reverted_by"],
            "machine": brief.get("machine") or "",
            "workspace": brief.get("workspace") or "",
            "here": self._here(brief),
        }

    def batch_html(self, batch_id: str, view: str) -> dict[str, Any]:
        """One batch's diff as HTML, with its summary fields."""
        full = self.batch(batch_id)
        client, session = caller(full)
        return {
            "id": batch_id, "label": visible(full["label"] or ""),
            "html": files_html(full["files"], view),
            "client": visible(client) if client else client,
            "session": visible(session) if session else session,
            "answer": visible_lines(full.get("answer") or ""),
        }  # fmt: skip

    def proposals(self) -> list[dict[str, Any]]:
        """The proposals waiting for a decision (every machine's, with a shared history),
        oldest first, with their line counts."""
        out = []
        decisions = self.workspace.proposals
        for p in decisions.pending():
            data = p.to_dict()
            stats = [count(f.get("diff") or "") for f in p.files]
            data["added"] = sum(a for a, _ in stats)
            data["removed"] = sum(r for _, r in stats)
            data["paths"] = [quote_name(f["path"]) for f in p.files]
            data["label"] = visible(p.label or "")
            data["tool"] = visible(p.tool) if p.tool else p.tool
            data["session"] = visible(p.session) if p.session else p.session
            data["here"] = decisions.store.is_here(p)
            del data["files"]
            out.append(data)
        return out

    def proposal_html(self, proposal_id: str, view: str) -> dict[str, Any]:
        """One proposal's diff as HTML."""
        p = self.workspace.proposals.get(proposal_id)
        label = visible(p.label or "")
        return {"id": p.id, "label": label, "status": p.status, "html": files_html(p.files, view)}
