"""``document_snapshot`` and ``document_edit``: spec 003's agent tools over workspace files.

Workflow: take a snapshot (text + ``document_version``), compute a unified diff against
that text (``build_diff`` helps), send it to ``document_edit`` with action ``patch`` and
the version. A file's version is the SHA256 of its bytes (any prefix of at least 12 hex
digits, ``sha256:`` optional, is accepted back); a directive naming another version is
refused as ``stale version`` before any work.

Directive validation and application are :mod:`patchwright.documents`' own: the file's
text is loaded into a :class:`~patchwright.documents.DocumentSession`, the directive
applied there, and the new text committed through the workspace (its bytes re-checked
against the SHA256 inside the file locks). Legacy actions: ``insert`` / ``replace``
take ``target_range`` (character offsets into the snapshot text; required, a workspace
file has no selection); ``annotate`` stores a note in the session (the file is not
changed). Whether ``patch`` is offered (and the default action) is the host's
``use_patch_edits`` setting.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from patchwright.documents import DocumentSession, PatchApplyError
from patchwright.documents.errors import ConflictReason
from patchwright.documents.results import EditResult, applied_summary
from patchwright.documents.versions import token_names
from patchwright.model import ErrorCode, PatchwrightError, TextFile, ToolResult
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.documents.snapshot import snapshot_spec
from patchwright.tools.files import Loaded, load
from patchwright.tools.replace import already_applied
from patchwright.tools.spec import WRITES, ToolHooks, ToolSpec
from patchwright.tools.writing import commit_writes, planned
from patchwright.workspace import ChangeRecord
from patchwright.workspace.records import sha256_hex
from patchwright.writing import racing

__all__ = ["edit_spec", "snapshot_spec"]

_VERSION_ALIASES = ("snapshot_version", "version", "document_digest")


def _path() -> Any:
    return Field(description="The workspace file to edit.")


def _version() -> Any:
    return Field(
        None,
        description="The document_version of the snapshot the edit was written against "
        "(required for patch).",
    )


def _content() -> Any:
    return Field(
        None, description="insert/replace: the new text; annotate: the note. Not for patch."
    )


def _range() -> Any:
    return Field(
        None,
        description="insert/replace/annotate: [start, end] character offsets into the "
        "snapshot text (end exclusive; start == end for insert). Not for patch.",
        min_length=2,
        max_length=2,
    )


def _fingerprint() -> Any:
    return Field(
        None, description="Optional: fingerprint of the text in target_range, for verification."
    )


def _rationale() -> Any:
    return Field(None, description="Optional: why this edit is made.")


class _EditBase(BaseModel):
    """Fields and alias handling shared by both forms of ``document_edit``."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _aliases(cls, data: Any) -> Any:
        if isinstance(data, dict) and any(k in data for k in _VERSION_ALIASES):
            data = dict(data)
            for key in _VERSION_ALIASES:
                value = data.pop(key, None)
                if value is not None and data.get("document_version") is None:
                    data["document_version"] = value
        return data


class DocumentEditRequest(_EditBase):
    """Arguments of ``document_edit`` when patch edits are on."""

    path: str = _path()
    action: Literal["patch", "insert", "replace", "annotate"] = Field(
        "patch",
        description="patch (default): apply a unified diff; insert/replace: legacy range "
        "edits; annotate: attach a note.",
    )
    diff: str | None = Field(
        None, description="patch: a unified diff of the file against the snapshot text."
    )
    document_version: str | None = _version()
    content: str | None = _content()
    target_range: list[int] | None = _range()
    selection_fingerprint: str | None = _fingerprint()
    rationale: str | None = _rationale()


class LegacyDocumentEditRequest(_EditBase):
    """Arguments of ``document_edit`` when only the legacy actions are offered."""

    path: str = _path()
    action: Literal["insert", "replace", "annotate"] = Field(
        description="insert: put content at target_range (empty range); replace: swap the "
        "text in target_range for content; annotate: attach content as a note."
    )
    document_version: str | None = _version()
    content: str | None = _content()
    target_range: list[int] | None = _range()
    selection_fingerprint: str | None = _fingerprint()
    rationale: str | None = _rationale()


def _stale(token: str, loaded: Loaded) -> PatchApplyError:
    return PatchApplyError(
        ConflictReason.STALE_VERSION,
        f"The edit was written against version {token}, but {loaded.path} is now at "
        f"{loaded.sha256}: it changed since that snapshot. Nothing was written.",
        "Take a fresh snapshot, recompute the edit against its text, and resend it with the "
        "new document_version.",
        field="document_version",
        expected_version=token,
        actual_version=loaded.sha256,
        versions_match=False,
    )


EditRequest = DocumentEditRequest | LegacyDocumentEditRequest


def _directive(req: EditRequest, session: DocumentSession, file: TextFile) -> dict[str, Any]:
    data = req.model_dump(exclude={"path"}, exclude_none=True)
    data.pop("document_version", None)
    if data["action"] == "patch":
        if req.document_version is not None:
            # Checked against the file's SHA256 already; the session, built from the text,
            # knows only its text digest. _apply speaks the file's version again.
            data["document_version"] = session.version
    else:
        if req.target_range is None:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"Action {data['action']} needs target_range: a workspace file has no selection.",
                "Send target_range as [start, end] character offsets into the snapshot text.",
                field="target_range",
            )
        content = data.get("content")
        if (
            data["action"] != "annotate"
            and isinstance(content, str)
            and file.newline != "\n"
            and "\r" not in content
        ):
            data["content"] = content.replace("\n", file.newline)
    return data


def _apply(doc: DocumentSession, req: EditRequest, loaded: Loaded) -> EditResult:
    """Apply the request's directive to ``doc``, refusals stated in the file's versions.

    The agent holds the file's SHA256 (from ``document_snapshot``), never the session's
    text digest, so every version a refusal shows is the token it sent or the file's.
    """
    try:
        return doc.apply(_directive(req, doc, loaded.current))
    except PatchApplyError as err:
        err.restated(req.document_version, str(loaded.sha256), internal=doc.version)
        raise


def run_edit(ctx: ToolContext, req: EditRequest) -> ToolResult:
    """Apply one directive to a workspace file."""
    started = time.perf_counter()
    action = str(getattr(req, "action", ""))
    try:
        # a file another writer changed between this call's read and its commit: the
        # directive is applied again on what that writer left, if it still names it
        return racing(ctx.workspace, lambda: _edit(ctx, req, action, started))
    except PatchApplyError as err:
        _metrics(ctx, action, started, conflict=True)
        summary = err.summary(action)
        ctx.session.set_metric("last_diff_summary", summary)
        # Kept apart, as DocumentSession metrics keep it: a later success overwrites the
        # last summary, while the last refusal stays available to debug it.
        ctx.session.set_metric(
            "last_failure", {"summary": summary, "action": action, "error": err.to_dict()}
        )
        err.details["action"] = action
        raise


def _edit(ctx: ToolContext, req: EditRequest, action: str, started: float) -> ToolResult:
    loaded = load(ctx.workspace, req.path)
    file = loaded.current
    if action != "annotate":
        # a retry names the version the edit was made on, which the file no longer
        # has: asked before the version check, or the retry would be refused as stale
        done = already_applied(ctx, loaded, lambda before: _replay(req, before, file))
        if done is not None:
            return done
    token = req.document_version
    if token is not None and not token_names(token, loaded.sha256 or ""):
        raise _stale(token, loaded)
    doc = DocumentSession(file.text)
    if action == "annotate":
        return _annotate(ctx, req, doc, loaded)
    result = _apply(doc, req, loaded)
    after = TextFile.from_text(result.text, encoding=file.encoding, bom=file.bom)
    record = ChangeRecord(
        description=req.rationale or "",
        op=action,
        meta={"spans": [s.to_dict() for s in result.spans]},
    )
    plan = planned(
        loaded, after, label=f"document_edit {loaded.path}", changes=[record], rungs=result.rungs
    )
    outcome = commit_writes(ctx, [plan], label=req.rationale or f"document_edit {loaded.path}")
    new_version = outcome.record.files[0].after_sha256 if outcome.record else loaded.sha256
    summary = applied_summary(result.action, result.chars_delta, str(new_version))
    _metrics(ctx, action, started, conflict=False)
    ctx.session.set_metric("last_diff_summary", summary)
    warnings = [*result.warnings, *outcome.warnings]
    text = "\n".join([summary, *(f"Warning: {w}" for w in warnings)])
    data = {
        "path": loaded.path,
        "status": "applied",
        "action": action,
        "summary": summary,
        "document_version": new_version,
        "previous_version": loaded.sha256,
        "versions": _compared(req, loaded),
        "chars_delta": result.chars_delta,
        "spans": [s.to_dict() for s in result.spans],
        "selection_hint": result.selection_hint.to_list(),
        "metrics": metrics_view(ctx.session.metrics),
        **outcome.data(),
    }
    return ToolResult(True, text, diff=outcome.diff, warnings=warnings, data=data)


def _replay(req: EditRequest, before: TextFile | None, file: TextFile) -> TextFile:
    """The request's directive applied to ``before`` (the file's content before the
    batch that last wrote it), in ``file``'s encoding, for ``already_applied``."""
    if before is None:
        raise PatchwrightError(
            ErrorCode.FILE_NOT_FOUND, "No content to replay on.", "Nothing to do."
        )
    if req.document_version is not None and not token_names(
        req.document_version, sha256_hex(before.encode())
    ):
        raise PatchwrightError(ErrorCode.STALE, "Made on another version.", "Nothing to do.")
    doc = DocumentSession(before.text)
    result = doc.apply(_directive(req, doc, before))
    return TextFile.from_text(result.text, encoding=file.encoding, bom=file.bom)


def _annotate(
    ctx: ToolContext, req: EditRequest, doc: DocumentSession, loaded: Loaded
) -> ToolResult:
    result = _apply(doc, req, loaded)
    note = result.annotation
    assert note is not None  # an applied annotate always stores its note
    stored = {
        "id": ctx.session.next_note_id(),
        "path": loaded.path,
        "range": [note.start, note.end],
        "note": note.note,
        "document_version": loaded.sha256,
        "rationale": note.rationale,
    }
    ctx.session.add_note(stored)
    where = f"note {stored['id']} on [{note.start}, {note.end}]"
    summary = f"applied: {where} (annotate, version={loaded.sha256})"
    ctx.session.set_metric("last_diff_summary", summary)
    data = {"path": loaded.path, "status": "applied", "action": "annotate", "summary": summary,
            "document_version": loaded.sha256, "versions": _compared(req, loaded),
            "note": stored}  # fmt: skip
    return ToolResult(True, summary, data=data)


def _compared(req: EditRequest, loaded: Loaded) -> dict[str, Any]:
    """The version comparison of an applied directive, shaped as a refusal's.

    The token the agent sent (it named the file's SHA256, or the directive was refused as
    stale) and the file's SHA256 it was applied to.
    """
    token = req.document_version
    return {"expected": token, "actual": loaded.sha256, "match": None if token is None else True}


def _metrics(ctx: ToolContext, action: str, started: float, *, conflict: bool) -> None:
    """Spec 003 telemetry, kept in the session: patches applied, patch conflicts, and the
    time spent on patches (applied or not), from which the mean is derived."""
    elapsed = (time.perf_counter() - started) * 1000.0
    ctx.session.count("conflicts" if conflict else "total_edits")
    if action == "patch":
        ctx.session.count("patch_conflicts" if conflict else "total_patches")
        ctx.session.count("patch_latency_ms_total", elapsed)


def metrics_view(metrics: dict[str, Any]) -> dict[str, Any]:
    """The session's document metrics with the mean patch latency."""
    tries = metrics.get("total_patches", 0) + metrics.get("patch_conflicts", 0)
    total = metrics.get("patch_latency_ms_total", 0.0)
    view = dict(metrics)
    view["avg_patch_latency_ms"] = round(total / tries, 3) if tries else 0.0
    return view


def error_data(err: PatchwrightError) -> dict[str, Any]:
    """Failure data: the conflict reason and the one-line summary (spec 003 section 6)."""
    if not isinstance(err, PatchApplyError):
        return {"status": "failed"}
    action = str(err.details.get("action", "patch"))
    return {
        "status": "failed",
        "reason": err.reason.value,
        "summary": err.summary(action),
        "expected_snippet": err.expected_snippet,
        "actual_snippet": err.actual_snippet,
        "versions": err.version_comparison,
    }


def edit_spec(use_patch_edits: bool) -> ToolSpec:
    """The ``document_edit`` spec: with ``patch`` (default action) or legacy actions only."""
    name = "document_edit" if use_patch_edits else "document_edit_legacy"
    return ToolSpec(
        name="document_edit",
        title="Edit a file (snapshot-anchored)",
        description=description(name),
        request_model=DocumentEditRequest if use_patch_edits else LegacyDocumentEditRequest,
        handler=run_edit,
        annotations=WRITES,
        contract="spec 003 DocumentEditTool (actions patch/insert/replace/annotate)",
        hooks=ToolHooks(error_data=error_data),
    )
