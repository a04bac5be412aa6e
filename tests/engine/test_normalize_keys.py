"""The unicode rung's key of a line is the plain definition's, whichever shortcut
computes it (ASCII lines are not translated; lines without inner runs of blanks are
not substituted)."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from patchwright.engine.matching.normalize import PUNCT_TABLE, fold_text, unicode_key

_SPACES = re.compile(r"[ \t]+")
# blanks of every kind, the punctuation the rung folds, and plain text
_ALPHABET = st.sampled_from(
    [" ", "\t", "\r", "\x0b", "\x0c", "\x1c", "\u00a0", "\u2009", "\u3000", "\u200b",
     "\ufeff", "\u2018", "\u201c", "\u2014", "\u2026", "a", "b", "=", "(", "é"]
)  # fmt: skip


def _plain(line: str) -> str:
    return _SPACES.sub(" ", line.translate(PUNCT_TABLE)).strip()


@given(st.text(alphabet=_ALPHABET, max_size=12) | st.text(max_size=12))
@example("  a  b\t c  ")
@example("\u00a0 a")
@example("a \u200b b")
@example("\u3000\t")
def test_the_key_is_the_plain_definition_s(line: str) -> None:
    assert unicode_key(line) == _plain(line)


@given(st.lists(st.text(alphabet=_ALPHABET, max_size=12), max_size=6).map("\n".join))
@example("a  b\n\t c \t\n  ")
def test_a_folded_text_is_the_plain_definition_s(text: str) -> None:
    assert fold_text(text) == _SPACES.sub(" ", text.translate(PUNCT_TABLE))
