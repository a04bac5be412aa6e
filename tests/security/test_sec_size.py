"""Sizes are checked from counts before anything is built (issue 34, item 6).

* A 10 KB ``edit_file`` with ``replace_all`` once built a 1 GB text (peak 4.8 GB)
  before its ``too_large`` refusal: the engine now refuses from the count of copies
  (``engine/oldtext.py::_check_growth``, bounded by the workspace's file size limit).
* A diff of a million one-line hunks took 4.8 GB and 59 s: a patch of more than
  ``MAX_HUNKS`` hunks is refused from a count of its markers, before it is parsed.
* The history stores a batch of 160,000 changes (SQLite refused 150,000+ with "too many
  terms in compound SELECT"): tests/history/test_history_stores.py, on both stores.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from patchwright.api import apply_patch_text
from patchwright.formats._common import MAX_HUNKS
from patchwright.tools import Toolbox
from patchwright.workspace import Workspace

MB = 1 << 20


def test_replace_all_is_refused_from_its_count_before_the_text_is_built(tmp_path: Path) -> None:
    # the case scaled to a 64 KB limit (so that the old code, which built the
    # text first, needs 20 MB to fail, not the 1 GB of the issue): 10,000 copies of one
    # character replaced by 2,000
    (tmp_path / "a.txt").write_text("x" * 10_000 + "\n")
    ws = Workspace(str(tmp_path), state_dir=str(tmp_path / ".." / "st"), max_file_bytes=65_536)
    tools = Toolbox(ws)
    args = {"path": "a.txt", "old_string": "x", "new_string": "y" * 2_000, "replace_all": True}
    tracemalloc.start()
    try:
        result = tools.call("edit_file", args)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not result.ok and result.error is not None
    assert result.error.code.value == "too_large"
    assert "replacing all 10,000 copies" in result.error.message
    assert "about 20,000,000 characters, over the limit of 65,536 bytes" in result.error.message
    assert peak < 4 * MB  # the 20 MB text was never built
    assert (tmp_path / "a.txt").read_text() == "x" * 10_000 + "\n"
    fits = tools.call("edit_file", {**args, "new_string": "yy"})
    assert fits.ok and (tmp_path / "a.txt").read_text() == "yy" * 10_000 + "\n"


def test_a_patch_of_too_many_hunks_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    hunks = MAX_HUNKS + 1
    (tmp_path / "a.txt").write_text("l\n")
    patch = "--- a/a.txt\n+++ b/a.txt\n" + "@@ -1 +1 @@\n-l\n+m\n" * hunks
    tracemalloc.start()
    try:
        report = apply_patch_text(patch, tmp_path, history=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.error is not None and report.error.code.value == "too_large"
    assert f"{hunks:,} hunks" in report.error.message and report.error.field == "patch"
    assert peak < 1 * MB  # nothing but the count: the 1 MB text is the caller's
    assert (tmp_path / "a.txt").read_text() == "l\n"
    blocks = "a.txt\n<<<<<<< SEARCH\nl\n=======\nm\n>>>>>>> REPLACE\n" * hunks
    refused = apply_patch_text(blocks, tmp_path, history=False).error
    assert refused is not None and refused.code.value == "too_large"
    fits = apply_patch_text("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-l\n+m\n", tmp_path)
    assert fits.ok and (tmp_path / "a.txt").read_text() == "m\n"
