"""The answers of ``apply_diff``, in the forms spec 002 gives.

Success::

    Applied patch to foo.py: 3 hunks applied
      Warning: Hunk 2 applied via fuzzy match (87% similarity at line 23)

Failure (nothing written)::

    Patch failed on foo.py:
      Hunks 1-2: would have applied; nothing was written
      Hunk 3 failed: context mismatch at line 45
        Expected: "    return None"
        Found:    "    return result"
    No changes made (atomic rollback).

Dry run::

    Dry run - no changes made:
      foo.py: 3 hunks would apply
"""

from __future__ import annotations

from typing import Any

from patchwright.engine.matching.failures import failure_block, hunk_failure
from patchwright.model import FilePatch, MatchReport, PatchwrightError, ToolResult
from patchwright.tools.files import Loaded
from patchwright.writing import WriteOutcome


def _hunks(count: int) -> str:
    return f"{count} hunk{'s' if count != 1 else ''}"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def success(
    loaded: Loaded,
    reports: list[MatchReport],
    warnings: list[str],
    outcome: WriteOutcome,
    dry_run: bool,
) -> ToolResult:
    """The result of an applied (or dry-run) diff."""
    path = loaded.path
    notes = [*warnings, *(w for r in reports for w in r.warnings), *outcome.warnings]
    if dry_run:
        lines = ["Dry run - no changes made:", f"  {path}: {_hunks(len(reports))} would apply"]
    else:
        lines = [f"Applied patch to {path}: {_hunks(len(reports))} applied"]
        if outcome.record is None:
            lines[0] += " (the file already had this content; nothing written)"
    lines += [f"  Warning: {_sentence(w)}" for w in notes]
    if outcome.record is not None and not dry_run:
        lines.append(f"  History: batch {outcome.record.batch_id}")
    data: dict[str, Any] = {
        "path": path,
        "dry_run": dry_run,
        "created": not loaded.exists,
        "before_sha256": loaded.sha256,
        "hunks": [r.to_dict() for r in reports],
        **outcome.data(),
    }
    return ToolResult(True, "\n".join(lines), diff=outcome.diff, warnings=notes, data=data)


def failure(
    err: PatchwrightError, fp: FilePatch, loaded: Loaded, mode: str, *, field: str = "diff"
) -> PatchwrightError:
    """Rewrite an engine refusal as the spec's "Patch failed" report; ``field`` is the
    request field that carried the diff (``diff`` or ``diff_file``)."""
    index = err.details.get("edit_index")
    if not isinstance(index, int) or not 0 <= index < len(fp.edits):
        return err.with_context(path=loaded.path, field=field)
    number = index + 1
    hunk = hunk_failure(err, fp, index, loaded.current.lines)
    text = failure_block(loaded.path, hunk, mode)
    details = {**err.details, "failed_hunk": number, "applied_hunks": list(range(1, number))}
    return PatchwrightError(
        err.code, text, err.hint, path=loaded.path, field=field, details=details
    )
