"""Patches act on a link as a link, as git does (issue 34, item 12).

``*** Delete File: b_link`` once deleted ``b.txt`` and left the link dangling; moves
likewise; an Add File onto a dangling in-root link created its target. Now a patch
deletes and moves the link itself, a git diff with mode 120000 creates a link or changes
its target (only to a place inside the root), and what git refuses is refused: a path
beyond a link, a file added where a link stands, a link's lines edited without the link
mode. Undo, rollback and crash recovery put a link back as a link. Every case runs on a
real tree, through ``apply_patch_text``, ``patchwright apply`` and the ``apply_patch``
tool.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from patchwright.api import apply_patch_text
from patchwright.model import ErrorCode, PatchwrightError
from patchwright.tools import Toolbox
from patchwright.workspace import LINK_MODE, FileChange, OsFileSystem, Workspace, sha256_hex
from waiting import Waiting

CLI = [sys.executable, "-m", "patchwright"]
TIMEOUT = 120


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
    (folder / "sub").mkdir()
    (folder / "sub" / "up").symlink_to("..")  # inside: the root itself
    (tmp_path / "outside.txt").write_text("o\n")
    (folder / "out_link").symlink_to("../outside.txt")  # made by the user, leads out
    return folder


V4A = "*** Begin Patch\n{body}*** End Patch\n"
NO_EOL = "\\ No newline at end of file\n"


def _git_new_link(path: str, target: str) -> str:
    return (
        f"diff --git a/{path} b/{path}\nnew file mode 120000\nindex 0000000..1234567\n"
        f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+{target}\n{NO_EOL}"
    )


# what git refuses, and what patchwright refuses with it: (patch, code, words said)
REFUSED = {
    "update a link's lines": (
        V4A.format(body="*** Update File: b_link\n@@\n-b\n+c\n"),
        "not_a_file",
        "is a symbolic link to 'b.txt'",
    ),
    "move a link and edit its lines": (
        V4A.format(body="*** Update File: b_link\n*** Move to: c.txt\n@@\n-b\n+c\n"),
        "not_a_file",
        "is a symbolic link to 'b.txt'",
    ),
    "add onto a dangling link": (
        V4A.format(body="*** Add File: dangling\n+x\n"),
        "file_exists",
        "already exists as a symbolic link",
    ),
    "move onto a dangling link": (
        V4A.format(body="*** Update File: b.txt\n*** Move to: dangling\n@@\n-b\n+c\n"),
        "file_exists",
        "already exists as a symbolic link",
    ),
    "update beyond a folder link": (
        V4A.format(body="*** Update File: dir_link/f.txt\n@@\n-r\n+s\n"),
        "not_a_file",
        "beyond a link",
    ),
    "add beyond a folder link": (
        V4A.format(body="*** Add File: dir_link/new.txt\n+x\n"),
        "not_a_file",
        "beyond a link",
    ),
    "delete beyond a folder link": (
        V4A.format(body="*** Delete File: dir_link/f.txt\n"),
        "not_a_file",
        "beyond a link",
    ),
    "a link to a place above the root": (
        _git_new_link("new_link", "../outside.txt"),
        "path_outside_root",
        "leads outside the workspace root",
    ),
    "a link to an absolute path outside": (
        _git_new_link("new_link", "/etc/passwd"),
        "path_outside_root",
        "leads outside the workspace root",
    ),
    "a link out through a link's '..'": (
        # lexically sub/x, but sub/up is the root, so the kernel goes above it
        _git_new_link("sub/new_link", "up/../x"),
        "path_outside_root",
        "leads outside the workspace root",
    ),
    "a move that takes a link's target out of the root": (
        # '..' from sub/ is the root; from the root it is above it
        V4A.format(body="*** Update File: sub/up\n*** Move to: up\n"),
        "path_outside_root",
        "leads outside the workspace root",
    ),
    "move beyond a folder link": (
        V4A.format(body="*** Update File: b.txt\n*** Move to: dir_link/b.txt\n"),
        "not_a_file",
        "beyond a link",
    ),
    "a link target with a final newline": (
        # no '\ No newline at end of file': the target would end in a line break
        "diff --git a/new_link b/new_link\nnew file mode 120000\n--- /dev/null\n"
        "+++ b/new_link\n@@ -0,0 +1 @@\n+b.txt\n",
        "invalid_request",
        "holds a line break",
    ),
    "a move of a link that leads outside": (
        V4A.format(body="*** Update File: out_link\n*** Move to: out_link2\n"),
        "path_outside_root",
        "leads outside the workspace root",
    ),
    "a link turned into a file": (
        "diff --git a/b_link b/b_link\nold mode 120000\nnew mode 100644\n",
        "unsupported",
        "does not change a path's type",
    ),
    "a regular file said to be a link": (
        "diff --git a/b.txt b/b.txt\nindex 1234567..89abcde 120000\n--- a/b.txt\n+++ b/b.txt\n"
        f"@@ -1 +1 @@\n-b\n+c\n{NO_EOL}",
        "not_a_file",
        "not a symbolic link as the patch says",
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_what_git_refuses_is_refused_and_changes_nothing(root: Path, case: str) -> None:
    patch, code, said = REFUSED[case]
    before = _tree(root)
    report = apply_patch_text(patch, root, history=False)
    assert report.error is not None, case
    assert report.error.code.value == code, report.error.message
    assert said in report.error.message and "Nothing was changed" in report.error.message
    assert _tree(root) == before


# what a patch does to a link: (patch, the entries that change: None = removed)
DONE: dict[str, tuple[str, dict[str, str | None]]] = {
    "V4A delete of a link": (
        V4A.format(body="*** Delete File: b_link\n"),
        {"b_link": None},
    ),
    "V4A delete of a dangling link": (
        V4A.format(body="*** Delete File: dangling\n"),
        {"dangling": None},
    ),
    "V4A delete of a link to a folder": (
        V4A.format(body="*** Delete File: dir_link\n"),
        {"dir_link": None},
    ),
    "V4A delete of a link that leads outside": (
        V4A.format(body="*** Delete File: out_link\n"),
        {"out_link": None},
    ),
    "git delete of a link": (
        "diff --git a/b_link b/b_link\ndeleted file mode 120000\nindex 1234567..0000000\n"
        f"--- a/b_link\n+++ /dev/null\n@@ -1 +0,0 @@\n-b.txt\n{NO_EOL}",
        {"b_link": None},
    ),
    "V4A move of a link": (
        V4A.format(body="*** Update File: b_link\n*** Move to: c_link\n"),
        {"b_link": None, "c_link": "-> b.txt"},
    ),
    "git rename of a link": (
        "diff --git a/b_link b/c_link\nsimilarity index 100%\nrename from b_link\n"
        "rename to c_link\n",
        {"b_link": None, "c_link": "-> b.txt"},
    ),
    "git creation of a link": (
        _git_new_link("real/new_link", "f.txt"),
        {"real/new_link": "-> f.txt"},
    ),
    "git creation of a link through an in-root '..'": (
        _git_new_link("sub/new_link", "up/b.txt"),  # sub/up is the root: root/b.txt
        {"sub/new_link": "-> up/b.txt"},
    ),
    "git type change of a link into a file": (
        "diff --git a/b_link b/b_link\ndeleted file mode 120000\nindex 19acdd8..0000000\n"
        f"--- a/b_link\n+++ /dev/null\n@@ -1 +0,0 @@\n-b.txt\n{NO_EOL}"
        "diff --git a/b_link b/b_link\nnew file mode 100644\nindex 0000000..3e75765\n"
        "--- /dev/null\n+++ b/b_link\n@@ -0,0 +1 @@\n+new\n",
        {"b_link": "new\n"},
    ),
    "git change of a link's target": (
        "diff --git a/b_link b/b_link\nindex 1234567..89abcde 120000\n--- a/b_link\n"
        f"+++ b/b_link\n@@ -1 +1 @@\n-b.txt\n{NO_EOL}+real/f.txt\n{NO_EOL}",
        {"b_link": "-> real/f.txt"},
    ),
}


def _via_api(root: Path, state: Path, patch: str) -> bool:
    return apply_patch_text(patch, workspace=Workspace(root, state_dir=state)).ok


def _via_cli(root: Path, state: Path, patch: str) -> bool:
    proc = subprocess.run(
        [*CLI, "apply", "--root", str(root)],
        input=patch,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**os.environ, "PATCHWRIGHT_STATE_DIR": str(state)},
    )
    return proc.returncode == 0


def _via_tool(root: Path, state: Path, patch: str) -> bool:
    toolbox = Toolbox(Workspace(root, state_dir=state), tools=["apply_patch"])
    return toolbox.call("apply_patch", {"patch": patch}).ok


INTERFACES: dict[str, Callable[[Path, Path, str], bool]] = {
    "api": _via_api,
    "cli": _via_cli,
    "tool": _via_tool,
}


@pytest.mark.parametrize("interface", sorted(INTERFACES))
@pytest.mark.parametrize("case", sorted(DONE))
def test_a_patch_acts_on_the_link_itself(
    root: Path, tmp_path: Path, case: str, interface: str
) -> None:
    patch, changed = DONE[case]
    expected = {**_tree(root), **changed}
    assert INTERFACES[interface](root, tmp_path / "state", patch), case
    assert _tree(root) == {k: v for k, v in expected.items() if v is not None}
    # the file a link pointed to is never touched
    assert (root / "b.txt").read_text() == "b\n" and (root / "real/f.txt").read_text() == "r\n"
    assert (tmp_path / "outside.txt").read_text() == "o\n"


@pytest.mark.parametrize("case", sorted(DONE))
def test_undo_puts_the_link_back_as_a_link(root: Path, tmp_path: Path, case: str) -> None:
    patch, _changed = DONE[case]
    before = _tree(root)
    ws = Workspace(root, state_dir=tmp_path / "state")
    report = apply_patch_text(patch, workspace=ws)
    assert report.ok and report.recorded, case
    assert _tree(root) != before
    ws.undo()
    assert _tree(root) == before


def test_the_real_paths_still_work(root: Path) -> None:
    patch = V4A.format(body="*** Update File: real/f.txt\n@@\n-r\n+s\n*** Delete File: b.txt\n")
    report = apply_patch_text(patch, root, history=False)
    assert report.ok, report.summary()
    assert (root / "real" / "f.txt").read_text() == "s\n"
    assert not (root / "b.txt").exists() and (root / "b_link").is_symlink()


@pytest.mark.parametrize("target", ["b.txt", "real/f.txt"])
def test_creating_a_link_where_one_stands_is_refused(root: Path, target: str) -> None:
    before = _tree(root)  # git: "already exists in working directory", same target or not
    report = apply_patch_text(_git_new_link("b_link", target), root, history=False)
    assert report.error is not None and report.error.code == ErrorCode.FILE_EXISTS
    assert _tree(root) == before


class _FailingReplace(OsFileSystem):
    """The real file system, whose rename onto ``a.txt`` fails (a full disk)."""

    def replace(self, src: str, dst: str) -> None:
        if dst.endswith("/a.txt"):
            raise OSError(28, "No space left on device (injected)")
        super().replace(src, dst)


LINK_CHANGES = {
    "delete": FileChange("b_link", None, mode_bits=LINK_MODE),
    "retarget": FileChange("b_link", b"real/f.txt", mode_bits=LINK_MODE),
    "create": FileChange("new_link", b"b.txt", mode_bits=LINK_MODE, must_not_exist=True),
    "move": FileChange("c_link", None, move_from="b_link", mode_bits=LINK_MODE),
}


@pytest.mark.parametrize("change", sorted(LINK_CHANGES))
def test_a_failed_commit_rolls_a_link_back(root: Path, tmp_path: Path, change: str) -> None:
    (root / "a.txt").write_text("a\n")
    before = _tree(root)
    ws = Workspace(root, state_dir=tmp_path / "state", fs=_FailingReplace())
    edit = FileChange("a.txt", b"A\n", expected_sha256=sha256_hex(b"a\n"))
    with pytest.raises(PatchwrightError) as info:
        ws.commit([LINK_CHANGES[change], edit])
    assert info.value.code == ErrorCode.IO_ERROR
    assert _tree(root) == before


CRASHING_CHILD = textwrap.dedent(
    """
    import os, sys
    from patchwright.workspace import LINK_MODE, FileChange, OsFileSystem, Workspace
    from patchwright.workspace import sha256_hex

    class Crash(OsFileSystem):
        def replace(self, src, dst):
            if dst.endswith("/a.txt"):
                os._exit(9)  # killed mid-commit: the link already changed, a.txt not yet
            super().replace(src, dst)

    root, state, change = sys.argv[1:]
    link = {
        "delete": FileChange("b_link", None, mode_bits=LINK_MODE),
        "retarget": FileChange("b_link", b"real/f.txt", mode_bits=LINK_MODE),
        "move": FileChange("c_link", None, move_from="b_link", mode_bits=LINK_MODE),
    }[change]
    edit = FileChange("a.txt", b"A\\n", expected_sha256=sha256_hex(b"a\\n"))
    Workspace(root, state_dir=state, fs=Crash()).commit([link, edit])
    """
)


@pytest.mark.parametrize("change", ["delete", "move", "retarget"])
def test_a_crash_mid_commit_rolls_a_link_back(root: Path, tmp_path: Path, change: str) -> None:
    (root / "a.txt").write_text("a\n")
    before = _tree(root)
    state = tmp_path / "state"
    proc = subprocess.run(
        [sys.executable, "-c", CRASHING_CHILD, str(root), str(state), change],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert proc.returncode == 9, proc.stderr
    assert _tree(root) != before  # the link changed before the crash
    ws = Workspace(root, state_dir=state)  # opening it rolls the commit back
    assert len(ws.recovered) == 1
    assert _tree(root) == before
    assert ws.history.latest_undoable() is None  # nothing recorded: nothing to undo


class _FailingFsyncOnce(OsFileSystem):
    """The real file system, whose first fsync of the root folder fails (after the
    one-file commit put its change in place)."""

    failed = False

    def fsync_dir(self, path: str) -> None:
        if not self.failed and path.rstrip("/").endswith("/root"):
            self.failed = True
            raise OSError(5, "Input/output error (injected)")
        super().fsync_dir(path)


@pytest.mark.parametrize("change", sorted(LINK_CHANGES))
def test_a_failed_one_file_commit_puts_the_link_back(
    root: Path, tmp_path: Path, change: str
) -> None:
    before = _tree(root)
    fs = _FailingFsyncOnce()
    ws = Workspace(root, state_dir=tmp_path / "state", fs=fs)
    with pytest.raises(PatchwrightError) as info:
        ws.commit([LINK_CHANGES[change]])
    assert fs.failed and info.value.code == ErrorCode.IO_ERROR
    assert _tree(root) == before


def _next_pending(ws: Workspace) -> str:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        pending = ws.proposals.pending()
        if pending:
            return pending[-1].id
        time.sleep(0.02)  # polling for the proposal, bounded
    raise AssertionError("no proposal appeared")


def test_an_approved_link_deletion_and_its_undo_act_on_the_link(root: Path, tmp_path: Path) -> None:
    before = _tree(root)
    state = tmp_path / "state"
    agent = Workspace(root, state_dir=state, session="agent")
    agent.require_approval(timeout=TIMEOUT)
    person = Workspace(root, state_dir=state)
    patch = V4A.format(body="*** Delete File: b_link\n")
    waiting = Waiting(lambda: apply_patch_text(patch, workspace=agent))
    person.proposals.approve(_next_pending(person))
    waiting.join()
    assert waiting.error is None and waiting.result.ok
    assert _tree(root) == {k: v for k, v in before.items() if k != "b_link"}
    waiting = Waiting(agent.undo)
    person.proposals.approve(_next_pending(person))
    waiting.join()
    assert waiting.error is None
    assert _tree(root) == before


def test_codex_delete_file_operation_deletes_the_link(root: Path, tmp_path: Path) -> None:
    before = _tree(root)
    toolbox = Toolbox(Workspace(root, state_dir=tmp_path / "state"), tools=["codex_apply_patch"])
    operation = {"type": "delete_file", "path": "b_link"}
    result = toolbox.call("codex_apply_patch", {"operation": operation})
    assert result.ok, result.text
    assert _tree(root) == {k: v for k, v in before.items() if k != "b_link"}


def test_a_file_turned_into_a_link_becomes_the_link(root: Path, tmp_path: Path) -> None:
    # git's type change: the file deleted, then a link created at its path
    patch = (
        "diff --git a/b.txt b/b.txt\ndeleted file mode 100644\n--- a/b.txt\n+++ /dev/null\n"
        "@@ -1 +0,0 @@\n-b\n"
        "diff --git a/b.txt b/b.txt\nnew file mode 120000\n--- /dev/null\n+++ b/b.txt\n"
        f"@@ -0,0 +1 @@\n+real/f.txt\n{NO_EOL}"
    )
    before = _tree(root)
    ws = Workspace(root, state_dir=tmp_path / "state")
    report = apply_patch_text(patch, workspace=ws)
    assert report.ok, report.summary()
    assert _tree(root) == {**before, "b.txt": "-> real/f.txt"}
    assert (root / "real" / "f.txt").read_text() == "r\n"
    ws.undo()
    assert _tree(root) == before
