"""The loose search's first look (engine/replacing/literal.py, ``loose_find``): a text whose
characters, blanks removed, do not stand in the file with its blanks removed is ruled
out before any reading is tried. That is exact only if every reading that finds a copy
finds one there too; these properties check it against the readings themselves."""

from __future__ import annotations

import re

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from patchwright.engine.replacing.literal import _NO_BLANKS, _squeezed

# few letters and many blanks and line breaks: squeezed copies are frequent
_TEXT = st.text(alphabet="ab \t\n", max_size=40)
_NEEDLE = st.text(alphabet="ab \t\n", min_size=1, max_size=8)


@settings(max_examples=400, deadline=None)
@given(hay=_TEXT, needle=_NEEDLE, edges=st.booleans())
def test_a_squeezed_copy_stands_there_with_its_blanks_removed(
    hay: str, needle: str, edges: bool
) -> None:
    body = needle.strip(" \t")
    squeezed_needle, _ = _squeezed(body, edges)
    squeezed_hay, _ = _squeezed(hay, edges)
    if squeezed_needle and squeezed_needle in squeezed_hay:
        assert body.translate(_NO_BLANKS) in hay.translate(_NO_BLANKS)


@settings(max_examples=400, deadline=None)
@given(hay=_TEXT, needle=_NEEDLE)
def test_a_copy_with_blanks_added_or_removed_stands_there_with_its_blanks_removed(
    hay: str, needle: str
) -> None:
    solid = needle.translate(_NO_BLANKS)
    assume(solid and "\n" not in solid)  # the one-line texts this reading is tried for
    anywhere = re.compile(r"[ \t]*".join(map(re.escape, solid)))
    assert (anywhere.search(hay) is not None) == (solid in hay.translate(_NO_BLANKS))
