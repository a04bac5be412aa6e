"""Approval mode: every write becomes a proposal that a person approves or rejects.

A workspace that requires approval (:meth:`Workspace.require_approval
<patchwright.workspace.Workspace.require_approval>`) does not write when asked to
commit. :meth:`Approval.submit` instead:

1. checks the commit as a dry run (paths, sizes, SHA256 preconditions), so a request
   that could never apply is refused at once, not proposed;
2. stores it as a pending proposal (``p-`` and eight hex digits) in the workspace's
   history store, beside its batches, with each file's SHA256 at that moment and its
   diff, and the machine and workspace proposing it;
3. waits, polling the store, until a person decides (any process may: the CLI's
   ``patchwright approve`` / ``reject``, or the review page) or the time-out passes.

The caller then gets the commit record ("applied"), or a ``rejected`` error carrying
the person's reason, or an ``approval_timeout`` error: nothing written. Approving
(:meth:`Proposals.approve`) commits the stored changes in the approver's process when
the proposal is of the approver's own workspace, each file pinned to the SHA256 it had
when proposed, so a file changed meanwhile makes the proposal ``stale`` and nothing is
written. With a shared (PostgreSQL) history a person may decide on any machine's
proposal, but a machine writes only its own workspace's files: approving another's
proposal sets its status to ``approved``, and the server waiting for it takes it up
and writes it in its own process (:func:`write_proposal` in both cases). Writing never
follows a symlink: the path written is the path shown. Status changes are single SQL
updates guarded by the current status, so a late approval and a time-out cannot both
win.

A proposal is approvable only while its caller waits for it. The caller of the tool
call (an MCP request) is a :class:`Caller`, set around the call with :func:`calling`:
when the client cancels the request, disconnects, or the server stops, the host calls
:meth:`Caller.leave` and the waiting write closes its proposal as ``withdrawn`` within
one poll. While it waits, the process records a heartbeat on the proposal (its host and
process ID, every :data:`HEARTBEAT_SECONDS`) and the moment it stops waiting; approving
refuses, and closes as ``orphaned``, a proposal whose waiting process is gone (on this
machine: no such process; elsewhere: no heartbeat for :data:`ORPHANED_AFTER` seconds),
and as ``timed_out`` one whose wait has passed. An approval whose own process died
before it ended (``approving`` for good) is settled by the next look at it: a
half-written commit is rolled back, and the proposal becomes ``applied`` (its batch is
in the history), ``pending`` again (its caller still waits), or ``failed``.

Statuses: ``pending`` → ``approving`` → ``applied`` | ``stale`` | ``failed``
(or back to ``pending`` after an interrupted approval);
``pending`` → ``approved`` (decided on another machine) → ``approving`` → ...;
``pending`` → ``rejected`` | ``timed_out`` | ``withdrawn`` | ``orphaned``.
"""

from __future__ import annotations

import contextvars
import json
import os
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from patchwright._records import asdict, record, replace
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.workspace.commit import BatchInfo, CommitContext, run_commit
from patchwright.workspace.gate import DEFAULT_APPROVAL_TIMEOUT, ModeGate
from patchwright.workspace.history import History
from patchwright.workspace.history.backend import Row
from patchwright.workspace.records import (
    ChangeRecord,
    CommitRecord,
    FileChange,
    new_id,
    sha256_hex,
    utc_now,
)

#: The statuses after which nothing more happens to a proposal.
FINAL_STATUSES = (
    "applied", "rejected", "timed_out", "stale", "failed", "withdrawn", "orphaned",
)  # fmt: skip
#: Seconds between the heartbeats a waiting caller's process records on its proposal.
HEARTBEAT_SECONDS = 2.0
#: A pending proposal whose waiting process (on another machine) has recorded no
#: heartbeat for this long is orphaned: nobody would be told of its approval.
ORPHANED_AFTER = 15.0
#: An approval running on another machine for this long is taken as interrupted (on
#: this machine, the approving process is looked up instead).
APPROVING_STUCK_AFTER = 300.0
# how long a caller whose time-out passed while an approval was being written waits for
# that write to end (it holds the file locks, whose own time-out bounds it)
_APPLYING_GRACE = 120.0

_COLUMNS = (
    "id, created_at, status, session, tool, label, files, reason, batch_id, decided_at, "
    "waiter, waiter_beat, expires_at, approver, approver_at, machine, workspace"
)
#: How long an approval given on another machine waits for the proposing server to take
#: it up (it looks every ``poll`` seconds) before handing it back as ``pending``.
HANDOVER_TIMEOUT = 30.0


def _history_error(message: str, hint: str, **details: Any) -> PatchwrightError:
    return PatchwrightError(ErrorCode.HISTORY, message, hint, details=details)


def history_needed() -> PatchwrightError:
    """The refusal of approval mode in a workspace that keeps no history."""
    return _history_error(
        "Approval mode needs the workspace history (approved changes are recorded there, "
        "and proposals are kept in its store).",
        "Open the workspace with history=True.",
    )


@record(frozen=True)
class Proposal:
    """A proposed commit as stored (no file contents).

    Attributes:
        id: ``p-`` and eight hex digits.
        created_at: ISO 8601 UTC.
        status: see the module docstring.
        session / tool / label: who proposed it and the batch's description.
        files: per file ``path``, ``action``, ``move_from``, ``before_sha256`` (at
            proposal time) and ``diff``.
        reason: why it was rejected, or why approving it failed.
        batch_id: the history batch once applied.
        decided_at: when it reached its final status.
        waiter: the process whose caller waits for the decision (``host:pid``; empty
            for a proposal stored before waiters were recorded).
        waiter_beat: that process's last heartbeat (seconds since the epoch).
        expires_at: when the caller stops waiting (seconds since the epoch).
        approver: the process writing an approved proposal (``host:pid``).
        approver_at: when it started (seconds since the epoch).
        machine / workspace: where it was proposed (and so where it is written).
    """

    id: str
    created_at: str
    status: str
    session: str
    tool: str
    label: str
    files: list[dict[str, Any]]
    reason: str = ""
    batch_id: str | None = None
    decided_at: str | None = None
    waiter: str = ""
    waiter_beat: float | None = None
    expires_at: float | None = None
    approver: str = ""
    approver_at: float | None = None
    machine: str = ""
    workspace: str = ""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        values: dict[str, Any] = asdict(self)
        return values


class ProposalStore:
    """Proposals in the workspace's history store, beside its batches.

    In a SQLite history that is the workspace's own database; in a shared PostgreSQL
    history every machine's and workspace's proposals are in one table, each with the
    ``machine`` and ``workspace`` that proposed it: listing shows them all (a person
    decides on the whole fleet), and :meth:`is_here` tells which ones this workspace
    writes itself.

    Args:
        history: the workspace's history (its backend and place are used).
    """

    def __init__(self, history: History) -> None:
        self.history = history
        self.backend = history.backend
        self.scope = history.scope

    def is_here(self, proposal: Proposal) -> bool:
        """Whether ``proposal`` was made by this workspace on this machine."""
        return (proposal.machine, proposal.workspace) == (self.scope.machine, self.scope.workspace)

    def add(
        self,
        changes: Sequence[FileChange],
        info: BatchInfo,
        files: list[dict[str, Any]],
        session: str,
        *,
        waiter: str = "",
        expires_at: float | None = None,
    ) -> Proposal:
        """Store a new pending proposal and return it; ``waiter`` is the process that
        waits for the decision (its first heartbeat is now), ``expires_at`` when it stops
        waiting."""
        batch = {
            "info": {"tool": info.tool, "label": info.label, "key": info.key,
                     "meta": info.meta, "reverts": info.reverts},
            "changes": [_change_json(c) for c in changes],
        }  # fmt: skip
        with self.backend.transaction(write=True) as tx:
            proposal_id = new_id("p")
            while tx.rows("SELECT 1 AS taken FROM proposals WHERE id=?", (proposal_id,)):
                proposal_id = new_id("p")
            tx.run(
                "INSERT INTO proposals (id, created_at, status, session, tool, label, batch, "
                "files, waiter, waiter_beat, expires_at, machine, workspace) "
                "VALUES (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (proposal_id, utc_now(), session, info.tool, info.label, json.dumps(batch),
                 json.dumps(files), waiter, time.time() if waiter else None, expires_at,
                 self.scope.machine, self.scope.workspace),
            )  # fmt: skip
            tx.run_many(
                "INSERT INTO proposal_contents (proposal_id, position, data) VALUES (?, ?, ?)",
                [(proposal_id, i, c.data) for i, c in enumerate(changes)],
            )
        return self.get(proposal_id)

    def get(self, proposal_id: str) -> Proposal:
        """One proposal by ID (of any machine and workspace of a shared store).

        Raises:
            PatchwrightError: ``history`` when no proposal has that ID.
        """
        with self.backend.transaction(write=False) as tx:
            rows = tx.rows(f"SELECT {_COLUMNS} FROM proposals WHERE id=?", (proposal_id,))
        if not rows:
            raise _history_error(
                f"No proposal has the ID {proposal_id!r}.",
                "List the waiting proposals with 'patchwright pending'; their IDs start with 'p-'.",
                id=proposal_id,
            )
        return _proposal(rows[0])

    def by_status(self, status: str | None = "pending", limit: int = 200) -> list[Proposal]:
        """Proposals with ``status`` (every status when ``None``), oldest first."""
        where, params = ("WHERE status=?", [status]) if status else ("", [])
        with self.backend.transaction(write=False) as tx:
            rows = tx.rows(
                f"SELECT {_COLUMNS} FROM proposals {where} ORDER BY seq DESC LIMIT ?",
                [*params, limit],
            )
        return [_proposal(r) for r in reversed(rows)]

    def request(self, proposal_id: str) -> tuple[list[FileChange], BatchInfo]:
        """The stored changes and batch description of a proposal."""
        with self.backend.transaction(write=False) as tx:
            rows = tx.rows("SELECT batch FROM proposals WHERE id=?", (proposal_id,))
            contents = tx.rows(
                "SELECT position, data FROM proposal_contents WHERE proposal_id=? "
                "ORDER BY position",
                (proposal_id,),
            )
        if not rows:
            self.get(proposal_id)  # raises the error naming the ID
        batch = json.loads(rows[0]["batch"])
        data = {r["position"]: r["data"] for r in contents}
        changes = [
            _change_from_json(c, None if data.get(i) is None else bytes(data[i]))
            for i, c in enumerate(batch["changes"])
        ]
        info = batch["info"]
        return changes, BatchInfo(
            info["tool"], info["label"], info["key"], info["meta"], info["reverts"]
        )

    def move(
        self,
        proposal_id: str,
        *,
        source: str,
        target: str,
        reason: str = "",
        batch_id: str | None = None,
        approver: str | None = None,
    ) -> bool:
        """Change the status from ``source`` to ``target``; False when it was not ``source``.

        ``approver`` (to ``approving``) records the process that writes the proposal, and
        when it started.
        """
        decided = utc_now() if target in FINAL_STATUSES else None
        with self.backend.transaction(write=True) as tx:
            won = tx.count(
                "UPDATE proposals SET status=?, reason=?, batch_id=?, decided_at=?, "
                "approver=COALESCE(?, approver), approver_at=COALESCE(?, approver_at) "
                "WHERE id=? AND status=?",
                (target, reason, batch_id, decided, approver,
                 None if approver is None else time.time(), proposal_id, source),
            )  # fmt: skip
        return won == 1

    def beat(self, proposal_id: str) -> None:
        """Record that the process waiting for ``proposal_id`` is alive (now)."""
        with self.backend.transaction(write=True) as tx:
            tx.run(
                "UPDATE proposals SET waiter_beat=? WHERE id=? AND status IN "
                "('pending', 'approved', 'approving')",
                (time.time(), proposal_id),
            )


def _this_host() -> str:
    """This machine as holders name it: its host name, and on Linux its process-ID
    namespace (two containers sharing a host name and a state folder still cannot look
    up each other's processes)."""
    try:
        namespace = f"#{os.stat('/proc/self/ns/pid').st_ino}"
    except OSError:
        namespace = ""
    return f"{socket.gethostname()}{namespace}"


def this_process() -> str:
    """This process as a proposal records its waiter or approver: ``host:pid``."""
    return f"{_this_host()}:{os.getpid()}"


def _shown(holder: str) -> str:
    """A holder for people: ``process PID on HOST``."""
    host, _, pid = holder.rpartition(":")
    return f"process {pid} on {host.split('#')[0]}"


def process_gone(holder: str) -> bool:
    """Whether the process ``holder`` (``host:pid``) is known to have ended: only a
    process of this machine can be looked up (another machine's is never "gone")."""
    host, _, pid = holder.rpartition(":")
    if host != _this_host() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # another user's process: alive
        return False
    return False


def caller_gone(proposal: Proposal, now: float | None = None) -> tuple[str, str] | None:
    """Why nobody waits for the pending ``proposal`` any more, as (status, reason), or
    ``None`` while its caller waits (or for a proposal that recorded no waiter)."""
    now = time.time() if now is None else now
    if proposal.expires_at is not None and now > proposal.expires_at:
        return "timed_out", "its caller had stopped waiting (the time-out passed)"
    if not proposal.waiter:
        return None
    if process_gone(proposal.waiter):
        return "orphaned", f"the server that proposed it ({_shown(proposal.waiter)}) has stopped"
    beat = proposal.waiter_beat
    if beat is not None and now - beat > ORPHANED_AFTER:
        return (
            "orphaned",
            f"the server that proposed it ({_shown(proposal.waiter)}) has not been heard from "
            f"for {now - beat:.0f} s",
        )
    return None


class Caller:
    """The caller of one tool call, as a write of that call waiting for approval sees it.

    The host makes one per call and runs the call inside :func:`calling`; when the
    caller goes away (the client cancels the request or disconnects, the server stops)
    it calls :meth:`leave`, and a write waiting for approval withdraws its proposal.
    While the write waits, :attr:`proposal_id` and :attr:`waiting_since` say so (the
    host reports progress from them).
    """

    def __init__(self) -> None:
        self._left = threading.Event()
        self.reason = ""
        self.proposal_id: str | None = None
        self.waiting_since: float | None = None

    def leave(self, reason: str) -> None:
        """The caller is gone: ``reason`` completes "the call stopped waiting (...)"."""
        if not self._left.is_set():
            self.reason = reason
            self._left.set()

    @property
    def gone(self) -> bool:
        """Whether :meth:`leave` was called."""
        return self._left.is_set()

    def pause(self, seconds: float) -> None:
        """Sleep ``seconds``, or less when the caller leaves meanwhile."""
        self._left.wait(seconds)


_CALLER: contextvars.ContextVar[Caller | None] = contextvars.ContextVar(
    "patchwright_caller", default=None
)


@contextmanager
def calling(caller: Caller) -> Iterator[Caller]:
    """Run the block (a tool call) on behalf of ``caller``."""
    token = _CALLER.set(caller)
    try:
        yield caller
    finally:
        _CALLER.reset(token)


def current_caller() -> Caller | None:
    """The caller the running code acts for (see :func:`calling`), if any."""
    return _CALLER.get()


class Approval:
    """The hook a workspace's commit consults: propose, then wait for the decision.

    Args:
        store: where proposals are kept.
        ctx: the workspace's commit context (for the dry run and the history).
        timeout: seconds to wait for a decision.
        session: who proposes (shown to the person deciding).
        poll: seconds between looks at the store.
    """

    def __init__(
        self,
        store: ProposalStore,
        ctx: CommitContext,
        *,
        timeout: float = DEFAULT_APPROVAL_TIMEOUT,
        session: str = "",
        poll: float = 0.1,
    ) -> None:
        if ctx.history is None:
            raise history_needed()
        if not timeout > 0:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"The approval time-out must be a positive number of seconds, got {timeout!r}.",
                "Give a time-out such as 600.",
                field="approve_timeout",
            )
        self.store, self.ctx, self.timeout = store, ctx, timeout
        self.session, self.poll = session, poll

    def submit(self, changes: Sequence[FileChange], info: BatchInfo) -> CommitRecord:
        """Propose ``changes`` and wait for the decision (see the module docstring).

        Raises:
            PatchwrightError: every refusal of the dry run; ``rejected``;
                ``approval_timeout``; ``withdrawn`` when the caller left first;
                ``stale`` when approved but a file changed meanwhile.
        """
        draft = run_commit(self.ctx, changes, info, dry_run=True)
        files = [
            {"path": f.path, "action": f.action, "move_from": f.move_from,
             "before_sha256": f.before_sha256, "diff": f.diff}
            for f in draft.files
        ]  # fmt: skip
        caller = current_caller()
        proposal = self.store.add(
            changes, info, files, _who(info.meta) or self.session,
            waiter=this_process(), expires_at=time.time() + self.timeout,
        )  # fmt: skip
        if caller is not None:
            caller.proposal_id, caller.waiting_since = proposal.id, time.monotonic()
        try:
            final = self._wait(proposal.id, caller)
        except BaseException:
            # the caller stopped waiting (Ctrl-C, cancelled): nobody may approve it now
            self.store.move(
                proposal.id, source="pending", target="withdrawn", reason="the caller left"
            )
            raise
        finally:
            if caller is not None:
                caller.waiting_since = None
        return self._outcome(final, draft)

    def _wait(self, proposal_id: str, caller: Caller | None) -> Proposal:
        deadline = time.monotonic() + self.timeout
        next_beat = time.monotonic() + HEARTBEAT_SECONDS
        while True:
            current = self.store.get(proposal_id)
            if current.status in FINAL_STATUSES:
                return current
            undecided = current.status in ("pending", "approved")
            if undecided and caller is not None and caller.gone:
                reason = caller.reason or "the caller left"
                if self.store.move(
                    proposal_id, source=current.status, target="withdrawn", reason=reason
                ):
                    return self.store.get(proposal_id)
                continue  # decided at this very moment: read the decision
            if current.status == "approved":  # approved on another machine: write it here
                self._take(proposal_id)
                continue
            now = time.monotonic()
            if current.status == "pending":
                if now >= deadline:
                    if self.store.move(proposal_id, source="pending", target="timed_out"):
                        return self.store.get(proposal_id)
                    continue
            elif current.status == "approving":
                if settle_interrupted(self.store, self.ctx, current):
                    continue
                if now >= deadline + _APPLYING_GRACE:
                    return current  # approved, but its writing has not finished
            if now >= next_beat:
                self.store.beat(proposal_id)
                next_beat = now + HEARTBEAT_SECONDS
            if caller is not None:
                caller.pause(self.poll)
            else:
                time.sleep(self.poll)

    def _take(self, proposal_id: str) -> None:
        """Write a proposal approved elsewhere, in this process; the outcome is recorded
        in the store (read by the loop), so a refusal here is not raised."""
        if self.store.move(
            proposal_id, source="approved", target="approving", approver=this_process()
        ):
            with suppress(PatchwrightError):
                write_proposal(self.store, self.ctx, proposal_id)

    def _outcome(self, proposal: Proposal, draft: CommitRecord) -> CommitRecord:
        if proposal.status == "applied" and proposal.batch_id is not None:
            assert self.ctx.history is not None  # checked in __init__
            return self.ctx.history.load(proposal.batch_id)[0]
        if proposal.status == "applied":
            return draft  # written, its history record lost (settle_interrupted)
        if proposal.status == "rejected":
            raise PatchwrightError(
                ErrorCode.REJECTED,
                f"Rejected by the user: {proposal.reason or 'no reason given'}. "
                "Nothing was written.",
                "Change the edit as the reason says, or ask the user what they want instead.",
                details={"proposal_id": proposal.id},
            )
        if proposal.status in ("stale", "failed"):
            raise PatchwrightError(
                ErrorCode.STALE if proposal.status == "stale" else ErrorCode.IO_ERROR,
                f"The user approved the change, but it could not be written: {proposal.reason} "
                "Nothing was written.",
                "Read the file again and redo the edit on its current content.",
                details={"proposal_id": proposal.id},
            )
        if proposal.status in ("withdrawn", "orphaned"):
            raise PatchwrightError(
                ErrorCode.WITHDRAWN,
                f"The change was withdrawn before anyone approved it ({proposal.reason}); "
                "nothing was written.",
                "Send the edit again if it is still wanted.",
                details={"proposal_id": proposal.id},
            )
        if proposal.status == "approving":
            raise PatchwrightError(
                ErrorCode.APPROVAL_TIMEOUT,
                "The user approved the change, but writing it had not finished when this "
                "call stopped waiting; it may still be applied.",
                "Ask the user, or look at the history (get_patch_change / 'patchwright log') "
                "before editing these files again.",
                details={"proposal_id": proposal.id},
            )
        raise PatchwrightError(
            ErrorCode.APPROVAL_TIMEOUT,
            f"Timed out after {self.timeout:g} s waiting for the user's approval; nothing written.",
            "Ask the user to look at the waiting changes ('patchwright pending' or "
            "'patchwright review'), then send the edit again.",
            details={"proposal_id": proposal.id},
        )


def settle_interrupted(store: ProposalStore, ctx: CommitContext, proposal: Proposal) -> bool:
    """Settle an ``approving`` proposal whose approving process ended before it did.

    A half-written commit of that process is rolled back first; then the proposal is
    ``applied`` when its batch is in the history, ``pending`` again while its caller
    still waits, else ``failed``, the reason saying what happened. False (nothing done)
    while the approval may still be running.
    """
    if proposal.status != "approving" or not _approver_gone(proposal):
        return False
    try:
        ctx.recovery.recover_all()
    except (OSError, PatchwrightError):
        return False  # the next look tries again
    batch_id = _batch_of(ctx, proposal.id)
    if batch_id is not None:
        return store.move(proposal.id, source="approving", target="applied", batch_id=batch_id)
    if _on_disk(store, ctx, proposal.id):
        # a one-file write renamed into place, its process killed before the history
        # recorded it (docs/durability.md): written, so applied, without a batch
        return store.move(
            proposal.id, source="approving", target="applied",
            reason="written, but not recorded in the history: the approving process "
            "stopped first",
        )  # fmt: skip
    who = _shown(proposal.approver) if proposal.approver else "another process"
    stopped = f"the approval by {who} stopped before it wrote"
    if caller_gone(proposal) is None:
        return store.move(
            proposal.id, source="approving", target="pending",
            reason=f"{stopped}; nothing was written, it can be approved again",
        )  # fmt: skip
    return store.move(
        proposal.id, source="approving", target="failed", reason=f"{stopped}; nothing was written."
    )


def _approver_gone(proposal: Proposal) -> bool:
    if proposal.approver:
        if process_gone(proposal.approver):
            return True
        host = proposal.approver.rpartition(":")[0]
        if host == _this_host():
            return False  # alive on this machine: still writing
    started = proposal.approver_at
    return started is None or time.time() - started > APPROVING_STUCK_AFTER


def _on_disk(store: ProposalStore, ctx: CommitContext, proposal_id: str) -> bool:
    """Whether every file of the proposal already holds its proposed content."""
    changes, _ = store.request(proposal_id)
    try:
        for change in changes:
            state = ctx.sandbox.read(ctx.sandbox.resolve(change.path))
            wanted = None if change.data is None else sha256_hex(change.data)
            if (None if state is None else state.sha256) != wanted:
                return False
            if change.move_from is not None and ctx.sandbox.read(
                ctx.sandbox.resolve(change.move_from)
            ):
                return False
    except (OSError, PatchwrightError):
        return False
    return True


def _batch_of(ctx: CommitContext, proposal_id: str) -> str | None:
    """The history batch that applied ``proposal_id`` (its meta names the proposal)."""
    if ctx.history is None:
        return None
    for batch in ctx.history.list_batches(limit=200):
        if (batch.get("meta") or {}).get("proposal") == proposal_id:
            return str(batch["id"])
    return None


class Proposals:
    """The decisions a person takes on a workspace's proposals.

    Args:
        store: the proposal store.
        ctx: the commit context of the workspace that writes an approved proposal.
        gate: that workspace's mode gate (restricted mode refuses approving).
        handover: seconds to wait for another machine's server to take up an approval.
        poll: seconds between looks at the store meanwhile.
    """

    def __init__(
        self,
        store: ProposalStore,
        ctx: CommitContext,
        gate: ModeGate,
        *,
        handover: float = HANDOVER_TIMEOUT,
        poll: float = 0.1,
    ) -> None:
        self.store, self.ctx, self.gate = store, ctx, gate
        self.handover, self.poll = handover, poll

    def pending(self) -> list[Proposal]:
        """The proposals waiting for a decision (every machine's, in a shared history),
        oldest first.

        Proposals nobody waits for any more are closed first (``orphaned`` or
        ``timed_out``), and this workspace's interrupted approvals settled (see the
        module docstring; another workspace's are settled by its own server).
        """
        for proposal in self.store.by_status("approving"):
            if self.store.is_here(proposal):
                settle_interrupted(self.store, self.ctx, proposal)
        for proposal in self.store.by_status("approved"):  # nobody there to take it up
            gone = caller_gone(proposal)
            if gone is not None:
                self.store.move(proposal.id, source="approved", target=gone[0], reason=gone[1])
        waiting = []
        for proposal in self.store.by_status("pending"):
            gone = caller_gone(proposal)
            if gone is None:
                waiting.append(proposal)
            else:
                self.store.move(proposal.id, source="pending", target=gone[0], reason=gone[1])
        return waiting

    def get(self, proposal_id: str) -> Proposal:
        """One proposal by ID (see :meth:`ProposalStore.get`)."""
        return self.store.get(proposal_id)

    def approve(self, proposal_id: str) -> CommitRecord:
        """Write a pending proposal, each file checked against its SHA256 when proposed.

        A proposal of this workspace is written here. One made by another machine or
        workspace of a shared history is written there, by the server waiting for it:
        its status becomes ``approved``, that server writes it, and this call waits
        (:data:`HANDOVER_TIMEOUT`) for the outcome.

        Raises:
            PatchwrightError: ``restricted``; ``history`` for an unknown ID, one that is
                no longer pending, one whose caller is gone (then closed as
                ``orphaned`` or ``timed_out``), or when the proposing server did not
                take it up; ``stale`` when a file changed since it was proposed (the
                proposal is then closed as stale); other commit refusals.
        """
        proposal = self.store.get(proposal_id)
        if not self.store.is_here(proposal):
            return self._approve_elsewhere(proposal)
        with self.gate.operation(writing=True):
            self._refuse_unwaited(proposal)
            self._claim(proposal_id, "approving", approver=this_process())
            return write_proposal(self.store, self.ctx, proposal_id)

    def _approve_elsewhere(self, proposal: Proposal) -> CommitRecord:
        proposal_id = proposal.id
        with self.gate.operation(writing=True):  # restricted mode refuses this too
            self._refuse_unwaited(proposal)
            self._claim(proposal_id, "approved")
        deadline = time.monotonic() + self.handover
        while True:
            current = self.store.get(proposal_id)
            if current.status in FINAL_STATUSES:
                break
            now = time.monotonic()
            if current.status == "approved" and now >= deadline:
                if self.store.move(proposal_id, source="approved", target="pending"):
                    raise _history_error(
                        f"Proposal {proposal_id} was made in {current.workspace} on machine "
                        f"{current.machine!r}, and the server waiting for it there did not "
                        f"take the approval within {self.handover:g} s; it is pending again.",
                        "Check that the agent's server there is still running, then approve "
                        "again (or reject it).",
                        id=proposal_id, machine=current.machine, workspace=current.workspace,
                    )  # fmt: skip
                continue  # taken up at this very moment
            if now >= deadline + _APPLYING_GRACE:
                raise _history_error(
                    f"Proposal {proposal_id} is being written on machine {current.machine!r}, "
                    "and writing it had not finished when this call stopped waiting.",
                    "Look at 'patchwright pending' or the history in a moment.",
                    id=proposal_id,
                )
            time.sleep(self.poll)
        if current.status == "applied" and current.batch_id is not None:
            assert self.ctx.history is not None  # approval needs the history
            return self.ctx.history.load(current.batch_id, anywhere=True)[0]
        if current.status == "stale":
            raise PatchwrightError(
                ErrorCode.STALE,
                f"Proposal {proposal_id} is stale: {current.reason}",
                "Reject it or let it go; the agent has been told to redo the edit.",
                details={"proposal_id": proposal_id},
            )
        raise _history_error(
            f"Proposal {proposal_id} was approved but not written: it is {current.status}"
            + (f" ({current.reason})." if current.reason else "."),
            "List the waiting proposals with 'patchwright pending'.",
            id=proposal_id, status=current.status,
        )  # fmt: skip

    def _refuse_unwaited(self, proposal: Proposal) -> None:
        """Close and refuse a pending proposal nobody waits for any more."""
        if proposal.status != "pending":
            return  # _claim names its status
        gone = caller_gone(proposal)
        if gone is None:
            return
        status, reason = gone
        if not self.store.move(proposal.id, source="pending", target=status, reason=reason):
            return  # decided at this very moment: _claim names the decision
        raise _history_error(
            f"Proposal {proposal.id} can no longer be approved: {reason}, so its agent was "
            "told it failed. Nothing was written.",
            "The agent may send the edit again; list the waiting proposals with "
            "'patchwright pending'.",
            id=proposal.id,
            status=status,
        )

    def reject(self, proposal_id: str, reason: str) -> Proposal:
        """Close a pending proposal as rejected; the waiting caller gets ``reason``.

        Raises:
            PatchwrightError: ``invalid_request`` for an empty reason; ``history`` for an
                unknown ID or one that is no longer pending.
        """
        if not reason.strip():
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                "A rejection needs a reason: the agent reads it to change its edit.",
                "Give one, e.g. --reason 'keep the old name'.",
                field="reason",
            )
        self._claim(proposal_id, "rejected", reason.strip())
        return self.store.get(proposal_id)

    def _claim(
        self, proposal_id: str, target: str, reason: str = "", approver: str | None = None
    ) -> None:
        moved = self.store.move(
            proposal_id, source="pending", target=target, reason=reason, approver=approver
        )
        if not moved:
            current = self.store.get(proposal_id)  # raises for an unknown ID
            raise _history_error(
                f"Proposal {proposal_id} is no longer waiting: it is {current.status}.",
                "List the waiting proposals with 'patchwright pending'.",
                id=proposal_id,
                status=current.status,
            )


def write_proposal(store: ProposalStore, ctx: CommitContext, proposal_id: str) -> CommitRecord:
    """Commit a proposal this process has moved to ``approving``, then record the outcome.

    Each file is pinned to its SHA256 when proposed. ``ctx`` is the workspace's commit
    context that never follows a symlink (as undo's): the path written is the path the
    person saw, and a symlink swapped in on it since is refused, not written through.

    Raises:
        PatchwrightError: ``stale`` when a file changed since it was proposed (or a
            symlink now stands on its path); other commit refusals.
    """
    try:
        changes, info = store.request(proposal_id)
        proposal = store.get(proposal_id)
        pinned = [_pin(c, f) for c, f in zip(changes, proposal.files, strict=True)]
        # the batch names its proposal: an approval interrupted after the commit is
        # then known as applied (settle_interrupted)
        info = replace(info, meta={**info.meta, "proposal": proposal_id})
        record = run_commit(ctx, pinned, info, dry_run=False)
    except PatchwrightError as err:
        status = "stale" if err.code in _STALE_CODES else "failed"
        store.move(proposal_id, source="approving", target=status, reason=err.message)
        if status == "stale":
            raise PatchwrightError(
                ErrorCode.STALE,
                f"Proposal {proposal_id} is stale: {err.message}",
                "Reject it or let it go; the agent has been told to redo the edit.",
                path=err.path,
                details={"proposal_id": proposal_id},
            ) from err
        raise
    except BaseException as exc:
        # interrupted (Ctrl-C) or failed unexpectedly: back to the caller if it still
        # waits, closed with the reason if not; the commit itself is all-or-nothing
        reason = f"the approval was interrupted ({type(exc).__name__}) before it wrote"
        if caller_gone(store.get(proposal_id)) is None:
            store.move(
                proposal_id, source="approving", target="pending",
                reason=f"{reason}; it can be approved again",
            )  # fmt: skip
        else:
            store.move(proposal_id, source="approving", target="failed", reason=f"{reason}.")
        raise
    store.move(proposal_id, source="approving", target="applied", batch_id=record.batch_id)
    return record


# what makes an approved proposal stale: its file changed, or is no longer a plain file
# on a path without symlinks
_STALE_CODES = (
    ErrorCode.STALE,
    ErrorCode.FILE_EXISTS,
    ErrorCode.NOT_A_FILE,
    ErrorCode.PATH_OUTSIDE_ROOT,
)


def _who(meta: dict[str, Any]) -> str:
    """The proposer as shown: its client (MCP ``clientInfo``) and session, from the batch's
    meta (see :func:`~patchwright.workspace.workspace.calling_as`)."""
    return " ".join(str(meta[k]) for k in ("client", "session") if meta.get(k))


def _pin(change: FileChange, proposed: dict[str, Any]) -> FileChange:
    """``change`` checked against the state its file had when proposed."""
    before = proposed.get("before_sha256")
    if change.expected_sha256 is not None:
        return change
    if before is not None:
        return replace(change, expected_sha256=before)
    if change.data is not None and change.move_from is None:
        return replace(change, must_not_exist=True)  # it was a creation: still one
    return change


def _change_json(change: FileChange) -> dict[str, Any]:
    return {
        "path": change.path, "expected_sha256": change.expected_sha256,
        "move_from": change.move_from, "diff": change.diff, "key": change.key,
        "label": change.label, "changes": [asdict(c) for c in change.changes],
        "meta": change.meta, "must_not_exist": change.must_not_exist,
        "mode_bits": change.mode_bits,
        **({"replaces_link": True} if change.replaces_link else {}),
    }  # fmt: skip


def _change_from_json(data: dict[str, Any], content: bytes | None) -> FileChange:
    records = tuple(ChangeRecord(**c) for c in data.pop("changes"))
    return FileChange(data=content, changes=records, **data)


def _proposal(row: Row) -> Proposal:
    return Proposal(
        row["id"], row["created_at"], row["status"], row["session"], row["tool"], row["label"],
        json.loads(row["files"]), row["reason"], row["batch_id"], row["decided_at"],
        row["waiter"], row["waiter_beat"], row["expires_at"], row["approver"],
        row["approver_at"], row["machine"], row["workspace"],
    )  # fmt: skip
