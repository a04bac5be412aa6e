"""Restricted mode (spec 000 REQ-PATCH-009) and mode changes waiting for idle."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import RESTRICTED_MESSAGE, FileChange, OsFileSystem, Probe, Workspace

MakeWs = Callable[..., Workspace]
EXACT = (
    "Patch tool is disabled in Restricted mode. Use request_mode_upgrade to request write access."
)


def test_restricted_refuses_every_write_with_the_exact_text(root: Path, make_ws: MakeWs) -> None:
    (root / "a.txt").write_bytes(b"a")
    ws = make_ws()
    batch = ws.commit([FileChange("b.txt", b"b")]).batch_id
    ws.set_mode("restricted")
    assert RESTRICTED_MESSAGE == EXACT
    for attempt in (
        lambda: ws.ensure_writable(),
        lambda: ws.commit([FileChange("a.txt", b"z")]),
        lambda: ws.undo(batch),
    ):
        with pytest.raises(PatchwrightError) as info:
            attempt()
        assert info.value.code == ErrorCode.RESTRICTED
        assert str(info.value) == EXACT
    assert ws.read("a.txt").data == b"a"
    assert ws.commit([FileChange("a.txt", b"z")], dry_run=True).dry_run
    assert (root / "a.txt").read_bytes() == b"a" and (root / "b.txt").exists()
    ws.set_mode("unrestricted")
    ws.commit([FileChange("a.txt", b"z")])
    assert (root / "a.txt").read_bytes() == b"z"


def test_restricted_from_the_start_and_unknown_modes(make_ws: MakeWs) -> None:
    ws = make_ws(mode="restricted")
    assert ws.mode == "restricted"
    with pytest.raises(PatchwrightError) as info:
        ws.commit([FileChange("a.txt", b"a")])
    assert info.value.code == ErrorCode.RESTRICTED
    with pytest.raises(PatchwrightError) as info:
        ws.set_mode("read-only")  # type: ignore[arg-type]
    assert info.value.code == ErrorCode.INVALID_REQUEST


class BlockingReads(OsFileSystem):
    """Reads of ``slow.txt`` wait until released, to hold an operation in flight."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()

    def read_file(self, path: str, limit: int) -> Probe:
        if path.endswith("slow.txt"):
            self.entered.set()
            assert self.release.wait(10)
        return super().read_file(path, limit)


def test_mode_change_waits_for_operations_in_flight(root: Path, make_ws: MakeWs) -> None:
    (root / "slow.txt").write_bytes(b"slow")
    fs = BlockingReads()
    ws = make_ws(fs=fs)
    results: list[object] = []
    reader = threading.Thread(target=lambda: results.append(ws.read("slow.txt").data))
    reader.start()
    assert fs.entered.wait(10)
    switcher = threading.Thread(target=lambda: ws.set_mode("restricted"))
    switcher.start()
    switcher.join(0.3)
    assert switcher.is_alive() and ws.mode == "unrestricted"  # still waiting for the read
    fs.release.set()
    reader.join(10)
    switcher.join(10)
    assert not switcher.is_alive() and ws.mode == "restricted"
    assert results == [b"slow"]


def test_mode_change_timeout_leaves_mode_unchanged(root: Path, make_ws: MakeWs) -> None:
    (root / "slow.txt").write_bytes(b"slow")
    fs = BlockingReads()
    ws = make_ws(fs=fs)
    reader = threading.Thread(target=lambda: ws.read("slow.txt"))
    reader.start()
    assert fs.entered.wait(10)
    try:
        with pytest.raises(PatchwrightError) as info:
            ws.set_mode("restricted", timeout=0.1)
        assert info.value.code == ErrorCode.LOCK_TIMEOUT
        assert ws.mode == "unrestricted"
    finally:
        fs.release.set()
        reader.join(10)
    ws.commit([FileChange("after.txt", b"ok")])  # the gate is open again
