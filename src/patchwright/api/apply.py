"""Plan a patch in memory and hand it to the write path (``apply_patch_text``).

The patch is parsed, each file's hunks are located and applied in memory (moves, mode
bits, creations and deletions included), and the planned files go to
:mod:`patchwright.writing`, which renders their diffs, guards them and commits them as one
batch: this module plans, the write path writes.
"""

from __future__ import annotations

import os

from patchwright._collector import collector_paused
from patchwright._records import field, record, replace
from patchwright.api.report import ApplyReport, FileOutcome
from patchwright.api.retry import edit_texts, edits_evidence, replayed_by
from patchwright.engine import MatchOptions, apply_file_patch
from patchwright.engine.notebook import is_notebook_path
from patchwright.formats import parse_patch
from patchwright.model import (
    FileAction,
    FilePatch,
    Hunk,
    MatchReport,
    PatchSet,
    PatchwrightError,
    TextFile,
)
from patchwright.model.errors import ErrorCode
from patchwright.model.reports import Rung
from patchwright.syntax import check_policy, language_for
from patchwright.workspace import DEFAULT_MAX_FILE_BYTES, ChangeRecord, Workspace
from patchwright.workspace.fs import LINK_MODE, process_umask
from patchwright.workspace.records import digests_kept
from patchwright.writing import PlannedWrite, WriteOutcome, commit, stage

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

# git's modes for a regular file; anything else (symlink 120000, submodule 160000) is
# not a permission change
_REGULAR, _EXECUTABLE, _LINK = "100644", "100755", "120000"
_GIT_MODES = (_REGULAR, _EXECUTABLE, "100664")


@record
class _Before:
    """A file as the plan found it: its text (dropped once diffed), hash and mode."""

    text: TextFile | None
    sha256: str | None = None
    mode_bits: int | None = None


@record
class _Plan:
    """Per-file state while a patch is planned in memory."""

    options: MatchOptions
    before: dict[str, _Before] = field(default_factory=dict)
    current: dict[str, TextFile | None] = field(default_factory=dict)
    moved_from: dict[str, str] = field(default_factory=dict)
    outcomes: list[FileOutcome] = field(default_factory=list)
    # changed blocks per path, when one update of the file produced them (diff speed-up)
    regions: dict[str, list[tuple[int, int, int, int]]] = field(default_factory=dict)
    touched: dict[str, int] = field(default_factory=dict)
    # per target path: the history's change records and the permission bits asked for
    records: dict[str, list[ChangeRecord]] = field(default_factory=dict)
    modes: dict[str, int] = field(default_factory=dict)
    # paths where a link stands that a regular file replaces (git's type change)
    replaced_links: set[str] = field(default_factory=set)
    # the encoding of files neither UTF-8 nor UTF-16 (None: the workspace's, else detected)
    encoding: str | None = None


def apply_patch_text(
    patch_text: str,
    root: str | os.PathLike[str] = ".",
    *,
    format: str = "auto",
    mode: str = "fuzzy",
    fuzzy_threshold: float = 0.8,
    dry_run: bool = False,
    workspace: Workspace | None = None,
    history: bool = True,
    max_file_bytes: int | None = None,
    syntax: str = "warn",
    path: str | None = None,
    encoding: str | None = None,
) -> ApplyReport:
    """Apply ``patch_text`` (unified/git diff, OpenAI patch or SEARCH/REPLACE blocks) to
    the files under ``root``; all files or none. With ``format="snippet"`` the text is a
    lazy edit snippet of the file at ``path`` (merged by
    :func:`patchwright.engine.replacing.snippet.merge_snippet_file`; its report is the file's
    ``snippet`` entry).

    Never raises for a bad patch: the refusal is in ``report.error``, and
    ``report.files`` says per file and per hunk what applied and what failed.
    ``max_file_bytes`` raises the workspace's file size limit (16 MiB by default)
    when no ``workspace`` is given. ``syntax`` is the syntax guard's policy for files
    with a parser: ``off``, ``warn`` (report errors the patch introduces) or ``reject``
    (refuse the patch, nothing written). Usage errors carry the argument's name in
    ``report.error.field`` (``mode``, ``fuzzy_threshold``, ``syntax``, ``root``,
    ``encoding``). ``encoding`` names the encoding of the files that are neither UTF-8
    nor UTF-16 (``cp1252``, ``shift_jis``...; by default the workspace's, else detected).
    """
    report = ApplyReport(ok=False, applied=False, dry_run=dry_run, mode=mode)
    # each old content is hashed when planned and again by the commit inside its locks
    with collector_paused(), digests_kept():
        try:
            options = MatchOptions(mode=mode, fuzzy_threshold=fuzzy_threshold)  # type: ignore[arg-type]
            check_policy(syntax, "syntax")
            if encoding is not None:
                from patchwright.model.encoding import codec_name

                encoding = codec_name(encoding)
            snippet = _is_snippet(format, path)
            patch = None if snippet else parse_patch(patch_text, format)
            report.format = "snippet" if patch is None else patch.format
            report.parse_warnings = [] if patch is None else list(patch.warnings)
            ws = workspace or _open(root, history, max_file_bytes)
            plan = _Plan(options, encoding=encoding)
            report.files = plan.outcomes
            with ws.keeping_folders():  # the plan's reads: one walk per folder
                if patch is None:
                    assert path is not None
                    retried = None
                    _plan_snippet(ws, plan, path, patch_text)
                else:
                    retried = _retried(ws, plan, patch)
                    report.already_in_files = retried is None and _in_files(ws, plan, patch)
                    if retried is None and not report.already_in_files:
                        _plan(ws, plan, patch)
            if patch is not None and (retried is not None or report.already_in_files):
                report.already_applied = retried
                report.files = [
                    FileOutcome(
                        ws.resolve(f.path, links=True), f.action.value, status="already_applied"
                    )
                    for f in patch.files
                ]
                report.ok = True
                return report
            del patch  # the parsed hunks are no longer needed: free them before encoding
            # check_policy checked the name above
            staged = stage(_planned(plan), syntax, release=True)  # type: ignore[arg-type]
            _report_files(plan, staged.outcome)
            if not dry_run:
                ws.ensure_writable()
                if staged.changes:
                    meta = {"format": report.format}
                    record = commit(ws, staged, tool="apply", label=_label(plan), meta=meta).record
                    assert record is not None  # there were changes to commit
                    report.batch_id = record.batch_id
                    report.written = {f.path: f.after_sha256 for f in record.files}
                    report.recorded = ws.keeps_history
                    report.applied = True
            report.ok = True
        except PatchwrightError as err:
            report.error = err
    return report


def _is_snippet(format: str, path: str | None) -> bool:
    """Whether the text is a snippet (``format="snippet"``, which needs ``path``)."""
    if format.strip().lower() != "snippet":
        return False
    if not path:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            "A snippet names no file, and no path was given.",
            "Pass the path of the file the snippet edits: the path field of apply_patch, or "
            "--path PATH on the command line.",
            field="path",
        )
    return True


def _plan_snippet(ws: Workspace, plan: _Plan, path: str, text: str) -> None:
    """Plan the merge of a snippet into the file at ``path``."""
    from patchwright.engine.replacing.snippet import merge_snippet_file  # only for snippets

    where = ws.resolve(path)
    current = _load(ws, plan, where, links=False)
    if current is None:
        plan.outcomes.append(FileOutcome(where, "update", status="failed", hunks_total=1))
        raise PatchwrightError(
            ErrorCode.FILE_NOT_FOUND,
            f"{where}: the file does not exist, so a snippet has nothing to merge into.",
            "Check the path (relative to the root), or create the file with its whole text.",
            path=where,
        )
    try:
        merged = merge_snippet_file(current, text, path=where)
    except PatchwrightError as err:
        plan.outcomes.append(FileOutcome(where, "update", status="failed", hunks_total=1))
        raise err.with_context(path=where) from None
    new = merged.file
    rungs = [r.rung for r in merged.report.runs if r.rung.recovered]
    match = MatchReport(
        0, "snippet", rungs[0] if rungs else Rung.EXACT, 1.0, 1, len(current.lines),
        1, len(current.lines), 1, len(new.lines), warnings=merged.report.warnings,
    )  # fmt: skip
    outcome = FileOutcome(where, "update", reports=[match], hunks_total=1)
    outcome.snippet = merged.report.to_dict()
    plan.touched[where] = plan.touched.get(where, 0) + 1
    plan.current[where] = new
    plan.records.setdefault(where, []).append(
        ChangeRecord(None, "snippet", "edit", 1, len(current.lines), 1, len(new.lines),
                     {"rung": match.rung})
    )  # fmt: skip
    plan.outcomes.append(outcome)


def _open(root: str | os.PathLike[str], history: bool, max_file_bytes: int | None) -> Workspace:
    try:
        return Workspace(
            root, history=history, max_file_bytes=max_file_bytes or DEFAULT_MAX_FILE_BYTES
        )
    except PatchwrightError as err:
        if err.code in (ErrorCode.FILE_NOT_FOUND, ErrorCode.NOT_A_FILE):
            err.with_context(field="root")  # a usage error: the caller named no folder
        raise


def _retried(ws: Workspace, plan: _Plan, patch: PatchSet) -> str | None:
    """The batch that already applied this whole patch (a retry), or ``None``: every
    file's newest batch is that one, the file still holds what it wrote, and the patch
    replayed on the file's content before it gives exactly that (see ``api.retry``)."""
    if not ws.keeps_history or not patch.files:
        return None
    batches: set[str] = set()
    paths: set[str] = set()
    quiet = replace(plan.options, explain=False)  # a replay needs no diagnosis
    for fp in patch.files:
        if not fp.path or fp.move_to or _changes_mode(fp):
            return None
        try:
            path = ws.resolve(fp.path, links=True)
            _load(ws, plan, path)
        except PatchwrightError:
            return None  # the plan reports it
        if path in paths:
            return None  # two sections of one file: replayed one by one they prove nothing
        paths.add(path)
        if not _added_lines_stand(fp, plan.before[path].text):
            return None  # what the patch adds is not there: no replay needed to tell

        def replay(before: TextFile | None, fp: FilePatch = fp) -> TextFile | None:
            return apply_file_patch(before, fp, quiet)[0]

        batch = replayed_by(ws, path, plan.before[path].sha256, replay)
        if batch is None:
            return None
        batches.add(batch)
    return batches.pop() if len(batches) == 1 else None


def _added_lines_stand(fp: FilePatch, current: TextFile | None) -> bool:
    """Whether every line the section adds stands as a line of ``current``: a section
    that applied left them there, so without them it is no retry (and its replay, which
    may go up the whole ladder to the fuzzy rung, is spared)."""
    if current is None:
        return fp.action == FileAction.DELETE
    lines = {line.strip() for line in current.lines}
    for edit in fp.edits:
        old, new = edit_texts(edit)
        if old is None:
            new = edit.replacement  # a whole file, a line range: its new text as given
        added = {line.strip() for line in new.splitlines()}
        added -= {line.strip() for line in (old or "").splitlines()} | {""}
        if not added <= lines:
            return False
    return True


def _in_files(ws: Workspace, plan: _Plan, patch: PatchSet) -> bool:
    """Whether the files alone show the whole patch applied (``api.retry``'s file
    evidence for every hunk: its new lines stand once, its old lines nowhere outside
    them; an added file has its content, a deleted one is gone; at least one file is
    updated). Asked before the plan,
    since a retried insertion would apply again (its context is still there); a patch
    not applied yet costs one search of its first hunk's new lines in its first file."""
    updated = False
    for fp in patch.files:
        if not fp.path or fp.move_to or _changes_mode(fp):
            return False
        try:
            path = ws.resolve(fp.path, links=True)
            current = _load(ws, plan, path) if path not in plan.before else plan.before[path].text
            if fp.action == FileAction.DELETE:
                if current is not None:
                    return False
                continue
            if current is None:
                return False
            if fp.action == FileAction.CREATE:
                if _no_op(fp, path, current, plan.options) is None:
                    return False
                continue
        except PatchwrightError:
            return False
        evidence = edits_evidence(current.text, fp.edits)
        if fp.edits and (evidence is None or not evidence.applied):
            return False
        updated = True
    # adds and deletes alone are no-ops the plan says so of, file by file
    return updated


def _plan(ws: Workspace, plan: _Plan, patch: PatchSet) -> None:
    if not patch.files:
        raise PatchwrightError(
            ErrorCode.PARSE_ERROR,
            "The patch contains no file changes.",
            "Send a unified diff, an OpenAI '*** Begin Patch' block or SEARCH/REPLACE blocks.",
        )
    for number, fp in enumerate(patch.files):
        known = len(plan.outcomes)
        try:
            _plan_file(ws, plan, fp)
        except PatchwrightError as err:
            if len(plan.outcomes) == known:  # refused before its hunks were tried
                path = err.path or fp.path
                plan.outcomes.append(
                    FileOutcome(path, fp.action.value, fp.move_to, status="failed")
                )
            plan.outcomes[known].status = "failed"
            plan.outcomes[known].hunks_total = len(fp.edits)
            plan.outcomes.extend(
                FileOutcome(f.path, f.action.value, f.move_to, status="not_checked")
                for f in patch.files[number + 1 :]
            )
            raise


def _plan_file(ws: Workspace, plan: _Plan, fp: FilePatch) -> None:
    if not fp.path:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            "A hunk of the patch names no file (no ---/+++ or 'diff --git' header).",
            "Add the file headers (--- a/PATH and +++ b/PATH) before the hunks.",
            line=fp.source_line,
        )
    # a patch names a link, never what it points to; a path beyond a link is refused
    path = ws.resolve(fp.path, links=True)
    current = _load(ws, plan, path)
    link = _link_section(plan, fp, path, current)
    notes: list[str] = []
    try:
        if not link:
            _check_modes(fp, path)
        try:
            noop = _no_op(fp, path, current, plan.options)
            if noop is not None:
                new, reports = noop
                notes.append(
                    f"{path} already has exactly this content: nothing to add"
                    if new is not None
                    else f"{path} does not exist: nothing to delete"
                )
            else:
                new, reports = _apply(path, current, fp, plan.options)
        except PatchwrightError as err:
            settled = _frame_by_syntax(path, current, fp, plan.options, err)
            if settled is None:
                raise
            new, reports, note = settled
            notes.append(note)
    except PatchwrightError as err:
        plan.outcomes.append(_failed(fp, path, current, err, plan.options))
        raise
    plan.touched[path] = plan.touched.get(path, 0) + 1
    if plan.touched[path] == 1 and current is not None and new is not None and not fp.move_to:
        plan.regions[path] = [
            (r.orig_start - 1, r.orig_end, r.new_start - 1, r.new_end) for r in reports
        ]
    else:
        plan.regions.pop(path, None)
    outcome = FileOutcome(
        path, _action(fp, current), reports=reports, hunks_total=len(fp.edits),
        old_mode=fp.old_mode if _changes_mode(fp) else None,
        new_mode=fp.new_mode if _changes_mode(fp) else None,
    )  # fmt: skip
    target = path
    if fp.move_to:
        target = ws.resolve(fp.move_to, links=True)
        if target != path:
            if _load(ws, plan, target) is not None:
                if _is_link(plan, target):
                    raise PatchwrightError(
                        ErrorCode.FILE_EXISTS,
                        f"{path}: the patch moves this file to {target}, which already exists "
                        "as a symbolic link (git refuses it too). Nothing was changed.",
                        "Move it to a free path, or ask the user to remove the link.",
                        path=path,
                        details={"symlink": target},
                    )
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
            plan.records[target] = plan.records.pop(path, [])
    outcome.notes.extend(notes)
    plan.current[target] = new
    plan.records.setdefault(target, []).extend(_records(fp, reports, current))
    if link:
        plan.modes[target] = LINK_MODE  # the change acts on the link (deleted, moved, set)
    elif new is not None:
        _plan_file_mode(plan, fp, path, target, current, new, outcome)
    plan.outcomes.append(outcome)


def _plan_file_mode(
    plan: _Plan,
    fp: FilePatch,
    path: str,
    target: str,
    current: TextFile | None,
    new: TextFile,
    outcome: FileOutcome,
) -> None:
    """The mode of a regular file the section writes at ``target``; a file where a link
    stood (git's type change: the link deleted, a file created) replaces the link."""
    if _is_link_before(plan, target):
        plan.replaced_links.add(target)
        if plan.modes.get(target) == LINK_MODE:
            del plan.modes[target]
    _plan_mode(plan, fp, path, target, current, new, outcome)


def _apply(
    path: str, current: TextFile | None, fp: FilePatch, options: MatchOptions
) -> tuple[TextFile | None, list[MatchReport]]:
    """``apply_file_patch``; SEARCH/REPLACE blocks on a notebook are placed inside its
    cells' sources (a diff's hunks describe its JSON lines and apply to them)."""
    if (
        current is not None
        and is_notebook_path(path)
        and fp.action == FileAction.UPDATE
        and not fp.move_to
        and fp.edits
        and not any(isinstance(e.anchor, Hunk) for e in fp.edits)
    ):
        from patchwright.engine.notebook import edit_in_cells

        try:
            result = edit_in_cells(path, current, fp.edits, options)
        except PatchwrightError as err:
            raise err.with_context(path=path) from None
        if result is not None:
            return result.file, result.reports
    return apply_file_patch(current, fp, options)


def _is_link(plan: _Plan, path: str) -> bool:
    """Whether the planned content of ``path`` (which exists) is a symbolic link."""
    if path in plan.modes:
        return plan.modes[path] == LINK_MODE
    before = plan.before.get(path)
    return before is not None and before.mode_bits == LINK_MODE


def _link_section(plan: _Plan, fp: FilePatch, path: str, current: TextFile | None) -> bool:
    """Whether the section acts on a symbolic link as a link, as git does; refuses what
    git refuses.

    A link's content is its target (git's mode 120000): a section deletes the link, moves
    it (a rename without hunks), or changes its target when the diff says the file is a
    link; a git diff with ``new file mode 120000`` creates one. Adding a file where a
    link stands is refused ("already exists"), and so is a section that edits a link's
    lines without saying it is a link: the file meant is the one the link points to,
    which the patch should name.
    """
    says_link = _LINK in (fp.old_mode, fp.new_mode)
    if current is None or not _is_link(plan, path):
        if current is not None and fp.old_mode == _LINK:
            raise PatchwrightError(
                ErrorCode.NOT_A_FILE,
                f"{path} is a regular file, not a symbolic link as the patch says (mode "
                "120000); git refuses it too (wrong type). Nothing was changed.",
                "Write the section against the file as it is (without the link mode).",
                path=path,
                details={"old_mode": fp.old_mode},
            )
        if says_link and fp.old_mode not in (None, _LINK):
            _refuse_type_change(fp, path)
        return says_link
    target = current.text
    if fp.action == FileAction.CREATE:
        if fp.new_mode == _LINK:
            return True  # refused as an existing path (file_exists), as git does
        raise PatchwrightError(
            ErrorCode.FILE_EXISTS,
            f"{path} already exists as a symbolic link (to {target!r}); the patch would "
            "create the file it points to instead. Nothing was changed.",
            "Create the file under another name, or ask the user to remove the link.",
            path=path,
            details={"symlink": path, "target": target},
        )
    if fp.action == FileAction.DELETE:
        return True
    if fp.new_mode not in (None, _LINK) or fp.old_mode not in (None, _LINK):
        _refuse_type_change(fp, path)
    if says_link or (fp.move_to and not fp.edits):
        return True
    verb = "move and edit" if fp.move_to else "edit"
    raise PatchwrightError(
        ErrorCode.NOT_A_FILE,
        f"{path} is a symbolic link to {target!r}; a patch would {verb} the link's target "
        "text, not the file it points to (a git diff says so with mode 120000). Nothing "
        "was changed.",
        f"To edit the file the link points to, name that file in the patch ({target!r}, "
        "from the link's folder); or ask the user.",
        path=path,
        details={"kind": "symlink", "symlink": path, "target": target},
    )


def _is_link_before(plan: _Plan, path: str) -> bool:
    """Whether ``path`` was a symbolic link when the plan read it."""
    before = plan.before.get(path)
    return before is not None and before.mode_bits == LINK_MODE


def _refuse_type_change(fp: FilePatch, path: str) -> None:
    raise PatchwrightError(
        ErrorCode.UNSUPPORTED,
        f"{path}: the patch turns a {'link' if fp.old_mode == _LINK else 'file'} into a "
        f"{'link' if fp.new_mode == _LINK else 'file'} (mode {fp.old_mode} to "
        f"{fp.new_mode}); patchwright does not change a path's type in one section. "
        "Nothing was changed.",
        "Delete the old one in one section and create the new one in another, as git "
        "writes it; or ask the user.",
        path=path,
        details={"old_mode": fp.old_mode, "new_mode": fp.new_mode},
    )


def _no_op(
    fp: FilePatch, path: str, current: TextFile | None, options: MatchOptions
) -> tuple[TextFile | None, list[MatchReport]] | None:
    """An added file that exists with exactly the patch's content, or a deleted file that
    is absent: the file already is what the patch asks for, so the section changes
    nothing (instead of refusing "file exists" / "file not found"). ``None`` otherwise."""
    if fp.action == FileAction.DELETE and current is None and not fp.move_to:
        return None, []
    if fp.action != FileAction.CREATE or current is None or _changes_mode(fp):
        return None
    created = apply_file_patch(None, fp, options)[0]
    if created is None or created.lines != current.lines or created.endings != current.endings:
        return None
    return current, []


def _frame_by_syntax(
    path: str, current: TextFile | None, fp: FilePatch, options: MatchOptions, err: PatchwrightError
) -> tuple[TextFile | None, list[MatchReport], str] | None:
    """Settle added lines' indentation that the engine found balanced (old lines shifted,
    new lines' frame unknown) with the file's parser: when exactly one of the two readings
    parses without an error the file did not have, it is the one meant. ``None`` when
    there is no parser or both or neither reading parse."""
    if err.details.get("frame") != "undecided" or current is None or language_for(path) is None:
        return None
    from patchwright.syntax import check_edit  # only for an undecided frame

    good = []
    for frame in ("shift", "keep"):
        try:
            new, reports = apply_file_patch(current, fp, replace(options, frame=frame))
        except PatchwrightError:
            return None  # a reading that cannot be built says nothing for the other
        if new is not None and check_edit(path, current.text, new.text, policy="warn").ok:
            good.append((new, reports, frame))
    if len(good) != 1:
        return None
    new, reports, frame = good[0]
    how = "shifted like the old lines" if frame == "shift" else "kept as written"
    return (
        new,
        reports,
        (
            f"{path}: the added lines' indentation was undecided ({err.message}); they were "
            f"{how}, the only reading the syntax check accepts"
        ),
    )


def _load(ws: Workspace, plan: _Plan, path: str, *, links: bool = True) -> TextFile | None:
    """The planned text of ``path``, read on first use; a patch reads a link as itself
    (``links``: its target as text, its mode ``LINK_MODE``)."""
    if path not in plan.current:
        # read_if_exists refuses a FIFO or a folder (not_a_file) instead of taking it
        # for a missing file; the bytes read are dropped once decoded
        state = ws.read_if_exists(path, links=links)
        if state is None:
            plan.before[path] = _Before(None)
            plan.current[path] = None
        else:
            text = ws.decode(state.data, path, encoding=plan.encoding)
            plan.before[path] = _Before(text, state.sha256, state.mode_bits)
            plan.current[path] = text
    return plan.current[path]


def _action(fp: FilePatch, current: TextFile | None) -> str:
    if fp.action == FileAction.DELETE:
        return "delete"
    if current is None:
        return "create"
    return "update"


# failures ------------------------------------------------------------------------------------
def _failed(
    fp: FilePatch, path: str, current: TextFile | None, err: PatchwrightError, opts: MatchOptions
) -> FileOutcome:
    """The outcome of the file that failed: its applied hunks and the failing one."""
    outcome = FileOutcome(path, _action(fp, current), fp.move_to, status="failed")
    outcome.hunks_total = len(fp.edits)
    index = _failed_index(err, len(fp.edits))
    if index is None:
        return outcome
    if index > 0 and current is not None:
        # the engine is all-or-nothing, so the hunks before the failing one are located
        # again to report how each matched (only on this failure path)
        earlier = replace(fp, edits=fp.edits[:index], old_mode=None, new_mode=None)
        try:
            outcome.reports = apply_file_patch(current, earlier, opts)[1]
        except PatchwrightError:
            outcome.reports = []
    from patchwright.engine.matching.failures import hunk_failure  # only when a hunk failed

    outcome.failure = hunk_failure(err, fp, index, current.lines if current else None)
    return outcome


def _failed_index(err: PatchwrightError, count: int) -> int | None:
    index = err.details.get("edit_index")
    if not isinstance(index, int):
        pair = err.details.get("edits")  # an overlap names both hunks: the later failed
        index = max(pair) if isinstance(pair, list) and pair else None
    return index if isinstance(index, int) and 0 <= index < count else None


# modes ---------------------------------------------------------------------------------------
def _changes_mode(fp: FilePatch) -> bool:
    if fp.action == FileAction.DELETE or fp.new_mode is None:
        return False
    if fp.action == FileAction.CREATE:
        return fp.new_mode != _REGULAR
    return fp.new_mode != fp.old_mode


def _check_modes(fp: FilePatch, path: str) -> None:
    """Refuse a git mode that is not a regular file's (symlink, submodule, folder)."""
    if not _changes_mode(fp):
        return
    bad = next((m for m in (fp.new_mode, fp.old_mode) if m and m not in _GIT_MODES), None)
    if bad is None:
        return
    raise PatchwrightError(
        ErrorCode.UNSUPPORTED,
        f"{path}: the patch changes the file's git mode to {fp.new_mode} (from "
        f"{fp.old_mode or 'none'}); only the modes of regular files (100644, 100755) can "
        "be applied, not symlinks (120000) or submodules (160000). No change was made.",
        "Leave the mode lines out of the patch, or change the file type with git itself.",
        path=path,
        details={"old_mode": fp.old_mode, "new_mode": fp.new_mode},
    )


def _plan_mode(
    plan: _Plan,
    fp: FilePatch,
    path: str,
    target: str,
    current: TextFile | None,
    new: TextFile,
    outcome: FileOutcome,
) -> None:
    """Work out the permission bits a git mode change asks for (target path)."""
    if not _changes_mode(fp):
        return
    executable = fp.new_mode == _EXECUTABLE
    old_bits = plan.modes.get(path)
    if old_bits is None and current is not None:
        old_bits = plan.before[path].mode_bits
    if old_bits is None:  # a new file: the bits it would get, then the mode on top
        old_bits = 0o666 & ~process_umask()
    bits = old_bits | ((old_bits & 0o444) >> 2) if executable else old_bits & ~0o111
    now_executable = bool(old_bits & 0o111)
    if (
        fp.old_mode in _GIT_MODES
        and current is not None
        and now_executable != (fp.old_mode == _EXECUTABLE)
    ):
        outcome.notes.append(
            f"{path} has mode {_EXECUTABLE if now_executable else _REGULAR}, not "
            f"{fp.old_mode} as the patch says; its mode is set to {fp.new_mode} all the same."
        )
    content_changed = new is not current or bool(fp.move_to)
    if bits == old_bits and not content_changed and fp.action != FileAction.CREATE:
        raise PatchwrightError(
            ErrorCode.ALREADY_APPLIED,
            f"{path} already has mode {fp.new_mode}: the mode change looks already applied. "
            "No change was made.",
            "Re-read the file's mode; if the change is there, leave it out of the patch.",
            path=path,
            details={"old_mode": fp.old_mode, "new_mode": fp.new_mode},
        )
    plan.modes[target] = bits
    if bits != old_bits:
        plan.records.setdefault(target, []).append(
            ChangeRecord(
                description=f"mode {fp.old_mode or _REGULAR} -> {fp.new_mode}",
                op="mode",
                meta={"old_bits": oct(old_bits), "new_bits": oct(bits)},
            )
        )


# history records -----------------------------------------------------------------------------
def _records(
    fp: FilePatch, reports: list[MatchReport], current: TextFile | None
) -> list[ChangeRecord]:
    """One change per hunk (edit) for the history, the way the tools record theirs."""
    if fp.action == FileAction.DELETE:
        count = len(current) if current is not None else 0
        return [ChangeRecord(description="delete file", op="delete", old_start=1, old_end=count)]
    out: list[ChangeRecord] = []
    edits = fp.edits
    for r in reports:
        edit = edits[r.index] if r.index < len(edits) else None
        if edit is None:
            description, op = "create file", "create"
        elif isinstance(edit.anchor, Hunk):
            description, op = _hunk_header(edit.anchor), "hunk"
        else:
            description, op = edit.label or r.label, "edit"
        # positional: a record per hunk, thousands for a large diff
        out.append(
            ChangeRecord(
                None, description, op, r.orig_start, r.orig_end, r.new_start, r.new_end,
                {"rung": r.rung},
            )
        )  # fmt: skip
    return out


def _hunk_header(hunk: Hunk) -> str:
    """The hunk's ``@@`` line as the patch gave it (numbers, or the OpenAI anchors)."""
    head = "@@"
    if hunk.old_start is not None:
        old = _span(hunk.old_start, hunk.old_count)
        if hunk.new_start is None:
            head = f"@@ -{old} @@"
        else:
            head = f"@@ -{old} +{_span(hunk.new_start, hunk.new_count)} @@"
    if hunk.anchors:
        head += " " + " ".join(hunk.anchors)
    return head


def _span(start: int, count: int | None) -> str:
    return str(start) if count is None or count == 1 else f"{start},{count}"


# from plan to the write path ---------------------------------------------------------------
def _planned(plan: _Plan) -> Iterator[PlannedWrite]:
    """The write path's plan of each file the patch changes, one at a time.

    Texts are dropped from the plan as each file is handed over (and the write path,
    told to release them, drops its own once the file is done), so a patch of a large
    file does not keep the old text, the new text and the new bytes alive together for
    longer than needed.
    """
    moved_away = set(plan.moved_from.values())
    by_target = {o.move_to or o.path: o for o in plan.outcomes}
    for path in list(plan.current):
        new = plan.current[path]
        plan.current[path] = None
        source = plan.moved_from.get(path)
        if new is None and (path in moved_away or source is not None):
            continue  # the move's own change removes it
        old = plan.before[source or path]
        outcome = by_target.get(path)
        head = ""
        if outcome is not None and outcome.new_mode:
            # git's header lines, so the diff (and the history) shows the mode change too
            head = f"diff --git a/{source or path} b/{path}\n"
            if outcome.old_mode and old.text is not None:
                head += f"old mode {outcome.old_mode}\nnew mode {outcome.new_mode}\n"
            else:
                head += f"new file mode {outcome.new_mode}\n"
        before, old.text = old.text, None
        yield PlannedWrite(
            path,
            before,
            new,
            sha256=old.sha256,
            move_from=source,
            mode_bits=plan.modes.get(path),
            diff_head=head,
            regions=plan.regions.get(path),
            changes=tuple(plan.records.get(path, ())),
            rungs=[r.rung for r in outcome.reports] if outcome is not None else (),
            replaces_link=path in plan.replaced_links,
        )
        del new, before
    plan.current.clear()


def _report_files(plan: _Plan, outcome: WriteOutcome) -> None:
    """Each file's diff, syntax report and warnings from the write path, in its outcome."""
    moved_away = set(plan.moved_from.values())
    for file in plan.outcomes:
        key = file.move_to or file.path
        file.diff = outcome.diffs.get(key, "")
        if file.path in moved_away and file.move_to is None:
            file.diff = ""
        if key in outcome.syntax:
            file.syntax = outcome.syntax[key]
        file.notes.extend(outcome.notes.get(key, ()))


def _label(plan: _Plan) -> str:
    paths = [o.move_to or o.path for o in plan.outcomes]
    shown = ", ".join(dict.fromkeys(paths))
    return f"apply: {shown}" if len(shown) < 200 else f"apply: {len(paths)} files"
