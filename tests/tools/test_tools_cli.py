"""``patchwright call`` / ``patchwright tools``: separate processes sharing a session."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tool_helpers import write

from patchwright.tools import PRESETS, Session, load_session, save_session, session_path

SPEC = ("--preset", "spec")


def _cli(state: Path, *args: str, stdin: str | None = None) -> tuple[int, Any, str]:
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(state)}
    proc = subprocess.run(
        [sys.executable, "-m", "patchwright", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    out = json.loads(proc.stdout) if proc.stdout.strip() else None
    return proc.returncode, out, proc.stderr


def test_cut_and_paste_across_two_files_in_two_calls(root: Path, state: Path) -> None:
    write(root, "src/a.py", "def keep():\n    pass\n\n\ndef move_me():\n    return 42\n")
    write(root, "src/b.py", "# helpers\n")
    cut = json.dumps(
        {
            "path": "src/a.py",
            "patches": [
                {
                    "operation": "replace",
                    "oldText": "\n\ndef move_me():\n    return 42\n",
                    "newText": "",
                    "toClipboard": "fn",
                }
            ],
        }
    )
    code, out, _ = _cli(state, "call", "patch", cut, "--root", str(root), "--session", "s1", *SPEC)
    assert code == 0 and out["ok"], out
    assert (root / "src/a.py").read_text() == "def keep():\n    pass\n"
    paste = json.dumps(
        {"path": "src/b.py", "patches": [{"operation": "append_eof", "fromClipboard": "fn"}]}
    )
    code, out, _ = _cli(
        state, "call", "patch", "-", "--root", str(root), "--session", "s1", *SPEC, stdin=paste
    )
    assert code == 0 and out["ok"], out
    assert (root / "src/b.py").read_text() == "# helpers\n\n\ndef move_me():\n    return 42\n"
    # another session does not see the clipboard
    code, out, _ = _cli(
        state, "call", "patch", paste, "--root", str(root), "--session", "s2", *SPEC
    )
    assert code == 1 and out["error"]["code"] == "clipboard_missing"


def test_exit_codes_and_modes(root: Path, state: Path) -> None:
    write(root, "a.txt", "x\n")
    args = ("--root", str(root))
    code, out, _ = _cli(state, "call", "read_file", '{"path": "a.txt"}', *args)
    assert code == 0 and out["data"]["line_count"] == 1
    code, out, _ = _cli(
        state, "call", "edit_file", '{"path": "a.txt", "old_string": "q", "new_string": "r"}', *args
    )
    assert code == 1 and out["ok"] is False and out["error"]["code"] == "not_found"
    code, out, err = _cli(
        state, "call", "patch", '{"path": "a.txt", "patches": []}', *args, *SPEC,
        "--access", "restricted",
    )  # fmt: skip
    assert code == 1 and out["text"].startswith("Patch tool is disabled in Restricted mode.")
    assert err == ""
    code, out, _ = _cli(state, "call", "no_such_tool", "{}", *args)
    assert code == 2 and out["error"]["code"] == "invalid_request"
    code, out, _ = _cli(state, "call", "read_file", "{oops", *args)
    assert code == 2 and out["error"]["field"] == "arguments"
    code, out, _ = _cli(state, "call", "read_file", "{}", "--root", str(root / "missing"))
    assert code == 2 and out["error"]["code"] == "file_not_found"
    code, _, err = _cli(state, "call", "read_file", "{}", *args, "--access", "sideways")
    assert code == 2 and "invalid choice" in err


def test_the_old_spelling_of_access_still_works_and_names_the_new_one(
    root: Path, state: Path
) -> None:
    write(root, "a.txt", "x\n")
    edit = '{"path": "a.txt", "old_string": "x", "new_string": "y"}'
    code, out, err = _cli(
        state, "call", "edit_file", edit, "--root", str(root), "--mode", "restricted"
    )
    assert code == 1 and out["error"]["code"] == "restricted"
    assert (root / "a.txt").read_text() == "x\n"
    assert err == (
        "patchwright call: --mode restricted is deprecated, use --access restricted "
        "(--mode is the matching mode, as in patchwright apply)\n"
    )
    # the matching modes are not access modes: the old spelling takes only those two
    code, _, err = _cli(state, "call", "read_file", "{}", "--root", str(root), "--mode", "fuzzy")
    assert code == 2 and "invalid choice: 'fuzzy'" in err


def test_history_persists_between_calls(root: Path, state: Path) -> None:
    write(root, "a.txt", "x\n")
    args = ("--root", str(root))
    code, out, _ = _cli(
        state, "call", "edit_file", '{"path": "a.txt", "old_string": "x", "new_string": "y"}', *args
    )
    assert code == 0
    batch = out["data"]["batch_id"]
    code, out, _ = _cli(state, "call", "get_patch_change", json.dumps({"id": batch}), *args, *SPEC)
    assert code == 0 and out["data"]["tool"] == "edit_file"
    code, out, _ = _cli(state, "call", "undo", "{}", *args)
    assert code == 0 and (root / "a.txt").read_text() == "x\n"


@pytest.mark.parametrize("fmt", ["openai", "anthropic", "mcp", "json-schema"])
def test_tools_prints_schemas(state: Path, fmt: str) -> None:
    code, out, _ = _cli(state, "tools", "--format", fmt)
    assert code == 0 and len(out) == len(PRESETS["default"].tools)
    first = out[0]
    if fmt == "openai":
        assert first["type"] == "function" and first["function"]["name"] == "read_file"
    elif fmt == "anthropic":
        assert set(first) == {"name", "description", "input_schema"}
    elif fmt == "mcp":
        assert set(first) == {"name", "title", "description", "inputSchema", "annotations"}
    else:
        assert first["contract"] and first["input_schema"]["type"] == "object"


def test_tools_selection_and_rename(state: Path) -> None:
    code, out, _ = _cli(
        state,
        "tools",
        "--format",
        "anthropic",
        "--tools",
        "read_file,apply_diff",
        "--rename",
        "apply_diff=patch",
    )
    assert code == 0 and [t["name"] for t in out] == ["read_file", "patch"]
    code, _, err = _cli(state, "tools", "--rename", "nonsense")
    assert code == 2 and "OLD=NEW" in err
    code, out, _ = _cli(state, "tools", "--format", "json-schema", "--legacy-edits", *SPEC)
    edit = next(t for t in out if t["name"] == "document_edit")
    assert "patch" not in edit["input_schema"]["properties"]["action"]["enum"]


def test_session_file_merges_changes_of_two_processes(tmp_path: Path) -> None:
    path = session_path(tmp_path, "shared")
    first, second = load_session(path), load_session(path)
    first.set_clipboard("a", "from first")
    second.set_clipboard("b", "from second")
    second.count("total_patches")
    save_session(first, path)
    save_session(second, path)
    merged = load_session(path)
    assert merged.clipboards == {"a": "from first", "b": "from second"}
    assert merged.metrics["total_patches"] == 1
    assert isinstance(Session.from_dict(merged.to_dict()), Session)


def test_session_names_are_checked(tmp_path: Path) -> None:
    from patchwright.model import PatchwrightError

    with pytest.raises(PatchwrightError):
        session_path(tmp_path, "../escape")
    (tmp_path / "bad.json").write_text("not json")
    assert load_session(tmp_path / "bad.json").clipboards == {}
