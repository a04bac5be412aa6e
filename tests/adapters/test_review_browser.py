"""The review page in a real browser: Debian's Chromium, headless, driven by Playwright.

``patchwright review`` and ``patchwright mcp`` run as real subprocesses; the SDK's MCP
client makes the edits. The test sees a batch and its highlighted diff appear without a
reload, undoes it with its button, then approves one waiting MCP call and rejects
another. Set ``PATCHWRIGHT_SCREENSHOT`` to a path to keep a screenshot of the page
(docs/review.png is made that way).

Without Chromium or Playwright the test is skipped with the reason, except in CI
(``CI=true``) or with ``PATCHWRIGHT_REQUIRE_BROWSER=1``, where it fails instead.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp_calls import McpCall

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT = 30
APP = 'def greet(name):\n    """Say hello."""\n    return "Hello, " + name\n'


def _require_browser() -> None:
    missing = []
    if not Path(CHROMIUM).exists():
        missing.append(f"{CHROMIUM} (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright package (pip install playwright)")
    if not missing:
        return
    reason = "the browser test needs " + " and ".join(missing)
    if os.environ.get("CI") == "true" or os.environ.get("PATCHWRIGHT_REQUIRE_BROWSER") == "1":
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    folder.mkdir()
    (folder / "app.py").write_text(APP)
    (folder / "README.md").write_text("# demo\n\nA small project.\n")
    return folder


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")}


@pytest.fixture
def review_url(root: Path, env: dict[str, str], tmp_path: Path) -> Iterator[str]:
    """``patchwright review`` running; its printed URL (the one line with the token)."""
    errors = (tmp_path / "review.stderr").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "patchwright", "review", "--root", str(root), "--no-open"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=errors,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    stdout = proc.stdout
    threading.Thread(target=lambda: [lines.put(x) for x in stdout], daemon=True).start()
    try:
        line = lines.get(timeout=TIMEOUT)
        assert line.startswith("patchwright review: http://127.0.0.1:"), line
        url = line.split(": ", 1)[1].strip()
        assert "?token=" in url
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(TIMEOUT)
        stdout.close()
        errors.close()


def _chromium(pw: Any, tmp_path: Path, *, height: int) -> Any:
    """Debian's Chromium, headless, with a profile in ``tmp_path`` and the test's time-out."""
    context = pw.chromium.launch_persistent_context(
        str(tmp_path / "chromium-profile"), executable_path=CHROMIUM, headless=True,
        args=CHROMIUM_ARGS, viewport={"width": 1280, "height": height},
    )  # fmt: skip
    context.set_default_timeout(TIMEOUT * 1000)
    return context


def _edit(old: str, new: str, path: str = "app.py") -> dict[str, Any]:
    return {"path": path, "old_string": old, "new_string": new}


def test_review_page_in_chromium(
    root: Path, env: dict[str, str], review_url: str, tmp_path: Path
) -> None:
    _require_browser()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT * 1000)  # a busy machine starts a server slowly

    ok, text = McpCall(root, env, "edit_file", _edit('"Hello, "', '"Hi, "')).outcome()
    assert ok, text
    with sync_playwright() as pw:
        context = _chromium(pw, tmp_path, height=860)
        try:
            page = context.new_page()
            denied = page.goto(review_url.split("?")[0])
            assert denied is not None and denied.status == 401
            page.goto(review_url)
            _see_and_undo(page, root, expect)
            _approve_and_reject(page, root, env, expect, tmp_path)
        finally:
            context.close()


def _see_and_undo(page: Any, root: Path, expect: Any) -> None:
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    row = page.locator("#batches tbody tr.batch").first
    expect(row).to_contain_text("app.py")
    expect(row).to_contain_text("edit_file")
    expect(row).to_contain_text("+1")
    expect(row).to_contain_text("-1")
    row.click()
    diff = page.locator("#batches tr.diff-row .diff-open")  # opened under the row clicked
    expect(diff).to_be_in_viewport()
    assert row.evaluate("tr => tr.nextElementSibling.classList.contains('diff-row')")
    expect(diff.locator("tr.add")).to_contain_text('"Hi, "')
    expect(diff.locator("tr.del")).to_contain_text('"Hello, "')
    expect(diff.locator("span.k").first).to_have_text("def")  # pygments' colours
    page.select_option("#view", "split")
    expect(diff.locator("table.split td.code.add")).to_contain_text('"Hi, "')
    # filters narrow the list without a reload
    page.fill("#filter-file", "README")
    expect(page.locator("#empty")).to_be_visible()
    page.fill("#filter-file", "app")
    expect(page.locator("#batches tbody tr.batch")).to_have_count(1)
    row.locator("button.undo").click()
    expect(page.locator("#status")).to_contain_text("Undid")
    assert len(asked) == 1 and asked[0].startswith("Undo b-")  # asked before acting
    expect(page.locator("#batches tbody tr.batch")).to_have_count(2)
    expect(page.locator("#batches tbody tr.reverted")).to_have_count(1)
    assert (root / "app.py").read_text() == APP


def _approve_and_reject(
    page: Any, root: Path, env: dict[str, str], expect: Any, tmp_path: Path
) -> None:
    page.fill("#filter-file", "")
    page.select_option("#view", "unified")
    waiting = McpCall(root, env, "edit_file", _edit("Say hello.", "Greet someone."), "--approve")
    card = page.locator("#pending .proposal")
    expect(card).to_have_count(1)  # appeared without a reload
    expect(card).to_contain_text("app.py")
    card.locator("button.show").click()
    expect(page.locator("#pending .proposal + .diff-open tr.add")).to_contain_text("Greet someone.")
    shot = os.environ.get("PATCHWRIGHT_SCREENSHOT") or str(tmp_path / "review.png")
    page.screenshot(path=shot, full_page=True)
    assert Path(shot).stat().st_size > 10_000
    assert (root / "app.py").read_text() == APP  # nothing written while it waits
    card.locator("button.approve").click()
    ok, text = waiting.outcome()
    assert ok, text
    assert "Greet someone." in (root / "app.py").read_text()
    expect(page.locator("#pending .proposal")).to_have_count(0)
    expect(page.locator("#batches tbody tr.batch")).to_have_count(3)

    before = (root / "README.md").read_text()
    waiting = McpCall(root, env, "edit_file", _edit("small", "tiny", "README.md"), "--approve")
    card = page.locator("#pending .proposal")
    expect(card).to_have_count(1)
    card.locator("input.reason").fill("keep the wording")
    card.locator("button.reject").click()
    ok, text = waiting.outcome()
    assert not ok
    assert "Rejected by the user: keep the wording" in text
    assert (root / "README.md").read_text() == before
    expect(page.locator("#pending-section")).to_be_hidden()


def test_a_link_opens_its_batch_and_undo_asks_first(
    root: Path, env: dict[str, str], review_url: str, tmp_path: Path
) -> None:
    _require_browser()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT * 1000)  # a busy machine starts a server slowly

    from patchwright.workspace import FileChange, Workspace

    ws = Workspace(root, state_dir=env["PATCHWRIGHT_STATE_DIR"])
    many = [FileChange(f"gen/f{n}.txt", b"x\n", diff=f"@@ -0,0 +1 @@\n+x{n}\n") for n in range(12)]
    wide = ws.commit(many, tool="generate", label="twelve files").batch_id
    for n in range(40):  # enough rows that the first batch is far below the fold
        ws.commit([FileChange(f"n{n}.txt", b"x\n", diff="+x\n")], tool="t", label=f"n{n}")
    with sync_playwright() as pw:
        context = _chromium(pw, tmp_path, height=700)
        try:
            page = context.new_page()
            page.goto(f"{review_url}#{wide}")  # a deep link: no click
            box = page.locator(f"#row-{wide} + tr.diff-row .diff-open")
            expect(box.locator("tr.add").first).to_contain_text("x0")
            expect(box).to_be_in_viewport()
            files = page.locator(f"#row-{wide} details.files")
            expect(files.locator("summary")).to_have_text("12 files")  # folded
            expect(files).not_to_have_attribute("open", "")

            asked: list[str] = []
            page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
            page.locator(f"#row-{wide} button.undo").click()
            expect(page.locator(f"#row-{wide} button.undo")).to_be_enabled()
            assert asked and asked[0].startswith(f"Undo {wide}?")
            assert (root / "gen" / "f0.txt").exists()  # declined: nothing undone
            assert ws.history.get(wide)["reverted_by"] is None
        finally:
            context.close()


NOTEBOOK = Path(__file__).parent.parent / "fixtures" / "notebooks" / "plot_image_output.ipynb"


def test_a_notebook_batch_shows_its_change_per_cell(
    root: Path, env: dict[str, str], review_url: str, tmp_path: Path
) -> None:
    """An edit inside a notebook cell is shown as that cell's source diff, headed by the
    cell it changed, never as lines of the notebook's JSON."""
    _require_browser()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT * 1000)  # a busy machine starts a server slowly

    (root / "plot.ipynb").write_bytes(NOTEBOOK.read_bytes())
    edit = _edit("ax.plot([1, 2, 3], [4, 1, 9])", "ax.plot([1, 2, 3], [4, 1, 9], marker='o')",
                 "plot.ipynb")  # fmt: skip
    ok, text = McpCall(root, env, "edit_file", edit).outcome()
    assert ok, text
    with sync_playwright() as pw:
        context = _chromium(pw, tmp_path, height=860)
        try:
            page = context.new_page()
            page.goto(review_url)
            row = page.locator("#batches tbody tr.batch").first
            expect(row).to_contain_text("plot.ipynb")
            row.click()
            diff = page.locator("#batches tr.diff-row .diff-open")
            expect(diff).to_contain_text("cell 1 (code, id img01): source changed")
            expect(diff.locator("tr.add")).to_contain_text("marker='o'")
            expect(diff.locator("tr.del")).to_contain_text("ax.plot([1, 2, 3], [4, 1, 9])")
            expect(diff).not_to_contain_text('"source"')  # the cell's text, not the JSON
        finally:
            context.close()
