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
from patchwright.workspace.dirfd import FolderWalk
from patchwright.workspace.fs import kind_of
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
    """Regular files under ``folder``, depth first and sorted, pruning ignored folders.

    The walk goes from folder to folder by descriptor (``FileSystem.walk_folders``):
    linear in depth, complete at any depth the file system allows. A folder is looked
    at once: its entries' kinds come with its listing, a deny rule is matched against
    the entry alone (the walk never entered a denied folder), and its ``.gitignore`` is
    read only when the listing shows one.
    """
    rules: list[tuple[str, pathspec.GitIgnoreSpec]] = []
    if gitignore:
        rules = [r for f in _ancestors(folder) if (r := _rules(sandbox, f)) is not None]
    start = sandbox.abspath(folder) if folder else sandbox.root
    try:
        with sandbox.fs.walk_folders(start) as tree:
            yield from _descend(sandbox, tree, folder, rules if gitignore else None)
    except OSError:
        # not a folder (any more), or the tree moved under the walk (FolderMoved): the
        # files found so far are all there is to list
        return


def _descend(
    sandbox: Sandbox,
    tree: FolderWalk,
    folder: str,
    rules: list[tuple[str, pathspec.GitIgnoreSpec]] | None,
) -> Iterator[str]:
    """:func:`_files` inside an open walk (``rules`` is ``None`` without ignore files)."""
    ignores = rules if rules is not None else []
    first = tree.entries()
    # the root's own rules came with the ancestors'
    own = None
    if rules is not None and folder and _has_ignore_file(first):
        own = _rules(sandbox, folder)
    if folder and own is not None:
        ignores.append(own)
    stack: list[tuple[Iterator[tuple[str, int]], str, int]] = [(iter(first), folder, len(ignores))]
    while stack:
        children, base, depth = stack[-1]
        del ignores[depth:]
        entry = next(children, None)
        if entry is None:
            stack.pop()
            if stack:
                tree.leave()
            continue
        name, mode = entry
        rel = posixpath.join(base, name) if base else name
        if sandbox.deny.match_entry(rel) is not None:
            continue
        kind = kind_of(mode)
        if kind == "dir":
            if _ignored(ignores, rel + "/") or not tree.enter(name):
                continue
            listed = tree.entries()
            own = _rules(sandbox, rel) if rules is not None and _has_ignore_file(listed) else None
            if own is not None:
                ignores.append(own)
            stack.append((iter(listed), rel, len(ignores)))
        elif kind == "file" and _allowed(sandbox, rel) and not _ignored(ignores, rel):
            yield rel


def _has_ignore_file(entries: list[tuple[str, int]]) -> bool:
    return any(name == _IGNORE_FILE and kind_of(mode) == "file" for name, mode in entries)


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
