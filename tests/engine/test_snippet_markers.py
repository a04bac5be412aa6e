"""The snippet format's marker lines: every comment syntax and wording models use, at any
indentation, whole lines only; a line of the original file is text."""

from __future__ import annotations

import pytest

from patchwright.engine.replacing.snippet.markers import is_marker, marker_body, parse_snippet

MARKERS = [
    "// ... existing code ...",
    "# ... existing code ...",
    "-- ... existing code ...",
    "; ...",
    "% ... rest of the file ...",
    "/* ... */",
    "<!-- ... existing code ... -->",
    "{/* ... existing code ... */}",
    "(* ... *)",
    ".. ... existing content ...",
    "...",
    "…",
    "[...]",
    "(unchanged)",
    "# rest of the function unchanged",
    "    # ... rest of the function unchanged ...",
    "\t\t// ... same as before ...",
    "// keep existing imports",
    "# same",
    "// other methods unchanged",
    "/// ...",
    "## ... 20 more lines ...",
    "' ... existing code ...",
]
TEXT = [
    "x = ...",
    "return ...",
    "  ...args,",
    'print("...")',
    "# TODO: fix this",
    "// See below for more details on the design",
    "# keep the lock held while writing",
    "// etc support HEAD",
    "# Use existing connection if available",
    "foo(); // ... existing code ...",
    "",
    "-- a real SQL comment about the schema",
]


@pytest.mark.parametrize("line", MARKERS)
def test_markers_are_recognised(line: str) -> None:
    assert is_marker(line)


@pytest.mark.parametrize("line", TEXT)
def test_text_is_not_a_marker(line: str) -> None:
    assert marker_body(line) is None


def test_a_line_of_the_original_is_text() -> None:
    assert not is_marker("    # ... existing code ...", {"# ... existing code ..."})
    parsed = parse_snippet("a\n# ... existing code ...\nb\n", {"# ... existing code ..."})
    assert [p.marker for p in parsed.pieces] == [False]


def test_a_python_ellipsis_body_is_text() -> None:
    parsed = parse_snippet("def f(self) -> int:\n    ...\n# ...\n")
    assert [(p.marker, p.lines) for p in parsed.pieces] == [
        (False, ("def f(self) -> int:", "    ...")),
        (True, ("# ...",)),
    ]


def test_pieces_alternate_and_remember_their_lines() -> None:
    parsed = parse_snippet("// ...\r\na\r\nb\r\n// ...\r\n// ...\r\nc")
    assert [(p.marker, p.start, p.lines) for p in parsed.pieces] == [
        (True, 0, ("// ...",)),
        (False, 1, ("a", "b")),
        (True, 3, ("// ...",)),
        (True, 4, ("// ...",)),
        (False, 5, ("c",)),
    ]
    assert parsed.top_marker and not parsed.bottom_marker and parsed.markers == 3
