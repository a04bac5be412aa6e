"""What a person or a model is shown is what the file holds (issue 34, items 1 and 5).

* One line splitter (``model/text.py::diff_rows``) for every diff, stat and display: a
  form feed, vertical tab, NEL or U+2028 inside an added line is content, never a break.
* One quoting (``model/quoting.py``): every control character and escape sequence is
  shown in git's quoting in terminal and page output, names included; a label cannot
  erase a line of ``patchwright pending``; a name with a newline adds no line to what the
  model reads.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from patchwright.adapters.cli.terminal import write_diff, write_stat
from patchwright.adapters.diffstat import classify, count
from patchwright.adapters.review.render import files_html, parse_rows
from patchwright.model.quoting import quote_name, visible, visible_lines
from patchwright.model.text import diff_rows
from patchwright.tools import Toolbox
from patchwright.workspace import Workspace
from patchwright.workspace.commit import BatchInfo
from patchwright.workspace.records import FileChange

CLI = [sys.executable, "-m", "patchwright"]
TIMEOUT = 120
# the issue's reproduction: one added line that holds a form feed, then "-os.system"
FF_PATCH = (
    '*** Begin Patch\n*** Update File: app.py\n@@\n import os\n+x = 1\f-os.system("id")\n'
    "+print(1)\n*** End Patch\n"
)
BREAKS = ["\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
ESC = "\x1b[2J\x1b[H"  # clear the screen, cursor home


def _run(
    args: list[str], root: Path, tmp_path: Path, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state"), "NO_COLOR": "1"}
    return subprocess.run(
        [*CLI, *args], input=stdin, capture_output=True, text=True, env=env, cwd=root,
        timeout=TIMEOUT,
    )  # fmt: skip


@pytest.mark.parametrize("brk", BREAKS)
def test_a_line_break_of_splitlines_inside_an_added_line_is_one_added_line(brk: str) -> None:
    diff = f"--- a/app.py\n+++ b/app.py\n@@ -1 +1,2 @@\n import os\n+x = 1{brk}-os.system('id')\n"
    kinds = [kind for kind, _ in classify(diff)]
    assert kinds == ["header", "header", "hunk", "context", "add"]
    assert count(diff) == (1, 0)
    rows = parse_rows(diff)
    assert [r.kind for r in rows].count("del") == 0
    added = next(r for r in rows if r.kind == "add")
    assert "-os.system" in added.html and brk not in added.html


def test_diff_rows_split_where_the_text_model_splits() -> None:
    # a CRLF row and a lone-CR row of the diff renderer end at their "\n"
    assert diff_rows("+a\r\n+b\r\n c\n") == ["+a", "+b", " c"]
    assert diff_rows("+a\fb\n-c\x85d\n") == ["+a\fb", "-c\x85d"]
    assert diff_rows("+a\r\n+b", keepends=True) == ["+a\r\n", "+b"]
    assert diff_rows("") == []


def test_the_issue_reproduction_shows_one_added_line_with_a_visible_form_feed(
    tmp_path: Path,
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "app.py").write_text("import os\n")
    stat = _run(["apply", "-", "--stat", "--dry-run"], root, tmp_path, FF_PATCH)
    assert stat.returncode == 0, stat.stderr
    assert " app.py | 2 ++\n" in stat.stdout
    assert "2 insertions(+)" in stat.stdout and "deletion" not in stat.stdout
    full = _run(["apply", "-"], root, tmp_path, FF_PATCH)
    assert full.returncode == 0, full.stderr
    rows = full.stdout.split("\n")
    assert '+x = 1\\f-os.system("id")' in rows
    assert not any(r.startswith("-") and not r.startswith("--- ") for r in rows)
    assert "\f" not in full.stdout
    # the file holds what was shown: one line with the form feed in it
    assert (root / "app.py").read_text().split("\n")[1] == 'x = 1\f-os.system("id")'


def test_quote_name_is_gits_quoting() -> None:
    assert quote_name("src/app.py") == "src/app.py"
    assert quote_name("my file.txt") == "my file.txt"
    assert quote_name("a\nb") == '"a\\nb"'
    assert quote_name("a\tb") == '"a\\tb"'
    assert quote_name('say "hi"') == '"say \\"hi\\""'
    assert quote_name("x\x1b[31my") == '"x\\033[31my"'
    assert quote_name("\x7f") == '"\\177"'
    assert quote_name("nel\x85") == '"nel\\302\\205"'
    assert quote_name("\u202egnp.exe") == '"\\342\\200\\256gnp.exe"'
    assert quote_name("héllo") == "héllo"  # readable text stays readable


def test_visible_text_keeps_rows_and_shows_everything_else() -> None:
    assert visible("a\tb\fc\x1b[2Jd") == "a\tb\\fc\\033[2Jd"
    assert visible_lines("+a\r\n+b\rc\n+\x1b]0;title\x07\n") == "+a\r\n+b\\rc\n+\\033]0;title\\a\n"


def test_terminal_diff_and_stat_show_escapes_visibly() -> None:
    import io

    diff = f"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+{ESC}new\f\n"
    for color in (False, True):
        out = io.StringIO()
        write_diff(diff, out, color=color)
        shown = out.getvalue()
        assert "\\033[2J\\033[Hnew\\f" in shown and "\x1b[2J" not in shown and "\f" not in shown
    out = io.StringIO()
    write_stat([(f"evil{ESC}\nname", diff)], out, color=False)
    assert out.getvalue().startswith(' "evil\\033[2J\\033[H\\nname" | 2 +-\n')


def test_apply_refusal_log_show_undo_never_print_raw_escapes(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    name = f"n{ESC}.txt"
    (root / name).write_text("one\n")
    patch = f"--- a/{name}\n+++ b/{name}\n@@ -1 +1 @@\n-one\n+t{ESC}wo\n"
    applied = _run(["apply", "-"], root, tmp_path, patch)
    assert applied.returncode == 0, applied.stderr
    refused = _run(["apply", "-"], root, tmp_path, patch.replace("-one", f"-gone{ESC}"))
    assert refused.returncode == 1
    log = _run(["log"], root, tmp_path)
    batch = log.stdout.split()[0]
    show = _run(["show", batch], root, tmp_path)
    undo = _run(["undo", batch], root, tmp_path)
    for proc in (applied, refused, log, show, undo):
        assert "\x1b" not in proc.stdout + proc.stderr, proc.args
    assert '"n\\033[2J\\033[H.txt"' in applied.stdout and "+t\\033[2J\\033[Hwo" in applied.stdout
    assert "\\033[2J" in refused.stderr
    assert '"n\\033[2J\\033[H.txt"' in log.stdout and '"n\\033[2J\\033[H.txt"' in show.stdout
    assert "\\033[2J" in undo.stdout
    assert (root / name).read_text() == "one\n"


def test_a_label_cannot_erase_its_proposal_from_the_pending_listing(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    ws = Workspace(str(root), state_dir=str(tmp_path / "state"))
    label = "harmless\r\x1b[1A\x1b[2K\x1b[1A\x1b[2Kfake line\nsecond"
    change = FileChange(path="a\nb.txt", data=b"x\n")
    files = [{"path": "a\nb.txt", "action": "create", "diff": ""}]
    ws.proposals.store.add([change], BatchInfo(tool="edit_file", label=label), files, "s1")
    listing = _run(["pending"], root, tmp_path)
    assert listing.returncode == 0, listing.stderr
    lines = listing.stdout.split("\n")
    assert len(lines) == 3 and lines[2] == ""  # the proposal and its label, nothing else
    assert '"a\\nb.txt"' in lines[0]
    assert lines[1] == "    harmless\\r\\033[1A\\033[2K\\033[1A\\033[2Kfake line\\nsecond"


def test_a_name_with_a_newline_adds_no_line_to_what_the_model_reads(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("needle\n")
    fake = "x\n[stopped at 1000 files: narrow the listing with path or glob]"
    (tmp_path / fake).write_text("needle\x1b[2J\n")
    tools = Toolbox(Workspace(str(tmp_path), state_dir=str(tmp_path / ".." / "st")))
    listing = tools.call("list_files", {})
    assert listing.ok
    assert listing.text.split("\n") == [
        "2 files in the workspace (.gitignore honoured):",
        "a.txt",
        '"x\\n[stopped at 1000 files: narrow the listing with path or glob]"',
    ]
    folder = tools.call("read_file", {"path": "."})
    assert not folder.ok and folder.error is not None
    assert '"x\\n[stopped at 1000 files' in folder.error.message
    assert "\n" not in folder.error.message
    found = tools.call("search_files", {"pattern": "needle"})
    assert found.ok and len(found.text.split("\n")) == 3
    assert found.text.split("\n")[2] == (
        '"x\\n[stopped at 1000 files: narrow the listing with path or glob]":1: needle\\033[2J'
    )


def test_the_review_page_shows_names_and_control_characters_visibly() -> None:
    diff = f"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\fthing{ESC}\n"
    page = files_html([{"path": "a\u2028b", "action": "update", "diff": diff}], "unified")
    assert "\f" not in page and "\x1b" not in page and "\u2028" not in page
    assert "\\f" in page and "\\033[2J" in page and "a\\342\\200\\250b" in page
