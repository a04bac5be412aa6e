"""Every module the docstrings and docs name exists.

A name is checked in three spellings: a dotted ``patchwright.x.y`` (a module, or a name
a module defines, or a logger the package logs to), a path ``x/y.py`` whose first folder
is one of the repository's or the package's (``src/app.py`` in an example names no file
of this repository and is not checked), and a Sphinx reference ``:mod:`.name``` relative
to the module that holds it.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "src" / "patchwright"
DOCS = [
    *sorted((REPO / "docs").glob("*.md")),
    REPO / "README.md",
]

_DOTTED = re.compile(r"(?<![\w.])patchwright(?:\.[A-Za-z_]\w*)+")
_PATH = re.compile(r"(?<![\w./-])((?:[\w.-]+/)+[\w-]+\.py)\b")
_RELATIVE = re.compile(r":mod:`~?(\.[.\w]*)`")
_LOGGER = re.compile(r"getLogger\(\s*\"([\w.]+)\"")

_FILES = {p.relative_to(REPO).as_posix() for p in REPO.rglob("*.py") if ".git" not in p.parts}
# the first folder of a path that names a file of the repository
_ROOTS = {"src", "tests", "bench", "docs", "scripts", "patchwright"} | {
    p.name for p in PACKAGE.rglob("*") if p.is_dir() and p.name != "__pycache__"
}
_LOGGERS = {name for p in PACKAGE.rglob("*.py") for name in _LOGGER.findall(p.read_text("utf-8"))}


def _docstrings(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text:
                yield text


def _texts() -> Iterator[tuple[Path, str]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        for text in _docstrings(path):
            yield path, text
    for path in DOCS:
        yield path, path.read_text(encoding="utf-8")


def _dotted_exists(name: str) -> bool:
    if name in _LOGGERS:
        return True
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[i:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def _path_exists(path: str) -> bool:
    first = path.split("/", 1)[0]
    if first not in _ROOTS or (first == "src" and not path.startswith("src/patchwright/")):
        return True  # an example's path, not one of this repository
    return any(f == path or f.endswith("/" + path) for f in _FILES)


def _relative_exists(where: Path, reference: str) -> bool:
    base = where.parent
    rest = reference[1:]
    while rest.startswith("."):
        base, rest = base.parent, rest[1:]
    target = base.joinpath(*rest.split(".")) if rest else base
    return target.with_suffix(".py").is_file() or (target / "__init__.py").is_file()


def _missing() -> list[str]:
    missing = set()
    for where, text in _texts():
        shown = where.relative_to(REPO).as_posix()
        missing |= {f"{shown}: {n}" for n in _DOTTED.findall(text) if not _dotted_exists(n)}
        missing |= {f"{shown}: {p}" for p in _PATH.findall(text) if not _path_exists(p)}
        if where.suffix == ".py":
            missing |= {
                f"{shown}: :mod:`{r}`"
                for r in _RELATIVE.findall(text)
                if not _relative_exists(where, r)
            }
    return sorted(missing)


def test_every_module_named_in_docstrings_and_docs_exists() -> None:
    assert _missing() == []


def test_the_check_finds_a_missing_name() -> None:
    assert _dotted_exists("patchwright.workspace.gate.DrainGate")
    assert not _dotted_exists("patchwright.workspace.no_such_module")
    assert _path_exists("workspace/history/store.py")
    assert not _path_exists("workspace/no_such_module.py")
    assert _path_exists("src/app.py")  # an example's
    assert _relative_exists(PACKAGE / "tools" / "dispatch.py", ".writing")
    assert not _relative_exists(PACKAGE / "tools" / "patch" / "tool.py", ".no_such_module")
