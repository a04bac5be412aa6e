"""The ``__future__`` flags of the text after an edit, derived from the text before it."""

from __future__ import annotations
import __future__

from patchwright.syntax.pyregion import _future_of
from patchwright.syntax.stdlib_parsers import future_flags

ANNOTATIONS = __future__.annotations.compiler_flag


def _edited(before: str, at: int, written: str) -> str:
    lines = before.split("\n")
    lines[at : at + 1] = written.split("\n")
    return "\n".join(lines)


def test_flags_follow_every_text_of_a_chain_of_edits() -> None:
    text = "import os\n\n\ndef f():\n    return 1\n" * 20
    steps = [
        (3, "def g():"),  # no future import anywhere: the scan of the result is spared
        (0, "from __future__ import annotations"),  # written lines bring one in
        (1, "x = 1"),  # kept from the text before, which has one
        (0, "import sys"),  # removed again
        (2, "y = '__future__'"),  # the word alone, in a string: no flag, but scanned
    ]
    for at, written in steps:
        after = _edited(text, at, written)
        found = _future_of(text, after, written)
        assert found == future_flags(after)
        text = after
    assert future_flags(_edited(text, 0, "from __future__ import annotations")) == ANNOTATIONS


def test_a_text_never_seen_is_scanned() -> None:
    before = "from __future__ import annotations\nx = 1\n"
    after = _edited(before, 1, "x = 2")
    assert _future_of(before, after, "x = 2") == ANNOTATIONS
    n = 1
    seen, equal = f"x = {n}\n", f"x = {n}\n"  # equal texts, two objects
    assert _future_of(seen, seen, "") == 0  # ``seen`` is now known to have none
    # told (wrongly) that nothing was written, an equal text is still scanned: only the
    # very object kept counts as known
    assert _future_of(equal, "from __future__ import annotations\n" + equal, "") == ANNOTATIONS
