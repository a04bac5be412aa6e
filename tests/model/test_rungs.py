"""The rung names: one string enum, with the words a model reads beside each."""

from __future__ import annotations

import json

from patchwright.engine import MatchOptions
from patchwright.model import LADDER, MatchReport, Rung


def test_every_rung_has_words_and_renders_as_its_value() -> None:
    for rung in Rung:
        assert rung.words and rung.words != rung.value
        assert f"{rung}" == str(rung) == rung.value
    assert json.dumps([Rung.FUZZY]) == '["fuzzy"]'


def test_ladder_order_and_modes() -> None:
    assert LADDER[0] is Rung.EXACT and LADDER[-1] is Rung.FUZZY
    assert MatchOptions(mode="fuzzy").rungs == LADDER
    assert MatchOptions(mode="tolerant").rungs == LADDER[:-1]
    assert MatchOptions(mode="strict").rungs == (Rung.EXACT, Rung.NEWLINE)


def test_recovered_rungs_are_the_tolerant_ones() -> None:
    assert {r for r in Rung if r.recovered} == {*LADDER[2:], Rung.BLANKS}


def test_report_json_carries_the_value() -> None:
    report = MatchReport(0, "e", Rung.INDENTATION, 1.0, 1, 1, 1, 1, 1, 1)
    assert report.to_dict()["rung"] == "indentation"
