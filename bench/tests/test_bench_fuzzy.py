"""The fuzzy benchmark's cases are what they claim: unique blocks applied byte for
byte, near-copies decided (applied when one copy is best, refused as ambiguous when
the damage hides which)."""

from __future__ import annotations

import fuzzy


def test_a_damaged_block_is_applied_exactly() -> None:
    case = fuzzy.big_case(6_000, 400)
    assert len(case.search) >= 400
    assert case.search != case.lines[2_800:3_200]  # damaged: no exact rung takes it
    assert fuzzy.run_case(case) == "ok"


def test_near_duplicates_are_decided() -> None:
    # 1,000 copies: lines every copy shares are too common to vote for a place, so the
    # copy whose numbered lines the block carries is the only candidate.
    assert fuzzy.run_case(fuzzy.near_duplicates(20_000, unique=True)) == "ok"
    assert fuzzy.run_case(fuzzy.near_duplicates(20_000, unique=False)) == "ok"


def test_a_wrong_expectation_is_reported() -> None:
    case = fuzzy.near_duplicates(20_000, unique=True)
    wrong = fuzzy.Case(case.name, case.lines, case.search, case.replace, case.lines)
    assert fuzzy.run_case(wrong) == "WRONG bytes"
