"""What ``apply_patch_text`` reports: per file and per hunk, in spec 002's words."""

from __future__ import annotations

from patchwright._records import field, record
from patchwright.model.quoting import quote_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    # the failure rendering is imported when a patch fails: a patch that applies
    # never loads it (start-up time)
    from patchwright.engine.matching.failures import HunkFailure
    from patchwright.model import MatchReport, PatchwrightError

__all__ = ["ApplyReport", "FileOutcome"]


@record
class FileOutcome:
    """What the patch does (or would do) to one file.

    Attributes:
        status: ``ok`` (planned; written unless the report says otherwise), ``failed``
            (this file made the patch fail) or ``not_checked`` (after a failed file).
        reports: one per applied hunk, in order.
        hunks_total: how many hunks (edits) the file's section has.
        failure: the hunk that failed, when one did.
        old_mode / new_mode: a git mode change the patch asks for.
        syntax: the syntax guard's report (``to_dict()``), when the file was checked.
        snippet: a snippet merge's report (``SnippetReport.to_dict()``): where each run
            went, by which rung, what markers and edges kept.
    """

    path: str
    action: str
    move_to: str | None = None
    reports: list[MatchReport] = field(default_factory=list)
    diff: str = ""
    status: str = "ok"
    hunks_total: int = 0
    failure: HunkFailure | None = None
    old_mode: str | None = None
    new_mode: str | None = None
    syntax: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    snippet: dict[str, Any] | None = None

    @property
    def warnings(self) -> list[str]:
        """Warnings of every hunk of this file, then the file's own (mode, syntax)."""
        return [*(w for r in self.reports for w in r.warnings), *self.notes]

    def hunk_results(self) -> list[dict[str, Any]]:
        """Every hunk: applied (with rung, similarity, lines), ``would_apply`` (placed
        before the file's failed hunk, never written), failed, or not tried."""
        if self.failure is None:
            return [{"hunk": r.index + 1, "status": "applied", **r.to_dict()} for r in self.reports]
        # the file failed, so the patch was refused: the hunks before were placed, not written
        done = [{"hunk": r.index + 1, "status": "would_apply", **r.to_dict()} for r in self.reports]
        number = self.failure.number
        applied = {d["hunk"] for d in done}
        unknown = [{"hunk": k, "status": "unknown"} for k in range(1, number) if k not in applied]
        rest = [{"hunk": k, "status": "not_tried"} for k in range(number + 1, self.hunks_total + 1)]
        return [*done, *unknown, self.failure.to_dict(), *rest]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "path": self.path,
            "action": self.action,
            "move_to": self.move_to,
            "status": self.status,
            "hunks": self.hunk_results(),
            "mode": {"old": self.old_mode, "new": self.new_mode} if self.new_mode else None,
            "syntax": self.syntax,
            "warnings": self.warnings,
            "diff": self.diff,
            **({"snippet": self.snippet} if self.snippet is not None else {}),
        }


@record
class ApplyReport:
    """The outcome of :func:`apply_patch_text`.

    Attributes:
        ok: the patch applies (and, unless ``dry_run``, was written).
        applied: something was written to disk.
        error: why the patch was refused (nothing was written then).
        batch_id: the ID of the commit.
        recorded: the commit is in the workspace history (``patchwright show`` /
            ``undo`` know it); False when the workspace keeps no history.
        mode: the matching mode the patch was located with.
        already_applied: the batch that already applied this very patch (a retry:
            nothing was written, and ``ok`` is true).
        written: the SHA256 each written path has after the commit (``None``: deleted).
        already_in_files: the files alone show this patch applied (no batch of the
            history is known to have made it): nothing was written, and ``ok`` is true.
    """

    ok: bool
    applied: bool
    dry_run: bool
    format: str = ""
    files: list[FileOutcome] = field(default_factory=list)
    parse_warnings: list[str] = field(default_factory=list)
    error: PatchwrightError | None = None
    batch_id: str | None = None
    recorded: bool = False
    mode: str = "fuzzy"
    already_applied: str | None = None
    written: dict[str, str | None] = field(default_factory=dict)
    already_in_files: bool = False

    @property
    def diff(self) -> str:
        """The unified diff of every file, in patch order."""
        return "".join(f.diff for f in self.files)

    @property
    def warnings(self) -> list[str]:
        """Parser repairs followed by every file's warnings."""
        return [*self.parse_warnings, *(w for f in self.files for w in f.warnings)]

    def summary(self) -> str:
        """A short human summary (the CLI prints it above the diff)."""
        if self.error is not None:
            return self._failure_text(self.error)
        if self.already_in_files:
            return (
                "Already applied, nothing changed: in each file the patch updates, every "
                "hunk's new lines stand once and its old lines nowhere outside them; the "
                "files it adds have their content and those it deletes are gone."
            )
        if self.already_applied is not None:
            return (
                f"Already applied (batch {self.already_applied}), nothing changed: the "
                f"files still hold what that batch wrote, which is exactly what this patch "
                f"({self.format}) makes."
            )
        verb = "would apply" if self.dry_run else "applied"
        lines = [f"Patch {verb} ({self.format}): {len(self.files)} file(s)"]
        for f in self.files:
            rungs = ", ".join(dict.fromkeys(r.rung for r in f.reports)) or "none"
            target = f" -> {quote_name(f.move_to)}" if f.move_to else ""
            mode = f"; mode {f.old_mode or 'new'} -> {f.new_mode}" if f.new_mode else ""
            # an update whose hunks give back the file's own bytes: say so, not "applied"
            # alone (a patch that only adds a final newline the file already ends with)
            same = (
                "; the file already reads as the patch makes it, so its bytes are unchanged"
                if f.action == "update" and not f.diff and not f.move_to and not f.new_mode
                else ""
            )
            lines.append(
                f"  {f.action:7} {quote_name(f.path)}{target} "
                f"({len(f.reports)} hunk(s); matched: {rungs}{mode}{same})"
            )
        lines.extend(_indented(f"  warning: {w}") for w in self.warnings)
        if self.batch_id and self.recorded:
            lines.append(f"  batch {self.batch_id} (undo with: patchwright undo {self.batch_id})")
        elif self.batch_id:
            lines.append("  not recorded in the history, so it cannot be undone")
        return "\n".join(lines)

    def _failure_text(self, err: PatchwrightError) -> str:
        """Spec 002's failure form: the file, its hunks, and the atomic rollback."""
        failed = next((f for f in self.files if f.status == "failed"), None)
        path = err.path or (failed.path if failed else None)
        hunk = failed.failure if failed is not None else None
        from patchwright.engine.matching.failures import failure_block

        return failure_block(path, hunk, self.mode, err.message, err.hint or "")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (what ``patchwright apply --json`` prints)."""
        return {
            "ok": self.ok,
            "applied": self.applied,
            "dry_run": self.dry_run,
            "format": self.format,
            "batch_id": self.batch_id,
            "recorded": self.recorded,
            "already_applied": self.already_applied,
            "already_in_files": self.already_in_files,
            "files": [f.to_dict() for f in self.files],
            "warnings": self.warnings,
            "error": self.error.to_dict() if self.error else None,
        }


def _indented(text: str) -> str:
    """Continuation lines of a multi-line entry, indented under its first line."""
    return text.replace("\n", "\n    ")
