"""Packages that export their names lazily (patchwright/_lazy.py): every public name
resolves, an unknown one is an AttributeError, a submodule is reachable as before, and
importing the package imports none of the modules behind its names."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from patchwright._lazy import exported_names

LAZY = [
    "patchwright",
    "patchwright.api",
    "patchwright.engine.notebook",
    "patchwright.formats",
    "patchwright.model",
    "patchwright.syntax",
    "patchwright.workspace",
]


@pytest.mark.parametrize("name", LAZY)
def test_every_public_name_resolves(name: str) -> None:
    package = importlib.import_module(name)
    for public in package.__all__:
        assert getattr(package, public) is not None, f"{name}.{public}"
    assert set(package.__all__) <= set(dir(package))


@pytest.mark.parametrize("name", LAZY)
def test_unknown_name_raises_attribute_error(name: str) -> None:
    package = importlib.import_module(name)
    with pytest.raises(AttributeError, match="no_such_name"):
        package.no_such_name  # noqa: B018
    with pytest.raises(ImportError):
        exec(f"from {name} import no_such_name")


def test_submodule_is_an_attribute_after_importing_the_package() -> None:
    code = (
        "import patchwright.model, patchwright.workspace\n"
        "print(patchwright.model.edits.Hunk.__name__, patchwright.workspace.undo.__name__)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["Hunk", "patchwright.workspace.undo"]


@pytest.mark.parametrize("name", LAZY)
def test_importing_the_package_imports_no_module_behind_its_names(name: str) -> None:
    code = f"import json, sys, {name}; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(json.loads(done.stdout))
    inside = {m for m in loaded if m.startswith(name + ".") and m != "patchwright._lazy"}
    # a package may import the little it needs itself (syntax: the language table
    # and the policy table; formats: format detection), never one of its heavier modules
    allowed = {
        "patchwright.syntax": {"patchwright.syntax.languages", "patchwright.syntax.policy"},
        "patchwright.formats": {
            "patchwright.formats._common",
            "patchwright.formats._hunks",
            "patchwright.formats._v4a_markers",
            "patchwright.formats.detect",
        },
    }.get(name, set())
    assert sorted(inside - allowed) == []


def test_anchors_moved_out_of_the_edit_model_are_found_where_they_were() -> None:
    # model/anchors.py keeps the non-diff anchors off a diff's path; every old way in works
    code = (
        "import sys\n"
        "import patchwright.model.edits as edits\n"
        "assert 'patchwright.model.anchors' not in sys.modules\n"
        "from patchwright.model.edits import OldText, Anchor\n"
        "import patchwright, patchwright.model, patchwright.model.anchors as anchors\n"
        "names = ('OldText', 'LineRange', 'BeginningOfFile', 'EndOfFile', 'WholeFile')\n"
        "for n in names:\n"
        "    assert getattr(edits, n) is getattr(anchors, n) is getattr(patchwright.model, n)\n"
        "    assert getattr(patchwright, n) is getattr(anchors, n)\n"
        "assert Anchor is anchors.Anchor and OldText is anchors.OldText\n"
        "assert isinstance(edits.Hunk(()), Anchor)\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr
    with pytest.raises(AttributeError, match="no_such_anchor"):
        importlib.import_module("patchwright.model.edits").no_such_anchor  # noqa: B018


def test_the_names_are_the_re_exports_of_the_type_checking_block() -> None:
    source = (
        "from patchwright.a import own as own\n"
        "from patchwright.a import helper\n"
        "if TYPE_CHECKING:  # the static view\n"
        "    from collections.abc import Callable\n"
        "    from patchwright.b import One as One  # why it is exported\n"
        "    from patchwright.c import (\n"
        "        Two as Two,\n"
        "        three as three,  # a comment\n"
        "        Renamed as Other,\n"
        "    )\n"
        "else:\n"
        "    from patchwright.d import Four as Four\n"
    )
    lazy, imported = exported_names(source)
    assert lazy == {"One": "patchwright.b", "Two": "patchwright.c", "three": "patchwright.c"}
    assert imported == {"own"}


@pytest.mark.parametrize("name", LAZY)
def test_all_lists_every_lazy_name(name: str) -> None:
    package = importlib.import_module(name)
    with open(package.__file__, encoding="utf-8") as source:
        lazy, imported = exported_names(source.read())
    assert len(lazy) >= 3
    assert set(lazy) | imported <= set(package.__all__)
