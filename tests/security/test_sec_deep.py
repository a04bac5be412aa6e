"""``list_files`` is linear in depth and complete at any depth (issue 34, item 13).

Each listed entry used to be reached again from the root, so a chain of 1,500 folders
took 27 s (quadratic), and past ``PATH_MAX`` (2,040 levels of one-letter names) the
listing held no file while ``read_file`` found it. The walk now goes from folder to
folder by descriptor (``dirfd.FolderWalk``). Cost is counted in folder opens, not
timed: the opens of a listing grow in proportion to the depth.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from patchwright.tools import Toolbox
from patchwright.workspace import Workspace


def _chain(root: Path, depth: int) -> str:
    """``depth`` nested folders ``d`` made by descriptor (the path outgrows PATH_MAX),
    a file at the bottom; returns its workspace path."""
    root.mkdir()
    fd = os.open(root, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=fd)
            child = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = child
        leaf = os.open("leaf.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(leaf, b"deep needle\n")
        os.close(leaf)
    finally:
        os.close(fd)
    return "d/" * depth + "leaf.txt"


def _unchain(root: Path, depth: int) -> None:
    """Remove what :func:`_chain` made, bottom up by descriptor (``shutil.rmtree``
    recurses once per level, past Python's recursion limit)."""
    fds = [os.open(root, os.O_RDONLY)]
    for _ in range(depth):
        fds.append(os.open("d", os.O_RDONLY, dir_fd=fds[-1]))
    os.unlink("leaf.txt", dir_fd=fds[-1])
    while len(fds) > 1:
        os.close(fds.pop())
        os.rmdir("d", dir_fd=fds[-1])
    os.close(fds[0])


def _opens(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, depth: int) -> int:
    root = tmp_path / f"r{depth}"
    leaf = _chain(root, depth)
    tools = Toolbox(Workspace(str(root), state_dir=str(tmp_path / f"s{depth}")))
    count = [0]
    real_open = os.open

    def counting(*args: object, **kwargs: object) -> int:
        count[0] += 1
        return real_open(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", counting)
    try:
        result = tools.call("list_files", {})
    finally:
        monkeypatch.setattr(os, "open", real_open)
        _unchain(root, depth)
    assert result.ok and result.data is not None
    assert result.data["files"] == [leaf]
    return count[0]


def test_listing_cost_grows_in_proportion_to_depth(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    shallow = _opens(monkeypatch, tmp_path, 300)
    deep = _opens(monkeypatch, tmp_path, 1500)
    # quadratic would be 25 times more; linear is 5 times (plus a constant)
    assert deep <= 6 * shallow, (shallow, deep)
    assert deep <= 2 * 1500 + 50


def test_a_file_past_path_max_is_listed_and_found(tmp_path: Path) -> None:
    root = tmp_path / "root"
    leaf = _chain(root, 2040)
    assert len(str(root) + "/" + leaf) > 4096  # past PATH_MAX: unreachable by name
    tools = Toolbox(Workspace(str(root), state_dir=str(tmp_path / "state")))
    try:
        listed = tools.call("list_files", {})
        found = tools.call("search_files", {"pattern": "needle"})
        read = tools.call("read_file", {"path": leaf})
    finally:
        _unchain(root, 2040)
    assert listed.ok and listed.data is not None and listed.data["files"] == [leaf]
    assert found.ok and found.data is not None
    assert [m["path"] for m in found.data["matches"]] == [leaf]
    assert read.ok
