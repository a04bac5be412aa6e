"""A file changed since the agent read it: the edit is rebased when the change left its
lines alone, whoever changed the file (a formatter, another MCP session, a plain write),
and refused with the lines as they are now when the change overlaps it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult
from tool_helpers import ok, refused, sha, write

from patchwright.model import ErrorCode
from patchwright.tools import Toolbox
from patchwright.tools.session import KEPT_READS
from patchwright.workspace import Workspace

MODULE = (
    "def first():\n"
    "    x = {'k':1}\n"
    "    return x\n"
    "\n"
    "\n"
    "def second():\n"
    '    y = "two"\n'
    "    return y\n"
)
EDITED_SECOND = MODULE.replace('y = "two"', 'y = "three"')


def _toolbox(root: Path, state: Path, preset: str = "default") -> Toolbox:
    return Toolbox(Workspace(root, state_dir=state), preset=preset)


def _edit_second(toolbox: Toolbox) -> str:
    result = ok(toolbox, "edit_file", path="mod.py", old_string='y = "two"',
                new_string='y = "three"')  # fmt: skip
    return result.text


def test_a_plain_write_elsewhere_is_kept_and_the_edit_rebased(root: Path, state: Path) -> None:
    write(root, "mod.py", MODULE)
    toolbox = _toolbox(root, state)
    ok(toolbox, "read_file", path="mod.py")
    with open(root / "mod.py", "w", encoding="utf-8") as fh:  # someone else's editor
        fh.write(MODULE.replace("def first():", "def first() -> dict:"))
    text = _edit_second(toolbox)
    assert (
        "mod.py had changed since you last read it (line 1 of the file now, by another "
        "writer); your edit touched none of those lines and was rebased onto it." in text
    )
    assert (root / "mod.py").read_text() == EDITED_SECOND.replace(
        "def first():", "def first() -> dict:"
    )


def _ruff() -> list[str]:
    found = shutil.which("ruff", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "ruff"]


def test_a_formatter_pass_on_other_lines_is_kept(root: Path, state: Path) -> None:
    write(root, "mod.py", MODULE)
    toolbox = _toolbox(root, state)
    ok(toolbox, "read_file", path="mod.py")
    subprocess.run([*_ruff(), "format", "--quiet", "--no-cache", str(root / "mod.py")],
                   check=True, timeout=60)  # fmt: skip
    formatted = (root / "mod.py").read_text()
    assert formatted != MODULE and '    x = {"k": 1}\n' in formatted  # only line 2 changed
    text = _edit_second(toolbox)
    assert "had changed since you last read it (line 2 of the file now" in text, text
    assert (root / "mod.py").read_text() == formatted.replace('y = "two"', 'y = "three"')


def test_another_mcp_session_s_edit_is_kept_and_named(root: Path, state: Path) -> None:
    write(root, "mod.py", MODULE)
    toolbox = _toolbox(root, state)
    ok(toolbox, "read_file", path="mod.py")
    env = {"PATCHWRIGHT_STATE_DIR": str(state)}
    other = _mcp_call(root, env, "edit_file", {"path": "mod.py", "old_string": "    return x\n",
                                              "new_string": "    return dict(x)\n"})  # fmt: skip
    assert not other.is_error, other
    batch = other.structured_content["data"]["batch_id"]  # type: ignore[index]
    text = _edit_second(toolbox)
    assert f"(line 3 of the file now, by batch {batch} (edit_file))" in text, text
    assert (root / "mod.py").read_text() == EDITED_SECOND.replace(
        "    return x\n", "    return dict(x)\n"
    )


def _mcp_call(root: Path, env: dict[str, str], name: str, args: dict[str, Any]) -> CallToolResult:
    """One call to a fresh ``patchwright mcp`` server over stdio (its own session)."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "patchwright", "mcp", "--root", str(root), "--preset", "default"],
        env={**os.environ, **env},
    )
    out: list[CallToolResult] = []

    async def call() -> None:
        with open(os.devnull, "w") as log:
            async with Client(stdio_client(params, errlog=log), read_timeout_seconds=60) as c:
                out.append(await c.call_tool(name, args))

    anyio.run(call)
    return out[0]


def test_an_overlapping_change_is_refused_with_the_lines_it_has_now(
    root: Path, state: Path
) -> None:
    write(root, "mod.py", MODULE)
    toolbox = _toolbox(root, state)
    ok(toolbox, "read_file", path="mod.py")
    changed = MODULE.replace('y = "two"', 'y = "two"  # keep it two')
    (root / "mod.py").write_text(changed)  # the edit's own line, its old text still there
    result = refused(toolbox, "edit_file", path="mod.py", old_string='y = "two"',
                     new_string='y = "three"')  # fmt: skip
    assert result.error is not None and result.error.code is ErrorCode.CONFLICT
    assert (
        "mod.py changed since you last read it (by another writer), and the change overlaps "
        "your edit at line 7. No change was made. Those lines are now:\n"
        '     7\t    y = "two"  # keep it two'
    ) in result.text, result.text
    assert (root / "mod.py").read_text() == changed
    # the rebase needs the model's word: the edit made on the file now is a candidate
    (candidate,) = result.data["candidates"]
    assert "Candidates (your edit made on the file as it is now; 1 shown)" in result.text
    assert '+    y = "three"  # keep it two\n' in candidate["diff"]
    ok(toolbox, "edit_file", confirm=candidate["token"])
    assert (root / "mod.py").read_text() == changed.replace('"two"  #', '"three"  #')


@pytest.mark.parametrize("preset", ["claude-code"])
def test_claude_code_needs_a_read_then_rebases_instead_of_refusing(
    root: Path, state: Path, preset: str
) -> None:
    write(root, "mod.py", MODULE)
    toolbox = _toolbox(root, state, preset)
    edit = {"file_path": "mod.py", "old_string": 'y = "two"', "new_string": 'y = "three"'}
    unread = refused(toolbox, "Edit", **edit)
    assert "File has not been read yet. Read it first before writing to it" in unread.text
    overwrite = refused(toolbox, "Write", file_path="mod.py", content="gone\n")
    assert "File has not been read yet" in overwrite.text
    assert (root / "mod.py").read_text() == MODULE
    ok(toolbox, "Write", file_path="new.py", content="fresh = True\n")  # a new file needs none
    ok(toolbox, "Read", file_path="mod.py")
    (root / "mod.py").write_text("# header\n" + MODULE)
    text = ok(toolbox, "Edit", **edit).text
    assert "had changed since you last read it (line 1 of the file now" in text
    assert (root / "mod.py").read_text() == "# header\n" + EDITED_SECOND
    # what the session wrote is what it knows now: the next edit needs no new read
    ok(toolbox, "Edit", file_path="mod.py", old_string="# header", new_string="# top")


def test_a_stale_write_and_insert_are_rebased_too(root: Path, state: Path) -> None:
    write(root, "mod.py", MODULE)
    toolbox = _toolbox(root, state, "anthropic")
    tool = "str_replace_based_edit_tool"
    ok(toolbox, tool, command="view", path="mod.py")
    (root / "mod.py").write_text("# header\n" + MODULE)
    # line 6 of the version read (the blank line before "def second")
    text = ok(toolbox, tool, command="insert", path="mod.py", insert_line=5,
              insert_text="# second\n").text  # fmt: skip
    assert "after line 5 of mod.py (of the version you last read)" in text
    lines = MODULE.splitlines(True)
    expected = "# header\n" + "".join([*lines[:5], "# second\n", *lines[5:]])
    assert (root / "mod.py").read_text() == expected


def test_a_session_remembers_the_newest_files_it_saw_and_only_their_sha256(
    root: Path, state: Path
) -> None:
    """Read tracking is bounded: the SHA256 of the newest KEPT_READS files (the contents
    are in the history's content store), and the texts of the last few files written."""
    toolbox = _toolbox(root, state)
    session = toolbox.session_for(None)
    for n in range(KEPT_READS + 1):
        write(root, f"f{n}.py", f"v = {n}\n")
        ok(toolbox, "read_file", path=f"f{n}.py")
    assert len(session.reads) == KEPT_READS
    assert session.seen("f0.py") is None  # the oldest is forgotten
    assert session.seen(f"f{KEPT_READS}.py") == sha((root / f"f{KEPT_READS}.py").read_bytes())
    assert all(len(value) == 64 for value in session.reads.values())  # digests, no text
    for n in range(8):
        ok(toolbox, "edit_file", path=f"f{n + 1}.py", old_string=f"v = {n + 1}",
           new_string="v = 0")  # fmt: skip
    names = [f"f{n + 1}.py" for n in range(8)]
    kept = [name for name in names if session.written_text(name, sha((root / name).read_bytes()))]
    assert kept == ["f5.py", "f6.py", "f7.py", "f8.py"]
    # a forgotten file is edited as one never read: on the file as it is now, no note
    write(root, "f0.py", "v = 0\nw = 1\n")
    assert "had changed" not in ok(toolbox, "edit_file", path="f0.py", old_string="w = 1",
                                   new_string="w = 2").text  # fmt: skip
