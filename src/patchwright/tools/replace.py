"""String replacement and whole-file writes, shared by every tool that edits by text.

``edit_file``, the Anthropic editor's ``str_replace``/``insert``/``create``, Claude
Code's ``Edit``/``MultiEdit``/``Write`` all come down to the same two operations:

* :func:`replace_strings`: old/new pairs applied in order on the text in memory (each
  sees the text the previous one left), through the engine's tolerant ladder (unique
  match, whitespace recovery, "already applied" detection), written only if every one
  succeeds;
* :func:`write_whole`: a file's whole new content (created when missing), keeping an
  existing file's encoding, BOM and newline style.

Each answers in the same words: what was replaced, where (lines of the file before the
call) and which recovery found it. :func:`describe_match` and :data:`RUNG_WORDS` are the
one place those words live (rungs by their names, as the reports' ``rung`` field
gives them).
"""

from __future__ import annotations

from collections.abc import Sequence

from patchwright._records import record
from patchwright.engine import MatchOptions, apply_edits
from patchwright.model import (
    Composition,
    Edit,
    ErrorCode,
    LineRange,
    MatchReport,
    OldText,
    PatchwrightError,
    Rung,
    ToolResult,
    WholeFile,
)
from patchwright.tools.context import ToolContext
from patchwright.tools.files import load, preview
from patchwright.tools.writing import PlannedWrite, commit_writes
from patchwright.workspace import ChangeRecord

OPTIONS = MatchOptions(mode="tolerant")

#: The words a model reads for each recovery rung (exact matches say nothing); the
#: words themselves live with the rungs (:attr:`Rung.words`).
RUNG_WORDS = {rung.value: rung.words for rung in Rung if rung.recovered}
EXACT_RUNGS = frozenset({"exact", "newline", "line_range"})


@record(frozen=True)
class Replacement:
    """One old/new pair (``replace_all``: every occurrence instead of exactly one)."""

    old: str
    new: str
    replace_all: bool = False


@record(frozen=True)
class Fields:
    """The request fields a tool calls its parts, so refusals name them.

    Attributes:
        old: the field of the text to find (``old_string``, ``old_str``).
        batch: the array of a batch (``edits``), ``None`` for one edit.
    """

    old: str = "old_string"
    batch: str | None = None


_DEFAULT_FIELDS = Fields()


def span(start: int, end: int) -> str:
    """``line 4`` / ``lines 4-6`` (an empty range: ``at line 4``)."""
    if end < start:
        return f"at line {start}"
    return f"line {start}" if start == end else f"lines {start}-{end}"


def describe_match(r: MatchReport) -> str:
    """``lines 10-12``, or ``lines 10-12, matched via indentation recovery; assumed: ...``
    (what the loose match took for granted, :attr:`MatchReport.assumption`)."""
    where = span(r.orig_start, r.orig_end)
    if r.count > 1:
        where = f"{r.count} occurrences, {where}"
    if r.rung in EXACT_RUNGS:
        return where
    assumed = f"; assumed: {r.assumption}" if r.assumption else ""
    return f"{where}, matched via {r.rung} recovery{assumed}"


def replace_strings(
    ctx: ToolContext,
    path: str,
    items: Sequence[Replacement],
    *,
    fields: Fields = _DEFAULT_FIELDS,
    path_field: str = "path",
) -> ToolResult:
    """Apply ``items`` in order to ``path``, all or none (see the module docstring).

    Raises:
        PatchwrightError: the engine's refusal in the edit's words (``not_found``,
            ``ambiguous``, ``already_applied``...), naming the edit's field; path and
            workspace refusals.
    """
    loaded = load(
        ctx.workspace, path, missing_ok=all(not e.old for e in items), field=path_field,
        session=ctx.session,
    )  # fmt: skip
    edits = [
        Edit(OldText(e.old, replace_all=e.replace_all, replace_all_supported=True), e.new,
             label=f"Edit {k}")
        for k, e in enumerate(items, start=1)
    ]  # fmt: skip
    try:
        result = apply_edits(loaded.current, edits, composition=Composition.SEQUENTIAL,
                             options=OPTIONS)  # fmt: skip
    except PatchwrightError as err:
        raise failure(err, items, fields, loaded.path) from None
    records = [
        ChangeRecord(description=f"Edit {r.index + 1}", op="replace", old_start=r.orig_start,
                     old_end=r.orig_end, new_start=r.new_start, new_end=r.new_end,
                     meta={"rung": r.rung, "count": r.count})
        for r in result.reports
    ]  # fmt: skip
    label = f"{ctx.tool} {loaded.path}"
    plan = PlannedWrite(
        loaded, result.file, label=label, changes=records, rungs=[r.rung for r in result.reports]
    )
    outcome = commit_writes(ctx, [plan], label=label)
    lines = [
        f'  {r.index + 1}. Replaced "{preview(items[r.index].old)}" ({describe_match(r)})'
        for r in result.reports
    ]
    count = len(items)
    text = [f"Applied {count} edit{'s' if count != 1 else ''} to {loaded.path}:", *lines]
    warnings = [*result.warnings, *outcome.warnings]
    text += [f"  Warning: {w}" for w in warnings]
    data = {
        "path": loaded.path,
        "before_sha256": loaded.sha256,
        "edits": [r.to_dict() for r in result.reports],
        **outcome.data(),
    }
    return ToolResult(True, "\n".join(text), diff=outcome.diff, warnings=warnings, data=data)


def failure(
    err: PatchwrightError, items: Sequence[Replacement], fields: Fields, path: str
) -> PatchwrightError:
    """Rewrite an engine refusal in spec 002's form, naming the edit and its field."""
    index = err.details.get("edit_index", 0)
    index = index if isinstance(index, int) and 0 <= index < len(items) else 0
    k = index + 1
    shown = preview(items[index].old)
    own = err.message.removeprefix(f"Edit {k}: ")
    if err.code is ErrorCode.NOT_FOUND:
        line = f'Edit {k}: "{shown}" not found in file'
        extra = _indent(own)
    elif err.code is ErrorCode.AMBIGUOUS and "lines" in err.details:
        found = list(err.details["lines"])
        line = (
            f'Edit {k}: "{shown}" appears {len(found)} times. Use replace_all=true or provide '
            "more context."
        )
        extra = f"    Found at lines {', '.join(map(str, found))}."
    else:
        line, extra = f"Edit {k}: {own}", ""
    batch = fields.batch is not None
    head = "Batch edit failed (no changes made):" if batch else "Edit failed (no changes made):"
    message = "\n".join(p for p in (head, f"  {line}", extra) if p)
    field = f"{fields.batch}[{index}].{fields.old}" if batch else fields.old
    return PatchwrightError(
        err.code, message, err.hint, path=path, field=field, line=err.line, details=err.details
    )


def _indent(text: str) -> str:
    return "\n".join(f"    {t}" for t in text.splitlines())


def write_whole(
    ctx: ToolContext,
    path: str,
    content: str,
    *,
    path_field: str = "path",
    must_not_exist: bool = False,
) -> ToolResult:
    """Give ``path`` the whole ``content`` (created when missing).

    Raises:
        PatchwrightError: ``file_exists`` when ``must_not_exist`` and the file is there;
            ``already_applied`` when the file already holds exactly ``content``; path
            and workspace refusals.
    """
    loaded = load(ctx.workspace, path, missing_ok=True, field=path_field, session=ctx.session)
    new = apply_edits(loaded.current, [Edit(WholeFile(), content)]).file
    plan = PlannedWrite(loaded, new, label=f"{ctx.tool} {loaded.path}")
    if loaded.exists and must_not_exist and plan.changed:
        raise PatchwrightError(
            ErrorCode.FILE_EXISTS,
            f"{loaded.path} already exists (with other content); nothing was written.",
            "Edit it by replacing text in it, or choose a new path.",
            path=loaded.path,
            field=path_field,
        )
    if loaded.exists and not plan.changed:
        raise PatchwrightError(
            ErrorCode.ALREADY_APPLIED,
            f"{loaded.path} already has exactly this content: the write looks already "
            "applied. No change was made.",
            "Nothing to do for this file; go on with the next step.",
            path=loaded.path,
            field=path_field,
        )
    outcome = commit_writes(ctx, [plan], label=plan.label)
    verb = "Overwrote" if loaded.exists else "Created"
    text = [f"{verb} {loaded.path} ({len(new.lines)} line{'s' if len(new.lines) != 1 else ''})."]
    text += [f"  Warning: {w}" for w in outcome.warnings]
    data = {"path": loaded.path, "created": not loaded.exists, **outcome.data()}
    return ToolResult(True, "\n".join(text), diff=outcome.diff, warnings=outcome.warnings,
                      data=data)  # fmt: skip


def insert_lines(
    ctx: ToolContext, path: str, after_line: int, text: str, *, line_field: str
) -> ToolResult:
    """Insert ``text`` (whole lines) after line ``after_line`` (0: at the top).

    Raises:
        PatchwrightError: ``out_of_range`` naming ``line_field``; path refusals.
    """
    loaded = load(ctx.workspace, path, session=ctx.session)
    n = len(loaded.current.lines)
    if not 0 <= after_line <= n:
        raise PatchwrightError(
            ErrorCode.OUT_OF_RANGE,
            f"{line_field} {after_line} is outside {loaded.path}, which has {n} lines.",
            f"Use a {line_field} between 0 (the top of the file) and {n} (after the last line).",
            path=loaded.path,
            field=line_field,
        )
    body = text if text.endswith("\n") or not text else text + "\n"
    added_lines = body.splitlines()
    if (
        added_lines
        and loaded.current.lines[after_line : after_line + len(added_lines)] == added_lines
    ):
        raise PatchwrightError(
            ErrorCode.ALREADY_APPLIED,
            f"Lines {after_line + 1}-{after_line + len(added_lines)} of {loaded.path} already "
            "hold exactly this text: the insert looks already applied. No change was made.",
            "Re-read the file; if the text is there, skip this insert.",
            path=loaded.path,
            field=line_field,
        )
    new = apply_edits(loaded.current, [Edit(LineRange(after_line + 1, after_line), body)]).file
    record = ChangeRecord(description=f"insert after line {after_line}", op="insert",
                          old_start=after_line + 1, old_end=after_line)  # fmt: skip
    plan = PlannedWrite(loaded, new, label=f"{ctx.tool} {loaded.path}", changes=[record])
    outcome = commit_writes(ctx, [plan], label=plan.label)
    added = len(body.splitlines())
    message = [
        f"Inserted {added} line{'s' if added != 1 else ''} after line {after_line} of "
        f"{loaded.path} (now {span(after_line + 1, after_line + added)})."
    ]
    message += [f"  Warning: {w}" for w in outcome.warnings]
    data = {"path": loaded.path, "before_sha256": loaded.sha256, **outcome.data()}
    return ToolResult(True, "\n".join(message), diff=outcome.diff, warnings=outcome.warnings,
                      data=data)  # fmt: skip


__all__ = [
    "EXACT_RUNGS",
    "OPTIONS",
    "RUNG_WORDS",
    "Fields",
    "Replacement",
    "describe_match",
    "failure",
    "insert_lines",
    "replace_strings",
    "span",
    "write_whole",
]
