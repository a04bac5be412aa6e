"""The in-process floor of ``large.py`` writes exactly the expected file, durably named."""

from __future__ import annotations

from pathlib import Path

from _measure import durable_rewrite, measure_floor
from _synth import synth_case


def test_the_floor_writes_the_expected_file_in_place(tmp_path: Path) -> None:
    # more than one piece of lines each way, so the piecewise split and join both show
    case = synth_case(40_000, 400, seed=2)
    target = tmp_path / case.path
    target.parent.mkdir(parents=True)
    target.write_bytes(case.before_bytes)
    assert durable_rewrite(case)(str(tmp_path)) is True
    assert target.read_bytes() == case.after_bytes
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]  # no temp left


def test_the_floor_is_measured_and_checked_like_a_tool() -> None:
    m = measure_floor(synth_case(2_000, 20, seed=4), runs=2)
    assert m.ok and len(m.times) == 2 and m.peak_kb > 0
