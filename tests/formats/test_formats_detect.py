"""Format detection and the parse_patch entry point."""

from __future__ import annotations

import pytest

from patchwright.formats import FORMAT_ALIASES, detect_format, normalize_format, parse_patch
from patchwright.model import ErrorCode, PatchwrightError

UNIFIED = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
V4A = "*** Begin Patch\n*** Update File: x\n@@\n-a\n+b\n*** End Patch\n"
SR = "x\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (UNIFIED, "unified"),
        ("diff --git a/x b/x\nold mode 100644\nnew mode 100755\n", "unified"),
        ("Intro.\n```diff\n@@ -3,2 +3,2 @@\n a\n-b\n+c\n```\n", "unified"),
        ("@@\n-a\n+b\n", "unified"),
        (V4A, "v4a"),
        ("Sure!\n\n*** Update File: x\n@@\n-a\n+b\n", "v4a"),
        ("*** Add File: x\n+a\n", "v4a"),
        (SR, "search-replace"),
        ("```python x.py\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n", "search-replace"),
        ("x\n   <<<<<<< ORIGINAL\na\n=======\nb\n>>>>>>> UPDATED\n", "search-replace"),
        # The first marker decides: a block that edits a diff stays a SEARCH/REPLACE text.
        ("d.diff\n<<<<<<< SEARCH\n--- a/x\n+++ b/x\n=======\n>>>>>>> REPLACE\n", "search-replace"),
        ("*** Begin Patch\n*** Update File: d.diff\n@@\n-<<<<<<< SEARCH\n*** End Patch\n", "v4a"),
        (UNIFIED + SR, "unified"),
    ],
)
def test_detect_format(text: str, expected: str) -> None:
    assert detect_format(text) == expected


def test_detection_ignores_windows_line_endings() -> None:
    assert detect_format(V4A.replace("\n", "\r\n")) == "v4a"


@pytest.mark.parametrize(
    "text", ["", "Nothing here.\n", "--- just a rule\n", "*** End Patch\n", "=======\n"]
)
def test_detect_format_refuses_non_patches(text: str) -> None:
    with pytest.raises(PatchwrightError) as info:
        detect_format(text)
    assert info.value.code is ErrorCode.PARSE_ERROR
    assert "not recognised" in info.value.message


def test_context_diffs_are_unsupported() -> None:
    with pytest.raises(PatchwrightError) as info:
        detect_format("*** a.c\n--- a.c\n***************\n")
    assert info.value.code is ErrorCode.UNSUPPORTED
    assert info.value.line == 3


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("auto", "auto"),
        ("unified", "unified"),
        ("udiff", "unified"),
        ("diff", "unified"),
        ("git", "unified"),
        ("v4a", "v4a"),
        ("openai", "v4a"),
        ("apply_patch", "v4a"),
        ("apply-patch", "v4a"),
        ("search-replace", "search-replace"),
        ("search_replace", "search-replace"),
        ("sr", "search-replace"),
        (" SR ", "search-replace"),
        ("UDiff", "unified"),
    ],
)
def test_normalize_format(name: str, canonical: str) -> None:
    assert normalize_format(name) == canonical


def test_every_alias_parses_its_format() -> None:
    samples = {"unified": UNIFIED, "v4a": V4A, "search-replace": SR}
    for alias, canonical in FORMAT_ALIASES.items():
        assert parse_patch(samples[canonical], alias).format == canonical


@pytest.mark.parametrize("name", ["context", "", "json", None, 3])
def test_unknown_format_names_are_unsupported(name: object) -> None:
    with pytest.raises(PatchwrightError) as info:
        parse_patch(UNIFIED, name)  # type: ignore[arg-type]
    assert info.value.code is ErrorCode.UNSUPPORTED
    assert "search-replace" in info.value.hint


def test_explicit_format_is_not_second_guessed() -> None:
    # A unified diff read as SEARCH/REPLACE has no blocks: the caller asked for that format.
    with pytest.raises(PatchwrightError) as info:
        parse_patch(UNIFIED, "sr")
    assert "No SEARCH/REPLACE block" in info.value.message


@pytest.mark.parametrize("text", [UNIFIED, V4A, SR])
def test_auto_equals_explicit(text: str) -> None:
    assert parse_patch(text) == parse_patch(text, detect_format(text))


def test_parse_patch_refuses_non_text() -> None:
    with pytest.raises(PatchwrightError) as info:
        parse_patch(None)  # type: ignore[arg-type]
    assert info.value.code is ErrorCode.PARSE_ERROR
