"""Facts about the text after an edit derived from the text before it: its ``__future__``
flags and the bracket depth where a line starts."""

from __future__ import annotations
import __future__

import random

from test_syntax_pyregion import _mutate, _stdlib_modules

from patchwright.syntax.compare import common_ends
from patchwright.syntax.pyregion import (
    _DEPTHS,
    _delta_of_text,
    _depth_at,
    _future_of,
    clean_lines,
    region_verdict,
)
from patchwright.syntax.shared import shared_lines
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


def test_depths_counted_from_a_kept_one_equal_depths_counted_from_the_top() -> None:
    # a chain of edits, each text after an edit the text before the next: each check
    # keeps the depth at its change, the next one counts from there
    rng = random.Random(11)
    sources = [path.read_text(encoding="utf-8") for path in _stdlib_modules()]
    assert sources
    compared = kept = 0
    for source in sources:
        text = source
        for _ in range(40):
            after = "\n".join(_mutate(rng, text.split("\n")))
            # the text before is known from the step before: its breaks are not counted
            assert shared_lines(text, after) == common_ends(text.split("\n"), after.split("\n"))
            region_verdict(text, after)
            kept += _DEPTHS.get(after) is not None
            lines = clean_lines(after)
            if lines is not None:
                for index in rng.sample(range(len(lines) + 1), 5):
                    direct = _delta_of_text("\n".join(lines[:index]))
                    assert _depth_at(after, lines, index) == direct
                    compared += 1
            text = after
    assert compared > 500
    assert kept > 100, "most checks should leave a depth for the next one"
