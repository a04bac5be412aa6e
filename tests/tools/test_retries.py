"""Retries: every edit sent twice, through every tool and patch format, is never doubled.

The measurement takes real lines of the corpus's files (:mod:`retry_support`), makes each
of five edit shapes on them through each tool variant, and sends each call a second time
as an agent does after a time-out. The second answer must leave the file as the first
left it; it should say "already applied", and anything else must be a refusal.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from retry_support import (
    SHAPES,
    VARIANTS,
    available,
    change,
    measure,
    sites,
    sites_for,
    tool_call,
)
from tool_helpers import ok, write

from patchwright.documents import DocumentSession, PatchApplyError
from patchwright.documents.errors import ConflictReason
from patchwright.tools import PRESETS, Toolbox, catalogue
from patchwright.workspace import Workspace

SITES_PER_SHAPE = 30


def _toolbox(root: Path, state: Path, preset: str) -> Toolbox:
    return Toolbox(Workspace(root, state_dir=state), preset=preset, syntax_policy="off")


def _totals(outcomes: Counter[tuple[str, str]]) -> Counter[str]:
    """The outcomes of every shape together."""
    totals: Counter[str] = Counter()
    for (_shape, outcome), count in outcomes.items():
        totals[outcome] += count
    return totals


def test_the_measurement_sends_every_edit_of_the_three_presets() -> None:
    """Each writing tool of ``default``, ``anthropic`` and ``claude-code`` is measured
    (the editor's commands each on its own), but the undo commands: an ``undo`` names
    no edit, and one sent twice undoes the batch before too, as a second undo does."""
    tools = catalogue()
    writing = {
        name
        for preset in ("default", "anthropic", "claude-code")
        for name in PRESETS[preset].tools
        if tools[name].writes and name != "undo"
    }
    sent: set[str] = set()
    for preset, variant in VARIANTS:
        if preset in ("default", "anthropic", "claude-code"):
            name, arguments = tool_call(variant, "a.py", "x = 1\n", change("x = 1", "insert", 0))
            sent.add(f"{name} {arguments['command']}" if "command" in arguments else name)
    editor = "str_replace_based_edit_tool"
    commands = {f"{editor} {c}" for c in ("create", "str_replace", "insert")}
    assert sent == (writing - {editor}) | commands


pytestmark = pytest.mark.skipif(not available(), reason="the shared corpus is not there")


@pytest.mark.parametrize(("preset", "variant"), VARIANTS, ids=[v for _, v in VARIANTS])
def test_a_retried_edit_is_never_applied_twice(tmp_path: Path, preset: str, variant: str) -> None:
    chosen = sites_for(variant, SITES_PER_SHAPE * len(SHAPES))
    assert len(chosen) == SITES_PER_SHAPE * len(SHAPES)
    root = tmp_path / "root"
    root.mkdir()
    by_shape = measure(root, tmp_path / "state", preset, variant, chosen)
    assert {shape for shape, _ in by_shape} == set(SHAPES)
    assert all(
        sum(n for (s, _), n in by_shape.items() if s == shape) == SITES_PER_SHAPE
        for shape in SHAPES
    ), by_shape
    outcomes = _totals(by_shape)
    total = sum(outcomes.values())
    assert total == len(SHAPES) * SITES_PER_SHAPE
    assert outcomes["applied twice"] == 0, by_shape
    assert outcomes["already applied"] >= 0.95 * total, outcomes
    assert set(outcomes) <= {"already applied", "refused"}, outcomes


def test_the_file_alone_says_already_applied_without_a_history(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(root, "a.py", "def f(x):\n    return g(x)\n")
    toolbox = Toolbox(Workspace(root, state_dir=tmp_path / "s", history=False))
    edit = {"path": "a.py", "old_string": "return g(x)", "new_string": "return g(x) + 1"}
    ok(toolbox, "edit_file", **edit)
    again = ok(toolbox, "edit_file", **edit)
    assert again.text == (
        "Already applied, nothing changed: a.py has the new text at line 2 and the old "
        "text nowhere else."
    )
    assert again.data["already_applied"] and again.data["batch_id"] is None
    assert (root / "a.py").read_text() == "def f(x):\n    return g(x) + 1\n"


def test_partial_evidence_is_said_as_such_and_not_taken_as_applied(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(root, "a.py", "x = load()\nx = load()\ny = load() or 0\n")
    toolbox = Toolbox(Workspace(root, state_dir=tmp_path / "s", history=False))
    both = toolbox.call("edit_file", {"path": "a.py", "old_string": "load()",
                                      "new_string": "load() or 0"})  # fmt: skip
    assert (
        not both.ok
        and "Note: the new text already stands at line 3, but the old text "
        "is still there too (line 1, 2); the edit is not taken as applied."
        in both.text
    )
    write(root, "b.py", "a = compute(1)\nb = compute(1)\n")
    several = toolbox.call("edit_file", {"path": "b.py", "old_string": "compute(2)",
                                         "new_string": "compute(1)"})  # fmt: skip
    assert not several.ok
    assert (
        "the new text stands at 2 places (lines 1, 2) and the old text is nowhere" in several.text
    )
    assert (root / "a.py").read_text() == "x = load()\nx = load()\ny = load() or 0\n"
    # an old text that is not there and a new one that stands elsewhere: nothing ties them
    write(root, "c.py", "def area(r):\n    return 3.14 * r * r\n")
    elsewhere = toolbox.call("edit_file", {"path": "c.py", "old_string": "return pi * r ** 2",
                                           "new_string": "return 3.14 * r * r"})  # fmt: skip
    assert not elsewhere.ok and "Already applied" not in elsewhere.text
    assert "but the two share no line or text that ties that place to this edit" in elsewhere.text


@pytest.mark.parametrize("history", [True, False])
def test_adding_a_file_that_has_that_content_or_deleting_one_that_is_gone_is_a_no_op(
    tmp_path: Path, history: bool
) -> None:
    root = tmp_path / "root"
    write(root, "same.txt", "hello\n")
    toolbox = Toolbox(Workspace(root, state_dir=tmp_path / "s", history=history))
    add = "*** Begin Patch\n*** Add File: same.txt\n+hello\n*** End Patch\n"
    added = ok(toolbox, "apply_patch", patch=add)
    assert "same.txt already has exactly this content: nothing to add" in added.text
    delete = "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n"
    deleted = ok(toolbox, "apply_patch", patch=delete)
    assert "gone.txt does not exist: nothing to delete" in deleted.text
    assert sorted(p.name for p in root.iterdir()) == ["same.txt"]
    different = toolbox.call("apply_patch", {"patch": add.replace("+hello", "+bye")})
    assert not different.ok and "already exists" in different.text


@pytest.mark.parametrize(
    "patch",
    [
        "*** Begin Patch\n*** Update File: a.py\n@@\n def f(x):\n-    return g(x)\n"
        "+    return g(x) + 1\n*** End Patch\n",
        "a.py\n<<<<<<< SEARCH\n    return g(x)\n=======\n    if ready:\n"
        "        return g(x)\n>>>>>>> REPLACE\n",
    ],
    ids=["v4a", "search-replace"],
)
def test_a_retried_patch_is_recognised_from_the_files_without_a_history(
    tmp_path: Path, patch: str
) -> None:
    root = tmp_path / "root"
    write(root, "a.py", "def f(x):\n    return g(x)\n")
    toolbox = Toolbox(Workspace(root, state_dir=tmp_path / "s", history=False))
    ok(toolbox, "apply_patch", patch=patch)
    applied = (root / "a.py").read_bytes()
    again = ok(toolbox, "apply_patch", patch=patch)
    assert again.text.startswith("Already applied, nothing changed: in each file the patch ")
    assert (root / "a.py").read_bytes() == applied


@pytest.mark.parametrize(
    ("preset", "variant", "floor"),
    [("default", "edit_file", 0.6), ("default", "apply_patch v4a", 0.7),
     ("default", "apply_patch search-replace", 0.6), ("claude-code", "Edit", 0.6)],
)  # fmt: skip
def test_without_a_history_retries_are_still_never_doubled(
    tmp_path: Path, preset: str, variant: str, floor: float
) -> None:
    """The file's own evidence: a deleted line leaves nothing to recognise (its absence
    cannot tell it from a typo in the old text: only the history can), and a rewritten
    one in a string edit nothing that ties its new text to the place (both refused),
    while a patch's context still shows where a rewrite went."""
    chosen = sites(SITES_PER_SHAPE * len(SHAPES))
    root = tmp_path / "root"
    root.mkdir()
    outcomes = _totals(measure(root, tmp_path / "state", preset, variant, chosen, history=False))
    total = sum(outcomes.values())
    assert outcomes["applied twice"] == 0, outcomes
    assert outcomes["already applied"] >= floor * total, outcomes
    assert set(outcomes) <= {"already applied", "refused"}, outcomes


def test_an_in_memory_document_refuses_a_retried_patch_as_stale() -> None:
    """No workspace history behind a ``DocumentSession``: the retry names the version
    the diff was written on, which the document no longer has."""
    doc = DocumentSession("a\nb\nc\n")
    diff = "--- a/x\n+++ b/x\n@@ -1,3 +1,4 @@\n a\n b\n+inserted\n c\n"
    directive = {"action": "patch", "diff": diff, "document_version": doc.version}
    assert doc.apply(directive).text == "a\nb\ninserted\nc\n"
    with pytest.raises(PatchApplyError) as refused:
        doc.apply(directive)
    assert refused.value.reason is ConflictReason.STALE_VERSION
    assert doc.text == "a\nb\ninserted\nc\n"


def test_a_retried_line_edit_needs_the_history(tmp_path: Path) -> None:
    """``edit_lines`` names a line, not its text: the history's replay tells a retried
    deletion, which would otherwise delete the next line."""
    root = tmp_path / "root"
    write(root, "a.py", "one = 1\ntwo = 2\nthree = 3\n")
    toolbox = Toolbox(Workspace(root, state_dir=tmp_path / "s"), preset="spec")
    ok(toolbox, "edit_lines", path="a.py", start_line=2, new_content="")
    again = ok(toolbox, "edit_lines", path="a.py", start_line=2, new_content="")
    assert again.text.startswith("Already applied (batch b-")
    assert again.data["already_applied"] is True
    assert (root / "a.py").read_text() == "one = 1\nthree = 3\n"


class _CountingContents:
    """The workspace's real history, counting how often a content is read back."""

    def __init__(self, workspace: Workspace) -> None:
        self.reads = 0
        history = workspace.history
        real = history.content

        def content(sha256: str | None) -> bytes | None:
            self.reads += 1
            return real(sha256)

        history.content = content  # type: ignore[method-assign]


def test_a_retry_in_the_session_that_wrote_is_replayed_on_the_text_it_replaced(
    tmp_path: Path,
) -> None:
    """The session keeps the text its last write replaced, so its retry is told from it
    without reading that text back from the history; another session reads it back."""
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    # appending to a line keeps the old text in the file: only the replay tells a retry
    write(root, "m.py", "x = 1\ny = 2\n")
    edit = {"path": "m.py", "old_string": "x = 1", "new_string": "x = 1\nz = 3"}
    toolbox = _toolbox(root, state, "default")
    counting = _CountingContents(toolbox.workspace)
    ok(toolbox, "edit_file", **edit)
    retried = ok(toolbox, "edit_file", **edit)
    assert retried.text.startswith("Already applied")
    assert counting.reads == 0
    other = _toolbox(root, state, "default")  # a new session: nothing kept
    counting = _CountingContents(other.workspace)
    again = ok(other, "edit_file", **edit)
    assert again.text.startswith("Already applied")
    assert counting.reads == 1
    assert (root / "m.py").read_text() == "x = 1\nz = 3\ny = 2\n"


def test_a_retry_of_an_edit_placed_loosely_is_replayed_loosely(tmp_path: Path) -> None:
    """A write placed by its exact text is replayed strictly (the same edit is found
    exactly again); one placed loosely is replayed with the same loose rungs."""
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    write(root, "m.py", "def f():\n    x = 1\n    y = 2\n\n\ndef g():\n    return 0\n")
    toolbox = _toolbox(root, state, "default")
    loose = {"path": "m.py", "old_string": "  x = 1\n  y = 2", "new_string": "  x = 1\n  y = 3"}
    first = ok(toolbox, "edit_file", **loose)
    assert "indent" in first.text.lower()  # placed by the indentation rung
    assert ok(toolbox, "edit_file", **loose).text.startswith("Already applied")
    exact = {"path": "m.py", "old_string": "return 0", "new_string": "return 0  # done"}
    ok(toolbox, "edit_file", **exact)
    assert toolbox.session_for(None).replaced_exactly("m.py") is not None
    assert ok(toolbox, "edit_file", **exact).text.startswith("Already applied")
    assert (root / "m.py").read_text() == (
        "def f():\n    x = 1\n    y = 3\n\n\ndef g():\n    return 0  # done\n"
    )
