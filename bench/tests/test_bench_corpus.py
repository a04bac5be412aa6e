"""Corpus scoring on a small corpus built in a temporary folder.

``git`` and ``patch`` are the real tools; the in-process applier is a stand-in module
registered as ``patchwright.api``, so the harness is tested without the real API.
"""

from __future__ import annotations

import json
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import _scoring
import corpus
import pytest
from _common import gnu_patch_argv, tool_env
from _scoring import APPLIED, REFUSED, WRONG, Entry, score, verdict

BEFORE = "".join(f"line {i}\n" for i in range(1, 21))
AFTER = BEFORE.replace("line 10\n", "line ten\n")
CLEAN = (
    "diff --git a/pkg/f.txt b/pkg/f.txt\n--- a/pkg/f.txt\n+++ b/pkg/f.txt\n"
    "@@ -7,7 +7,7 @@\n line 7\n line 8\n line 9\n-line 10\n+line ten\n"
    " line 11\n line 12\n line 13\n"
)
# Context next to the change that is not in the file: too much for GNU patch's fuzz.
STALE = CLEAN.replace(" line 9\n", " line nine\n").replace(" line 11\n", " line eleven\n")
SR = "pkg/f.txt\n<<<<<<< SEARCH\nline 10\n=======\nline ten\n>>>>>>> REPLACE\n"


def _write_corpus(root: Path) -> Path:
    case = root / "cases" / "demo-0"
    case.mkdir(parents=True)
    (case / "before").write_text(BEFORE)
    (case / "after").write_text(AFTER)
    manifest = []
    for fmt, kind, text in (
        ("udiff", "clean", CLEAN),
        ("udiff", "ctx_dropped", STALE),
        ("sr", "clean", SR),
    ):
        rel = f"cases/demo-0/{fmt}.{kind}.patch"
        (root / rel).write_text(text)
        manifest.append(
            {
                "id": f"demo-0/{fmt}.{kind}", "case": "demo-0", "format": fmt, "kind": kind,
                "path": "pkg/f.txt", "before": "cases/demo-0/before", "patch": rel,
                "expected": "cases/demo-0/after",
            }
        )  # fmt: skip
    (root / "manifest.jsonl").write_text("".join(json.dumps(m) + "\n" for m in manifest))
    return root


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    return _write_corpus(tmp_path / "corpus")


def _fake_api(monkeypatch: pytest.MonkeyPatch, behaviour: str) -> None:
    """Register a stand-in ``patchwright.api``: correct, wrong, or raising."""

    def apply_patch_text(patch_text: str, root: str | Path, **_: Any) -> Any:
        if behaviour == "raise":
            raise RuntimeError("boom")
        target = Path(root) / "pkg" / "f.txt"
        if behaviour == "wrong":
            target.write_text("garbage\n")
            return types.SimpleNamespace(applied=True)
        if patch_text.startswith("pkg/f.txt\n<<<<<<< SEARCH"):
            target.write_text(target.read_text().replace("line 10\n", "line ten\n"))
            return types.SimpleNamespace(applied=True)
        patch_file = Path(root).parent / "fake.diff"
        patch_file.write_text(patch_text)
        done = subprocess.run(
            gnu_patch_argv(patch_file), cwd=root, env=tool_env(), capture_output=True, check=False
        )
        return types.SimpleNamespace(applied=done.returncode == 0)

    module = types.ModuleType("patchwright.api")
    module.apply_patch_text = apply_patch_text  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "patchwright.api", module)
    monkeypatch.setattr(_scoring, "_API", [])


@pytest.mark.parametrize(
    ("success", "got", "expected"),
    [
        (True, b"after", APPLIED),
        (True, b"other", WRONG),
        (False, b"before", REFUSED),
        (False, b"other", WRONG),
        (False, None, WRONG),
        (True, None, WRONG),
    ],
)
def test_verdict_follows_the_corpus_rules(success: bool, got: bytes | None, expected: str) -> None:
    assert verdict(success, got, b"before", b"after") == expected


@pytest.mark.parametrize("applier", ["git", "patch"])
def test_real_tools_apply_clean_and_refuse_stale_context(mini: Path, applier: str) -> None:
    entries = {e.kind: e for e in _scoring.load_manifest(mini) if e.format == "udiff"}
    assert score(applier, entries["clean"], mini, 30).verdict == APPLIED
    stale = score(applier, entries["ctx_dropped"], mini, 30)
    assert stale.verdict == REFUSED
    assert not stale.success
    assert stale.note  # the tool's complaint is kept for inspection


def test_in_process_applier_reports_wrong_and_raised(
    mini: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry: Entry = _scoring.load_manifest(mini)[0]
    _fake_api(monkeypatch, "wrong")
    assert score("patchwright", entry, mini, 30).verdict == WRONG
    _fake_api(monkeypatch, "raise")
    result = score("patchwright", entry, mini, 30)
    assert (result.verdict, result.raised) == (REFUSED, True)
    assert "RuntimeError: boom" in result.note


def test_cli_tables_json_and_exit_status(
    mini: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fake_api(monkeypatch, "good")
    out_json = tmp_path / "r.json"
    args = ["--corpus", str(mini), "--workers", "1", "--json", str(out_json)]
    assert corpus.main(args) == 0
    printed = capsys.readouterr().out
    assert "udiff (2 patches)" in printed
    assert "sr (1 patches)" in printed
    data = json.loads(out_json.read_text())
    got = {(r["id"], r["applier"]): r["verdict"] for r in data["results"]}
    assert got[("demo-0/udiff.clean", "git")] == APPLIED
    assert got[("demo-0/udiff.ctx_dropped", "patch")] == REFUSED
    assert got[("demo-0/sr.clean", "patchwright")] == APPLIED
    assert ("demo-0/sr.clean", "git") not in got  # git does not read SEARCH/REPLACE

    _fake_api(monkeypatch, "wrong")
    assert corpus.main(["--corpus", str(mini), "--workers", "1", "--appliers", "patchwright"]) == 1


def test_filters_select_by_format_kind_and_case(
    mini: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        corpus.main(
            ["--corpus", str(mini), "--workers", "1", "--appliers", "git", "--kind", "clean"]
        )
        == 0
    )
    assert "1 patches, 1 runs" in capsys.readouterr().out
    assert corpus.main(["--corpus", str(mini), "--workers", "1", "--case", "nothing-*"]) == 0
    assert "0 patches" in capsys.readouterr().out


def test_missing_api_is_skipped_with_a_note(
    mini: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "patchwright.api", None)  # import fails
    assert (
        corpus.main(["--corpus", str(mini), "--workers", "1", "--appliers", "git,patchwright"]) == 0
    )
    assert "patchwright skipped: cannot import patchwright.api" in capsys.readouterr().out


def test_process_pool_gives_the_same_verdicts(mini: Path, tmp_path: Path) -> None:
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.json"
        args = [
            "--corpus",
            str(mini),
            "--appliers",
            "git,patch",
            "--workers",
            workers,
            "--json",
            str(out),
        ]
        assert corpus.main(args) == 0
        outs.append(
            sorted(
                (r["id"], r["applier"], r["verdict"])
                for r in json.loads(out.read_text())["results"]
            )
        )
    assert outs[0] == outs[1]
    assert len(outs[0]) == 4
