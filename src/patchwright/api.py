"""Apply a patch text to a folder, from Python: what ``patchwright apply`` does.

    from patchwright import apply_patch_text

    report = apply_patch_text(open("fix.diff").read(), root="path/to/repo")
    if not report.ok:
        print(report.error)          # what went wrong, where, and how to fix the patch
    print(report.diff)               # what changed

Every file of the patch is planned in memory first (parse, locate every hunk, build
every new text); only when all of them succeed is anything written, as one atomic,
crash-safe commit of the workspace (recorded in its history, so ``patchwright undo``
reverts it). A refusal writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from patchwright.engine import MatchOptions, apply_file_patch, unified_diff
from patchwright.formats import parse_patch
from patchwright.model import (
    FileAction,
    FilePatch,
    MatchReport,
    PatchSet,
    PatchwrightError,
    TextFile,
)
from patchwright.model.errors import ErrorCode
from patchwright.workspace import DEFAULT_MAX_FILE_BYTES, FileChange, Workspace


@dataclass
class FileOutcome:
    """What the patch does (or would do) to one file."""

    path: str
    action: str
    move_to: str | None = None
    reports: list[MatchReport] = field(default_factory=list)
    diff: str = ""

    @property
    def warnings(self) -> list[str]:
        """Warnings of every hunk of this file."""
        return [w for r in self.reports for w in r.warnings]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "path": self.path,
            "action": self.action,
            "move_to": self.move_to,
            "hunks": [r.to_dict() for r in self.reports],
            "warnings": self.warnings,
            "diff": self.diff,
        }


@dataclass
class ApplyReport:
    """The outcome of :func:`apply_patch_text`.

    Attributes:
        ok: the patch applies (and, unless ``dry_run``, was written).
        applied: something was written to disk.
        error: why the patch was refused (nothing was written then).
        batch_id: the history ID of the commit, for ``patchwright show`` / ``undo``.
    """

    ok: bool
    applied: bool
    dry_run: bool
    format: str = ""
    files: list[FileOutcome] = field(default_factory=list)
    parse_warnings: list[str] = field(default_factory=list)
    error: PatchwrightError | None = None
    batch_id: str | None = None

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
            err = self.error
            where = f"{err.path}: " if err.path and not err.message.startswith(err.path) else ""
            return f"Patch refused: {where}{err.render()}\nNo changes made."
        verb = "would apply" if self.dry_run else "applied"
        lines = [f"Patch {verb} ({self.format}): {len(self.files)} file(s)"]
        for f in self.files:
            rungs = ", ".join(dict.fromkeys(r.rung for r in f.reports)) or "none"
            target = f" -> {f.move_to}" if f.move_to else ""
            lines.append(
                f"  {f.action:7} {f.path}{target} ({len(f.reports)} hunk(s); matched: {rungs})"
            )
        lines.extend(f"  warning: {w}" for w in self.warnings)
        if self.batch_id:
            lines.append(f"  batch {self.batch_id} (undo with: patchwright undo {self.batch_id})")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view (what ``patchwright apply --json`` prints)."""
        return {
            "ok": self.ok,
            "applied": self.applied,
            "dry_run": self.dry_run,
            "format": self.format,
            "batch_id": self.batch_id,
            "files": [f.to_dict() for f in self.files],
            "warnings": self.warnings,
            "error": self.error.to_dict() if self.error else None,
        }


@dataclass
class _Plan:
    """Per-file state while a patch is planned in memory."""

    original: dict[str, tuple[bytes | None, str | None]] = field(default_factory=dict)
    current: dict[str, TextFile | None] = field(default_factory=dict)
    moved_from: dict[str, str] = field(default_factory=dict)
    outcomes: list[FileOutcome] = field(default_factory=list)
    # changed blocks per path, when one update of the file produced them (diff speed-up)
    regions: dict[str, list[tuple[int, int, int, int]]] = field(default_factory=dict)
    touched: dict[str, int] = field(default_factory=dict)


def apply_patch_text(
    patch_text: str,
    root: str | Path = ".",
    *,
    format: str = "auto",
    mode: str = "fuzzy",
    fuzzy_threshold: float = 0.8,
    dry_run: bool = False,
    workspace: Workspace | None = None,
    history: bool = True,
    max_file_bytes: int | None = None,
) -> ApplyReport:
    """Apply ``patch_text`` (unified/git diff, OpenAI patch or SEARCH/REPLACE blocks) to
    the files under ``root``; all files or none.

    Never raises for a bad patch: the refusal is in ``report.error``.
    ``max_file_bytes`` raises the workspace's file size limit (16 MiB by default)
    when no ``workspace`` is given.
    """
    report = ApplyReport(ok=False, applied=False, dry_run=dry_run)
    try:
        options = MatchOptions(mode=mode, fuzzy_threshold=fuzzy_threshold)  # type: ignore[arg-type]
        patch = parse_patch(patch_text, format)
        report.format = patch.format
        report.parse_warnings = list(patch.warnings)
        ws = workspace or Workspace(
            root, history=history, max_file_bytes=max_file_bytes or DEFAULT_MAX_FILE_BYTES
        )
        plan = _plan(ws, patch, options)
        report.files = plan.outcomes
        changes = _changes(plan)
        if not dry_run:
            ws.ensure_writable()
            if changes:
                record = ws.commit(
                    changes, tool="apply", label=_label(plan), meta={"format": patch.format}
                )
                report.batch_id = record.batch_id
                report.applied = True
        report.ok = True
    except PatchwrightError as err:
        report.error = err
    return report


def _plan(ws: Workspace, patch: PatchSet, options: MatchOptions) -> _Plan:
    plan = _Plan()
    if not patch.files:
        raise PatchwrightError(
            ErrorCode.PARSE_ERROR,
            "The patch contains no file changes.",
            "Send a unified diff, an OpenAI '*** Begin Patch' block or SEARCH/REPLACE blocks.",
        )
    for fp in patch.files:
        _plan_file(ws, plan, fp, options)
    return plan


def _plan_file(ws: Workspace, plan: _Plan, fp: FilePatch, options: MatchOptions) -> None:
    if not fp.path:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            "A hunk of the patch names no file (no ---/+++ or 'diff --git' header).",
            "Add the file headers (--- a/PATH and +++ b/PATH) before the hunks.",
            line=fp.source_line,
        )
    path = ws.resolve(fp.path)
    current = _load(ws, plan, path)
    new, reports = apply_file_patch(current, fp, options)
    plan.touched[path] = plan.touched.get(path, 0) + 1
    if plan.touched[path] == 1 and current is not None and new is not None and not fp.move_to:
        plan.regions[path] = [
            (r.orig_start - 1, r.orig_end, r.new_start - 1, r.new_end) for r in reports
        ]
    else:
        plan.regions.pop(path, None)
    outcome = FileOutcome(path, _action(fp, current), reports=reports)
    target = path
    if fp.move_to:
        target = ws.resolve(fp.move_to)
        if target != path:
            if _load(ws, plan, target) is not None:
                raise PatchwrightError(
                    ErrorCode.FILE_EXISTS,
                    f"{path}: the patch moves this file to {target}, which already exists.",
                    "Move it to a free path, or delete the other file first.",
                    path=path,
                )
            plan.current[path] = None
            plan.moved_from[target] = plan.moved_from.get(path, path)
            outcome.move_to = target
            outcome.action = "move"
    plan.current[target] = new
    plan.outcomes.append(outcome)


def _load(ws: Workspace, plan: _Plan, path: str) -> TextFile | None:
    if path not in plan.current:
        if ws.exists(path):
            state = ws.read(path)
            plan.original[path] = (state.data, state.sha256)
            plan.current[path] = TextFile.decode(state.data, path=path)
        else:
            plan.original[path] = (None, None)
            plan.current[path] = None
    return plan.current[path]


def _action(fp: FilePatch, current: TextFile | None) -> str:
    if fp.action == FileAction.DELETE:
        return "delete"
    if current is None:
        return "create"
    return "update"


def _changes(plan: _Plan) -> list[FileChange]:
    changes: list[FileChange] = []
    diffs: dict[str, str] = {}
    moved_away = set(plan.moved_from.values())
    for path, new in plan.current.items():
        if path in moved_away and new is None:
            continue  # the move's own change removes it
        old_bytes, old_sha = plan.original.get(path, (None, None))
        source = plan.moved_from.get(path)
        if source is not None:
            old_bytes, old_sha = plan.original[source]
        new_bytes = new.encode() if new is not None else None
        if source is None and new_bytes == old_bytes:
            continue
        if source is not None and new is None:
            continue
        diffs[path] = _diff(source or path, path, old_bytes, new, plan.regions.get(path))
        if source is not None:
            changes.append(
                FileChange(
                    path, new_bytes, expected_sha256=old_sha, move_from=source, diff=diffs[path]
                )
            )
        elif old_bytes is None:
            changes.append(FileChange(path, new_bytes, must_not_exist=True, diff=diffs[path]))
        else:
            changes.append(FileChange(path, new_bytes, expected_sha256=old_sha, diff=diffs[path]))
    for outcome in plan.outcomes:
        key = outcome.move_to or outcome.path
        outcome.diff = diffs.get(key, "")
        if outcome.path in moved_away and outcome.move_to is None:
            outcome.diff = ""
    return changes


def _diff(
    old_path: str,
    new_path: str,
    old: bytes | None,
    new: TextFile | None,
    regions: list[tuple[int, int, int, int]] | None,
) -> str:
    before = TextFile.decode(old) if old is not None else TextFile()
    after = new if new is not None else TextFile()
    a = f"a/{old_path}" if old is not None else "/dev/null"
    b = f"b/{new_path}" if new is not None else "/dev/null"
    return unified_diff(before, after, a, b, regions=regions)


def _label(plan: _Plan) -> str:
    paths = [o.move_to or o.path for o in plan.outcomes]
    shown = ", ".join(dict.fromkeys(paths))
    return f"apply: {shown}" if len(shown) < 200 else f"apply: {len(paths)} files"
