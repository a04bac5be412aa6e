"""The refusal raised when a directive cannot be applied to a document.

:class:`PatchApplyError` is a :class:`~patchwright.model.PatchwrightError` (so hosts render
one shape) that also says *why* in the words of the editor contract, with the evidence a
model needs to recover::

    PatchwrightError
     └── PatchApplyError   reason, expected_snippet, actual_snippet,
                           expected_version, actual_version

Reasons and the codes they carry:

========================== ====================
reason                     code
========================== ====================
``stale version``          ``stale``
``context mismatch``       ``not_found``
``ambiguous context``      ``ambiguous``
``overlapping edits``      ``overlap``
``already applied``        ``already_applied``
``fingerprint mismatch``   ``expected_mismatch``
``range out of bounds``    ``out_of_range``
``invalid diff``           ``parse_error`` / ``unsupported`` / ``invalid_request``
========================== ====================

Whatever the reason, the document is left exactly as it was.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from patchwright.model import ErrorCode, PatchwrightError


class ConflictReason(str, Enum):
    """Why a directive was refused (the ``reason`` of :class:`PatchApplyError`)."""

    STALE_VERSION = "stale version"
    CONTEXT_MISMATCH = "context mismatch"
    AMBIGUOUS_CONTEXT = "ambiguous context"
    OVERLAPPING_EDITS = "overlapping edits"
    ALREADY_APPLIED = "already applied"
    FINGERPRINT_MISMATCH = "fingerprint mismatch"
    RANGE_OUT_OF_BOUNDS = "range out of bounds"
    INVALID_DIFF = "invalid diff"


# The code each reason carries unless the engine gave a more precise one.
REASON_CODES: dict[ConflictReason, ErrorCode] = {
    ConflictReason.STALE_VERSION: ErrorCode.STALE,
    ConflictReason.CONTEXT_MISMATCH: ErrorCode.NOT_FOUND,
    ConflictReason.AMBIGUOUS_CONTEXT: ErrorCode.AMBIGUOUS,
    ConflictReason.OVERLAPPING_EDITS: ErrorCode.OVERLAP,
    ConflictReason.ALREADY_APPLIED: ErrorCode.ALREADY_APPLIED,
    ConflictReason.FINGERPRINT_MISMATCH: ErrorCode.EXPECTED_MISMATCH,
    ConflictReason.RANGE_OUT_OF_BOUNDS: ErrorCode.OUT_OF_RANGE,
    ConflictReason.INVALID_DIFF: ErrorCode.PARSE_ERROR,
}


class PatchApplyError(PatchwrightError):
    """A directive was refused; the document is unchanged.

    Args:
        reason: why, in the contract's words (``context mismatch``, ``stale version``...).
        message / hint: as for :class:`PatchwrightError`.
        code: defaults to the reason's code (see the module table).
        expected_snippet: the text the directive expected to find, when known.
        actual_snippet: the text the document holds there (or the closest region).
        expected_version: the version token the directive named, if any.
        actual_version: the document's version when the directive was checked.
        versions_match: whether ``expected_version`` names ``actual_version`` (``None``
            when the directive named no version).
        field / line / details: as for :class:`PatchwrightError`.
    """

    def __init__(
        self,
        reason: ConflictReason,
        message: str,
        hint: str = "",
        *,
        code: ErrorCode | None = None,
        expected_snippet: str | None = None,
        actual_snippet: str | None = None,
        expected_version: str | None = None,
        actual_version: str | None = None,
        versions_match: bool | None = None,
        field: str | None = None,
        line: int | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(
            code or REASON_CODES[reason],
            message,
            hint,
            field=field,
            line=line,
            details=details,
        )
        self.reason = reason
        self.expected_snippet = expected_snippet
        self.actual_snippet = actual_snippet
        self.expected_version = expected_version
        self.actual_version = actual_version
        self.versions_match = versions_match
        # Mirror the evidence into details so every generic renderer shows it.
        self.details["reason"] = reason.value
        if expected_snippet is not None:
            self.details["expected_snippet"] = expected_snippet
        if actual_snippet is not None:
            self.details["actual_snippet"] = actual_snippet
        self.details["versions"] = self.version_comparison

    @property
    def version_comparison(self) -> dict[str, Any]:
        """The version the directive named, the document's version, and whether they agree."""
        return {
            "expected": self.expected_version,
            "actual": self.actual_version,
            "match": self.versions_match,
        }

    def with_versions(self, expected: str | None, actual: str) -> PatchApplyError:
        """Record the document's version, and the directive's when the raiser did not.

        Used once the version check has passed, so a named ``expected`` matched ``actual``.
        Returns ``self``.
        """
        self.actual_version = actual
        if self.expected_version is None and expected is not None:
            self.expected_version = expected
            self.versions_match = True
        self.details["versions"] = self.version_comparison
        return self

    def restated(
        self, expected: str | None, actual: str, *, internal: str | None = None
    ) -> PatchApplyError:
        """Speak of versions as the caller does; returns ``self``.

        A host that checked the caller's token against its own version (a workspace tool
        compares it with the file's SHA256) and then applied the directive to a session
        built from the text replaces the session's digests with ``expected`` (the token
        the caller sent) and ``actual`` (the host's version), in the comparison and in
        the texts (``internal``, the session's version, is replaced there). The check
        passed, so the versions match whenever a token was sent.
        """
        self.expected_version = expected
        self.actual_version = actual
        self.versions_match = None if expected is None else True
        if internal:
            self.message = self.message.replace(internal, actual)
            self.hint = self.hint.replace(internal, actual)
        self.details["versions"] = self.version_comparison
        return self

    def summary(self, action: str) -> str:
        """A one-line failure summary, e.g. ``failed: stale version (patch, sent ... vs ...)``."""
        versions = f"version={self.actual_version}"
        if self.versions_match is False:
            versions = f"sent {self.expected_version} vs {self.actual_version}"
        return f"failed: {self.reason.value} ({action}, {versions})"

    def __repr__(self) -> str:
        return f"PatchApplyError({self.reason.value!r}, {self.message!r})"
