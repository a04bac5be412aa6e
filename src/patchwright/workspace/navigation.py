"""Looking around a workspace: folder entries, ignore-aware file walks, nearest paths.

* :func:`entries`: the names in one folder (folders end with ``/``), for a model that
  named a folder where a file was expected;
* :func:`walk`: regular files under a folder, depth first and sorted, matching a glob,
  skipping what ``.gitignore`` files ignore (the root's and every folder's own, read
  with ``pathspec``'s git semantics) and never entering an ignored or denied folder;
  bounded by a count;
* :func:`nearest`: existing paths closest to one that does not exist ("did you mean").

Everything goes through the sandbox: denied paths are never listed, symlinks are not
followed, and ``.gitignore`` files are read with the sandbox's size limit.
"""

from __future__ import annotations

import difflib
import posixpath
from collections.abc import Iterator
from itertools import islice

import pathspec

from patchwright._records import record
from patchwright.model.errors import PatchwrightError
from patchwright.model.text import split_lines
from patchwright.workspace.listing import _entries as _children  # one folder read
from patchwright.workspace.patterns import GITIGNORE_BACKEND
from patchwright.workspace.sandbox import Sandbox

_IGNORE_FILE = ".gitignore"
# how many files "did you mean" compares a missing path against
_NEAREST_POOL = 20_000


@record(frozen=True)
class Walk:
    """The files a walk found.

    Attributes:
        files: workspace paths, depth first, each folder's entries by name.
        truncated: the walk stopped at its limit; more files match.
    """

    files: list[str]
    truncated: bool


def folder_of(sandbox: Sandbox, path: str) -> str:
    """The resolved folder ``path`` names (``""`` for the root).

    Raises:
        PatchwrightError: sandbox refusals; ``not_a_file`` via the caller's probe.
    """
    if posixpath.normpath(path.strip() or ".") in (".", "/"):
        return ""
    return sandbox.resolve(path)


def entries(sandbox: Sandbox, folder: str) -> list[str]:
    """The names in ``folder`` (resolved, ``""`` for the root), sorted, folders with a
    trailing ``/``; denied entries are left out."""
    out: list[str] = []
    for rel in _children(sandbox, folder):
        if sandbox.deny.match(rel) is not None:
            continue
        kind = sandbox.fs.probe(sandbox.abspath(rel)).kind
        name = posixpath.basename(rel)
        out.append(name + "/" if kind == "dir" else name)
    return out


def walk(
    sandbox: Sandbox,
    folder: str = "",
    *,
    glob: str | None = None,
    limit: int = 1000,
    gitignore: bool = True,
) -> Walk:
    """Regular files under ``folder`` matching ``glob`` (git wildmatch: ``*.py`` matches
    at any depth, ``src/**/*.py`` under ``src``), at most ``limit``."""
    wanted = (
        pathspec.PathSpec.from_lines("gitignore", [glob], backend=GITIGNORE_BACKEND)
        if glob
        else None
    )
    found: list[str] = []
    for rel in _files(sandbox, folder, gitignore):
        if wanted is not None and not wanted.match_file(rel):
            continue
        if len(found) == limit:
            return Walk(found, True)
        found.append(rel)
    return Walk(found, False)


def nearest(sandbox: Sandbox, path: str, count: int = 3) -> list[str]:
    """Up to ``count`` existing paths (files, or folders ending in ``/``) closest to
    ``path``: the same name elsewhere first, then by similarity of the whole path, then
    of the last name."""
    wanted = path.replace("\\", "/").strip().strip("/")
    name = posixpath.basename(wanted)
    shown: dict[str, str] = {}  # path without a trailing slash -> as shown
    for rel in _files(sandbox, "", gitignore=False):
        shown[rel] = rel
        for folder in _parents(rel):
            shown.setdefault(folder, folder + "/")
        if len(shown) >= _NEAREST_POOL:
            break
    same_name = [p for p in shown if posixpath.basename(p).casefold() == name.casefold()]
    close = difflib.get_close_matches(wanted, list(shown), n=count, cutoff=0.6)
    names = {posixpath.basename(p) for p in shown}
    by_name = set(difflib.get_close_matches(name, list(names), n=count, cutoff=0.6))
    named = [p for p in shown if posixpath.basename(p) in by_name]
    ranked = list(dict.fromkeys([*same_name, *close, *named]))[:count]
    return [shown[p] for p in ranked]


def _parents(rel: str) -> list[str]:
    parts = rel.split("/")[:-1]
    return ["/".join(parts[: n + 1]) for n in range(len(parts))]


def list_files(sandbox: Sandbox, under: str = "", *, limit: int = 10_000) -> list[str]:
    """Regular files below ``under`` (the whole root by default), at most ``limit``, with
    no ignore rules: the walk of :func:`_files`, depth first, each folder's entries by
    name, so the first ``limit`` files are a stable answer."""
    start = "" if posixpath.normpath(under or ".") == "." else sandbox.resolve(under)
    return list(islice(_files(sandbox, start, gitignore=False), limit))


def _files(sandbox: Sandbox, folder: str, gitignore: bool) -> Iterator[str]:
    """Regular files under ``folder``, depth first and sorted, pruning ignored folders."""
    rules: list[tuple[str, pathspec.GitIgnoreSpec]] = []
    if gitignore:
        rules = [r for f in _ancestors(folder) if (r := _rules(sandbox, f)) is not None]
    stack: list[tuple[Iterator[str], int]] = [(iter(_children(sandbox, folder)), len(rules))]
    if gitignore and folder and (own := _rules(sandbox, folder)) is not None:
        rules.append(own)
        stack[-1] = (stack[-1][0], len(rules))
    while stack:
        children, depth = stack[-1]
        del rules[depth:]
        rel = next(children, None)
        if rel is None:
            stack.pop()
            continue
        if sandbox.deny.match(rel) is not None:
            continue
        kind = sandbox.fs.probe(sandbox.abspath(rel)).kind
        if kind == "dir":
            if _ignored(rules, rel + "/"):
                continue
            if gitignore and (own := _rules(sandbox, rel)) is not None:
                rules.append(own)
            stack.append((iter(_children(sandbox, rel)), len(rules)))
        elif kind == "file" and _allowed(sandbox, rel) and not _ignored(rules, rel):
            yield rel


def _allowed(sandbox: Sandbox, rel: str) -> bool:
    return not sandbox.allow or sandbox.allow.match(rel) is not None


def _ancestors(folder: str) -> list[str]:
    """The root and every folder above ``folder`` (not ``folder`` itself)."""
    if not folder:
        return [""]
    return ["", *_parents(folder + "/x")[:-1]]


def _rules(sandbox: Sandbox, folder: str) -> tuple[str, pathspec.GitIgnoreSpec] | None:
    rel = posixpath.join(folder, _IGNORE_FILE) if folder else _IGNORE_FILE
    try:
        state = sandbox.read(rel)
    except PatchwrightError:
        return None  # a denied, odd or oversized ignore file ignores nothing
    if state is None:
        return None
    lines = split_lines(state.data.decode("utf-8", "replace"))[0]
    return folder, pathspec.GitIgnoreSpec.from_lines(lines, backend=GITIGNORE_BACKEND)


def _ignored(rules: list[tuple[str, pathspec.GitIgnoreSpec]], rel: str) -> bool:
    for base, spec in rules:
        inner = rel[len(base) + 1 :] if base else rel
        if (not base or rel.startswith(base + "/")) and spec.match_file(inner):
            return True
    return False
