"""Version digests and version tokens."""

from __future__ import annotations

import hashlib

import pytest

from patchwright.documents import document_version, text_fingerprint
from patchwright.documents.versions import normalize_token, token_matches
from patchwright.model import ErrorCode, PatchwrightError

TEXT = "héllo\nwörld\n"
FULL = hashlib.sha256(TEXT.encode("utf-8")).hexdigest()


def test_version_is_prefix_of_the_workspace_digest_of_the_bytes() -> None:
    version = document_version(TEXT)
    assert version == "sha256:" + FULL[:16]
    assert text_fingerprint(TEXT) == version


def test_version_changes_with_any_character() -> None:
    assert document_version("a\n") != document_version("a\r\n")
    assert document_version("") == "sha256:e3b0c44298fc1c14"


@pytest.mark.parametrize(
    "token",
    [
        "sha256:" + FULL[:16],
        FULL,
        FULL[:12],
        "sha256:" + FULL,
        ("SHA256:" + FULL[:20]).upper(),
    ],
)
def test_token_forms_that_name_the_text(token: str) -> None:
    assert token_matches(token, TEXT)


def test_token_of_another_text_does_not_match() -> None:
    assert not token_matches(document_version("other"), TEXT)
    assert not token_matches(FULL[1:13], TEXT)


@pytest.mark.parametrize(
    ("token", "why"),
    [
        (FULL[:11], "11 hex digits"),
        (FULL + "0", "65 hex digits"),
        ("sha256:xyz0123456789", "not hexadecimal"),
        (" " + FULL[:16], "not hexadecimal"),
        ("md5:" + FULL[:16], "not hexadecimal"),
        (1234567890123, "not a string"),
    ],
)
def test_malformed_token_is_refused(token: object, why: str) -> None:
    with pytest.raises(PatchwrightError) as caught:
        normalize_token(token, field="snapshot_version")
    assert caught.value.code is ErrorCode.INVALID_REQUEST
    assert caught.value.field == "snapshot_version"
    assert why in caught.value.message


def test_lone_surrogate_does_not_break_hashing() -> None:
    assert document_version("\ud800").startswith("sha256:")
