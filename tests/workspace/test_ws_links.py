"""Before-images as hard links, large history contents as files, and the checks that
keep both as safe as copies: real files in a temporary folder, with file systems that
only wrap the real one (record calls, refuse links, inject a failure or a rival write).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from ws_helpers import files

import patchwright.workspace.history.store as history_store
import patchwright.workspace.records as records
from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import (
    ChangeRecord,
    FileChange,
    OsFileSystem,
    Probe,
    Workspace,
    sha256_hex,
)
from patchwright.workspace.direct import LINK_IMAGE_MIN
from patchwright.workspace.fs import MISSING
from patchwright.workspace.history import FILE_BLOB_MIN
from patchwright.workspace.history.contents import PARTIAL

MakeWs = Callable[..., Workspace]
BIG = b"".join(b"line %d\n" % i for i in range(20_000))  # well over FILE_BLOB_MIN
BIGGER = BIG + b"one more\n"
# a one-file commit hands the history a link to the old file from this size on
HUGE = BIG * (LINK_IMAGE_MIN // len(BIG) + 1)


class Recording(OsFileSystem):
    """The real file system, noting links and new files; optionally:

    * ``no_links``: links are impossible here (as across devices), so callers copy;
    * ``rival``: before the first link, someone ignoring the locks appends to the file
      in place;
    * ``fail_replace_of``: the rename onto this path fails (a full disk).
    """

    def __init__(self, *, no_links: bool = False, rival: bool = False) -> None:
        self.links: list[tuple[str, str]] = []
        self.new_files: list[str] = []
        self.no_links = no_links
        self.rival = rival
        self.fail_replace_of: str | None = None

    def link(self, src: str, dst: str, *, sync: bool = True) -> Probe:
        if self.rival:
            self.rival = False
            with open(src, "ab") as fh:  # in place: the same inode, new content
                fh.write(b"rival\n")
        self.links.append((src, dst))
        return MISSING if self.no_links else super().link(src, dst, sync=sync)

    def write_new(self, path: str, data: bytes, mode_bits: int | None) -> None:
        self.new_files.append(path)
        super().write_new(path, data, mode_bits)

    def replace(self, src: str, dst: str) -> None:
        if self.fail_replace_of is not None and dst.endswith(self.fail_replace_of):
            raise OSError(28, "No space left on device (injected)")
        super().replace(src, dst)


def _journal_writes(fs: Recording) -> list[str]:
    return [p for p in fs.new_files if "/journal/" in p and "manifest" not in p]


def test_before_image_is_a_link_to_the_old_file(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(HUGE)
    inode = (root / "a.txt").stat().st_ino
    fs = Recording()
    ws = make_ws(fs=fs)
    record = ws.commit([FileChange("a.txt", BIGGER, expected_sha256=sha256_hex(HUGE))])
    assert fs.links[0][0] == str(root / "a.txt")
    assert _journal_writes(fs) == []  # no copy of the old bytes
    blobs = ws.state_folder / "blobs"
    before, after = record.files[0].before_sha256, record.files[0].after_sha256
    assert before is not None and after is not None
    # the history keeps the old inode itself, and the new content as its difference
    # from the old one (no second copy of the file)
    assert (blobs / before).stat().st_ino == inode
    assert not (blobs / after).exists()
    assert ws.history.content(before) == HUGE and ws.history.content(after) == BIGGER
    assert list((ws.state_folder / "journal").iterdir()) == []
    ws.undo()
    assert (root / "a.txt").read_bytes() == HUGE


def test_old_content_the_history_holds_is_not_linked_again(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(HUGE)
    fs = Recording()
    ws = make_ws(fs=fs)
    ws.commit([FileChange("a.txt", HUGE + b"x\n", expected_sha256=sha256_hex(HUGE))])
    linked = len(fs.links)
    assert linked  # the old file, into the journal and on into the history
    # the old content of the next edit is the new content of this one: kept already
    record = ws.commit(
        [FileChange("a.txt", HUGE + b"y\n", expected_sha256=sha256_hex(HUGE + b"x\n"))]
    )
    assert len(fs.links) == linked and _journal_writes(fs) == []
    before = record.files[0].before_sha256
    assert before is not None and ws.history.content(before) == HUGE + b"x\n"
    ws.undo()
    assert (root / "a.txt").read_bytes() == HUGE + b"x\n"


def test_without_links_the_bytes_are_copied_and_rollback_works(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(BIG)
    (root / "b.txt").write_bytes(b"b\n")
    fs = Recording(no_links=True)
    ws = make_ws(fs=fs)
    fs.fail_replace_of = "/b.txt"
    with pytest.raises(PatchwrightError) as info:
        ws.commit(
            [
                FileChange("a.txt", BIGGER, expected_sha256=sha256_hex(BIG)),
                FileChange("b.txt", b"B\n", expected_sha256=sha256_hex(b"b\n")),
            ]
        )
    assert info.value.code == ErrorCode.IO_ERROR
    assert len(_journal_writes(fs)) == 2  # both before-images copied
    assert files(root) == {"a.txt": BIG, "b.txt": b"b\n"}  # a.txt was replaced, then restored
    fs.fail_replace_of = None
    record = ws.commit([FileChange("a.txt", BIGGER, expected_sha256=sha256_hex(BIG))])
    before = record.files[0].before_sha256
    assert before is not None and ws.history.content(before) == BIG  # copied, not linked
    assert (ws.state_folder / "blobs" / before).stat().st_nlink == 1


def test_file_changed_since_read_is_not_linked(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(BIG)
    (root / "b.txt").write_bytes(b"b\n")
    fs = Recording(rival=True)
    ws = make_ws(fs=fs)
    fs.fail_replace_of = "/b.txt"
    with pytest.raises(PatchwrightError):
        ws.commit(
            [
                FileChange("a.txt", BIGGER, expected_sha256=sha256_hex(BIG)),
                FileChange("b.txt", b"B\n", expected_sha256=sha256_hex(b"b\n")),
            ]
        )
    # the rival's write made the link a different file: the journal copied the bytes
    # the commit had read and checked, and rollback put exactly those back
    assert [Path(p).name for p in _journal_writes(fs)] == ["before-0"]
    assert (root / "a.txt").read_bytes() == BIG
    assert list((ws.state_folder / "journal").iterdir()) == []


class Twinning(OsFileSystem):
    """Before the journal links a file, someone gives it a second name (ignoring locks):
    a file with several links is refused by a commit, so only a rival can make one."""

    def link(self, src: str, dst: str, *, sync: bool = True) -> Probe:
        if src.endswith("/a.txt") and not os.path.exists(src[: -len("a.txt")] + "twin.txt"):
            os.link(src, src[: -len("a.txt")] + "twin.txt")
        return super().link(src, dst, sync=sync)


def test_old_file_with_another_name_is_copied_into_history(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(BIG)
    ws = make_ws(fs=Twinning())  # the same inode gets a second name, twin.txt
    # two files, so the commit goes through the journal, whose before-image is a link
    record = ws.commit(
        [FileChange("a.txt", BIGGER, expected_sha256=sha256_hex(BIG)), FileChange("b.txt", b"b\n")]
    )
    before = record.files[0].before_sha256
    assert before is not None
    blob = ws.state_folder / "blobs" / before
    assert blob.stat().st_ino != (root / "twin.txt").stat().st_ino
    with open(root / "twin.txt", "ab") as fh:  # written in place through the other name
        fh.write(b"changed\n")
    assert ws.history.content(before) == BIG


def test_damaged_content_file_is_reported_not_returned(root: Path, make_ws: MakeWs) -> None:
    ws = make_ws()
    record = ws.commit([FileChange("a.txt", BIG)])
    after = record.files[0].after_sha256
    assert after is not None and len(BIG) >= FILE_BLOB_MIN
    blob = ws.state_folder / "blobs" / after
    blob.write_bytes(b"garbage\n")
    with pytest.raises(PatchwrightError) as info:
        ws.history.content(after)
    assert info.value.code == ErrorCode.HISTORY and "damaged" in info.value.message


def test_small_contents_stay_in_the_database(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(b"1\n")
    ws = make_ws()
    record = ws.commit([FileChange("a.txt", b"2\n", expected_sha256=sha256_hex(b"1\n"))])
    assert not (ws.state_folder / "blobs").exists()
    assert ws.history.content(record.files[0].before_sha256) == b"1\n"
    assert ws.history.content(record.files[0].after_sha256) == b"2\n"


def test_small_old_contents_of_a_journaled_commit_are_linked(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(b"a1\n")
    (root / "b.txt").write_bytes(b"b1\n")
    inodes = {name: (root / name).stat().st_ino for name in ("a.txt", "b.txt")}
    fs = Recording()
    ws = make_ws(fs=fs)
    old = {name: f"{name[0]}1\n".encode() for name in ("a.txt", "b.txt")}
    changes = [
        FileChange(name, data.replace(b"1", b"2"), expected_sha256=sha256_hex(data))
        for name, data in old.items()
    ]
    record = ws.commit(changes)
    blobs = ws.state_folder / "blobs"
    # the old inodes themselves, no bytes copied; the new contents stay in the table
    for f in record.files:
        assert f.before_sha256 is not None and f.after_sha256 is not None
        assert (blobs / f.before_sha256).stat().st_ino == inodes[f.path]
        assert not (blobs / f.after_sha256).exists()
    assert not [p for p in fs.new_files if "/blobs/" in p]
    ws.undo()
    assert (root / "a.txt").read_bytes() == b"a1\n" and (root / "b.txt").read_bytes() == b"b1\n"


def test_small_old_content_with_another_name_stays_in_the_database(
    root: Path, make_ws: MakeWs
) -> None:
    (root / "a.txt").write_bytes(b"a1\n")
    ws = make_ws(fs=Twinning())  # the old inode gets a second name: it cannot be linked
    a = FileChange("a.txt", b"a2\n", expected_sha256=sha256_hex(b"a1\n"))
    record = ws.commit([a, FileChange("b.txt", b"b\n")])
    before = record.files[0].before_sha256
    assert before is not None and not (ws.state_folder / "blobs" / before).exists()
    with open(root / "twin.txt", "ab") as fh:  # written in place through the other name
        fh.write(b"changed\n")
    assert ws.history.content(before) == b"a1\n"


def test_same_large_content_is_stored_once(root: Path, make_ws: MakeWs) -> None:
    ws = make_ws()
    ws.commit([FileChange("a.txt", BIG), FileChange("b.txt", BIG)])
    ws.commit([FileChange("c.txt", BIG)])
    blobs = ws.state_folder / "blobs"
    assert [p.name for p in blobs.iterdir() if p.name != PARTIAL] == [sha256_hex(BIG)]
    assert not list((blobs / PARTIAL).iterdir())  # temp files all renamed


def test_read_if_exists(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(b"a\n")
    (root / "dir").mkdir()
    os.mkfifo(root / "pipe")
    ws = make_ws()
    assert ws.read_if_exists("missing.txt") is None
    state = ws.read_if_exists("a.txt")
    assert state is not None and state.data == b"a\n" and state.identity is not None
    for name in ("pipe", "dir"):
        with pytest.raises(PatchwrightError) as info:
            ws.read_if_exists(name)
        assert info.value.code == ErrorCode.NOT_A_FILE


def test_thousands_of_changes_get_distinct_ids(root: Path, make_ws: MakeWs) -> None:
    ws = make_ws()
    changes = tuple(ChangeRecord(description=f"c{i}", old_start=i) for i in range(1_500))
    record = ws.commit([FileChange("a.txt", b"x\n", changes=changes)])
    ids = record.files[0].change_ids
    assert len(set(ids)) == 1_500
    (file,) = ws.history.get(record.batch_id)["files"]
    assert [c["id"] for c in file["changes"]] == ids


def test_ids_already_in_the_store_are_drawn_again(
    root: Path, make_ws: MakeWs, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = make_ws().commit([FileChange("a.txt", b"x\n", changes=(ChangeRecord("k"),))])
    taken = record.files[0].change_ids[0]
    drawn = iter([taken, "c-00000001", "c-00000002"])  # the first one is in use
    monkeypatch.setattr(records, "new_ids", lambda prefix, count: [next(drawn)][:count])
    monkeypatch.setattr(history_store, "_SPARE_IDS", {})  # draw just what is asked
    assert make_ws().history.fresh_ids({"c": 2}) == {"c": ["c-00000001", "c-00000002"]}


def test_ids_checked_for_several_commits_are_handed_out_once(
    root: Path, make_ws: MakeWs, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = make_ws()
    queries = []
    unused = history_store.History._unused_ids
    monkeypatch.setattr(
        history_store.History,
        "_unused_ids",
        lambda self, counts: queries.append(dict(counts)) or unused(self, counts),
    )
    spare = history_store._SPARE_IDS["b"]
    records_ = [ws.commit([FileChange("a.txt", f"{i}\n".encode())]) for i in range(spare + 2)]
    assert len(queries) == 2  # the IDs of `spare` + 1 commits checked at once
    ids = [r.batch_id for r in records_] + [f.file_id for r in records_ for f in r.files]
    assert len(set(ids)) == len(ids)
    assert [b["id"] for b in ws.history.list_batches(limit=100)] == [
        r.batch_id for r in reversed(records_)
    ]


def test_a_forked_process_draws_ids_of_its_own(root: Path, tmp_path: Path) -> None:
    # forked in a process of its own: the test process may run threads
    script = textwrap.dedent(
        """
        import os, sys
        from patchwright.workspace import FileChange, Workspace

        ws = Workspace(sys.argv[1], state_dir=sys.argv[2])
        ws.commit([FileChange("a.txt", b"x\\n")])  # the parent now holds spare IDs
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.write(write_end, " ".join(ws.history.fresh_ids({"b": 3})["b"]).encode())
            finally:
                os._exit(0)
        os.close(write_end)
        with os.fdopen(read_end, "rb") as pipe:
            child = pipe.read().decode().split()
        os.waitpid(pid, 0)
        print(" ".join(child), "|", " ".join(ws.history.fresh_ids({"b": 3})["b"]))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(root), str(tmp_path / "fork-state")],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    child, parent = (part.split() for part in done.stdout.split("|"))
    assert len(child) == len(parent) == 3 and not set(child) & set(parent)
