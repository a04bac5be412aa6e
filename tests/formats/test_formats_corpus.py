"""Every patch of the shared real-edit corpus parses into the right structure.

The corpus (``../shared/corpus`` beside the checkout, 13,258 patches in three formats
with one LLM-style mistake each) is optional: the test is skipped where it is absent.
Each patch must parse without error into one file with the manifest's path and as many hunks or
blocks as the clean patch of its case. Where a kind's mistake does not change the
lines (CRLF files, shifted or missing numbers, wrong counts, empty blank lines),
the parsed lines must equal the clean patch's exactly.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from patchwright.formats import detect_format, parse_patch
from patchwright.model import Edit, Hunk, OldText, PatchSet

# as tests/acceptance/corpus_support.py finds it
CORPUS = Path(
    os.environ.get("PATCHWRIGHT_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus")
)
FORMATS = {"udiff": "unified", "v4a": "v4a", "sr": "search-replace"}
# Kinds whose parsed lines equal the clean patch's (the mistake is elsewhere).
SAME_LINES = {
    "udiff": {"crlf", "shift", "nonum", "counts", "blank_ctx_empty"},
    "v4a": {"crlf", "blank_ctx_empty"},
    "sr": {"crlf"},
}
# Kinds whose hunk sizes equal the clean patch's.
SAME_SIZES = {"clean", "crlf", "shift", "nonum"}

pytestmark = pytest.mark.skipif(
    not CORPUS.is_dir(), reason="../shared/corpus is not beside the checkout"
)


def _manifest() -> list[dict[str, Any]]:
    with (CORPUS / "manifest.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _shape(edit: Edit) -> tuple[Any, ...]:
    anchor = edit.anchor
    if isinstance(anchor, Hunk):
        return anchor.lines, anchor.no_newline_old, anchor.no_newline_new
    assert isinstance(anchor, OldText)
    return anchor.text, edit.replacement


def _sizes(edit: Edit) -> tuple[int, int]:
    anchor = edit.anchor
    if isinstance(anchor, Hunk):
        return len(anchor.old_lines), len(anchor.new_lines)
    assert isinstance(anchor, OldText)
    return anchor.text.count("\n"), edit.replacement.count("\n")


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_corpus_sample_parses(fmt: str) -> None:
    # Every 8th case, all its kinds (the whole corpus: the corpus_full marker).
    cases = sorted({v["case"] for v in _manifest()})[::8]
    _parse_all(fmt, set(cases))


@pytest.mark.corpus_full
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_corpus_patches_parse(fmt: str) -> None:
    _parse_all(fmt, None)


def _parse_all(fmt: str, cases: set[str] | None) -> None:
    entries = [
        v for v in _manifest() if v["format"] == fmt and (cases is None or v["case"] in cases)
    ]
    assert entries, f"no {fmt} patches in the manifest"
    parsed: dict[str, dict[str, PatchSet]] = defaultdict(dict)
    for entry in entries:
        text = (CORPUS / entry["patch"]).read_bytes().decode("utf-8")
        assert detect_format(text) == FORMATS[fmt], entry["id"]
        ps = parse_patch(text, FORMATS[fmt])
        assert len(ps.files) == 1, entry["id"]
        assert ps.files[0].path == entry["path"], entry["id"]
        assert ps.files[0].edits, entry["id"]
        parsed[entry["case"]][entry["kind"]] = ps
    for case, kinds in parsed.items():
        _check_against_clean(fmt, case, kinds)


def _check_against_clean(fmt: str, case: str, kinds: dict[str, PatchSet]) -> None:
    clean = kinds.get("clean")
    if clean is None:
        return
    clean_edits = clean.files[0].edits
    for kind, ps in kinds.items():
        edits = ps.files[0].edits
        where = f"{case}/{fmt}.{kind}"
        assert len(edits) == len(clean_edits), where
        if kind in SAME_SIZES:
            assert [_sizes(e) for e in edits] == [_sizes(e) for e in clean_edits], where
        if kind in SAME_LINES[fmt]:
            assert [_shape(e) for e in edits] == [_shape(e) for e in clean_edits], where
        if kind == "hunks_reversed":
            assert [_shape(e) for e in edits] == [_shape(e) for e in reversed(clean_edits)], where
