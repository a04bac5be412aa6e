"""Shared helpers and the timing scripts, on sizes small enough for a test run."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import large
import pytest
import startup
from _common import fmt_ms, fmt_ratio, peak_rss_kb, render_table, run_measured
from _measure import Target, measure_api
from _sizes import _predict


def test_render_table_aligns_and_spans_groups() -> None:
    text = render_table(
        ("kind", "a", "b"), [("x", 1, 22), ("longer", 333, 4)], groups=[("", 1), ("pair", 2)]
    )
    lines = text.splitlines()
    assert lines[0].strip() == "pair"
    assert lines[1].split() == ["kind", "a", "b"]
    assert lines[3].startswith("x     ")
    assert lines[3] == "x         1  22"
    assert len({len(line) for line in lines[1:3]}) == 1  # header and rule line up


def test_formatting_of_missing_figures() -> None:
    nan = float("nan")
    assert fmt_ms(nan) == "-"
    assert fmt_ms(0.0004) == "0.400"
    assert fmt_ms(1.5) == "1500"
    assert fmt_ratio(3.0, 2.0) == "1.50x"
    assert fmt_ratio(nan, 2.0) == fmt_ratio(1.0, 0.0) == "-"


def test_runs_report_status_and_memory(tmp_path: Path) -> None:
    run = run_measured(["sh", "-c", "echo oops >&2; exit 3"], tmp_path)
    assert (run.returncode, run.stderr.strip()) == (3, "oops")
    assert peak_rss_kb(["true"], tmp_path) > 0


def test_prediction_uses_observed_growth() -> None:
    assert _predict([(100, 1.0)], 1000) == pytest.approx(10.0)  # linear at least
    assert _predict([(100, 1.0), (1000, 100.0)], 10_000) == pytest.approx(10_000.0)  # quadratic


def test_large_runs_gnu_patch_and_git_on_a_small_case(capsys: pytest.CaptureFixture[str]) -> None:
    assert large.main(["--lines", "3000", "--runs", "1", "--tools", "patch,git"]) == 0
    out = capsys.readouterr().out
    assert "GNU patch" in out and "git apply" in out
    assert out.count(" ok") >= 2
    assert "git apply / GNU patch (reference)" in out


def test_large_sizes_mode_and_kept_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert large.main(["--sizes", "3000,6000", "--runs", "1", "--tools", "patch"]) == 0
    out = capsys.readouterr().out
    assert "3,000" in out and "6,000" in out
    assert (
        large.main(["--lines", "3000", "--runs", "1", "--tools", "patch", "--keep", str(tmp_path)])
        == 0
    )
    assert {p.name for p in tmp_path.iterdir()} == {
        "before",
        "after",
        "udiff.patch",
        "v4a.patch",
        "sr.patch",
    }


def test_heavy_table_flags_loaded_modules() -> None:
    table, offences = startup.heavy_table({"a": {"pydantic", "json"}, "b": set(), "c": None})
    assert offences == ["a: pydantic"]
    assert "LOADED" in table
    assert "not loaded by a or b:" in table


def test_measure_api_times_correct_runs_and_stops_at_a_wrong_one(tmp_path: Path) -> None:
    target = Target("src/m.txt", b"old\n", b"new\n")

    def good(patch_text: str, root: str | Path, **_: Any) -> Any:
        (Path(root) / "src" / "m.txt").write_bytes(b"new\n")
        return types.SimpleNamespace(applied=True)

    def bad(patch_text: str, root: str | Path, **_: Any) -> Any:
        return types.SimpleNamespace(applied=True)  # claims success, writes nothing

    ok = measure_api("udiff", good, "patch", target, runs=3)
    assert ok.ok and len(ok.times) == 3 and ok.peak_kb >= 0
    wrong = measure_api("udiff", bad, "patch", target, runs=3)
    assert not wrong.ok and wrong.times == []
    assert "differs" in wrong.error


def test_startup_reports_the_interpreter_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    assert startup.main(["--runs", "2", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert "python -c pass" in out and "import patchwright" in out
    assert "heavy modules loaded:" in out


def test_large_phases_time_every_step_of_an_apply(capsys: pytest.CaptureFixture[str]) -> None:
    import patchwright.api.apply as api_apply

    parse_before = api_apply.parse_patch
    assert large.main(["--lines", "3000", "--runs", "1", "--tools", "patch", "--phases"]) == 0
    out = capsys.readouterr().out
    for fmt in ("udiff", "v4a", "sr"):
        assert f"whole apply_patch_text ({fmt}, median of 1)" in out
    assert "locate and splice" in out and "commit: temp file, fsync, rename" in out
    assert "not found" not in out  # every step still exists under its name
    assert api_apply.parse_patch is parse_before  # the wrappers are removed afterwards
