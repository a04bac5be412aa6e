"""What ``patchwright apply`` of a one-line patch loads: only what that path needs.

The command starts a fresh interpreter for every patch, so every module it imports is
paid for on every run (start-up time is benchmarked in bench/startup.py). The child
runs the console entry point on a real folder and lists ``sys.modules`` when done.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

# Never needed to apply a patch that matches exactly: the MCP and HTTP stack, the request
# models, the tool layer, the fuzzy matcher, asyncio; nor the standard dataclasses and the
# inspect module they import (patchwright's classes are records, patchwright/_records.py);
# nor typing (every module of the path names its typing constructs for type checkers only);
# nor pathlib and the URL and address parsers it imports (paths are text on this path);
# nor json and struct (the history writes an edit's metadata and a one-range delta
# without them).
NEVER = (
    "dataclasses", "inspect", "typing", "pathlib", "urllib", "ipaddress", "fnmatch", "json",
    "struct",
    "mcp", "pydantic", "pydantic_core", "anyio", "asyncio", "httpx", "starlette", "uvicorn",
    "jsonschema", "rapidfuzz", "patchwright.tools", "patchwright.adapters.mcp_server",
    "patchwright.engine.fuzzy", "patchwright.documents", "concurrent.futures", "email",
    "http.client", "ssl", "multiprocessing", "charset_normalizer",
)  # fmt: skip
# Nor what the other commands, formats and refusals use: approval mode, tree walking
# (pathspec), undo and case-insensitive look-up; the OpenAI and SEARCH/REPLACE parsers
# and the -p/-R rewriting; search/replace resolution and the failure report of a hunk;
# tool results; the shared history's PostgreSQL driver; the terminal and highlighting
# libraries of the other commands; shutil and the compression modules it loads (argparse
# measures the terminal with it, which only help and errors need); socket and secrets
# (the history names this machine with os.uname and draws random names from os.urandom);
# the explanations of a hunk that was not found, the diffstat (only for --stat, colour
# and the progress bar), the history's schema migrations (only for a new or older
# store: an up-to-date one is told by its versions alone), the anchors other than a
# diff's hunks (search texts, line ranges, whole files), what places a hunk that is not
# found exactly (indentation frames and shifts, the side of added lines), the OpenAI
# format's markers and the deferred deletions of a shared history store; hashlib and its
# OpenSSL binding for files this small (patchwright/_digest.py); difflib, whose matcher
# only a change of several blocks needs (a single change is told without it); copy (the
# sandbox's variants are shallow copies made by hand).
NOT_FOR_A_DIFF = (
    "hashlib", "_hashlib", "copy",
    "patchwright.workspace.approval", "patchwright.workspace.navigation", "pathspec",
    "typing_extensions", "patchwright.workspace.undo", "patchwright.workspace.listing",
    "patchwright.formats.v4a", "patchwright.formats._v4a_hunks",
    "patchwright.formats.search_replace", "patchwright.formats._sr_paths",
    "patchwright.adapters.patch_options", "patchwright.engine.oldtext",
    "patchwright.engine.evidence", "patchwright.engine.failures", "patchwright.model.results",
    "patchwright.workspace.history.postgres", "psycopg", "rich", "pygments", "shutil", "bz2",
    "lzma", "socket", "secrets", "patchwright.engine.diagnose", "patchwright.adapters.diffstat",
    "patchwright.workspace.history.migrations", "patchwright.model.anchors",
    "patchwright.engine.frame", "patchwright.engine.reindent", "patchwright.engine.context_side",
    "patchwright.formats._v4a_markers", "patchwright.workspace.history.deferred", "difflib",
)  # fmt: skip
# Needed only for a file with a parser (the syntax guard's checkers and Python's own,
# and the guard's report).
NO_PARSER = (
    "patchwright.syntax.check", "patchwright.syntax.pyregion", "patchwright.syntax.report",
    "tree_sitter",
)  # fmt: skip

# json only after the apply: it is one of the modules the apply must not load
_CHILD = """
import sys
from patchwright.adapters.cli import main
sys.argv = ["patchwright", "apply", sys.argv[1], "--root", sys.argv[2]]
code = main()
modules = sorted(sys.modules)
import json
sys.stderr.write("\\nMODULES " + json.dumps(modules) + "\\n")
sys.exit(code)
"""


def _apply_modules(tmp_path: Path, name: str, old: str, new: str) -> set[str]:
    """The modules of the second of two applies (the first one creates the history
    store, which is what a command run in a used workspace finds)."""
    root = tmp_path / "root"
    root.mkdir()
    (root / name).write_text(f"first\n{old}\nlast\n")
    patch = tmp_path / "change.diff"
    patch.write_text(
        f"--- a/{name}\n+++ b/{name}\n@@ -1,3 +1,3 @@\n first\n-{old}\n+{new}\n last\n"
    )
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")}
    for _ in range(2):
        (root / name).write_text(f"first\n{old}\nlast\n")
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(patch), str(root)],
            capture_output=True, text=True, env=env, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert (root / name).read_text() == f"first\n{new}\nlast\n"
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    return set(json.loads(line.removeprefix("MODULES ")))


def test_a_new_history_store_is_migrated(tmp_path: Path) -> None:
    # the first apply in a fresh state folder creates the store: the migrations run
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("x\n")
    patch = tmp_path / "p.diff"
    patch.write_text("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n")
    env = {**os.environ, "PATCHWRIGHT_STATE_DIR": str(tmp_path / "state")}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(patch), str(root)],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    assert "patchwright.workspace.history.migrations" in json.loads(line[len("MODULES ") :])


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules for n in names if m == n or m.startswith(n + "."))


@pytest.mark.parametrize("name", ["notes.txt", "app.py"])
def test_one_line_apply_never_imports_heavy_modules(tmp_path: Path, name: str) -> None:
    modules = _apply_modules(tmp_path, name, "x = 1", "x = 2")
    assert _loaded(modules, NEVER) == []
    assert _loaded(modules, NOT_FOR_A_DIFF) == []
    assert "patchwright.workspace.history" in modules  # the change was recorded
    if name.endswith(".txt"):
        assert _loaded(modules, NO_PARSER) == []
    else:
        assert "patchwright.syntax.check" in modules  # the guard did run


# Literal aliases of the apply path: defined for type checkers only, each with the
# run-time constant of its values, and built from that constant when asked for at run time.
LITERALS = [
    ("patchwright.engine.policy", "Mode", "MODES"),
    ("patchwright.engine.policy", "Frame", "FRAMES"),
    ("patchwright.model.hunks", "HunkOp", "HUNK_OPS"),
    ("patchwright.syntax.languages", "Backend", "BACKENDS"),
    ("patchwright.syntax.report", "SyntaxPolicy", "POLICIES"),
    ("patchwright.workspace.fs", "Kind", "KINDS"),
    ("patchwright.workspace.gate", "Mode", "MODES"),
    ("patchwright.workspace.records", "FileAction", "FILE_ACTIONS"),
    ("patchwright.adapters.diffstat", "LineKind", "LINE_KINDS"),
]


def _checked_alias(source: str, alias: str) -> tuple[str, ...]:
    """The values of ``alias = Literal[...]`` as the module's type-checking block says."""
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Assign)
            and [getattr(t, "id", None) for t in node.targets] == [alias]
            and isinstance(node.value, ast.Subscript)
        ):
            values = ast.literal_eval(node.value.slice)
            return values if isinstance(values, tuple) else (values,)
    raise AssertionError(f"no {alias} = Literal[...] in the module")


@pytest.mark.parametrize(("module", "alias", "constant"), LITERALS)
def test_literal_aliases_match_their_constants(module: str, alias: str, constant: str) -> None:
    loaded = importlib.import_module(module)
    values = getattr(loaded, constant)
    source = Path(loaded.__file__ or "").read_text(encoding="utf-8")
    assert _checked_alias(source, alias) == values
    assert get_args(getattr(loaded, alias)) == values  # built on first use at run time
    assert getattr(loaded, alias) is getattr(loaded, alias)  # and kept


def test_a_literal_alias_is_built_without_typing_until_asked_for() -> None:
    code = (
        "import sys\n"
        "from patchwright.workspace import fs\n"
        "assert 'typing' not in sys.modules, 'typing on import'\n"
        "assert fs.KINDS[0] == 'file'\n"
        "assert 'typing' not in sys.modules, 'typing on the constant'\n"
        "kind = fs.Kind\n"
        "assert 'typing' in sys.modules\n"
        "try:\n"
        "    fs.NoSuchName\n"
        "except AttributeError as exc:\n"
        "    assert 'NoSuchName' in str(exc)\n"
        "else:\n"
        "    raise SystemExit('no AttributeError')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr


def test_hunk_lines_are_the_named_tuples_they_were() -> None:
    from patchwright.model import HunkLine

    line = HunkLine("+", "x")
    assert line == ("+", "x") and line.op == "+" and line.text == "x"
    assert HunkLine._fields == ("op", "text")
    assert repr(line) == "HunkLine(op='+', text='x')"
    assert line._replace(op="-") == HunkLine("-", "x")
    assert type(line._replace(op="-")) is HunkLine
    assert not hasattr(line, "__dict__")  # as small as a plain named tuple
