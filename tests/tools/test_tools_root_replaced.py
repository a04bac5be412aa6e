"""A workspace folder removed or replaced under a running toolbox (a server) is named as
such in every answer, not taken for a missing file or a full disk."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from patchwright.tools import Toolbox
from patchwright.workspace import Workspace

REPLACED = "was removed or replaced after it was opened; nothing was read or written."


@pytest.fixture
def toolbox(tmp_path: Path) -> Toolbox:
    root = tmp_path / "root"
    root.mkdir()
    (root / "app.py").write_text("x = 1\n")
    return Toolbox(Workspace(root, state_dir=tmp_path / "state"))


@pytest.mark.parametrize("replaced", [True, False], ids=["replaced", "removed"])
@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("read_file", {"path": "app.py"}),
        ("edit_file", {"path": "app.py", "old_string": "x = 1", "new_string": "x = 2"}),
        (
            "apply_patch",
            {"patch": "*** Begin Patch\n*** Add File: new.py\n+y = 1\n*** End Patch\n"},
        ),
    ],
)
def test_every_call_names_a_replaced_or_removed_root(
    toolbox: Toolbox, tool: str, arguments: dict[str, str], replaced: bool
) -> None:
    root = toolbox.workspace.root
    assert toolbox.call("read_file", {"path": "app.py"}).ok
    shutil.rmtree(root)
    if replaced:  # the same path, a new folder with the same file (a fresh checkout)
        root.mkdir()
        (root / "app.py").write_text("x = 1\n")
    result = toolbox.call(tool, arguments)
    assert not result.ok and result.error is not None
    assert f"The workspace folder {root} {REPLACED}" in result.error.message
    assert "restart the server" in result.error.hint
    if replaced:
        assert (root / "app.py").read_text() == "x = 1\n"
        assert not (root / "new.py").exists()
