"""``patchwright apply -p N`` and ``-R``: rewrite a unified diff before it is parsed.

Both work on the text of a unified or git diff, as ``patch`` does:

* ``-p N`` removes the first ``N`` path components from every file name in the
  ``---`` / ``+++`` / ``diff --git`` / ``rename`` / ``copy`` headers (``/dev/null`` is
  kept). Without ``-p`` patchwright drops git's ``a/`` and ``b/`` by itself.
* ``-R`` turns the diff around: old and new names, ``-`` and ``+`` lines (each change
  block keeps its removals first), hunk ranges, ``new``/``deleted file mode``,
  ``old``/``new mode``, ``rename from``/``to`` and ``index`` hashes swap.

Inside a hunk the lines are counted from its ``@@`` header (see diffstat.py), so a
removed line that starts with ``--`` is never mistaken for a header.
"""

from __future__ import annotations

import re

from patchwright.adapters.diffstat import classify
from patchwright.model.text import diff_rows

_SWAPS = {
    "new file mode ": "deleted file mode ",
    "deleted file mode ": "new file mode ",
    "old mode ": "new mode ",
    "new mode ": "old mode ",
    "rename from ": "rename to ",
    "rename to ": "rename from ",
}
_PATH_HEADERS = ("--- ", "+++ ", "rename from ", "rename to ", "copy from ", "copy to ")
_HUNK = re.compile(r"^@@ -(\d+(?:,\d+)?) \+(\d+(?:,\d+)?) @@(.*)$")
_INDEX = re.compile(r"^index ([0-9a-fA-F]+)\.\.([0-9a-fA-F]+)(.*)$")
_GIT = re.compile(r"^diff --git (\S+) (\S+)$")
_DEV_NULL = "/dev/null"


class PatchOptionError(ValueError):
    """A ``-p`` that strips a whole file name, or a patch ``-R`` cannot turn around."""


def strip_paths(text: str, count: int) -> str:
    """``text`` with ``count`` leading path components removed from every file name.

    Raises:
        PatchOptionError: a file name with ``count`` components or fewer (naming the line).
    """
    if count == 0:
        return text
    out: list[str] = []
    for number, (kind, line) in enumerate(_lines(text), start=1):
        if kind == "header":
            line = _strip_header(line, count, number)
        out.append(line)
    return "".join(out)


def _strip_header(line: str, count: int, number: int) -> str:
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    git = _GIT.match(body)
    if git:
        old, new = (_strip_one(p, count, number) for p in git.groups())
        return f"diff --git {old} {new}{ending}"
    for head in _PATH_HEADERS:
        if body.startswith(head):
            name, tab, stamp = body[len(head) :].partition("\t")
            return f"{head}{_strip_one(name, count, number)}{tab}{stamp}{ending}"
    return line


def _strip_one(name: str, count: int, number: int) -> str:
    if name == _DEV_NULL:
        return name
    quoted = name.startswith('"') and name.endswith('"') and len(name) > 1
    inner = name[1:-1] if quoted else name
    parts = inner.split("/")
    if len(parts) <= count:
        raise PatchOptionError(
            f"line {number}: -p {count} strips the whole file name {name!r}; "
            f"use a smaller -p (this name has {len(parts) - 1} folder(s))."
        )
    rest = "/".join(parts[count:])
    return f'"{rest}"' if quoted else rest


def reverse(text: str) -> str:
    """The diff that undoes ``text`` (see the module docstring).

    Raises:
        PatchOptionError: a ``copy`` header (its reverse is not a patch of the same files).
    """
    out: list[str] = []
    # a change block turned around: the new lines (now removals) first, then the old
    removals: list[str] = []
    additions: list[str] = []
    pending_old: str | None = None
    last = "context"
    for number, (kind, line) in enumerate(_lines(text), start=1):
        if kind == "note":
            # "\ No newline" belongs to the line before it, wherever that line went
            {"add": removals, "del": additions}.get(last, out).append(line)
            continue
        last = kind
        if kind == "del":
            additions.append("+" + line[1:])
            continue
        if kind == "add":
            removals.append("-" + line[1:])
            continue
        out.extend(removals + additions)
        removals.clear()
        additions.clear()
        if kind == "hunk":
            out.append(_reverse_hunk(line))
        elif kind == "context":
            out.append(line)
        elif line.startswith("--- "):
            pending_old = line
        elif line.startswith("+++ ") and pending_old is not None:
            out.extend(_swap_names(pending_old, line))
            pending_old = None
        else:
            out.append(_reverse_header(line, number))
    out.extend(removals + additions)
    if pending_old is not None:
        out.append(pending_old)
    return "".join(out)


def _swap_names(old_line: str, new_line: str) -> list[str]:
    old, new = old_line[4:], new_line[4:]
    # a/ and b/ stay where they were: only the names behind them change places
    if old.startswith("a/") and new.startswith("b/"):
        return [f"--- a/{new[2:]}", f"+++ b/{old[2:]}"]
    return [f"--- {_ended(new, old)}", f"+++ {_ended(old, new)}"]


def _ended(name: str, like: str) -> str:
    """``name`` with the line ending of ``like``."""
    return name.rstrip("\r\n") + like[len(like.rstrip("\r\n")) :]


def _reverse_hunk(line: str) -> str:
    body = line.rstrip("\r\n")
    match = _HUNK.match(body)
    if match is None:
        return line
    old, new, rest = match.groups()
    return f"@@ -{new} +{old} @@{rest}{line[len(body) :]}"


def _reverse_header(line: str, number: int) -> str:
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    if body.startswith(("copy from ", "copy to ")):
        raise PatchOptionError(
            f"line {number}: -R cannot turn a copied file around; "
            "remove the copy from the patch or apply it forwards."
        )
    git = _GIT.match(body)
    if git:
        old, new = git.groups()
        if old.startswith("a/") and new.startswith("b/"):
            return f"diff --git a/{new[2:]} b/{old[2:]}{ending}"
        return f"diff --git {new} {old}{ending}"
    index = _INDEX.match(body)
    if index:
        return f"index {index.group(2)}..{index.group(1)}{index.group(3)}{ending}"
    for head, swapped in _SWAPS.items():
        if body.startswith(head):
            return swapped + body[len(head) :] + ending
    return line


def _lines(text: str) -> list[tuple[str, str]]:
    """Each line of ``text`` with its ending, classified as in diffstat.py."""
    raw = diff_rows(text, keepends=True)
    kinds = [kind for kind, _ in classify(text)]
    return list(zip(kinds, raw, strict=True))
