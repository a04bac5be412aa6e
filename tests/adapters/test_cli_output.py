"""``patchwright apply``'s terminal output: colour, diffstat, quiet, progress, -p, -R, --check."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from patchwright.adapters.cli.patch_options import PatchOptionError, reverse, strip_paths
from patchwright.adapters.cli.terminal import (
    files_in,
    run_with_progress,
    use_color,
    write_diff,
    write_stat,
)
from patchwright.adapters.diffstat import classify, count, stat_lines

PATCH = "--- a/src/f.txt\n+++ b/src/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
GIT = (
    "diff --git a/x/f.txt b/x/f.txt\nindex 111..222 100644\n--- a/x/f.txt\n+++ b/x/f.txt\n"
    "@@ -1,3 +1,3 @@\n a\n--- b\n+B\n c\n@@ -10,2 +10,2 @@ def f\n y\n-old\n"
    "\\ No newline at end of file\n+new\n\\ No newline at end of file\n"
)


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("choice", "tty", "env", "expected"),
    [
        ("always", False, {"NO_COLOR": "1"}, True),
        ("never", True, {}, False),
        ("auto", True, {}, True),
        ("auto", False, {}, False),
        ("auto", True, {"NO_COLOR": "1"}, False),
        ("auto", True, {"NO_COLOR": ""}, True),
        ("auto", True, {"TERM": "dumb"}, False),
    ],
)
def test_when_to_colour(choice: str, tty: bool, env: dict[str, str], expected: bool) -> None:
    stream = Tty() if tty else io.StringIO()
    assert use_color(choice, stream, env) is expected


def test_diff_colours_follow_the_line_kinds() -> None:
    plain = io.StringIO()
    write_diff(GIT, plain, color=False)
    assert plain.getvalue() == GIT
    coloured = io.StringIO()
    write_diff(GIT, coloured, color=True)
    text = coloured.getvalue()
    assert "\x1b[32m+B\x1b[0m" in text
    assert "\x1b[31m--- b\x1b[0m" in text  # a removed "-- b", not a file header
    assert "\x1b[1m--- a/x/f.txt\x1b[0m" in text
    assert "\x1b[36m@@ -1,3 +1,3 @@\x1b[0m" in text


def test_classify_counts_hunk_lines() -> None:
    kinds = [kind for kind, _ in classify(GIT)]
    assert kinds == ["header"] * 4 + ["hunk", "context", "del", "add", "context"] + [
        "hunk", "context", "del", "note", "add", "note"
    ]  # fmt: skip
    assert count(GIT) == (2, 2)


def test_diffstat_like_git() -> None:
    out = io.StringIO()
    write_stat(
        [("src/app.py", PATCH), ("README.md", "@@ -0,0 +1,2 @@\n+x\n+y\n")], out, color=False
    )
    assert out.getvalue() == (
        " src/app.py | 2 +-\n README.md  | 2 ++\n 2 files changed, 3 insertions(+), 1 deletion(-)\n"
    )
    scaled = stat_lines([("big", 600, 300), ("small", 1, 0)], width=60)
    assert scaled[0][0] == " big   | 900 "
    assert 0 < scaled[0][1] + scaled[0][2] <= 60 and scaled[0][1] == 2 * scaled[0][2]
    assert scaled[1][1:] == (1, 0)  # a one-line change stays visible
    assert stat_lines([("gone", 0, 3)])[-1][0] == " 1 file changed, 3 deletions(-)"


def test_files_in_a_patch() -> None:
    assert files_in(PATCH + PATCH.replace("f.txt", "g.txt")) == 2
    assert files_in("*** Begin Patch\n*** Update File: a\n*** Add File: b\n*** End Patch\n") == 2
    assert files_in("<<<<<<< SEARCH\n") is None


def test_progress_bar_draws_on_the_stream_and_returns_the_result() -> None:
    stream = Tty()

    def work(tick: object) -> str:
        assert callable(tick)
        for _ in range(3):
            tick()
        deadline = time.monotonic() + 30
        while not stream.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)  # until the bar has been drawn
        return "done"

    assert run_with_progress(work, 3, stream, delay=0) == "done"
    assert "\x1b[" in stream.getvalue()
    assert "writing" in stream.getvalue() or "reading" in stream.getvalue()


def test_progress_stays_away_from_quick_work_and_passes_errors_on() -> None:
    stream = Tty()
    release = threading.Event()
    release.set()
    assert run_with_progress(lambda tick: release.is_set(), 1, stream, delay=60) is True
    assert stream.getvalue() == ""

    def fail(tick: object) -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        run_with_progress(fail, None, stream, delay=60)


def test_strip_and_reverse() -> None:
    stripped = strip_paths(GIT, 2)
    assert "diff --git f.txt f.txt\n" in stripped and "--- f.txt\n+++ f.txt\n" in stripped
    assert "--- b\n" in stripped  # a removed line is not a header
    with pytest.raises(PatchOptionError, match="line 1: -p 3 strips the whole file name"):
        strip_paths(GIT, 3)
    back = reverse(GIT)
    assert "index 222..111 100644" in back
    assert "@@ -1,3 +1,3 @@\n a\n-B\n+-- b\n c\n" in back
    assert "-new\n\\ No newline at end of file\n+old\n\\ No newline at end of file\n" in back
    assert reverse(back) == GIT
    created = "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+x\n"
    assert reverse(created) == "--- b/n.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
    modes = "diff --git a/s b/s\nnew file mode 100755\n"
    assert reverse(modes) == "diff --git a/s b/s\ndeleted file mode 100755\n"
    with pytest.raises(PatchOptionError, match="copied file"):
        reverse("diff --git a/s b/t\ncopy from s\ncopy to t\n")


# the command line, as real subprocesses ------------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "src" / "f.txt").write_text("a\nb\nc\n")
    (root / "fix.diff").write_text(PATCH)
    return root


def cli(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "patchwright", *args],
        cwd=cwd,
        env={**os.environ, "PATCHWRIGHT_STATE_DIR": str(cwd.parent / "state"), **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_color_always_never_and_pipes(tree: Path) -> None:
    always = cli("apply", "fix.diff", "--check", "--color", "always", cwd=tree)
    assert always.returncode == 0 and "\x1b[32m+B" in always.stdout
    piped = cli("apply", "fix.diff", "--check", cwd=tree)
    assert "\x1b[" not in piped.stdout and "+B\n" in piped.stdout
    assert (tree / "src" / "f.txt").read_text() == "a\nb\nc\n"  # --check wrote nothing


@pytest.mark.parametrize("args", [("--color", "never"), ()])
def test_rich_is_not_imported_without_colour(tree: Path, args: tuple[str, ...]) -> None:
    code = (
        "import sys\nfrom patchwright.adapters.cli import main\n"
        f"code = main(['apply', 'fix.diff', '--check', *{list(args)!r}])\n"
        "print('rich' in sys.modules, code, file=sys.stderr)\n"
    )
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tree.parent / "s")}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=tree, capture_output=True, text=True, timeout=60,
        check=False, env=env,
    )  # fmt: skip
    assert out.stderr.strip().splitlines()[-1] == "False 0"


def _on_a_terminal(tree: Path, *args: str, env: dict[str, str]) -> str:
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "patchwright", *args], cwd=tree, stdout=slave, stderr=slave,
            env={**os.environ, "PATCHWRIGHT_STATE_DIR": str(tree.parent / "s"), **env},
        )  # fmt: skip
        os.close(slave)
        chunks = []
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal closed: the process has ended
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert proc.wait(60) == 0
    finally:
        os.close(master)
    return b"".join(chunks).decode()


def test_auto_colours_a_terminal_unless_no_color(tree: Path) -> None:
    env = {k: "" for k in ("NO_COLOR",)} | {"TERM": "xterm"}
    assert "\x1b[32m+B" in _on_a_terminal(tree, "apply", "fix.diff", "--check", env=env)
    plain = _on_a_terminal(tree, "apply", "fix.diff", "--check", env={"NO_COLOR": "1"})
    assert "\x1b[" not in plain and "+B" in plain


def test_stat_and_quiet(tree: Path) -> None:
    stat = cli("apply", "fix.diff", "--dry-run", "--stat", cwd=tree)
    assert stat.stdout.endswith(
        " src/f.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n"
    )
    assert "+B" not in stat.stdout
    quiet = cli("apply", "fix.diff", "-q", cwd=tree)
    assert quiet.returncode == 0 and quiet.stdout == "" and quiet.stderr == ""
    assert (tree / "src" / "f.txt").read_text() == "a\nB\nc\n"
    retried = cli("apply", "fix.diff", "--quiet", cwd=tree)  # already applied: a success
    assert retried.returncode == 0 and retried.stdout == "" and retried.stderr == ""
    (tree / "src" / "f.txt").write_text("a\nX\nc\n")
    refused = cli("apply", "fix.diff", "--quiet", cwd=tree)
    assert refused.returncode == 1 and "Patch failed" in refused.stderr


def test_strip_and_reverse_from_the_command_line(tree: Path) -> None:
    sub = tree / "src"
    assert cli("apply", "../fix.diff", "-p", "2", cwd=sub).returncode == 0
    assert (sub / "f.txt").read_text() == "a\nB\nc\n"
    back = cli("apply", "-R", "fix.diff", cwd=tree)
    assert back.returncode == 0, back.stderr
    assert (sub / "f.txt").read_text() == "a\nb\nc\n"
    too_far = cli("apply", "fix.diff", "-p", "3", cwd=tree)
    assert too_far.returncode == 2 and "-p 3 strips the whole file name" in too_far.stderr
    (tree / "v4a.patch").write_text(
        "*** Begin Patch\n*** Update File: src/f.txt\n@@\n-b\n+B\n*** End Patch\n"
    )
    other = cli("apply", "v4a.patch", "-R", cwd=tree)
    assert other.returncode == 2 and "work on unified diffs; this patch is v4a" in other.stderr


def test_refusal_names_the_root_folder(tree: Path) -> None:
    missing = cli("apply", "fix.diff", "--root", "src", cwd=tree)
    assert missing.returncode == 1
    assert f"Root folder: {tree / 'src'} (patch paths are relative to it" in missing.stderr


def test_a_long_apply_shows_a_bar_counting_the_files(
    tree: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from patchwright.adapters.cli import main, terminal
    from patchwright.api import apply_patch_text

    for name in ("g.txt", "h.txt"):
        (tree / "src" / name).write_text("a\nb\nc\n")
    three = PATCH + PATCH.replace("f.txt", "g.txt") + PATCH.replace("f.txt", "h.txt")
    (tree / "three.diff").write_text(three)
    ticks: list[int] = []
    workspace = terminal.counting_workspace(
        lambda: ticks.append(1), str(tree), state_dir=tmp_path / "state"
    )
    assert apply_patch_text(three, workspace=workspace, dry_run=True).ok
    assert len(ticks) == 3 == terminal.files_in(three)

    monkeypatch.setenv("PATCHWRIGHT_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setattr(terminal, "PROGRESS_DELAY", 0.0)  # every apply counts as long
    monkeypatch.delenv("NO_COLOR", raising=False)
    err, out = Tty(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdout", out)
    assert main(["apply", str(tree / "three.diff"), "--root", str(tree), "--stat"]) == 0
    assert "\x1b[" in err.getvalue()  # the bar was drawn on standard error
    assert out.getvalue().endswith("3 files changed, 3 insertions(+), 3 deletions(-)\n")
    assert (tree / "src" / "h.txt").read_text() == "a\nB\nc\n"
