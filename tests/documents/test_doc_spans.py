"""Spans, line offsets and offset mapping."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from patchwright.documents import Span, line_offsets
from patchwright.documents.spans import (
    line_range_offsets,
    map_offset,
    trimmed_span,
    whole_text_span,
)


def test_line_offsets_follow_editor_convention() -> None:
    assert line_offsets("") == [0]
    assert line_offsets("a") == [0]
    assert line_offsets("a\n") == [0, 2]
    assert line_offsets("ab\r\ncd\re\nf") == [0, 4, 7, 9]


def test_line_range_offsets() -> None:
    text = "one\ntwo\nthree"
    offsets = line_offsets(text)
    assert line_range_offsets(offsets, len(text), 2, 2) == (4, 8)
    assert line_range_offsets(offsets, len(text), 3, 3) == (8, 13)
    assert line_range_offsets(offsets, len(text), 2, 1) == (4, 4)
    assert line_range_offsets(offsets, len(text), 4, 3) == (13, 13)


def test_trimmed_span_keeps_only_the_change() -> None:
    old, new = "x = 1\ny = 2\n", "x = 1\ny = 3\n"
    assert trimmed_span(old, new, (0, len(old)), (0, len(new))) == Span(10, 11, 10, 11)
    assert whole_text_span(old, old) is None


def test_span_delta_and_dict() -> None:
    span = Span(3, 5, 3, 10)
    assert span.delta == 5
    assert span.to_dict() == {"old": [3, 5], "new": [3, 10]}


def test_map_offset_around_a_replacement() -> None:
    spans = [Span(10, 20, 10, 15)]  # ten characters became five
    assert map_offset(spans, 5, side="start") == 5
    assert map_offset(spans, 25, side="start") == 20
    assert map_offset(spans, 15, side="start") == 10  # inside: grows to cover the new text
    assert map_offset(spans, 15, side="end") == 15
    assert map_offset(spans, 20, side="end") == 15
    assert map_offset(spans, 10, side="start") == 10


def test_insertion_at_a_range_edge_stays_outside() -> None:
    spans = [Span(10, 10, 10, 14)]
    assert map_offset(spans, 10, side="start") == 14
    assert map_offset(spans, 10, side="end") == 10


def test_map_offset_after_several_spans() -> None:
    spans = [Span(0, 2, 0, 5), Span(10, 12, 13, 13)]
    assert map_offset(spans, 8, side="start") == 11
    assert map_offset(spans, 30, side="end") == 31


@given(st.text(alphabet="ab\n", max_size=40), st.text(alphabet="ab\n", max_size=40))
def test_whole_text_span_rebuilds_the_new_text(old: str, new: str) -> None:
    span = whole_text_span(old, new)
    if span is None:
        assert old == new
        return
    assert old[: span.old_start] + new[span.new_start : span.new_end] + old[span.old_end :] == new
    assert span.old_start == span.new_start
    assert len(old) - span.old_end == len(new) - span.new_end


def test_trimming_a_large_text_finds_a_change_past_the_first_chunks() -> None:
    old = "x" * 10_000 + "a" + "y" * 9_000
    new = "x" * 10_000 + "bb" + "y" * 9_000
    assert whole_text_span(old, new) == Span(10_000, 10_001, 10_000, 10_002)
