"""Files in legacy encodings, edited through every kind of edit, byte for byte.

Each case of tests/fixtures/encodings/cases.json is a realistic source file written in
one encoding (with or without BOM, LF or CRLF). Through ``edit_file``, a unified diff
(the ``apply_patch`` tool and ``patchwright apply``, the patch file itself in the
file's encoding), a SEARCH/REPLACE block (the tool, and a block file in the file's
encoding given to ``patchwright apply``) and the Anthropic editor, one line is changed:
the file must then hold exactly the original bytes with that line's bytes replaced by
the new line in the file's encoding, and undo must give back the original bytes.
"""

from __future__ import annotations

import codecs
import difflib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tool_helpers import ok, refused

from patchwright.adapters.cli import main
from patchwright.model import ErrorCode
from patchwright.tools import Toolbox

FIXTURES = Path(__file__).parent.parent / "fixtures" / "encodings"
CASES: list[dict[str, Any]] = json.loads((FIXTURES / "cases.json").read_text("utf-8"))["cases"]
_BOMS = {"utf-8": codecs.BOM_UTF8, "utf-16-le": codecs.BOM_UTF16_LE,
         "utf-16-be": codecs.BOM_UTF16_BE}  # fmt: skip


class Case:
    """One case: the file's text and bytes before and after the edit."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        self.name = "f" + Path(raw["source"]).suffix
        text = (FIXTURES / "sources" / raw["source"]).read_text("utf-8")
        self.newline = "\r\n" if raw["crlf"] else "\n"
        self.text = text.replace("\n", self.newline)
        self.old, self.new = raw["old"], raw["new"]
        assert self.text.count(self.old) == 1, raw["id"]
        self.after_text = self.text.replace(self.old, self.new)
        self.before = self.encode(self.text)
        self.after = self.encode(self.after_text)

    def encode(self, text: str) -> bytes:
        """``text`` in the case's encoding, with its BOM."""
        bom = _BOMS[self.raw["codec"]] if self.raw["bom"] else b""
        return bom + text.encode(self.raw["codec"])

    def unified_diff(self) -> str:
        """A git-style diff of the change, LF line breaks (as models write them)."""
        old = self.text.replace("\r\n", "\n").splitlines(keepends=True)
        new = self.after_text.replace("\r\n", "\n").splitlines(keepends=True)
        body = difflib.unified_diff(old, new, f"a/{self.name}", f"b/{self.name}")
        return f"diff --git a/{self.name} b/{self.name}\n" + "".join(body)

    def search_replace(self) -> str:
        return f"{self.name}\n<<<<<<< SEARCH\n{self.old}\n=======\n{self.new}\n>>>>>>> REPLACE\n"


@pytest.fixture(params=CASES, ids=[c["id"] for c in CASES])
def case(request: pytest.FixtureRequest) -> Case:
    return Case(request.param)


def _calls(case: Case) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """The edit through each tool: preset, tool name, arguments."""
    return {
        "edit_file": ("default", "edit_file",
                      {"path": case.name, "old_string": case.old, "new_string": case.new}),
        "unified_diff": ("default", "apply_patch", {"patch": case.unified_diff()}),
        "search_replace": ("default", "apply_patch",
                           {"patch": case.search_replace(), "format": "search-replace"}),
        "anthropic": ("anthropic", "str_replace_based_edit_tool",
                      {"command": "str_replace", "path": case.name, "old_str": case.old,
                       "new_str": case.new}),
        "claude_code": ("claude-code", "Edit",
                        {"file_path": case.name, "old_string": case.old,
                         "new_string": case.new}),
    }  # fmt: skip


@pytest.mark.parametrize("how", list(_calls(Case(CASES[0]))))
def test_each_edit_keeps_every_untouched_byte_and_undo_restores_the_file(
    case: Case, how: str, make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    target = root / case.name
    target.write_bytes(case.before)
    preset, tool, arguments = _calls(case)[how]
    toolbox = make_toolbox(preset=preset)
    if preset == "claude-code":
        ok(toolbox, "Read", file_path=case.name)  # Edit needs a Read in the session
    ok(toolbox, tool, **arguments)
    assert target.read_bytes() == case.after
    undone = ok(make_toolbox(preset="default"), "undo")
    assert target.read_bytes() == case.before
    assert f"-{case.new}" in undone.diff.replace("\r", "")  # the diff shows decoded text


def test_reads_show_the_decoded_text_and_name_the_encoding(
    case: Case, make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    (root / case.name).write_bytes(case.before)
    detected = case.raw["detected"]
    read = ok(make_toolbox(preset="default"), "read_file", path=case.name)
    assert read.data["encoding"] == detected and read.data["bom"] is case.raw["bom"]
    assert case.old in read.text and f"encoding: {detected}" in read.text
    for preset, tool, arguments in (
        ("anthropic", "str_replace_based_edit_tool", {"command": "view", "path": case.name}),
        ("claude-code", "Read", {"file_path": case.name}),
    ):
        shown = ok(make_toolbox(preset=preset), tool, **arguments)
        assert case.old in shown.text and shown.data["encoding"] == detected
        named = f"is in {detected}" in shown.text
        assert named is (detected != "utf-8"), shown.text


def test_new_text_the_encoding_cannot_hold_is_refused_naming_it(
    case: Case, make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    char = case.raw["refused"]
    if char is None:
        assert case.raw["codec"].startswith("utf-"), "a legacy encoding cannot hold everything"
        return
    target = root / case.name
    target.write_bytes(case.before)
    new = case.new + f"  # {char}"
    toolbox = make_toolbox(preset="default")
    single = refused(toolbox, "edit_file", path=case.name, old_string=case.old, new_string=new)
    assert single.error is not None and single.error.code is ErrorCode.ENCODING
    assert single.error.field == "new_string"
    assert (
        f"U+{ord(char):04X}" in single.error.message
        and case.raw["detected"] in single.error.message
    )
    batch = refused(toolbox, "edit_file", path=case.name,
                    edits=[{"old_string": "x", "new_string": "x"},
                           {"old_string": case.old, "new_string": new}])  # fmt: skip
    assert batch.error is not None and batch.error.field == "edits[1].new_string"
    diff = case.unified_diff().replace(f"+{case.new}\n", f"+{new}\n")
    patch = refused(toolbox, "apply_patch", patch=diff)
    assert patch.error is not None and patch.error.code is ErrorCode.ENCODING
    assert repr(char) in patch.error.message and patch.error.field == "patch"
    editor = make_toolbox(preset="anthropic")
    insert = refused(editor, "str_replace_based_edit_tool", command="insert", path=case.name,
                     insert_line=1, insert_text=new)  # fmt: skip
    assert insert.error is not None and insert.error.field == "insert_text"
    claude = make_toolbox(preset="claude-code")
    ok(claude, "Read", file_path=case.name)
    whole = refused(claude, "Write", file_path=case.name, content=new)
    assert whole.error is not None and whole.error.field == "content"
    assert whole.error.code is ErrorCode.ENCODING
    assert target.read_bytes() == case.before


#: patch files too short to tell their encoding: the two changed GBK lines of the block
#: read as well in Big5 or EUC-KR, so the file is refused as unsure until it is named
UNSURE_PATCHES = {("gbk", "search_replace")}


@pytest.mark.parametrize("kind", ["unified_diff", "search_replace"])
def test_the_command_line_reads_a_patch_in_the_files_encoding(
    case: Case, kind: str, tmp_path: Path, root: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setenv("PATCHWRIGHT_STATE_DIR", str(tmp_path / "cli-state"))
    target = root / case.name
    target.write_bytes(case.before)
    patch = tmp_path / "fix.diff"
    text = case.unified_diff() if kind == "unified_diff" else case.search_replace()
    patch.write_bytes(case.encode(text))
    named: list[str] = []
    if (case.raw["id"], kind) in UNSURE_PATCHES:
        assert main(["apply", str(patch), "--root", str(root)]) == 2
        err = capsys.readouterr().err
        assert "fix.diff is not UTF-8, and its encoding cannot be told for sure" in err
        assert f"{case.raw['detected']}: '" in err and "pass --encoding NAME" in err
        assert target.read_bytes() == case.before
        named = ["--encoding", case.raw["detected"]]
    assert main(["apply", str(patch), "--root", str(root), *named]) == 0, capsys.readouterr()
    assert f"Patch applied ({kind.replace('_diff', '').replace('_', '-')})" in (
        capsys.readouterr().out
    )
    assert target.read_bytes() == case.after
    assert main(["undo", "--root", str(root)]) == 0, capsys.readouterr()
    assert target.read_bytes() == case.before


SHORT_GBK = "# 中文\nx = 1\n".encode("gbk")  # too short to tell GBK from Big5 or EUC-KR


def test_an_unsure_file_is_read_and_edited_with_the_encoding_field(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    (root / "zh.py").write_bytes(SHORT_GBK)
    toolbox = make_toolbox(preset="default")
    unsure = refused(toolbox, "read_file", path="zh.py")
    assert unsure.error is not None and unsure.error.code is ErrorCode.ENCODING
    assert "binary" not in unsure.error.message and "gbk: '# 中文'" in unsure.error.message
    assert "pass the file's encoding in the encoding field" in unsure.error.hint
    read = ok(toolbox, "read_file", path="zh.py", encoding="gbk")
    assert "# 中文" in read.text and read.data["encoding"] == "gbk"
    ok(toolbox, "edit_file", path="zh.py", old_string="x = 1", new_string="x = 2  # 二",
       encoding="gbk")  # fmt: skip
    assert (root / "zh.py").read_bytes() == "# 中文\nx = 2  # 二\n".encode("gbk")
    diff = "--- a/zh.py\n+++ b/zh.py\n@@ -1,2 +1,2 @@\n # 中文\n-x = 2  # 二\n+x = 3  # 三\n"
    unsure_patch = refused(toolbox, "apply_patch", patch=diff)
    assert unsure_patch.error is not None
    assert "pass the file's encoding in the encoding field" in unsure_patch.error.hint
    ok(toolbox, "apply_patch", patch=diff, encoding="gbk")
    assert (root / "zh.py").read_bytes() == "# 中文\nx = 3  # 三\n".encode("gbk")
    bad = refused(toolbox, "read_file", path="zh.py", encoding="klingon")
    assert bad.error is not None and bad.error.field == "encoding"


def test_tools_without_an_encoding_field_send_the_model_to_the_user(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    (root / "zh.py").write_bytes(SHORT_GBK)
    view = refused(make_toolbox(preset="anthropic"), "str_replace_based_edit_tool",
                   command="view", path="zh.py")  # fmt: skip
    assert view.error is not None and "ask the user" in view.error.hint
    assert "--encoding" in view.error.hint


def test_the_command_line_takes_an_encoding_for_unsure_files_and_patches(
    tmp_path: Path, root: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    monkeypatch.setenv("PATCHWRIGHT_STATE_DIR", str(tmp_path / "cli-state"))
    (root / "zh.py").write_bytes(SHORT_GBK)
    patch = tmp_path / "fix.diff"
    diff = "--- a/zh.py\n+++ b/zh.py\n@@ -1,2 +1,2 @@\n # 中文\n-x = 1\n+x = 2\n"
    patch.write_bytes(diff.encode("gbk"))
    assert main(["apply", str(patch), "--root", str(root)]) == 2
    err = capsys.readouterr().err
    assert "fix.diff is not UTF-8, and its encoding cannot be told for sure" in err
    assert "Hint: To read it, pass --encoding NAME" in err
    patch.write_bytes(diff.encode("utf-8"))  # the patch in UTF-8: the file is still unsure
    assert main(["apply", str(patch), "--root", str(root)]) == 1
    assert "pass --encoding NAME" in capsys.readouterr().err
    patch.write_bytes(diff.encode("gbk"))
    assert main(["apply", str(patch), "--root", str(root), "--encoding", "gbk"]) == 0
    assert (root / "zh.py").read_bytes() == "# 中文\nx = 2\n".encode("gbk")
    assert main(["apply", str(patch), "--root", str(root), "--encoding", "nope"]) == 2
    assert "patchwright apply: --encoding: " in capsys.readouterr().err
    assert main(["mcp", "--root", str(root), "--encoding", "nope"]) == 2
    assert "patchwright mcp: encoding 'nope' is not a text encoding" in capsys.readouterr().err
    out = main(["call", "read_file", '{"path": "zh.py"}', "--root", str(root),
                "--encoding", "gbk"])  # fmt: skip
    assert out == 0 and '"encoding": "gbk"' in capsys.readouterr().out


def test_a_legacy_patch_on_standard_input(tmp_path: Path, root: Path) -> None:
    import os
    import subprocess
    import sys

    (root / "menu.txt").write_bytes("Café crème – 3 €\nThé\n".encode("cp1252"))
    diff = "--- a/menu.txt\n+++ b/menu.txt\n@@ -1,2 +1,2 @@\n Café crème – 3 €\n-Thé\n+Thé – 2 €\n"
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "cli-state")}
    done = subprocess.run(
        [sys.executable, "-m", "patchwright", "apply", "-", "--root", str(root)],
        input=diff.encode("cp1252"), capture_output=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (root / "menu.txt").read_bytes() == "Café crème – 3 €\nThé – 2 €\n".encode("cp1252")


def test_the_outputs_docs_tools_md_shows_are_real(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "tools.md").read_text("utf-8")
    section = doc[doc.index("## Files that are not UTF-8") : doc.index("## read_file")]
    greet = 'def greet(name):\n    # 挨拶を返す\n    return f"こんにちは、{name}さん"\n'
    (root / "greet.py").write_bytes(greet.encode("shift_jis"))
    (root / "zh.py").write_bytes(SHORT_GBK)
    toolbox = make_toolbox(preset="default")
    read = ok(toolbox, "read_file", path="greet.py")
    assert f"```\n{read.text}\n```" in section
    view = ok(make_toolbox(preset="anthropic"), "str_replace_based_edit_tool", command="view",
              path="greet.py")  # fmt: skip
    assert f"`{view.text.splitlines()[1]}`" in section
    wide = refused(toolbox, "edit_file", path="greet.py", old_string="こんにちは",
                   new_string="안녕하세요")  # fmt: skip
    assert f"```\n{wide.text}\n```" in section
    unsure = refused(toolbox, "read_file", path="zh.py")
    assert f"```\n{unsure.text}\n```" in section


def test_a_workspace_encoding_serves_every_tool(root: Path, state: Path) -> None:
    from patchwright.workspace import Workspace

    (root / "zh.py").write_bytes(SHORT_GBK)
    workspace = Workspace(root, state_dir=state, encoding="gbk")
    view = ok(Toolbox(workspace, preset="anthropic"), "str_replace_based_edit_tool",
              command="view", path="zh.py")  # fmt: skip
    assert "[zh.py is in gbk: shown decoded, and edits are written back in gbk]" in view.text
    ok(Toolbox(workspace, preset="claude-code"), "Read", file_path="zh.py")
    diff = "--- a/zh.py\n+++ b/zh.py\n@@ -1,2 +1,2 @@\n # 中文\n-x = 1\n+x = 2\n"
    ok(Toolbox(workspace), "apply_patch", patch=diff)
    assert (root / "zh.py").read_bytes() == "# 中文\nx = 2\n".encode("gbk")


def test_repeated_japanese_comments_are_edited_in_shift_jis(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    # charset-normalizer finds this text least chaotic as cp949 (rare Hangul); read so,
    # the edit below wrote its Japanese in cp949 bytes inside a Shift-JIS file
    text = (
        "# 消費税を計算する\nTAX = 0.1  # 税率\ndef with_tax(price):\n"
        '    """税込み価格を返す。"""\n    return int(price * (1 + TAX))\n'
    )
    (root / "tax.py").write_bytes((text * 3).encode("shift_jis"))
    toolbox = make_toolbox(preset="default")
    assert ok(toolbox, "read_file", path="tax.py").data["encoding"] == "shift_jis"
    old = "    return int(price * (1 + TAX))"
    ok(toolbox, "edit_file", path="tax.py", old_string=old, new_string=old + "  # 切り捨て",
       replace_all=True)  # fmt: skip
    edited = text.replace(old, old + "  # 切り捨て") * 3
    assert (root / "tax.py").read_bytes() == edited.encode("shift_jis")
