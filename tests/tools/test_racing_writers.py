"""A file another writer keeps changing between a tool's read and its commit still gets
the tool's edit: after a few lost races the tool holds the file's lock from its read to
its commit (writing/race.py, ``racing``).

The rival here is a second workspace on the same folder, as another process would be: it
writes whenever the tool reads the file, and never waits for a lock. Nothing is timed;
the test counts the rival's writes and refusals.
"""

from __future__ import annotations

from pathlib import Path

from tool_helpers import ok, write

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.tools import Toolbox
from patchwright.workspace import FileChange, OsFileSystem, Probe, Workspace

TEXT = "a = 0\nb = 0\n"


class RivalOnRead(OsFileSystem):
    """The real file system; every read of ``shared.py`` is followed by a rival write."""

    def __init__(self) -> None:
        self.rival: Workspace | None = None
        self.wrote = 0
        self.blocked = 0

    def read_file(self, path: str, limit: int) -> Probe:
        probe = super().read_file(path, limit)
        if self.rival is not None and path.endswith("shared.py"):
            self._rival_writes()
        return probe

    def _rival_writes(self) -> None:
        assert self.rival is not None
        state = self.rival.read("shared.py")
        data = state.data + f"rival_{self.wrote} = 1\n".encode()
        try:
            self.rival.commit([FileChange("shared.py", data, expected_sha256=state.sha256)])
        except PatchwrightError as err:
            assert err.code is ErrorCode.LOCK_TIMEOUT, err.message
            self.blocked += 1
        else:
            self.wrote += 1


def test_an_edit_lands_on_a_file_another_writer_keeps_changing(tmp_path: Path) -> None:
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    write(root, "shared.py", TEXT)
    fs = RivalOnRead()
    toolbox = Toolbox(Workspace(root, state_dir=state, fs=fs), preset="default")
    # the rival never waits: a held lock refuses it at once
    fs.rival = Workspace(root, state_dir=state, lock_timeout=0)

    ok(toolbox, "edit_file", path="shared.py", old_string="a = 0", new_string="a = 1")

    text = (root / "shared.py").read_text()
    rivals = "".join(f"rival_{n} = 1\n" for n in range(fs.wrote))
    assert text == "a = 1\nb = 0\n" + rivals  # the edit and every rival write, none lost
    assert fs.wrote >= 2  # the rival won the first races...
    assert fs.blocked >= 1  # ...and was held off while the edit was read and committed
