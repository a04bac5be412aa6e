"""Confirm in one call: an old text found at several places is refused with each place as
a candidate (line, short diff, one-use token); the token alone applies that place."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tool_helpers import ok, refused, write

from patchwright.adapters.mcp.server import wire_result
from patchwright.model import ErrorCode
from patchwright.tools import Toolbox
from patchwright.tools import confirm as confirm_module
from patchwright.tools.session import KEPT_SESSIONS
from patchwright.workspace import Workspace

TWICE = "limit = 10\nname = 'a'\nlimit = 10\n"
EDIT = {"path": "conf.py", "old_string": "limit = 10", "new_string": "limit = 20"}


def _toolbox(root: Path, state: Path, preset: str = "default") -> Toolbox:
    return Toolbox(Workspace(root, state_dir=state), preset=preset)


def test_two_places_give_two_candidates_and_one_confirm_applies_one(
    root: Path, state: Path
) -> None:
    write(root, "conf.py", TWICE)
    toolbox = _toolbox(root, state)
    refusal = refused(toolbox, "edit_file", **EDIT)
    assert refusal.error is not None and refusal.error.code is ErrorCode.AMBIGUOUS
    candidates = wire_result(refusal)["structuredContent"]["candidates"]
    assert [c["line"] for c in candidates] == [1, 3]
    assert all(set(c) == {"token", "line", "diff"} for c in candidates)
    assert "-limit = 10\n+limit = 20\n" in candidates[1]["diff"]
    assert f"2. line 3, token {candidates[1]['token']}:" in refusal.text
    assert (root / "conf.py").read_text() == TWICE
    done = ok(toolbox, "edit_file", confirm=candidates[1]["token"])
    assert done.text == "Applied the confirmed candidate to conf.py (line 3)."
    assert (root / "conf.py").read_text() == "limit = 10\nname = 'a'\nlimit = 20\n"
    again = refused(toolbox, "edit_file", confirm=candidates[1]["token"])
    assert "was already used: a token is accepted once" in again.text


def test_a_token_is_refused_once_the_file_changed(root: Path, state: Path) -> None:
    write(root, "conf.py", TWICE)
    toolbox = _toolbox(root, state)
    token = refused(toolbox, "edit_file", **EDIT).data["candidates"][0]["token"]
    (root / "conf.py").write_text(TWICE + "extra = 1\n")
    stale = refused(toolbox, "apply_patch", confirm=token)
    assert stale.error is not None and stale.error.code is ErrorCode.STALE
    assert "conf.py changed since the refusal that gave token" in stale.text
    assert (root / "conf.py").read_text() == TWICE + "extra = 1\n"


def test_a_token_belongs_to_its_session_and_expires(
    root: Path, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(root, "conf.py", TWICE)
    toolbox = _toolbox(root, state)
    first, second = (c["token"] for c in refused(toolbox, "edit_file", **EDIT).data["candidates"])
    other = _toolbox(root, state)  # another session of the same workspace
    assert "was given to another session" in refused(other, "edit_file", confirm=first).text
    later = confirm_module.clock() + confirm_module.TOKEN_TTL + 1
    monkeypatch.setattr(confirm_module, "clock", lambda: later)
    assert "expired" in refused(toolbox, "edit_file", confirm=second).text
    assert (root / "conf.py").read_text() == TWICE


def test_apply_patch_takes_the_token_and_confirm_must_come_alone(root: Path, state: Path) -> None:
    write(root, "conf.py", TWICE)
    toolbox = _toolbox(root, state)
    token = refused(toolbox, "edit_file", **EDIT).data["candidates"][0]["token"]
    mixed = refused(toolbox, "edit_file", path="conf.py", confirm=token)
    assert mixed.error is not None and mixed.error.field == "confirm"
    ok(toolbox, "apply_patch", confirm=token)
    assert (root / "conf.py").read_text() == "limit = 20\nname = 'a'\nlimit = 10\n"


@pytest.mark.parametrize(
    ("preset", "tool", "args"),
    [
        ("claude-code", "Edit", {"file_path": "conf.py", "old_string": "limit = 10",
                                 "new_string": "limit = 20"}),
        ("anthropic", "str_replace_based_edit_tool", {"command": "str_replace",
         "path": "conf.py", "old_str": "limit = 10", "new_str": "limit = 20"}),
    ],
)  # fmt: skip
def test_dialects_are_shown_an_old_text_unique_at_each_place(
    root: Path, state: Path, preset: str, tool: str, args: dict[str, str]
) -> None:
    write(root, "conf.py", TWICE)
    toolbox = _toolbox(root, state, preset)
    if preset == "claude-code":
        ok(toolbox, "Read", file_path="conf.py")
    refusal = refused(toolbox, tool, **args)
    candidates = refusal.data["candidates"]
    assert [c["line"] for c in candidates] == [1, 3] and "token" not in candidates[0]
    unique = candidates[1]["old_string"]
    assert unique == "name = 'a'\nlimit = 10\n" and repr(unique) in refusal.text
    old_field = "old_string" if preset == "claude-code" else "old_str"
    new_field = "new_string" if preset == "claude-code" else "new_str"
    ok(toolbox, tool, **{**args, old_field: unique, new_field: "name = 'a'\nlimit = 20\n"})
    assert (root / "conf.py").read_text() == "limit = 10\nname = 'a'\nlimit = 20\n"


TOTAL = (
    "def total(items):\n    result = 0\n    for item in items:\n"
    "        result += item.price * item.count\n    return result\n"
)


def test_a_near_miss_above_the_fuzzy_floor_is_a_candidate(root: Path, state: Path) -> None:
    write(root, "t.py", TOTAL)
    toolbox = _toolbox(root, state)
    old = "    for item in item_list:\n        result += item.price * item.count\n"
    new = "    for item in items:\n        result += item.price * item.qty\n"
    refusal = refused(toolbox, "edit_file", path="t.py", old_string=old, new_string=new)
    assert refusal.error is not None and refusal.error.code is ErrorCode.NOT_FOUND
    (candidate,) = refusal.data["candidates"]
    assert "Candidates (a near miss, " in refusal.text and candidate["line"] == 3
    assert "-        result += item.price * item.count\n+" in candidate["diff"]
    ok(toolbox, "edit_file", confirm=candidate["token"])
    assert (root / "t.py").read_text() == TOTAL.replace("item.count", "item.qty")


def test_an_old_text_like_nothing_in_the_file_has_no_candidate(root: Path, state: Path) -> None:
    write(root, "t.py", TOTAL)
    toolbox = _toolbox(root, state)
    refusal = refused(toolbox, "edit_file", path="t.py",
                      old_string="class Basket:\n    pass\n    size = 3\n",
                      new_string="class Cart:\n    pass\n")  # fmt: skip
    assert "candidates" not in refusal.data and "Candidates" not in refusal.text


RUN_SH = (
    "main() {\n    if [[ $a ]]; then\n        first\n    elif [[ $b ]]; then\n"
    "        second\n    else\n        third\n    fi\n}\n"
)
# every line of the hunk lacks four columns: the new lines' frame is undecided
# (the engine's case indent_frame_one_neighbour_refused)
UNDECIDED = (
    "*** Begin Patch\n*** Update File: run.sh\n@@\n if [[ $a ]]; then\n     first\n"
    "+elif [[ $c ]]; then\n+    if [[ $d ]]; then\n+        fourth\n+    fi\n"
    " elif [[ $b ]]; then\n     second\n*** End Patch\n"
)


def test_an_undecided_indentation_offers_the_readings_that_can_be_built(
    root: Path, state: Path
) -> None:
    write(root, "run.sh", RUN_SH)
    toolbox = _toolbox(root, state)
    refusal = refused(toolbox, "apply_patch", patch=UNDECIDED)
    assert refusal.error is not None and refusal.error.code is ErrorCode.AMBIGUOUS
    assert "Candidates (readings of the new lines' indentation: " in refusal.text
    candidates = refusal.data["candidates"]
    assert candidates and all(c["line"] == 4 for c in candidates)
    assert 'Call apply_patch with {"confirm": "<token>"}' in refusal.text
    assert (root / "run.sh").read_text() == RUN_SH
    assert refusal.text.count("new lines kept as written") == 1
    ok(toolbox, "apply_patch", confirm=candidates[-1]["token"])  # the last: kept as written
    added = "elif [[ $c ]]; then\n    if [[ $d ]]; then\n        fourth\n    fi\n"
    assert (root / "run.sh").read_text() == RUN_SH.replace("first\n", "first\n" + added)


def test_a_command_line_session_keeps_its_tokens_between_processes(root: Path, state: Path) -> None:
    write(root, "conf.py", TWICE)
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(state)}

    def call(arguments: dict[str, str]) -> dict[str, Any]:
        done = subprocess.run(
            [sys.executable, "-m", "patchwright", "call", "edit_file", json.dumps(arguments),
             "--root", str(root), "--session", "agent"],
            env=env, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        answer: dict[str, Any] = json.loads(done.stdout)
        return answer

    refusal = call(EDIT)
    assert not refusal["ok"] and [c["line"] for c in refusal["candidates"]] == [1, 3]
    assert call({"confirm": refusal["candidates"][0]["token"]})["ok"]
    assert (root / "conf.py").read_text() == "limit = 20\nname = 'a'\nlimit = 10\n"
    again = call({"confirm": refusal["candidates"][0]["token"]})
    assert not again["ok"] and "was already used" in again["text"]


TWO_FUNCTIONS = "def a():\n    x = 1\n    return x\n\n\ndef b():\n    x = 1\n    return x\n"


@pytest.mark.parametrize(
    "patch",
    [
        "*** Begin Patch\n*** Update File: two.py\n@@\n     x = 1\n-    return x\n"
        "+    return x + 1\n*** End Patch\n",
        "two.py\n<<<<<<< SEARCH\n    x = 1\n    return x\n=======\n    x = 1\n"
        "    return x + 1\n>>>>>>> REPLACE\n",
    ],
    ids=["v4a", "search-replace"],
)
def test_a_hunk_matching_two_places_offers_both(root: Path, state: Path, patch: str) -> None:
    write(root, "two.py", TWO_FUNCTIONS)
    toolbox = _toolbox(root, state)
    refusal = refused(toolbox, "apply_patch", patch=patch)
    assert refusal.error is not None and refusal.error.code is ErrorCode.AMBIGUOUS
    candidates = refusal.data["candidates"]
    assert [c["line"] for c in candidates] == [3, 8], refusal.text
    assert "Candidates (2 places; 2 shown)" in refusal.text
    ok(toolbox, "apply_patch", confirm=candidates[1]["token"])
    assert (root / "two.py").read_text() == TWO_FUNCTIONS[:-1] + " + 1\n"


def test_a_token_belongs_to_the_session_that_got_it(root: Path, state: Path) -> None:
    write(root, "conf.py", TWICE)
    toolbox = _toolbox(root, state)
    owner, other = toolbox.session_for("client-a"), toolbox.session_for("client-b")
    refusal = toolbox.call("edit_file", EDIT, session=owner)
    token = refusal.data["candidates"][0]["token"]
    stolen = toolbox.call("edit_file", {"confirm": token}, session=other)
    assert not stolen.ok
    assert f"Confirm token {token!r} was given to another session" in stolen.text
    made_up = toolbox.call("edit_file", {"confirm": "c-not-a-token"}, session=other)
    assert "is not one this session was given (or it expired)" in made_up.text
    assert (root / "conf.py").read_text() == TWICE
    assert toolbox.call("edit_file", {"confirm": token}, session=owner).ok


def test_the_sessions_of_a_toolbox_are_bounded_least_recently_used_first(
    root: Path, state: Path
) -> None:
    toolbox = _toolbox(root, state)
    assert toolbox.session_for(None) is toolbox.session
    made = [toolbox.session_for(f"s-{n}") for n in range(KEPT_SESSIONS)]
    assert len({id(s) for s in [toolbox.session, *made]}) == KEPT_SESSIONS + 1
    assert toolbox.session_for("s-0") is made[0]  # used again: now the most recent
    toolbox.session_for("one-more")  # drops s-1, the least recently used
    assert toolbox.session_for("s-0") is made[0]
    assert toolbox.session_for("s-2") is made[2]
    assert toolbox.session_for("s-1") is not made[1]  # made anew: its reads are gone
    assert toolbox.session_for(None) is toolbox.session


GAP = "def f():\n" + "".join(f"    v{i} = {i}\n" for i in range(30)) + "    return v0\n"


def test_a_snippet_with_a_large_unmarked_gap_offers_its_merge(root: Path, state: Path) -> None:
    """The snippet shows no marker between two lines 29 lines apart: deleting them or
    keeping them is the model's word, so the merge it would make is a candidate."""
    write(root, "g.py", GAP)
    toolbox = _toolbox(root, state)
    snippet = {"patch": "def f():\n    v0 = 100\n    return v0\n", "path": "g.py",
               "format": "snippet"}  # fmt: skip
    refusal = refused(toolbox, "apply_patch", **snippet)
    assert "dropping 29 lines they do not show" in refusal.text
    (candidate,) = wire_result(refusal)["structuredContent"]["candidates"]
    assert set(candidate) == {"token", "line", "diff"} and candidate["line"] == 2
    assert "Candidates (the candidate result above; 1 shown)" in refusal.text
    assert refusal.text.count("-    v29 = 29") == 1  # the diff is shown once, not twice
    assert (root / "g.py").read_text() == GAP
    write(root, "g.py", GAP + "# changed\n")
    stale = refused(toolbox, "apply_patch", confirm=candidate["token"])
    assert stale.error is not None and stale.error.code is ErrorCode.STALE
    write(root, "g.py", GAP)
    token = refused(toolbox, "apply_patch", **snippet).data["candidates"][0]["token"]
    ok(toolbox, "edit_file", confirm=token)
    assert (root / "g.py").read_text() == "def f():\n    v0 = 100\n    return v0\n"
