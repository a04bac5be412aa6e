"""The bracket balance of a long text, counted over its brackets alone, is the per-line one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from patchwright.syntax.pyregion import _delta, _delta_of_text

_CODE = st.text(alphabet=st.sampled_from("()[]{}ab \n\t'\"#é€😀"), max_size=300)


@given(st.one_of(_CODE, st.text(max_size=300)))
def test_the_balance_of_a_text_is_counted_alike_both_ways(text: str) -> None:
    assert _delta_of_text(text) == _delta(text)


def test_a_lone_surrogate_does_not_stop_the_count() -> None:
    text = "f(\ud800, [x]\n"
    assert _delta_of_text(text) == _delta(text) == 1
