"""A search block's alignment with its replacement: computed once, and the same as the
three separate alignments (lines, whitespace-free keys, shared runs) it stands for."""

from __future__ import annotations

import difflib
import random
from difflib import SequenceMatcher

import pytest
from engine_helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

from patchwright.engine import diff, oldtext
from patchwright.engine.matching import evidence, locate
from patchwright.engine.matching.normalize import strip_key
from patchwright.model import Edit, OldText

# Lines that collide on their keys ("x = 1" at two depths, blank and whitespace-only)
# next to lines that do not.
LINES = st.sampled_from(["x = 1", "    x = 1", "", "   ", "return x", "  y", "}", "z"])


def _keyed(lines: list[str]) -> list[str]:
    return [strip_key(line) for line in lines]


@settings(max_examples=300)
@given(st.lists(LINES, max_size=12), st.lists(LINES, max_size=12))
def test_keys_that_tell_lines_apart_align_like_the_lines(old: list[str], new: list[str]) -> None:
    tells = oldtext._keys_tell_apart(old, new)
    keyed = oldtext._opcodes(_keyed(old), _keyed(new))
    if tells:
        assert oldtext._opcodes(old, new) == keyed
        shared = oldtext._shared_opcodes(old, new)
        assert shared is not None and list(shared) == list(keyed)
        kept = [(a, b, n) for a, b, n in evidence._kept_blocks(old, new)]
        assert [(i1, j1, i2 - i1) for t, i1, i2, j1, _ in shared if t == "equal"] == kept
    else:
        assert oldtext._shared_opcodes(old, new) is None


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False))
def test_large_blocks_align_on_keys_like_on_lines(rnd: random.Random) -> None:
    # Over the matcher's size limit the engine's own line diff runs: it too sees only
    # which lines are equal.
    # each word at one depth of its own: the keys tell the lines apart
    words = [" " * (k % 3 * 4) + f"item_{k}" for k in range(60)]
    old = [rnd.choice(words) for _ in range(260)]
    new = [line if rnd.random() < 0.8 else rnd.choice(words) for line in old]
    assert len(old) * len(new) > oldtext._LARGE_BLOCK
    assert oldtext._keys_tell_apart(old, new)
    assert oldtext._opcodes(old, new) == oldtext._opcodes(_keyed(old), _keyed(new))


FILE = "".join(f"def f{k}(a):\n    total = a + {k}\n    return total\n\n\n" for k in range(40))
BLOCK = "def f7(a):\n    total = a + 7\n    return total\n"
NEW = "def f7(a):\n    total = a * 7\n    return total\n"


def test_a_block_found_as_written_is_searched_and_aligned_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alignments: list[object] = []
    matchers: list[int] = []
    searches: list[object] = []

    class Counting(SequenceMatcher[str]):
        def __init__(self, *args: object, **kwargs: object) -> None:
            matchers.append(1)
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def counted(fn: object, seen: list[object], arg: int) -> object:
        def wrapper(*args: object) -> object:
            seen.append(args[arg])
            return fn(*args)  # type: ignore[operator]

        return wrapper

    monkeypatch.setattr(difflib, "SequenceMatcher", Counting)
    for module in (oldtext, evidence):
        monkeypatch.setattr(module, "matcher_opcodes", counted(diff.matcher_opcodes, alignments, 0))
    monkeypatch.setattr(oldtext, "keyed_matches", counted(oldtext.keyed_matches, searches, 2))
    monkeypatch.setattr(locate, "keyed_matches", counted(locate.keyed_matches, searches, 2))
    out = run(FILE, Edit(OldText(BLOCK, whole_lines=True), NEW))
    assert out == FILE.replace(BLOCK, NEW)
    assert len(alignments) == 1
    assert len(searches) == 1
    # the block and its replacement differ in one line: no matcher was needed for that
    assert matchers == []


def test_a_block_found_twice_is_still_ambiguous() -> None:
    text = FILE + BLOCK
    with pytest.raises(Exception, match="matches 2 places"):
        run(text, Edit(OldText(BLOCK, whole_lines=True), NEW))
