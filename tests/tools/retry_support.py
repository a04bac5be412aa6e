"""Real source lines of the shared corpus, and the five edit shapes an agent retries.

A *site* is one line of a real file (the ``before`` of a corpus case) that occurs once in
it as text. Each shape turns a site into an old/new pair, the way an agent writes it:

* ``append``: text added at the end of the line;
* ``wrap``: the line put inside an ``if`` block;
* ``rewrite``: the line replaced by another;
* ``delete``: the line removed;
* ``insert``: a new line added after it.

:func:`tool_calls` turns one edit into the call every tool of a preset takes for it.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def _corpus() -> Path:
    named = os.environ.get("PATCHWRIGHT_CORPUS")
    if named:
        return Path(named)
    for parent in Path(__file__).resolve().parents:
        if (parent / "shared" / "corpus" / "manifest.jsonl").is_file():
            return parent / "shared" / "corpus"
    return Path("/nonexistent/corpus")


CORPUS = _corpus()
SHAPES = ("append", "wrap", "rewrite", "delete", "insert")


def available() -> bool:
    """Whether the corpus is there."""
    return (CORPUS / "cases.jsonl").is_file()


@dataclass(frozen=True)
class Site:
    """One line of a real file: the file's path and text, the line (without its end)."""

    path: str
    text: str
    line: str


def sites(count: int, *, per_file: int = 8) -> list[Site]:
    """``count`` sites from the corpus's Python files (flask), at most ``per_file`` a file,
    in the order of ``cases.jsonl``: lines of at least 16 characters with a few letters,
    whole statements (not opening a block), occurring once in the file as text."""
    found: list[Site] = []
    seen_paths: set[str] = set()
    with open(CORPUS / "cases.jsonl", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    for row in rows:
        path = row["path"]
        if not path.endswith(".py") or path in seen_paths:
            continue
        seen_paths.add(path)
        text = (CORPUS / "cases" / row["case"] / "before").read_bytes().decode("utf-8")
        if "\r" in text or "\t" in text:
            continue
        picked = 0
        for line in text.split("\n")[::3]:
            body = line.strip()
            if (
                len(body) < 16
                or sum(c.isalnum() for c in body) < 10
                or body.endswith((":", ",", "(", "[", "{", "\\"))
                or body.startswith(("#", '"', "'", "@", ")", "]", "}"))
                or text.count(line) != 1
            ):
                continue
            found.append(Site(path, text, line))
            picked += 1
            if len(found) == count:
                return found
            if picked == per_file:
                break
    return found


@dataclass(frozen=True)
class Change:
    """One edit of a site: the exact old and new text (whole lines, with their ends)."""

    old: str
    new: str


def change(site_line: str, shape: str, tag: int) -> Change:
    """The ``shape`` edit of the line ``site_line`` (``tag`` keeps added text unique)."""
    indent = site_line[: len(site_line) - len(site_line.lstrip())]
    old = site_line + "\n"
    if shape == "append":
        return Change(old, f"{site_line}  # checked {tag}\n")
    if shape == "wrap":
        return Change(old, f"{indent}if ready_{tag}:\n    {site_line}\n")
    if shape == "rewrite":
        return Change(old, f"{indent}result_{tag} = compute_{tag}(value)\n")
    if shape == "delete":
        return Change(old, "")
    if shape == "insert":
        return Change(old, f"{old}{indent}log_{tag}('after the line')\n")
    raise ValueError(shape)


def _hunks(before: str, after: str) -> Iterator[list[str]]:
    rows = list(difflib.unified_diff(before.splitlines(True), after.splitlines(True), n=3))
    hunk: list[str] = []
    for row in rows[2:]:
        if row.startswith("@@"):
            if hunk:
                yield hunk
            hunk = []
        else:
            hunk.append(row)
    if hunk:
        yield hunk


def unified(path: str, before: str, after: str) -> str:
    """The unified diff of the change, as ``git diff`` writes it."""
    rows = difflib.unified_diff(
        before.splitlines(True), after.splitlines(True), f"a/{path}", f"b/{path}", n=3
    )
    return "".join(rows)


def v4a(path: str, before: str, after: str) -> str:
    """The change as an OpenAI ``*** Begin Patch`` text (three lines of context)."""
    body = "".join("@@\n" + "".join(h) for h in _hunks(before, after))
    return f"*** Begin Patch\n*** Update File: {path}\n{body}*** End Patch\n"


def search_replace(path: str, old: str, new: str) -> str:
    """The change as one SEARCH/REPLACE block."""
    return f"{path}\n<<<<<<< SEARCH\n{old}=======\n{new}>>>>>>> REPLACE\n"


#: Every (preset, tool variant) the measurement sends each edit through.
VARIANTS = (
    ("default", "edit_file"),
    ("default", "edit_file edits"),
    ("default", "apply_patch v4a"),
    ("default", "apply_patch unified"),
    ("default", "apply_patch search-replace"),
    ("anthropic", "str_replace"),
    ("anthropic", "insert"),
    ("claude-code", "Edit"),
    ("claude-code", "MultiEdit"),
    ("claude-code", "Write"),
    ("openai", "apply_patch"),
    ("spec", "patch"),
    ("spec", "edit_lines"),
    ("spec", "apply_diff"),
    ("spec", "document_edit"),
)


def tool_call(variant: str, path: str, text: str, edit: Change) -> tuple[str, dict[str, Any]]:
    """The tool name and arguments that make ``edit`` on the file ``path`` (whose text is
    ``text``) through ``variant``."""
    after = text.replace(edit.old, edit.new, 1)
    if variant == "edit_file":
        return "edit_file", {"path": path, "old_string": edit.old, "new_string": edit.new}
    if variant == "edit_file edits":
        return "edit_file", {"path": path, "edits": [{"old_string": edit.old,
                                                       "new_string": edit.new}]}  # fmt: skip
    if variant == "apply_patch v4a":
        return "apply_patch", {"patch": v4a(path, text, after)}
    if variant == "apply_patch unified":
        return "apply_patch", {"patch": unified(path, text, after)}
    if variant == "apply_patch search-replace":
        return "apply_patch", {"patch": search_replace(path, edit.old, edit.new)}
    if variant == "str_replace":
        return "str_replace_based_edit_tool", {
            "command": "str_replace", "path": path, "old_str": edit.old, "new_str": edit.new,
        }  # fmt: skip
    if variant == "insert":
        # the insert command only adds lines: other shapes go through str_replace
        if not edit.new.startswith(edit.old):
            return tool_call("str_replace", path, text, edit)
        line = text[: text.index(edit.old) + len(edit.old)].count("\n")
        return "str_replace_based_edit_tool", {
            "command": "insert", "path": path, "insert_line": line,
            "insert_text": edit.new[len(edit.old):],
        }  # fmt: skip
    if variant == "Edit":
        return "Edit", {"file_path": path, "old_string": edit.old, "new_string": edit.new}
    if variant == "MultiEdit":
        return "MultiEdit", {"file_path": path, "edits": [{"old_string": edit.old,
                                                           "new_string": edit.new}]}  # fmt: skip
    if variant == "Write":
        return "Write", {"file_path": path, "content": after}
    if variant == "apply_patch":
        return "apply_patch", {"input": v4a(path, text, after)}
    if variant in _SPEC_VARIANTS:
        return _spec_call(variant, path, text, edit)
    raise ValueError(variant)


_SPEC_VARIANTS = ("patch", "edit_lines", "apply_diff", "document_edit")


def _spec_call(variant: str, path: str, text: str, edit: Change) -> tuple[str, dict[str, Any]]:
    """:func:`tool_call` for the tools of the ``spec`` preset."""
    after = text.replace(edit.old, edit.new, 1)
    if variant == "patch":
        return "patch", {"path": path, "patches": [{"operation": "replace", "oldText": edit.old,
                                                     "newText": edit.new}]}  # fmt: skip
    if variant == "edit_lines":
        line = text[: text.index(edit.old)].count("\n") + 1
        return "edit_lines", {"path": path, "start_line": line, "new_content": edit.new}
    if variant == "apply_diff":
        return "apply_diff", {"target": path, "diff": unified(path, text, after)}
    if variant == "document_edit":
        version = hashlib.sha256(text.encode("utf-8")).hexdigest()
        return "document_edit", {"path": path, "diff": unified(path, text, after),
                                 "document_version": version}  # fmt: skip
    raise ValueError(variant)
