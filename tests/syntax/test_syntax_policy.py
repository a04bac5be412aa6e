"""The syntax policies have one table, and every layer refuses another name the same way."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

from patchwright import apply_patch_text
from patchwright.model import ErrorCode, PatchwrightError
from patchwright.syntax import POLICIES, SyntaxPolicy, check_edit, check_policy
from patchwright.tools import Toolbox
from patchwright.workspace import Workspace


def test_the_table_is_the_type() -> None:
    assert get_args(SyntaxPolicy) == POLICIES == ("off", "warn", "reject")


def _refusal(call: object) -> PatchwrightError:
    assert callable(call)
    with pytest.raises(PatchwrightError) as caught:
        call()
    return caught.value


def test_every_layer_refuses_an_unknown_policy_naming_its_own_field(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, state_dir=tmp_path / ".state")
    refusals = {
        "syntax_check": _refusal(lambda: check_edit("a.py", "", "x = 1\n", policy="loud")),  # type: ignore[arg-type]
        "syntax_policy": _refusal(lambda: Toolbox(ws, syntax_policy="loud")),  # type: ignore[arg-type]
        "policy": _refusal(lambda: check_policy("loud", "policy")),
    }
    report = apply_patch_text("x", workspace=ws, syntax="loud")
    assert report.error is not None
    refusals["syntax"] = report.error
    for field, err in refusals.items():
        assert err.code is ErrorCode.INVALID_REQUEST
        assert err.field == field
        assert err.message == "Unknown syntax-check policy 'loud'."
        assert err.hint == "Use one of: off, warn, reject."
