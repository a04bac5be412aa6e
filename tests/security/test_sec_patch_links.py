"""Patches never act on a symlink's target (issue 34, item 12).

``*** Delete File: b_link`` once deleted ``b.txt`` and left the link dangling; moves
likewise; an Add File onto a dangling in-root link created its target. git treats a
link as a link and refuses paths beyond one; patchwright refuses a patch path that is
a symlink or lies beyond one (``api/apply.py::_refuse_links``), whatever the format,
and nothing on disk changes.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from patchwright.api import apply_patch_text


def _tree(root: Path) -> dict[str, str]:
    """Every entry under ``root``: a link by its target, a file by its content."""
    out: dict[str, str] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            rel = str(path.relative_to(root))
            if path.is_symlink():
                out[rel] = "-> " + os.readlink(path)
            elif path.is_file():
                out[rel] = path.read_text()
    return out


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    (folder / "b.txt").write_text("b\n")
    (folder / "b_link").symlink_to("b.txt")
    (folder / "dangling").symlink_to("missing.txt")
    (folder / "real").mkdir()
    (folder / "real" / "f.txt").write_text("r\n")
    (folder / "dir_link").symlink_to("real")
    return folder


V4A = "*** Begin Patch\n{body}*** End Patch\n"
CASES = {
    "delete a link": (V4A.format(body="*** Delete File: b_link\n"), "is a symbolic link"),
    "move a link": (
        V4A.format(body="*** Update File: b_link\n*** Move to: c.txt\n@@\n-b\n+c\n"),
        "does not move links",
    ),
    "update a link": (V4A.format(body="*** Update File: b_link\n@@\n-b\n+c\n"), "does not edit"),
    "add onto a dangling link": (
        V4A.format(body="*** Add File: dangling\n+x\n"),
        "already exists as a symbolic link",
    ),
    "move onto a dangling link": (
        V4A.format(body="*** Update File: b.txt\n*** Move to: dangling\n@@\n-b\n+c\n"),
        "already exists as a symbolic link",
    ),
    "update beyond a folder link": (
        V4A.format(body="*** Update File: dir_link/f.txt\n@@\n-r\n+s\n"),
        "beyond a link",
    ),
    "add beyond a folder link": (
        V4A.format(body="*** Add File: dir_link/new.txt\n+x\n"),
        "beyond a link",
    ),
    "unified delete of a link": (
        "--- a/b_link\n+++ /dev/null\n@@ -1 +0,0 @@\n-b\n",
        "is a symbolic link",
    ),
    "git delete of a link": (
        "diff --git a/b_link b/b_link\ndeleted file mode 100644\n--- a/b_link\n+++ /dev/null\n"
        "@@ -1 +0,0 @@\n-b\n",
        "is a symbolic link",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_patch_on_or_beyond_a_link_is_refused_and_changes_nothing(root: Path, case: str) -> None:
    patch, said = CASES[case]
    before = _tree(root)
    report = apply_patch_text(patch, root, history=False)
    assert report.error is not None, case
    assert report.error.code.value in ("not_a_file", "file_exists")
    assert said in report.error.message and "Nothing was changed" in report.error.message
    assert _tree(root) == before


def test_the_real_paths_still_work(root: Path) -> None:
    patch = V4A.format(body="*** Update File: real/f.txt\n@@\n-r\n+s\n*** Delete File: b.txt\n")
    report = apply_patch_text(patch, root, history=False)
    assert report.ok, report.summary()
    assert (root / "real" / "f.txt").read_text() == "s\n"
    assert not (root / "b.txt").exists() and (root / "b_link").is_symlink()
