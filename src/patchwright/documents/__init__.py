"""Versioned in-memory editor documents (the editor-documents contract).

A :class:`DocumentSession` holds one text. A caller reads a :class:`DocumentSnapshot`
(text, version, line offsets, selection hash), writes a directive against that version
(a unified diff for ``patch``, or a range for ``insert`` / ``replace`` / ``annotate``),
and applies it; the result reports the new text and version, the changed spans, a
one-line summary and the selection to show. Nothing here touches the disk: the tools
layer wraps a session and feeds it plain dicts.

Decisions (each module's docstring gives the details):

* **Version** (:mod:`.versions`): ``"sha256:" + first 16 hex digits of SHA-256(UTF-8
  text)``, the shortened form of the workspace's file version (full SHA-256 hex of the
  bytes). A directive may name the version as the full digest or any prefix of at least
  12 hex digits, with or without ``sha256:``. Directives naming another version are
  refused as ``stale version`` before any work.
* **Offsets** (:mod:`.spans`): ``target_range``, selections and spans are character
  offsets ``[start, end)`` into the text (Python string indices, i.e. code points).
* **Selection fingerprint**: the same digest of the text in ``target_range``; when a
  directive sends one and it does not match, the directive is refused.
* **Patch matching** (:mod:`.patches`): the engine's tolerant ladder, never fuzzy unless
  the session is built with ``MatchOptions(mode="fuzzy")``; context that is not in the
  document raises :class:`PatchApplyError` (``context mismatch``).
* **Annotate** (:mod:`.state`, :mod:`.actions`): stores a note on a range, text
  unchanged; notes are listed by :attr:`DocumentSession.annotations`, follow later edits,
  and an annotate is one undo step like any other directive.
* **Queue** (:mod:`.session`): directives are applied one at a time in submission
  order, from any thread, each checked against the version it names.
"""

from patchwright.documents.diff_builder import build_diff
from patchwright.documents.directives import (
    DIRECTIVE_SCHEMA,
    ActionType,
    Directive,
    TextRange,
    create_patch_directive,
    validate_directive,
)
from patchwright.documents.errors import ConflictReason, PatchApplyError
from patchwright.documents.metrics import MetricsSnapshot
from patchwright.documents.patches import DEFAULT_MATCH_OPTIONS, PatchResult, apply_patch
from patchwright.documents.results import EditResult
from patchwright.documents.session import DocumentSession
from patchwright.documents.spans import Span, line_offsets
from patchwright.documents.state import Annotation, DocumentSnapshot, DocumentState
from patchwright.documents.versions import document_version, text_fingerprint

__all__ = [
    "DEFAULT_MATCH_OPTIONS",
    "DIRECTIVE_SCHEMA",
    "ActionType",
    "Annotation",
    "ConflictReason",
    "Directive",
    "DocumentSession",
    "DocumentSnapshot",
    "DocumentState",
    "EditResult",
    "MetricsSnapshot",
    "PatchApplyError",
    "PatchResult",
    "Span",
    "TextRange",
    "apply_patch",
    "build_diff",
    "create_patch_directive",
    "document_version",
    "line_offsets",
    "text_fingerprint",
    "validate_directive",
]
