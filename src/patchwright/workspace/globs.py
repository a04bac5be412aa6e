"""Path globs for the workspace's allow and deny rules.

Patterns are posix paths relative to the workspace root:

* ``*`` matches within one path segment, ``?`` one character, ``[abc]`` / ``[!abc]`` a set;
* a ``**`` segment matches any number of segments (``**/.git`` matches ``.git`` and
  ``a/b/.git``; ``build/**`` everything under ``build``);
* a trailing ``/`` means the folder and everything under it.

A rule applies to a path when it matches the path **or any of its parent folders**, so
denying ``.git`` also denies ``.git/config``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from patchwright.workspace.patterns import compile_glob_regex

#: Refused by default: git's own files at any depth.
DEFAULT_DENY: tuple[str, ...] = ("**/.git", "**/.git/**")


def _segment(segment: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(segment):
        char = segment[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = segment.find("]", i + 2)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = segment[i + 1 : end]
                negate = body.startswith("!")
                body = body[1:] if negate else body
                out.append(("[^/" if negate else "[") + body.replace("\\", "\\\\") + "]")
                i = end
        else:
            out.append(re.escape(char))
        i += 1
    return "".join(out)


def glob_regex(pattern: str) -> str:
    """The regular expression (without anchors) a glob pattern stands for."""
    pattern = pattern.strip().lstrip("/")
    if pattern.endswith("/"):
        pattern += "**"
    segments = [s for s in pattern.split("/") if s not in ("", ".")]
    parts: list[str] = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            parts.append(".+" if last else "(?:[^/]+/)*")
        else:
            parts.append(_segment(segment) + ("" if last else "/"))
    return "".join(parts)


class GlobSet:
    """A set of glob patterns, matched against a path and each of its parent folders."""

    def __init__(self, patterns: Iterable[str], *, ignore_case: bool = False) -> None:
        self.patterns: tuple[str, ...] = tuple(patterns)
        # RE2: a glob such as *a*a*a...*b matches in linear time (patterns.py)
        self._compiled = [
            (p, compile_glob_regex(glob_regex(p), ignore_case=ignore_case)) for p in self.patterns
        ]

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def match(self, path: str) -> str | None:
        """The first pattern matching ``path`` or one of its parents, else ``None``."""
        for candidate in _self_and_parents(path.split("/")):
            for pattern, regex in self._compiled:
                if regex.fullmatch(candidate):
                    return pattern
        return None

    def match_entry(self, path: str) -> str | None:
        """The first pattern matching ``path`` itself, for a walk that never entered a
        folder a pattern matched (so its parents need no second look): linear in the
        path's length instead of quadratic."""
        for pattern, regex in self._compiled:
            if regex.fullmatch(path):
                return pattern
        return None


def _self_and_parents(segments: Sequence[str]) -> list[str]:
    return ["/".join(segments[:n]) for n in range(len(segments), 0, -1)]
