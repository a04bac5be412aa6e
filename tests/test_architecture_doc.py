"""docs/architecture.md stays true: every module it names exists, every layer it draws
is a package, and the layers it lists are the import-linter contract's."""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "patchwright"
DOC = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_every_named_module_exists() -> None:
    named = set(re.findall(r"`([a-z_0-9/]+\.(?:py|md|toml))`", DOC))
    modules = [n for n in named if "/" in n and n.endswith(".py")]
    assert len(modules) >= 20
    missing = [m for m in modules if not (PACKAGE / m).is_file()]
    assert not missing, missing


def test_the_layers_drawn_are_the_contract() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [
        c for c in config["tool"]["importlinter"]["contracts"] if c["name"].startswith("Data flows")
    ]
    rows = [r for r in DOC.split("```")[1].splitlines() if r.strip()]
    # each row: the layer's packages, then (after three spaces or more) what they hold
    layers = [sorted(re.findall(r"([a-z]+)/", re.split(r"\s{3,}", r.strip())[0])) for r in rows]
    expected = [
        sorted(p.strip().removeprefix("patchwright.") for p in layer.split("|"))
        for layer in contract["layers"]
    ]
    assert layers == expected
