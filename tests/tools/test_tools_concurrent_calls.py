"""Tool calls of one toolbox run at the same time (as an MCP server's worker threads run
them): edits of different files all land, and edits of one file never lose each other
(each is applied, or refused with nothing written)."""

from __future__ import annotations

import threading
from pathlib import Path

from patchwright.tools import Toolbox
from patchwright.workspace import Workspace

THREADS = 6
EDITS = 15


def test_concurrent_edits_land_and_none_is_lost(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    for n in range(THREADS):
        (root / f"own{n}.py").write_text(f"value = {n}\n")
    (root / "shared.py").write_text("".join(f"slot_{n} = 0\n" for n in range(THREADS)))
    toolbox = Toolbox(Workspace(root, state_dir=tmp_path / "state"))
    applied: dict[int, int] = {}
    refused: list[str] = []
    start = threading.Barrier(THREADS, timeout=60)

    def work(n: int) -> None:
        start.wait()
        own, slot = f"value = {n}", 0
        for i in range(1, EDITS + 1):
            mine = toolbox.call(
                "edit_file", {"path": f"own{n}.py", "old_string": own,
                              "new_string": f"{own}  # {i}"})  # fmt: skip
            assert mine.ok, mine.text
            own = f"{own}  # {i}"
            shared = toolbox.call(
                "edit_file", {"path": "shared.py", "old_string": f"slot_{n} = {slot}\n",
                              "new_string": f"slot_{n} = {slot + 1}\n"})  # fmt: skip
            if shared.ok:
                slot += 1
            else:  # another thread's write came between the read and the commit
                assert shared.error is not None
                refused.append(shared.error.code.value)
        applied[n] = slot

    threads = [threading.Thread(target=work, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
        assert not thread.is_alive()
    assert len(applied) == THREADS
    for n in range(THREADS):
        assert (root / f"own{n}.py").read_text().count("#") == EDITS
    assert (root / "shared.py").read_text() == "".join(
        f"slot_{n} = {applied[n]}\n" for n in range(THREADS)
    )
    assert set(refused) <= {"stale"}, refused
