"""The one error type of patchwright.

Every refusal in every layer is a :class:`PatchwrightError`. It carries:

* ``code``: a :class:`ErrorCode`, stable and machine readable;
* ``message``: what went wrong, written for a model that will retry;
* ``hint``: how to fix the request;
* ``path`` / ``line`` / ``field``: where it happened, when known;
* ``details``: structured data (candidate lines, similarity, hashes...).

Tree::

    Exception
     └── PatchwrightError          (code, message, hint, path, line, field, details)
          └── PatchApplyError      (reason, expected/actual snippet and version)

``PatchApplyError`` (spec 003's refusal of an editor directive) lives with the
documents it guards (``patchwright.documents.errors``) and is public as
``patchwright.PatchApplyError``; its reasons are drawn there.

Layers never raise bare ``ValueError`` or ``OSError`` across their boundary: they
wrap them here so a host can render one shape.
"""

from __future__ import annotations

from enum import Enum

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class ErrorCode(str, Enum):
    """Machine-readable error codes, grouped by the layer that usually raises them."""

    # text model
    BINARY_FILE = "binary_file"
    ENCODING = "encoding"
    # edit requests and parsing
    INVALID_REQUEST = "invalid_request"
    PARSE_ERROR = "parse_error"
    UNSUPPORTED = "unsupported"
    EMPTY_SEARCH = "empty_search"
    TOO_LARGE = "too_large"
    # matching and applying
    NOT_FOUND = "not_found"
    AMBIGUOUS = "ambiguous"
    OVERLAP = "overlap"
    ALREADY_APPLIED = "already_applied"
    EXPECTED_MISMATCH = "expected_mismatch"
    OUT_OF_RANGE = "out_of_range"
    CLIPBOARD_MISSING = "clipboard_missing"
    REINDENT_FAILED = "reindent_failed"
    SYNTAX_ERROR = "syntax_error"
    # files and workspace
    FILE_NOT_FOUND = "file_not_found"
    FILE_EXISTS = "file_exists"
    PATH_OUTSIDE_ROOT = "path_outside_root"
    PATH_DENIED = "path_denied"
    NOT_A_FILE = "not_a_file"
    RESTRICTED = "restricted"
    STALE = "stale"
    CONFLICT = "conflict"
    LOCK_TIMEOUT = "lock_timeout"
    IO_ERROR = "io_error"
    HISTORY = "history"
    # approval mode
    REJECTED = "rejected"
    APPROVAL_TIMEOUT = "approval_timeout"
    WITHDRAWN = "withdrawn"
    # anything else
    INTERNAL = "internal"


class PatchwrightError(Exception):
    """The base (and only) exception type raised by patchwright.

    Args:
        code: what kind of failure this is.
        message: one or more sentences for a model: what was wrong.
        hint: what to do instead. Empty when there is nothing useful to add.
        path: the file concerned, relative to the workspace root, if any.
        line: the 1-based line number in the input (file or patch) concerned, if any.
        field: the request field concerned (``"patches[1].oldText"``), if any.
        details: structured extras for hosts and tests.
    """

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        hint: str = "",
        *,
        path: str | None = None,
        line: int | None = None,
        field: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.path = path
        self.line = line
        self.field = field
        self.details: dict[str, Any] = dict(details or {})

    def __str__(self) -> str:
        return self.render()

    def render(self) -> str:
        """The message followed by the hint, as a model should read it."""
        text = self.message
        if self.hint:
            text = f"{text}\nHint: {self.hint}"
        return text

    def with_context(
        self, *, path: str | None = None, field: str | None = None
    ) -> PatchwrightError:
        """Fill in ``path``/``field`` when an outer layer knows them; returns ``self``."""
        if path is not None and self.path is None:
            self.path = path
        if field is not None and self.field is None:
            self.field = field
        return self

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view used by result envelopes and the CLI."""
        data: dict[str, Any] = {
            "code": self.code.value,
            "message": self.message,
            "hint": self.hint,
        }
        for key in ("path", "line", "field"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        if self.details:
            data["details"] = self.details
        return data

    def __repr__(self) -> str:
        return f"PatchwrightError({self.code.value!r}, {self.message!r})"
