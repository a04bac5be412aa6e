"""The generator's file, edits and patches agree with each other and with real tools."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from _common import git_apply_argv, gnu_patch_argv, run_measured, tool_env
from _synth import (
    LineEdit,
    LineIndex,
    SynthCase,
    apply_line_edits,
    build_hunks,
    generate_source,
    synth_case,
)


@pytest.fixture(scope="module")
def case() -> SynthCase:
    return synth_case(3000, 30, seed=7)


def test_source_is_deterministic_and_exact_length() -> None:
    a, b = generate_source(5000, seed=3), generate_source(5000, seed=3)
    assert a == b
    assert len(a) == 5000
    assert generate_source(5000, seed=4) != a
    mean = sum(len(line) + 1 for line in a) / len(a)
    assert 35 < mean < 70  # "realistic" line lengths, roughly 50 bytes


def test_apply_line_edits_replaces_inserts_and_deletes() -> None:
    lines = ["a", "b", "c", "d"]
    edits = [LineEdit(0, 1, ("A",)), LineEdit(2, 2, ("x", "y")), LineEdit(3, 4, ())]
    assert apply_line_edits(lines, edits) == ["A", "b", "x", "y", "c"]


def test_hunks_merge_when_context_windows_touch() -> None:
    # As in diff: 3 lines of context merge hunks whose changes are at most 6 lines apart.
    lines = [f"l{i}" for i in range(40)]
    far = build_hunks(lines, [LineEdit(5, 6, ("X",)), LineEdit(13, 14, ("Y",))], lambda e: (3, 3))
    near = build_hunks(lines, [LineEdit(5, 6, ("X",)), LineEdit(12, 13, ("Y",))], lambda e: (3, 3))
    assert [(h.old_start, h.new_start) for h in far] == [(2, 2), (10, 10)]
    assert len(near) == 1
    assert near[0].old_lines == lines[2:16]
    assert near[0].new_lines == [*lines[2:5], "X", *lines[6:12], "Y", *lines[13:16]]


def test_udiff_headers_match_bodies(case: SynthCase) -> None:
    headers = re.findall(r"^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$", case.udiff, flags=re.M)
    assert len(headers) == len(case.edits)
    bodies = re.split(r"^@@ .*\n", case.udiff, flags=re.M)[1:]
    for (_, old_n, _, new_n), body in zip(headers, bodies, strict=True):
        ops = [line[0] for line in body.splitlines()]
        assert ops.count(" ") + ops.count("-") == int(old_n)
        assert ops.count(" ") + ops.count("+") == int(new_n)


def test_sr_and_v4a_old_text_is_unique(case: SynthCase) -> None:
    text = "\n".join(case.before) + "\n"
    searches = re.findall(r"<<<<<<< SEARCH\n(.*?)=======\n", case.sr, flags=re.S)
    assert len(searches) == len(case.edits)
    for search in searches:
        assert text.count(search) == 1
    index = LineIndex(case.before)
    for hunk in case.v4a.split("\n@@\n")[1:]:
        body = hunk.removesuffix("*** End Patch\n").splitlines()
        assert index.count([line[1:] for line in body if line[0] != "+"]) == 1


@pytest.mark.parametrize("argv_for", [gnu_patch_argv, git_apply_argv], ids=["patch", "git"])
def test_real_tools_produce_the_expected_bytes(
    case: SynthCase, argv_for: Callable[[Path], list[str]], tmp_path: Path
) -> None:
    root = tmp_path / "root"
    target = root / case.path
    target.parent.mkdir(parents=True)
    target.write_bytes(case.before_bytes)
    patch = tmp_path / "p.diff"
    patch.write_text(case.udiff)
    run = run_measured(argv_for(patch), root, tool_env())
    assert run.returncode == 0, run.stderr
    assert target.read_bytes() == case.after_bytes
