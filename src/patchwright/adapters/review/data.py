"""What the review page shows, read through the workspace's public history methods.

:class:`ReviewData` turns history batches and pending proposals into JSON-ready
summaries (time, session, tool, files, lines added and removed, the batch's description
and its changes' descriptions), filters them by file, session and time, and renders one
batch's or proposal's diff as HTML. A batch never changes once recorded, apart from who
undid it, so its full record is read once and kept.
"""

from __future__ import annotations

import threading
from datetime import datetime, timezone
from typing import Any

from patchwright._records import record
from patchwright.adapters.diffstat import count
from patchwright.adapters.review.render import files_html
from patchwright.model.quoting import quote_name, visible
from patchwright.workspace import Workspace

#: The newest batches the page lists (filters apply within them).
LIST_LIMIT = 500


@record(frozen=True)
class Filters:
    """What the list is narrowed to: a path fragment, a session, a time range."""

    file: str = ""
    session: str = ""
    since: datetime | None = None
    until: datetime | None = None

    @classmethod
    def from_query(cls, query: dict[str, str]) -> Filters:
        """Filters from query parameters ``file``, ``session``, ``since`` and ``until``.

        Raises:
            ValueError: a time that is not ISO 8601 (the message names the parameter).
        """
        return cls(
            file=query.get("file", "").strip(),
            session=query.get("session", "").strip(),
            since=parse_time(query.get("since", ""), "since"),
            until=parse_time(query.get("until", ""), "until"),
        )

    def accepts(self, item: dict[str, Any]) -> bool:
        """Whether a summary (see :meth:`ReviewData.batches`) passes every filter."""
        if self.file and not any(self.file.lower() in f.lower() for f in item["paths"]):
            return False
        if self.session and item["session"] != self.session:
            return False
        created = parse_time(item["created_at"], "created_at")
        if self.since is not None and created is not None and created < self.since:
            return False
        return not (self.until is not None and created is not None and created > self.until)


def parse_time(text: str, name: str) -> datetime | None:
    """An ISO 8601 time (``Z`` allowed; no zone means UTC), or ``None`` for empty text.

    Raises:
        ValueError: text that is not such a time, naming ``name``.
    """
    if not text.strip():
        return None
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(
            f"{name} must be an ISO 8601 time such as 2026-01-31T09:30:00Z, got {text!r}."
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


class ReviewData:
    """Batches and proposals of one workspace, ready for the page."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._full: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def batch(self, batch_id: str) -> dict[str, Any]:
        """A batch's full record (cached; see the module docstring).

        Raises:
            PatchwrightError: ``history`` for an unknown ID.
        """
        with self._lock:
            cached = self._full.get(batch_id)
        if cached is None:
            cached = self.workspace.history.get(batch_id)
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

    def batches(self, filters: Filters) -> dict[str, Any]:
        """Summaries of the newest batches passing ``filters``, and every session seen."""
        listed = self.workspace.history.list_batches(limit=LIST_LIMIT)
        summaries = [self._summary(brief) for brief in listed]
        sessions = sorted({s["session"] for s in summaries if s["session"]})
        return {
            "batches": [s for s in summaries if filters.accepts(s)],
            "sessions": sessions,
            "total": len(summaries),
        }

    def _summary(self, brief: dict[str, Any]) -> dict[str, Any]:
        full = self.batch(brief["id"])
        added = removed = 0
        descriptions: list[str] = []
        for f in full["files"]:
            plus, minus = count(f.get("diff") or "")
            added, removed = added + plus, removed + minus
            descriptions.extend(c["description"] for c in f["changes"] if c["description"])
        return {
            "id": brief["id"],
            "created_at": brief["created_at"],
            # what the page shows, control characters visible (quoting.py)
            "tool": visible(brief["tool"]) if brief["tool"] else brief["tool"],
            "session": visible(str((brief.get("meta") or {}).get("session") or "")),
            "label": visible(brief["label"] or ""),
            "changes": [visible(d) for d in descriptions],
            "paths": [quote_name(f["path"]) for f in brief["files"]],
            "added": added,
            "removed": removed,
            "reverts": brief["reverts"],
            "reverted_by": brief["reverted_by"],
        }

    def batch_html(self, batch_id: str, view: str) -> dict[str, Any]:
        """One batch's diff as HTML, with its summary fields."""
        full = self.batch(batch_id)
        label = visible(full["label"] or "")
        return {"id": batch_id, "label": label, "html": files_html(full["files"], view)}

    def proposals(self) -> list[dict[str, Any]]:
        """The proposals waiting for a decision, oldest first, with their line counts."""
        out = []
        for p in self.workspace.proposals.pending():
            data = p.to_dict()
            stats = [count(f.get("diff") or "") for f in p.files]
            data["added"] = sum(a for a, _ in stats)
            data["removed"] = sum(r for _, r in stats)
            data["paths"] = [quote_name(f["path"]) for f in p.files]
            data["label"] = visible(p.label or "")
            data["tool"] = visible(p.tool) if p.tool else p.tool
            data["session"] = visible(p.session) if p.session else p.session
            del data["files"]
            out.append(data)
        return out

    def proposal_html(self, proposal_id: str, view: str) -> dict[str, Any]:
        """One proposal's diff as HTML."""
        p = self.workspace.proposals.get(proposal_id)
        label = visible(p.label or "")
        return {"id": p.id, "label": label, "status": p.status, "html": files_html(p.files, view)}
