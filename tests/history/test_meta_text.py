"""Metadata is stored as the text ``json.dumps`` writes, whichever way it is written
(``store.dump_meta``: flat dicts of plain values without the ``json`` module)."""

from __future__ import annotations

import json
from enum import Enum, IntEnum
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from patchwright.workspace.history.store import dump_meta


class Kind(str, Enum):
    """A str enum, as the engine's rungs are."""

    EXACT = "exact"
    ODD = 'say "so"'


class Level(IntEnum):
    """An int enum."""

    HIGH = 3


_VALUES = st.one_of(
    st.sampled_from([Kind.EXACT, Kind.ODD, Level.HIGH]),
    st.text(max_size=12),
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=127), max_size=12),
    st.integers(),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False),
    st.lists(st.integers(), max_size=2),
)
_KEYS = st.one_of(
    st.text(max_size=8),
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=127), max_size=8),
)


@given(st.dictionaries(_KEYS, _VALUES, max_size=5))
def test_the_text_is_json_s(meta: dict[str, Any]) -> None:
    assert dump_meta(meta) == json.dumps(meta)


def test_what_edits_record_is_written_as_json_writes_it() -> None:
    for meta in (
        {},
        {"rung": "exact"},
        {"format": "unified", "hunks": 2, "fuzzy": False, "note": None},
        {"quote": 'say "hi"', "path": "a\\b", "tab": "a\tb", "del": "\x7f", "é": "ü"},
        {"nested": {"a": 1}, "ratio": 0.5},
        {"rung": Kind.EXACT, Kind.EXACT: Level.HIGH, "odd": Kind.ODD},
    ):
        assert dump_meta(meta) == json.dumps(meta)
