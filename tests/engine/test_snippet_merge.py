"""The snippet merge's report, refusals and public entry points (behaviour by example
lives in the case files: tests/fixtures/cases/snippet_*.case)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import patchwright
from patchwright import PatchwrightError, TextFile, merge_snippet, merge_snippet_file
from patchwright.engine.replacing.snippet.markers import parse_snippet
from patchwright.engine.replacing.snippet.place import Placement
from patchwright.engine.replacing.snippet.refuse import Doubt
from patchwright.model import ErrorCode
from patchwright.model.reports import Rung

FILE = "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(12))


def test_merge_snippet_is_exported_and_merges() -> None:
    assert "merge_snippet" in patchwright.__all__
    snippet = "# ... existing code ...\ndef f5(x):\n    return x * 5\n\ndef f6(x):\n# ...\n"
    assert merge_snippet(FILE, snippet, path="m.py") == FILE.replace("x + 5", "x * 5")


def test_the_report_says_where_each_run_went_and_what_was_kept() -> None:
    snippet = "def f5(x):\n    return x * 5\n\ndef f6(x):\n"
    merged = merge_snippet_file(TextFile.from_text(FILE), snippet)
    report = merged.report.to_dict()
    (run,) = report["runs"]
    assert run["snippet_lines"] == [1, 4] and run["file_lines"] == [16, 19]
    assert (run["rung"], run["loose"], run["added"], run["deleted"]) == ("exact", False, 1, 1)
    assert report["edges"] == {"top": "kept", "bottom": "kept"}
    assert [g["how"] for g in report["gaps"]] == ["edge_kept", "edge_kept"]
    assert any("no marker at the snippet's top" in w for w in report["warnings"])


def test_edge_lines_a_snippet_shows_going_are_counted_and_said() -> None:
    """No marker above a run that stands unchanged: the lines above it go. The report
    counts them among the deleted lines and says so, rather than "+0 -0"."""
    text = "".join(f"line{i} = {i}\n" for i in range(1, 21))
    snippet = "line5 = 5\nline6 = 6\n// ... existing code ...\n"
    merged = merge_snippet_file(TextFile.from_text(text), snippet)
    assert merged.file.text == text[text.index("line5") :]
    assert merged.report.deleted == 4 and merged.report.to_dict()["deleted"] == 4
    summary = merged.report.summary()
    assert summary.startswith("Merged 1 run(s): +0 -4 line(s).")
    assert "file lines 1-4 above them were deleted" in summary


def test_a_loose_anchor_is_reported_with_its_rung() -> None:
    text = "if a:\n\tx = 1\n\ty = 2\n\tz = 3\nend\n"
    snippet = "if a:\n    x = 1\n    y = 2\n\tw = 0\n    z = 3\nend\n"
    merged = merge_snippet_file(TextFile.from_text(text), snippet)
    assert merged.file.text == "if a:\n\tx = 1\n\ty = 2\n\tw = 0\n\tz = 3\nend\n"
    (run,) = merged.report.runs
    assert run.rung.recovered and "indentation" in merged.report.warnings[0]


def test_a_refusal_names_lines_shows_the_candidate_and_says_what_to_add() -> None:
    snippet = "# ...\n\ndef g(x):\n# ...\n"  # where among the blank lines?
    with pytest.raises(PatchwrightError) as info:
        merge_snippet(FILE, snippet, path="m.py")
    err = info.value
    assert err.code is ErrorCode.AMBIGUOUS and err.path == "m.py"
    assert "snippet lines 2-3" in err.message and "original lines" in err.message
    assert "Candidate result (not applied):\n--- a/m.py\n+++ b/m.py" in err.message
    assert err.hint.startswith("Add one more unchanged line")
    assert err.details["doubts"][0]["kind"] == "several"


@pytest.mark.parametrize("snippet", ["", "\n", "// ... existing code ...\n"])
def test_a_snippet_without_lines_is_refused(snippet: str) -> None:
    with pytest.raises(PatchwrightError) as info:
        merge_snippet(FILE, snippet)
    assert info.value.code is ErrorCode.INVALID_REQUEST


def test_unchanged_bytes_stay_and_new_lines_take_the_file_newline() -> None:
    text = "a\r\nb\nc\r\nd"
    merged = merge_snippet_file(TextFile.from_text(text), "// ...\nb\nB\nc\n// ...\n")
    assert merged.file.text == "a\r\nb\nB\r\nc\r\nd"


# Blocks drawn from a few kinds, so that runs stand in several places and only their
# order (or nothing) tells which copy each one edits.
_BLOCKS = [f"[{name}]\nkey = {name}\nend = {name}\n\n" for name in "abc"]


@settings(max_examples=150, deadline=None)
@given(
    kinds=st.lists(st.integers(0, len(_BLOCKS) - 1), min_size=2, max_size=9),
    data=st.data(),
)
def test_runs_placed_by_order_merge_right_or_refuse(kinds: list[int], data: st.DataObject) -> None:
    """Each edited block shown between markers: the merge gives the edit exactly when
    one choice of copies keeps the snippet's order, and refuses otherwise."""
    edited = sorted(
        data.draw(st.sets(st.integers(0, len(kinds) - 1), min_size=1, max_size=3), "edited")
    )
    blocks = [_BLOCKS[k] for k in kinds]
    new = [b.replace("key = ", "key = new ") if i in edited else b for i, b in enumerate(blocks)]
    snippet = "# ... existing code ...\n"
    for i in edited:
        snippet += new[i].rstrip("\n") + "\n# ... existing code ...\n"
    shown = [kinds[i] for i in edited]
    readings = sum(
        1
        for chosen in itertools.combinations(range(len(kinds)), len(edited))
        if [kinds[i] for i in chosen] == shown
    )
    try:
        got = merge_snippet("".join(blocks), snippet)
    except PatchwrightError as err:
        assert err.code is ErrorCode.AMBIGUOUS, err.message
        assert readings > 1, err.message
        return
    assert got == "".join(new) and readings == 1


def test_a_run_whose_ends_stand_in_too_many_places_is_named_where_it_was_placed() -> None:
    run = next(p for p in parse_snippet("# ...\n}\nx = 1\n}\n# ...\n").pieces if not p.marker)
    place = Placement(4, 7, Rung.EXACT, 1, 1, 1, ((4, 7),), more=True)
    doubt = Doubt("several", run, 0, 40, place)
    assert doubt.sentence() == (
        "snippet lines 2-4 (starting '}') stand at original lines 5-7 by end lines that each "
        "stand in many places in original lines 1-40, too many readings to weigh."
    )
    assert doubt.to_dict()["places"] == [[5, 7]] and doubt.to_dict()["place_count_is_a_floor"]
