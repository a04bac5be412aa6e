"""Text fidelity and concurrency through the tools: bytes outside an edit stay identical,
and a file changed between a tool's read and its write is refused as stale."""

from __future__ import annotations

import codecs
from collections.abc import Callable
from pathlib import Path

import pytest
from tool_helpers import ok, refused, sha, write

from patchwright.model import ErrorCode
from patchwright.tools import Toolbox
from patchwright.workspace import OsFileSystem, Probe


@pytest.mark.parametrize(
    "data",
    [
        b"one\r\ntwo\r\nthree\r\n",
        codecs.BOM_UTF8 + b"one\ntwo\nthree\n",
        b"one\ntwo\nthree",
        codecs.BOM_UTF16_LE + "one\r\ntwo\r\nthree\r\n".encode("utf-16-le"),
    ],
    ids=["crlf", "utf8-bom", "no-final-newline", "utf16-bom"],
)
def test_every_writer_keeps_encoding_newlines_and_final_newline(
    toolbox: Toolbox, root: Path, data: bytes
) -> None:
    expected = TextFileView(data).replace("two", "2")
    calls = [
        (
            "patch",
            {
                "path": "f.txt",
                "patches": [{"operation": "replace", "oldText": "two", "newText": "2"}],
            },
        ),
        ("edit_file", {"path": "f.txt", "old_string": "two", "new_string": "2"}),
        ("edit_lines", {"path": "f.txt", "start_line": 2, "new_content": "2"}),
        ("apply_diff", {"target": "f.txt", "diff": "@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"}),
        ("document_edit", {"path": "f.txt", "diff": "@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n"}),
        (
            "workspace_write_patch",
            {
                "files": [
                    {
                        "docPath": "f.txt",
                        "changes": [
                            {
                                "operation": "replace",
                                "startLine": 2,
                                "endLine": 2,
                                "expectedOriginalLines": ["two"],
                                "newLines": ["2"],
                            }
                        ],
                    }
                ]
            },
        ),
    ]
    for name, arguments in calls:
        write(root, "f.txt", data)
        if name == "workspace_write_patch":
            arguments["files"][0]["originalSha256"] = sha(data)  # type: ignore[index]
        if name == "document_edit":
            arguments["document_version"] = sha(data)
        ok(toolbox, name, **arguments)
        assert (root / "f.txt").read_bytes() == expected, name


class TextFileView:
    """The expected bytes: a textual replacement in the file's own encoding."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def replace(self, old: str, new: str) -> bytes:
        for bom, codec in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le")):
            if self.data.startswith(bom):
                text = self.data[len(bom) :].decode(codec)
                return bom + text.replace(old, new, 1).encode(codec)
        return self.data.replace(old.encode(), new.encode(), 1)


class _RacingFs(OsFileSystem):
    """After the first read of ``race.txt``, another writer changes it on disk."""

    def __init__(self) -> None:
        self.done = False

    def read_file(self, path: str, limit: int) -> Probe:
        probe = super().read_file(path, limit)
        if path.endswith("race.txt") and not self.done:
            self.done = True
            Path(path).write_text("someone else\n")
        return probe


@pytest.mark.parametrize("tool", ["patch", "edit_file", "edit_lines"])
def test_an_edit_raced_by_another_writer_is_made_again_on_what_it_left(
    make_toolbox: Callable[..., Toolbox], root: Path, tool: str
) -> None:
    write(root, "race.txt", "mine\n")
    toolbox = make_toolbox(fs=_RacingFs())
    arguments = {
        "patch": {
            "path": "race.txt",
            "patches": [{"operation": "replace", "oldText": "mine", "newText": "ours"}],
        },
        "edit_file": {"path": "race.txt", "old_string": "mine", "new_string": "ours"},
        "edit_lines": {"path": "race.txt", "start_line": 1, "new_content": "ours"},
    }[tool]
    result = refused(toolbox, tool, **arguments)
    # each tool makes its edit again on what the other writer left: "mine" is gone, and
    # line 1, which edit_lines rebases its edit onto, is the other writer's
    expected = ErrorCode.CONFLICT if tool == "edit_lines" else ErrorCode.NOT_FOUND
    assert result.error is not None and result.error.code is expected
    assert (root / "race.txt").read_text() == "someone else\n"


def test_an_edit_racing_another_writer_is_made_on_what_it_left(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    class Racing(OsFileSystem):
        done = False

        def read_file(self, path: str, limit: int) -> Probe:
            probe = super().read_file(path, limit)
            if path.endswith("race.txt") and not self.done:
                self.done = True
                Path(path).write_text("mine\nsomeone else\n")
            return probe

    write(root, "race.txt", "mine\nother\n")
    toolbox = make_toolbox(fs=Racing(), preset="default")
    ok(toolbox, "edit_file", path="race.txt", old_string="mine", new_string="ours")
    assert (root / "race.txt").read_text() == "ours\nsomeone else\n"
    write(root, "race.txt", "mine\nother\n")
    Racing.done = False
    patch = "*** Begin Patch\n*** Update File: race.txt\n@@\n-mine\n+ours\n*** End Patch\n"
    ok(make_toolbox(fs=Racing(), preset="default"), "apply_patch", patch=patch)
    assert (root / "race.txt").read_text() == "ours\nsomeone else\n"


def test_clipboard_untouched_when_call_fails(toolbox: Toolbox, root: Path) -> None:
    write(root, "a.txt", "cut me\nkeep\n")
    toolbox.session.set_clipboard("c", "old")
    refused(
        toolbox,
        "patch",
        path="a.txt",
        patches=[
            {"operation": "replace", "oldText": "cut me\n", "newText": "", "toClipboard": "c"},
            {"operation": "replace", "oldText": "absent", "newText": "x"},
        ],
    )
    assert toolbox.session.clipboards["c"] == "old"
    assert (root / "a.txt").read_text() == "cut me\nkeep\n"
