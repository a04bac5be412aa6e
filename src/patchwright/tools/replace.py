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

from collections.abc import Callable, Sequence

from patchwright._records import record
from patchwright._records import replace as replace_record
from patchwright.api.retry import Evidence, file_evidence, replayed_by
from patchwright.engine import MatchOptions, apply_edits
from patchwright.engine.notebook import edit_in_cells
from patchwright.model import (
    Composition,
    Edit,
    EngineResult,
    ErrorCode,
    LineRange,
    MatchReport,
    OldText,
    PatchwrightError,
    Rung,
    TextFile,
    ToolResult,
    WholeFile,
)
from patchwright.model.encoding import unencodable, unencodable_error
from patchwright.model.text import diff_rows, split_lines
from patchwright.tools.confirm import (
    offer_candidates,
    offer_near_miss,
    offer_readings,
    offer_texts,
)
from patchwright.tools.context import ToolContext
from patchwright.tools.files import Loaded, load, preview
from patchwright.tools.reads import (
    Stale,
    overlap_error,
    rebase_edit,
    seen_version,
    stale_note,
)
from patchwright.tools.writing import commit_writes, planned
from patchwright.workspace import ChangeRecord
from patchwright.writing import racing

OPTIONS = MatchOptions(mode="tolerant")
#: How similar the closest region of an old text not found must be to be offered as a
#: candidate (the fuzzy rung's own floor: the string tools never place an edit fuzzily).
NEAR_MISS_FLOOR = MatchOptions().fuzzy_threshold

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
        new: the field of the replacement text (``new_string``, ``new_str``).
        encoding: the field naming a file's encoding, ``None`` when the tool has none.
    """

    old: str = "old_string"
    batch: str | None = None
    new: str = "new_string"
    encoding: str | None = None


_DEFAULT_FIELDS = Fields()


def span(start: int, end: int) -> str:
    """``line 4`` / ``lines 4-6`` (an empty range: ``at line 4``)."""
    if end < start:
        return f"at line {start}"
    return f"line {start}" if start == end else f"lines {start}-{end}"


def describe_match(r: MatchReport) -> str:
    """``lines 10-12``, or ``lines 10-12, matched via indentation recovery; assumed: ...``
    (what the loose match took for granted, :attr:`MatchReport.assumption`; ``cell 3,
    lines 1-2`` for an edit inside a notebook cell)."""
    where = span(r.orig_start, r.orig_end)
    if r.cell is not None:
        where = f"cell {r.cell}, {where}"
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
    encoding: str | None = None,
    read_first: bool = False,
) -> ToolResult:
    """Apply ``items`` in order to ``path``, all or none (see the module docstring);
    ``encoding`` names the encoding of a file that is neither UTF-8 nor UTF-16.

    A retry of an edit already applied changes nothing and says so; a file changed since
    the agent last saw it gets the edit rebased (:mod:`.reads`); a file another writer
    changes between this call's read and its write is read again, and the edit made on
    that (a few times at most). ``read_first`` refuses an existing file the session has
    not read (Claude Code's rule).

    Raises:
        PatchwrightError: the engine's refusal in the edit's words (``not_found``,
            ``ambiguous``...), naming the edit's field; ``encoding`` naming the edit's
            new text when the file's encoding cannot hold it; ``conflict`` when a change
            since the agent's read overlaps the edit; path and workspace refusals.
    """
    return racing(
        ctx.workspace,
        lambda: _replace_once(ctx, path, items, fields, path_field, read_first, encoding),
    )


def _replace_once(
    ctx: ToolContext,
    path: str,
    items: Sequence[Replacement],
    fields: Fields,
    path_field: str,
    read_first: bool,
    encoding: str | None,
) -> ToolResult:
    loaded = load(
        ctx.workspace, path, missing_ok=all(not e.old for e in items), field=path_field,
        session=ctx.session, encoding=encoding, encoding_field=fields.encoding,
    )  # fmt: skip
    _check_encodable(items, fields, loaded.path, loaded.current.encoding)
    if read_first:
        require_read(ctx, loaded, path_field)
    edits = [
        Edit(OldText(e.old, replace_all=e.replace_all, replace_all_supported=True), e.new,
             label=f"Edit {k}")
        for k, e in enumerate(items, start=1)
    ]  # fmt: skip

    # replace_all is refused from its count when it would pass the file size limit
    options = replace_record(OPTIONS, max_chars=ctx.workspace.max_file_bytes)

    def run(before: TextFile, options: MatchOptions = options) -> EngineResult:
        # a notebook: each edit inside one cell's source
        in_cells = edit_in_cells(loaded.path, before, edits, options)
        if in_cells is not None:
            return in_cells
        return apply_edits(before, edits, composition=Composition.SEQUENTIAL, options=options)

    # a replay only asks whether the edit applies to an older text: no diagnosis; on
    # the text a write placed exactly replaced, the same edit is found exactly again
    quiet = replace_record(options, explain=False)
    strict = replace_record(quiet, mode="strict")

    def replay(before: TextFile | None) -> TextFile:
        exactly = before is not None and before is ctx.session.replaced_exactly(loaded.path)
        return run(before or TextFile(), strict if exactly else quiet).file

    evidence = file_evidence(loaded.current.text, items[0].old, items[0].new) if (
        loaded.exists and len(items) == 1 and not items[0].replace_all
    ) else None  # fmt: skip
    done = already_applied(ctx, loaded, replay, evidence)
    if done is not None:
        return done
    stale = rebase_edit(ctx, loaded, replay)
    if stale is not None and not stale.rebased.clean:
        raise _overlap(ctx, loaded, stale, replay, fields.old)
    try:
        result: EngineResult | None = run(loaded.current)
    except PatchwrightError as err:
        if stale is None:
            refused = failure(err, items, fields, loaded.path)
            refused = _offer(ctx, loaded, err, refused, items, edits, fields)
            partial = evidence.partial() if evidence is not None else None
            if partial:
                refused.message += f"\n    Note: {partial}; the edit is not taken as applied."
            raise refused from None
        result = None
    rebased = stale.rebased.file if stale is not None else None
    if rebased is not None and (result is None or not _same_text(result.file, rebased)):
        # the edit goes where the agent read it, not where the file has its text now
        seen = seen_version(ctx, loaded)
        assert seen is not None  # rebase_edit found it
        result = EngineResult(rebased, run(seen).reports)
    assert result is not None
    records = [
        ChangeRecord(description=f"Edit {r.index + 1}", op="replace", old_start=r.orig_start,
                     old_end=r.orig_end, new_start=r.new_start, new_end=r.new_end,
                     meta={"rung": r.rung, "count": r.count, **_cell(r)})
        for r in result.reports
    ]  # fmt: skip
    label = f"{ctx.tool} {loaded.path}"
    plan = planned(
        loaded, result.file, label=label, changes=records, rungs=[r.rung for r in result.reports]
    )
    outcome = commit_writes(ctx, [plan], label=label)
    lines = [
        f'  {r.index + 1}. Replaced "{preview(items[r.index].old)}" ({describe_match(r)})'
        for r in result.reports
    ]
    count = len(items)
    text = [f"Applied {count} edit{'s' if count != 1 else ''} to {loaded.path}:", *lines]
    if stale is not None:
        text.append(f"  Note: {stale_note(loaded.path, stale)}")
    warnings = [*result.warnings, *outcome.warnings]
    text += [f"  Warning: {w}" for w in warnings]
    data = {
        "path": loaded.path,
        "before_sha256": loaded.sha256,
        "edits": [r.to_dict() for r in result.reports],
        **outcome.data(),
    }
    if stale is not None:
        data["rebased"] = {"changed": [list(c) for c in stale.rebased.changed], "by": stale.by}
    return ToolResult(True, "\n".join(text), diff=outcome.diff, warnings=warnings, data=data)


def _cell(r: MatchReport) -> dict[str, int]:
    """The notebook cell of an edit, for its change record."""
    return {"cell": r.cell} if r.cell is not None else {}


def _offer(
    ctx: ToolContext,
    loaded: Loaded,
    err: PatchwrightError,
    refused: PatchwrightError,
    items: Sequence[Replacement],
    edits: list[Edit],
    fields: Fields,
) -> PatchwrightError:
    """``refused`` with the candidates the engine's refusal ``err`` allows (tools.confirm):
    each reading of undecided indentation, each place of an old text found several
    times, or the closest region of one not found."""
    single = len(items) == 1 and not items[0].replace_all
    field = refused.field or fields.old
    if err.details.get("frame") == "undecided":
        found = readings(lambda options: apply_edits(
            loaded.current, edits, composition=Composition.SEQUENTIAL, options=options
        ).file)  # fmt: skip
        return offer_readings(ctx, loaded, found, refused, field)
    if single and err.code is ErrorCode.AMBIGUOUS:
        return offer_candidates(ctx, loaded, items[0].old, items[0].new, refused, field)
    if single and err.code is ErrorCode.NOT_FOUND:
        return offer_near_miss(ctx, loaded, items[0].old, items[0].new, refused, field,
                               NEAR_MISS_FLOOR)  # fmt: skip
    return refused


def readings(edit: Callable[[MatchOptions], TextFile | None]) -> list[tuple[str, TextFile]]:
    """The texts an edit whose added lines' indentation is undecided gives under each
    reading that can be built, named."""
    found: list[tuple[str, TextFile]] = []
    for frame, name in (("shift", "new lines shifted like the old ones"),
                        ("keep", "new lines kept as written")):  # fmt: skip
        try:
            new = edit(replace_record(OPTIONS, frame=frame))
        except PatchwrightError:
            continue
        if new is not None:
            found.append((name, new))
    return found


def _overlap(
    ctx: ToolContext,
    loaded: Loaded,
    stale: Stale,
    edit: Callable[[TextFile], TextFile],
    field: str,
) -> PatchwrightError:
    """The refusal of an edit a change since the agent's read overlaps, with the edit made
    on the file as it is now as a candidate when it applies there: the rebase needs the
    model's word."""
    err = overlap_error(loaded.path, stale, loaded.current, _reader(ctx))
    try:
        now = edit(loaded.current)
    except PatchwrightError:
        return err
    what = "your edit made on the file as it is now"
    return offer_texts(ctx, loaded, [now], err, field, what,
                       "write the edit against the lines above")  # fmt: skip


def _same_text(a: TextFile, b: TextFile) -> bool:
    return a.lines == b.lines and a.endings == b.endings


def _reader(ctx: ToolContext) -> str | None:
    """How the agent reads a file again, in the exposed tools' words."""
    editor = ctx.exposed_name("str_replace_based_edit_tool")
    if editor is not None:
        return f"{editor} (command view)"
    return ctx.first_exposed("read_file", "Read")


def require_read(ctx: ToolContext, loaded: Loaded, path_field: str) -> None:
    """Claude Code's rule: an existing file is edited or overwritten only after the
    session read it (a new file needs no read).

    Raises:
        PatchwrightError: ``invalid_request`` naming the reading tool.
    """
    if not loaded.exists or ctx.session.seen(loaded.path) is not None:
        return
    reader = ctx.first_exposed("Read", "read_file") or "the read tool"
    raise PatchwrightError(
        ErrorCode.INVALID_REQUEST,
        f"File has not been read yet. Read it first before writing to it: {loaded.path}. "
        "No change was made.",
        f"Call {reader} on {loaded.path}, then send the edit again.",
        path=loaded.path,
        field=path_field,
    )


def already_applied(
    ctx: ToolContext,
    loaded: Loaded,
    replay: Callable[[TextFile | None], TextFile | None],
    evidence: Evidence | None = None,
) -> ToolResult | None:
    """The answer to a retry: "already applied (batch b-...), nothing changed" when the
    history's newest batch on the file made this very change (``replay`` applies the
    edit to a text) and the file still holds its result, or when the file ``evidence``
    shows the edit's result; ``None`` otherwise (the edit is then applied as usual)."""
    batch = replayed_by(ctx.workspace, loaded.path, loaded.sha256, replay, ctx.session.text_before)
    if batch is not None:
        head = f"Already applied (batch {batch}), nothing changed"
        why = (
            f"{loaded.path} still holds what that batch wrote, which is exactly what this "
            "edit makes."
        )
    elif evidence is not None and evidence.applied:
        head = "Already applied, nothing changed"
        why = (
            f"{loaded.path} has the new text at line {evidence.new_at[0]} and the old text "
            "nowhere else."
        )
    else:
        return None
    data = {"path": loaded.path, "already_applied": True, "batch_id": batch,
            "before_sha256": loaded.sha256, "changed": False}  # fmt: skip
    return ToolResult(True, f"{head}: {why}", data=data)


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
        cell = err.details.get("cell")
        where = f" of cell {cell}" if isinstance(cell, int) else ""
        extra = f"    Found at lines {', '.join(map(str, found))}{where}."
    else:
        line, extra = f"Edit {k}: {own}", ""
    batch = fields.batch is not None
    head = "Batch edit failed (no changes made):" if batch else "Edit failed (no changes made):"
    message = "\n".join(p for p in (head, f"  {line}", extra) if p)
    field = f"{fields.batch}[{index}].{fields.old}" if batch else fields.old
    return PatchwrightError(
        err.code, message, err.hint, path=path, field=field, line=err.line, details=err.details
    )


def _check_encodable(items: Sequence[Replacement], fields: Fields, path: str, codec: str) -> None:
    """Refuse new text the file's encoding cannot hold, naming the edit's field."""
    for index, item in enumerate(items):
        field = f"{fields.batch}[{index}].{fields.new}" if fields.batch else fields.new
        check_encodable(item.new, field, path, codec)


def check_encodable(text: str, field: str, path: str, codec: str) -> None:
    """Refuse ``text`` (from the request ``field``) when ``path``'s encoding ``codec``
    cannot hold it, naming the characters.

    Raises:
        PatchwrightError: ``encoding``, naming ``field`` and the characters.
    """
    if codec in ("utf-8", "utf-16-le", "utf-16-be"):
        return  # every character but a lone surrogate, refused when encoded
    chars = unencodable(text, codec)
    if chars:
        raise unencodable_error(chars, codec, path, field)


def _indent(text: str) -> str:
    return "\n".join(f"    {t}" for t in diff_rows(text))


def write_whole(
    ctx: ToolContext,
    path: str,
    content: str,
    *,
    path_field: str = "path",
    must_not_exist: bool = False,
    content_field: str = "content",
    read_first: bool = False,
) -> ToolResult:
    """Give ``path`` the whole ``content`` (created when missing).

    A file that already holds exactly ``content`` is left alone (a success that says
    so); one changed since the agent last saw it gets the write rebased, like an edit
    (:mod:`.reads`); ``read_first`` refuses an existing file the session has not read.

    Raises:
        PatchwrightError: ``file_exists`` when ``must_not_exist`` and the file is there;
            ``encoding`` naming ``content_field`` when the file's encoding cannot hold
            it; ``conflict`` when a change since the agent's read overlaps the write's;
            path and workspace refusals.
    """
    return racing(
        ctx.workspace,
        lambda: _write_once(
            ctx, path, content, path_field, must_not_exist, read_first, content_field
        ),
    )


def _write_once(
    ctx: ToolContext,
    path: str,
    content: str,
    path_field: str,
    must_not_exist: bool,
    read_first: bool,
    content_field: str,
) -> ToolResult:
    loaded = load(ctx.workspace, path, missing_ok=True, field=path_field, session=ctx.session)
    check_encodable(content, content_field, loaded.path, loaded.current.encoding)
    new = apply_edits(loaded.current, [Edit(WholeFile(), content)]).file
    plan = planned(loaded, new, label=f"{ctx.tool} {loaded.path}")
    if loaded.exists and must_not_exist and plan.changed:
        raise PatchwrightError(
            ErrorCode.FILE_EXISTS,
            f"{loaded.path} already exists (with other content); nothing was written.",
            "Edit it by replacing text in it, or choose a new path.",
            path=loaded.path,
            field=path_field,
        )
    if loaded.exists and not plan.changed:
        done = already_applied(ctx, loaded, lambda _before: new)
        if done is not None:
            return done
        data = {"path": loaded.path, "already_applied": False, "batch_id": None,
                "before_sha256": loaded.sha256, "changed": False}  # fmt: skip
        return ToolResult(
            True,
            f"Nothing changed: {loaded.path} already has exactly this content (no batch of "
            "the history wrote it last, so it may not be this write's doing).",
            data=data,
        )
    if read_first:
        require_read(ctx, loaded, path_field)
    stale = rebase_edit(ctx, loaded, lambda seen: _as_written(seen, content))
    if stale is not None:
        if stale.rebased.file is None:
            raise overlap_error(loaded.path, stale, loaded.current, _reader(ctx))
        new = stale.rebased.file
        plan = planned(loaded, new, label=plan.label)
    outcome = commit_writes(ctx, [plan], label=plan.label)
    verb = "Overwrote" if loaded.exists else "Created"
    text = [f"{verb} {loaded.path} ({len(new.lines)} line{'s' if len(new.lines) != 1 else ''})."]
    if stale is not None:
        text.append(f"  Note: {stale_note(loaded.path, stale)}")
    text += [f"  Warning: {w}" for w in outcome.warnings]
    data = {"path": loaded.path, "created": not loaded.exists, **outcome.data()}
    return ToolResult(True, "\n".join(text), diff=outcome.diff, warnings=outcome.warnings,
                      data=data)  # fmt: skip


def _as_written(seen: TextFile, content: str) -> TextFile:
    """``content`` as a whole-file write of ``seen`` gives it (its encoding kept)."""
    return apply_edits(seen, [Edit(WholeFile(), content)]).file


def insert_lines(
    ctx: ToolContext,
    path: str,
    after_line: int,
    text: str,
    *,
    line_field: str,
    text_field: str = "insert_text",
) -> ToolResult:
    """Insert ``text`` (whole lines) after line ``after_line`` (0: at the top); the line
    number is of the version the agent last saw (rebased when the file changed since).

    Raises:
        PatchwrightError: ``out_of_range`` naming ``line_field``; ``encoding`` naming
            ``text_field`` when the file's encoding cannot hold ``text``; ``conflict`` when
            a change since the agent's read overlaps the insertion; path refusals.
    """
    return racing(
        ctx.workspace, lambda: _insert_once(ctx, path, after_line, text, line_field, text_field)
    )


def _insert_once(
    ctx: ToolContext, path: str, after_line: int, text: str, line_field: str, text_field: str
) -> ToolResult:
    loaded = load(ctx.workspace, path, session=ctx.session)
    check_encodable(text, text_field, loaded.path, loaded.current.encoding)
    body = text if text.endswith("\n") or not text else text + "\n"
    added_lines = split_lines(body)[0]

    def insert(before: TextFile) -> TextFile:
        if not 0 <= after_line <= len(before.lines):
            raise _out_of_range(line_field, after_line, loaded.path, len(before.lines))
        return apply_edits(before, [Edit(LineRange(after_line + 1, after_line), body)]).file

    done = already_applied(ctx, loaded, lambda before: insert(before or TextFile()))
    if done is not None:
        return done
    stale = rebase_edit(ctx, loaded, insert)
    if stale is not None and stale.rebased.file is None:
        raise overlap_error(loaded.path, stale, loaded.current, _reader(ctx))
    if stale is None and (
        added_lines
        and loaded.current.lines[after_line : after_line + len(added_lines)] == added_lines
    ):
        raise PatchwrightError(
            ErrorCode.ALREADY_APPLIED,
            f"Lines {after_line + 1}-{after_line + len(added_lines)} of {loaded.path} already "
            "hold exactly this text, but no batch of the history put them there for this "
            "insert: it may be applied already, or the text may be meant twice. No change "
            "was made.",
            "Re-read the file; if the text is there, skip this insert, else insert it at "
            "another line.",
            path=loaded.path,
            field=line_field,
        )
    new = stale.rebased.file if stale is not None else insert(loaded.current)
    assert new is not None
    record = ChangeRecord(description=f"insert after line {after_line}", op="insert",
                          old_start=after_line + 1, old_end=after_line)  # fmt: skip
    plan = planned(loaded, new, label=f"{ctx.tool} {loaded.path}", changes=[record])
    outcome = commit_writes(ctx, [plan], label=plan.label)
    added = len(added_lines)
    where = (
        f"(now {span(after_line + 1, after_line + added)})"
        if stale is None
        else "(of the version you last read)"
    )
    message = [
        f"Inserted {added} line{'s' if added != 1 else ''} after line {after_line} of "
        f"{loaded.path} {where}."
    ]
    if stale is not None:
        message.append(f"  Note: {stale_note(loaded.path, stale)}")
    message += [f"  Warning: {w}" for w in outcome.warnings]
    data = {"path": loaded.path, "before_sha256": loaded.sha256, **outcome.data()}
    return ToolResult(True, "\n".join(message), diff=outcome.diff, warnings=outcome.warnings,
                      data=data)  # fmt: skip


def _out_of_range(field: str, line: int, path: str, n: int) -> PatchwrightError:
    return PatchwrightError(
        ErrorCode.OUT_OF_RANGE,
        f"{field} {line} is outside {path}, which has {n} lines.",
        f"Use a {field} between 0 (the top of the file) and {n} (after the last line).",
        path=path,
        field=field,
    )


__all__ = [
    "EXACT_RUNGS",
    "NEAR_MISS_FLOOR",
    "OPTIONS",
    "RUNG_WORDS",
    "Fields",
    "Replacement",
    "already_applied",
    "check_encodable",
    "describe_match",
    "failure",
    "insert_lines",
    "readings",
    "replace_strings",
    "require_read",
    "span",
    "write_whole",
]
