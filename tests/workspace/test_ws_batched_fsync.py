"""Commits of several files sync each step's files together (fs.batched_fsync): the
manifest is durable before any before-image or new file is written, every before-image
(content and name) and every new file before the first rename, and a failed fsync leaves
the tree as it was.

Real files; ``os.fsync`` is wrapped to record which file each call synced (and to fail
once for the temp file of ``fail-me.py``), then calls the real one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from ws_helpers import files

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import FileChange, OsFileSystem, Probe, Workspace, sha256_hex

MakeWs = Callable[..., Workspace]
_COUNT = 40  # files per commit: several per syncing thread


class Events(OsFileSystem):
    """The real file system, recording writes, links and renames in order."""

    def __init__(self, log: list[tuple[str, str]]) -> None:
        self.log = log

    def write_new(self, path: str, data: bytes, mode_bits: int | None) -> None:
        super().write_new(path, data, mode_bits)
        self.log.append(("write", os.path.basename(path)))

    def link(self, src: str, dst: str, *, sync: bool = True) -> Probe:
        found = super().link(src, dst, sync=sync)
        self.log.append(("link", os.path.basename(dst)))
        return found

    def replace(self, src: str, dst: str) -> None:
        self.log.append(("replace", os.path.basename(src)))
        super().replace(src, dst)

    def mkdir(self, path: str) -> None:
        super().mkdir(path)
        self.log.append(("mkdir", os.path.basename(path)))


@pytest.fixture
def log(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, str]]]:
    events: list[tuple[str, str]] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        try:
            name = os.path.basename(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            name = "?"
        if "fail-me" in name and name.endswith(".pw-tmp"):
            raise OSError(5, "Input/output error (injected)")
        real(fd)
        events.append(("fsync", name))

    monkeypatch.setattr(os, "fsync", fsync)
    yield events


def _edit_every_file(root: Path, ws: Workspace) -> dict[str, bytes]:
    """Write ``_COUNT`` files, then commit an edit of each; their old contents."""
    old = {f"m{i}.py": f"x = {i}\n".encode() for i in range(_COUNT)}
    for name, data in old.items():
        (root / name).write_bytes(data)
    ws.commit(
        [
            FileChange(name, data + b"y = 0\n", expected_sha256=sha256_hex(data))
            for name, data in old.items()
        ]
    )
    return old


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to name fds")
def test_each_step_syncs_its_files_before_the_next_step(
    root: Path, make_ws: MakeWs, log: list[tuple[str, str]]
) -> None:
    old = _edit_every_file(root, make_ws(fs=Events(log), history=False))
    assert files(root) == {name: data + b"y = 0\n" for name, data in old.items()}
    images = {name for kind, name in log if kind == "link"}
    temps = {name for kind, name in log if kind == "write" and name.endswith(".pw-tmp")}
    assert len(images) == len(temps) == _COUNT
    manifest = log.index(("replace", "manifest.json.tmp"))
    first_image = next(i for i, (kind, _) in enumerate(log) if kind == "link")
    first_temp = next(i for i, (kind, name) in enumerate(log) if kind == "write" and name in temps)
    assert manifest < first_image and manifest < first_temp
    # the journal folder itself is synced after the manifest's rename, before any image
    assert ("fsync", batch_folder(log)) in log[manifest:first_image]
    first_rename = next(
        i for i, (kind, name) in enumerate(log) if kind == "replace" and name in temps
    )
    synced = {name for kind, name in log[:first_rename] if kind == "fsync"}
    assert {name for name in synced if name.startswith("before-")} == images
    assert temps <= synced
    last_image = max(i for i, (kind, _) in enumerate(log) if kind == "link")
    # the images' names: their folder synced after the last link, before the first rename
    assert ("fsync", batch_folder(log)) in log[last_image:first_rename]
    renamed = {name for kind, name in log[first_rename:] if kind == "replace"}
    assert temps <= renamed


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to name fds")
def test_the_history_links_the_synced_images_without_syncing_them_again(
    root: Path, make_ws: MakeWs, log: list[tuple[str, str]]
) -> None:
    ws = make_ws(fs=Events(log))
    old = _edit_every_file(root, ws)
    kept = {sha256_hex(data) for data in old.values()}
    linked = [i for i, (kind, name) in enumerate(log) if kind == "link" and name in kept]
    assert len(linked) == _COUNT  # each old content kept as a link to its before-image
    images = {name for kind, name in log if kind == "link" and name.startswith("before-")}
    synced = [name for kind, name in log if kind == "fsync"]
    # every image synced once, by the journal; no content synced again under its hash
    assert sorted(n for n in synced if n.startswith("before-")) == sorted(images)
    assert not kept & set(synced)
    # the links' names are made durable by their folder's fsync, after the last link
    assert ("fsync", "blobs") in log[max(linked) :]
    for data in old.values():
        assert ws.history.content(sha256_hex(data)) == data


def batch_folder(log: list[tuple[str, str]]) -> str:
    """The name of the journal folder of the commit logged (it holds the manifest)."""
    folders = [name for kind, name in log if kind == "mkdir" and name.startswith("b")]
    assert len(folders) == 1, folders
    return folders[0]


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to name fds")
def test_a_failed_fsync_in_a_batch_changes_nothing(
    root: Path, make_ws: MakeWs, log: list[tuple[str, str]]
) -> None:
    names = [f"m{i}.py" for i in range(_COUNT)] + ["fail-me.py"]
    for name in names:
        (root / name).write_bytes(b"x = 1\n")
    before = files(root)
    ws = make_ws(fs=Events([]), history=False)
    with pytest.raises(PatchwrightError) as caught:
        ws.commit(
            [FileChange(name, b"x = 2\n", expected_sha256=sha256_hex(b"x = 1\n")) for name in names]
        )
    assert caught.value.code == ErrorCode.IO_ERROR
    assert files(root) == before
    assert list((ws.state_folder / "journal").iterdir()) == []
    # no descriptor of the batch is left open
    held = [os.readlink(f"/proc/self/fd/{fd}") for fd in map(int, os.listdir("/proc/self/fd"))
            if os.path.exists(f"/proc/self/fd/{fd}")]  # fmt: skip
    assert not [path for path in held if path.startswith(f"{root}{os.sep}")]


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to name fds")
def test_a_nested_block_syncs_at_its_end_and_other_threads_sync_at_once(
    tmp_path: Path, log: list[tuple[str, str]]
) -> None:
    import threading

    fs = OsFileSystem()
    with fs.batched_fsync():
        fs.write_new(str(tmp_path / "outer"), b"1", None)
        with fs.batched_fsync():
            fs.write_new(str(tmp_path / "inner"), b"2", None)
        assert {"outer", "inner"} <= {name for kind, name in log if kind == "fsync"}
        fs.write_new(str(tmp_path / "later"), b"3", None)
        other = threading.Thread(target=fs.write_new, args=(str(tmp_path / "other"), b"4", None))
        other.start()
        other.join()
        synced = {name for kind, name in log if kind == "fsync"}
        assert "other" in synced  # another thread's write is not held by this block
        assert "later" not in synced
    assert "later" in {name for kind, name in log if kind == "fsync"}


def test_unlink_all_tries_every_path_then_raises_the_first_failure(tmp_path: Path) -> None:
    paths = [tmp_path / f"f{i}" for i in range(_COUNT)]
    for path in paths:
        path.write_bytes(b"x")
    missing = tmp_path / "never-there"
    with pytest.raises(FileNotFoundError):
        OsFileSystem().unlink_all([str(p) for p in [*paths[:5], missing, *paths[5:]]])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to name fds")
def test_first_at_once_syncs_the_first_file_while_the_block_still_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    started = threading.Event()
    release = threading.Event()
    synced: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        name = os.path.basename(os.readlink(f"/proc/self/fd/{fd}"))
        if name == "first":
            started.set()
            assert release.wait(60)  # held until the block has seen it start
        real(fd)
        synced.append(name)

    monkeypatch.setattr(os, "fsync", fsync)
    fs = OsFileSystem()
    with fs.batched_fsync(first_at_once=True):
        fs.write_new(str(tmp_path / "first"), b"1", None)
        fs.write_new(str(tmp_path / "second"), b"2", None)
        # the first file's fsync runs in another thread before the block ends; the
        # second waits for the end as in any batch
        assert started.wait(60)
        assert synced == []
        release.set()
    assert sorted(synced) == ["first", "second"]
    assert (tmp_path / "first").read_bytes() == b"1"


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to name fds")
def test_first_at_once_failure_is_raised_at_the_end_and_no_descriptor_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = os.fsync

    def fsync(fd: int) -> None:
        if os.path.basename(os.readlink(f"/proc/self/fd/{fd}")) == "first":
            raise OSError(5, "Input/output error (injected)")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    fs = OsFileSystem()
    with pytest.raises(OSError, match="injected"), fs.batched_fsync(first_at_once=True):
        fs.write_new(str(tmp_path / "first"), b"1", None)
        fs.write_new(str(tmp_path / "second"), b"2", None)
    held = [os.readlink(f"/proc/self/fd/{fd}") for fd in map(int, os.listdir("/proc/self/fd"))
            if os.path.exists(f"/proc/self/fd/{fd}")]  # fmt: skip
    assert not [path for path in held if path.startswith(f"{tmp_path}{os.sep}")]


def test_first_at_once_block_that_fails_waits_for_the_sync_running_ahead(
    tmp_path: Path, log: list[tuple[str, str]]
) -> None:
    fs = OsFileSystem()
    with pytest.raises(RuntimeError), fs.batched_fsync(first_at_once=True):
        fs.write_new(str(tmp_path / "first"), b"1", None)
        fs.write_new(str(tmp_path / "second"), b"2", None)
        raise RuntimeError("the block fails")
    # the file already being synced was synced; the one left for the end was not
    assert ("fsync", "first") in log
    assert ("fsync", "second") not in log
