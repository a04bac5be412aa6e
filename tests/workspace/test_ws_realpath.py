"""``realpath_below`` (the sandbox's resolution of a path below the real root) agrees with
``os.path.realpath`` of the whole path, whatever stands on the way."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from patchwright.workspace import OsFileSystem

CASES = [
    "a.txt",
    "sub/deep/b.txt",
    "sub/missing/c.txt",  # a missing tail is kept
    "missing",
    "a.txt/under_a_file",  # a file used as a folder
    "inside_link/b.txt",  # a symlink to a folder inside the root
    "link_to_file",
    "out_link/secret.txt",  # a symlink leading outside
    "sub/up/secret.txt",  # a relative one climbing out
    "loop/x",  # a symlink loop
    "dangling",
    "sub/deep",
]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "sub" / "deep").mkdir(parents=True)
    (root / "a.txt").write_bytes(b"a\n")
    (root / "sub" / "deep" / "b.txt").write_bytes(b"b\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.txt").write_bytes(b"s\n")
    (root / "inside_link").symlink_to("sub/deep")
    (root / "link_to_file").symlink_to("a.txt")
    (root / "out_link").symlink_to(tmp_path / "outside")
    (root / "sub" / "up").symlink_to("../../outside")
    (root / "loop").symlink_to("loop")
    (root / "dangling").symlink_to("nowhere/at/all")
    return Path(os.path.realpath(root))


@pytest.mark.parametrize("rel", CASES)
def test_agrees_with_the_standard_library(tree: Path, rel: str) -> None:
    fs = OsFileSystem()
    assert fs.realpath_below(str(tree), rel) == os.path.realpath(tree / rel)
