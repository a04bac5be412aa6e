"""Allow / deny glob semantics."""

from __future__ import annotations

import pytest

from patchwright.workspace.globs import DEFAULT_DENY, GlobSet

CASES = [
    # pattern, path, matches
    ("**/.git", ".git", True),
    ("**/.git", "a/b/.git/config", True),  # a parent matches
    ("**/.git", "a/.github/x", False),
    (".git/**", ".git/objects/ab/cd", True),
    (".git/**", "x/.git/config", False),
    ("*.py", "app.py", True),
    ("*.py", "src/app.py", False),
    ("**/*.py", "src/deep/app.py", True),
    ("src/*.py", "src/app.py", True),
    ("src/*.py", "src/a/app.py", False),
    ("build/", "build/out/x.o", True),
    ("build/", "rebuild/x", False),
    ("file?.txt", "file1.txt", True),
    ("file?.txt", "file10.txt", False),
    ("[!a]*.txt", "b.txt", True),
    ("[!a]*.txt", "a.txt", False),
    ("[ab].txt", "b.txt", True),
    ("node_modules", "web/node_modules/x.js", False),
    ("**/node_modules", "web/node_modules/x.js", True),
    ("a+b(c).txt", "a+b(c).txt", True),
]


@pytest.mark.parametrize(("pattern", "path", "matches"), CASES)
def test_glob_matching(pattern: str, path: str, matches: bool) -> None:
    assert (GlobSet([pattern]).match(path) is not None) is matches


def test_default_deny_and_case() -> None:
    deny = GlobSet(DEFAULT_DENY, ignore_case=True)
    assert deny.match(".git/config") and deny.match("sub/.Git/HEAD") and deny.match(".git")
    assert deny.match("src/git.py") is None
    assert GlobSet(["src/**"]).match("SRC/a.py") is None
