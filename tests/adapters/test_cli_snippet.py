"""``patchwright apply --format snippet --path PATH``, run as a real subprocess: exit 0
applied, 1 refused with nothing changed, 2 usage; ``--dry-run`` and ``--json`` as for
the other formats, the JSON carrying the merge report."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli_apply import cli

FILE = "import os\n\n\ndef load(path):\n    return open(path).read()\n\n\ndef other():\n    pass\n"
SNIPPET = (
    "# ... existing code ...\n"
    "def load(path):\n"
    '    return open(path, encoding="utf-8").read()\n'
    "\n"
    "\n"
    "def other():\n"
    "# ... existing code ...\n"
)


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "app.py").write_text(FILE)
    (root / "edit.txt").write_text(SNIPPET)
    return root


def test_a_snippet_applies_and_reports_its_merge(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    args = ("apply", "--format", "snippet", "--path", "app.py")
    preview = cli(*args, "--dry-run", "--json", "edit.txt", cwd=root, state=tmp_path / "s")
    assert preview.returncode == 0, preview.stderr
    assert (root / "app.py").read_text() == FILE
    report = json.loads(preview.stdout)
    assert report["format"] == "snippet" and not report["applied"]
    merge = report["files"][0]["snippet"]
    assert merge["runs"][0]["file_lines"] == [4, 8]
    assert merge["edges"] == {"top": "marker", "bottom": "marker"}
    done = cli(*args, "-", cwd=root, state=tmp_path / "s", stdin=SNIPPET)
    assert done.returncode == 0, done.stderr
    assert 'encoding="utf-8"' in (root / "app.py").read_text()


def test_a_refused_snippet_changes_nothing(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    vague = "# ...\n\ndef added():\n    pass\n# ...\n"
    out = cli("apply", "--format", "snippet", "--path", "app.py", "-", cwd=root,
              state=tmp_path / "s", stdin=vague)  # fmt: skip
    assert out.returncode == 1
    assert "original lines" in out.stderr and "Candidate result" in out.stderr
    assert (root / "app.py").read_text() == FILE


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    no_path = cli("apply", "--format", "snippet", "edit.txt", cwd=root, state=tmp_path / "s")
    assert no_path.returncode == 2 and "--path" in no_path.stderr
    stray = cli("apply", "--path", "app.py", "edit.txt", cwd=root, state=tmp_path / "s")
    assert stray.returncode == 2 and "--format snippet" in stray.stderr
    assert (root / "app.py").read_text() == FILE
