"""Document versions and selection fingerprints.

A document version is a digest of the document text::

    "sha256:" + the first 16 hex digits of SHA-256(text encoded as UTF-8)

It is the same digest the workspace uses for a file version (the full SHA-256 hex of the
file's bytes), shortened for display: a UTF-8 document without a BOM and the file it was
read from have matching versions. A version *token* sent back by a caller may therefore
be written in any of these forms, compared case-insensitively:

* ``sha256:<hex>`` or bare ``<hex>``;
* ``<hex>`` being the full 64-digit digest or any prefix of at least 12 digits.

Tokens are not trimmed: a token with stray spaces is refused, as the directive schema's
pattern refuses it, so the schema and the validator agree.

A selection fingerprint is the same digest of the selected text (the empty selection has
a fingerprint too), so one helper checks both.
"""

from __future__ import annotations

import hashlib
import re

from patchwright.model import ErrorCode, PatchwrightError

VERSION_PREFIX = "sha256:"
SHORT_DIGITS = 16
MIN_TOKEN_DIGITS = 12
_HEX_RE = re.compile(r"[0-9a-f]+")
# The same rule as a JSON-schema pattern (ECMA regex: no inline flags).
TOKEN_PATTERN = "^([sS][hH][aA]256:)?[0-9a-fA-F]{12,64}$"


def full_digest(text: str) -> str:
    """The full SHA-256 hex digest of ``text`` encoded as UTF-8."""
    # surrogatepass: an editor buffer may hold a lone surrogate; hashing must not fail on it.
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def document_version(text: str) -> str:
    """The version of a document holding ``text``: ``sha256:`` + 16 hex digits."""
    return short_version(full_digest(text))


def short_version(digest: str) -> str:
    """The version form of a full SHA-256 hex ``digest``."""
    return VERSION_PREFIX + digest[:SHORT_DIGITS]


def text_fingerprint(text: str) -> str:
    """The fingerprint of a selection's text (same form as a document version)."""
    return document_version(text)


def normalize_token(token: object, *, field: str = "document_version") -> str:
    """The lowercase hex digits of a version or fingerprint token.

    Raises:
        PatchwrightError: ``invalid_request`` naming ``field`` when the token is not a
            string of 12 to 64 hex digits, optionally prefixed with ``sha256:``.
    """
    if not isinstance(token, str):
        raise _bad_token(field, f"it is {type(token).__name__}, not a string")
    digits = token.lower()
    if digits.startswith(VERSION_PREFIX):
        digits = digits[len(VERSION_PREFIX) :]
    if not _HEX_RE.fullmatch(digits):
        raise _bad_token(field, f"{token!r} is not hexadecimal")
    if not MIN_TOKEN_DIGITS <= len(digits) <= 64:
        raise _bad_token(field, f"{token!r} has {len(digits)} hex digits")
    return digits


def token_matches(token: str, text: str, *, field: str = "document_version") -> bool:
    """Whether ``token`` names the digest of ``text``.

    Raises:
        PatchwrightError: ``invalid_request`` when ``token`` is malformed.
    """
    return token_names(token, full_digest(text), field=field)


def token_names(token: str, digest: str, *, field: str = "document_version") -> bool:
    """Whether ``token`` names ``digest`` (a full SHA-256 hex digest).

    Raises:
        PatchwrightError: ``invalid_request`` when ``token`` is malformed.
    """
    return digest.startswith(normalize_token(token, field=field))


def _bad_token(field: str, why: str) -> PatchwrightError:
    return PatchwrightError(
        ErrorCode.INVALID_REQUEST,
        f"`{field}` must be a document digest: {why}.",
        "Send the value returned by the latest snapshot unchanged, e.g. "
        "'sha256:0123456789abcdef' (12 to 64 hex digits, prefix optional).",
        field=field,
    )
