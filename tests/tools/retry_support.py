"""Real source lines of the shared corpus, and the five edit shapes an agent retries.

A *site* is one line of a real file (the ``before`` of a corpus case) that occurs once in
it as text. Each shape turns a site into an old/new pair, the way an agent writes it:

* ``append``: text added at the end of the line;
* ``wrap``: the line put inside an ``if`` block;
* ``rewrite``: the line replaced by another;
* ``delete``: the line removed;
* ``insert``: a new line added after it.

:func:`tool_call` turns one edit into the call every tool of a preset takes for it, and
:func:`measure` sends each call twice and counts what the second one did (the test
tests/tools/test_retries.py and the script bench/retries.py share it).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from patchwright.engine.replacing.snippet.markers import ELLIPSES, marker_body
from patchwright.tools import Toolbox
from patchwright.workspace import Workspace


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


def sites(
    count: int, *, per_file: int = 8, skip: Callable[[str], bool] | None = None
) -> list[Site]:
    """``count`` sites from the corpus's Python files (flask), at most ``per_file`` a file,
    in the order of ``cases.jsonl``: lines of at least 16 characters with a few letters,
    whole statements (not opening a block), occurring once in the file as text. A file
    whose text ``skip`` is true of gives none."""
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
        if "\r" in text or "\t" in text or (skip is not None and skip(text)):
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


def sites_for(variant: str, count: int) -> list[Site]:
    """:func:`sites` for one tool variant. A new file's text is all new text, so a line
    in it worded like a placeholder (``# ... existing code ...``; a bare ``...`` is text
    in a new file) is refused by the placeholder guard: ``create`` takes its sites from
    files without such a line."""
    if variant != "create":
        return sites(count)
    return sites(count, skip=lambda text: any(_worded(line) for line in text.split("\n")))


def _worded(line: str) -> bool:
    """Whether ``line`` is shaped like a placeholder other than a bare ellipsis."""
    return marker_body(line) is not None and line.strip() not in ELLIPSES


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
    ("claude-code", "NotebookEdit"),
    ("anthropic", "create"),
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
    if variant in ("Write", "NotebookEdit", "create"):
        return _whole_call(variant, path, after)
    if variant == "apply_patch":
        return "apply_patch", {"input": v4a(path, text, after)}
    if variant in _SPEC_VARIANTS:
        return _spec_call(variant, path, text, edit)
    raise ValueError(variant)


_SPEC_VARIANTS = ("patch", "edit_lines", "apply_diff", "document_edit")


def _whole_call(variant: str, path: str, after: str) -> tuple[str, dict[str, Any]]:
    """:func:`tool_call` for the tools that take a whole new text, ``after``."""
    if variant == "Write":
        return "Write", {"file_path": path, "content": after}
    if variant == "NotebookEdit":
        # the notebook's one cell holds the file's text (see :func:`notebook`)
        return "NotebookEdit", {"notebook_path": path, "cell_id": NOTEBOOK_CELL,
                                "new_source": after}  # fmt: skip
    # create: a new file (see :func:`target`) whose whole text is the edited one
    return "str_replace_based_edit_tool", {"command": "create", "path": path,
                                           "file_text": after}  # fmt: skip


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


#: The id of the one cell of a measured notebook.
NOTEBOOK_CELL = "c0ffee00"


def notebook(text: str) -> bytes:
    """A notebook (nbformat 4.5) whose one code cell holds ``text``."""
    cell: dict[str, Any] = {"cell_type": "code", "execution_count": None,
                            "id": NOTEBOOK_CELL, "metadata": {}, "outputs": [],
                            "source": text.splitlines(True)}  # fmt: skip
    body = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return (json.dumps(body, indent=1) + "\n").encode("utf-8")


def target(variant: str, site: Site, number: int) -> str:
    """The path ``variant`` edits for the ``number``-th (shape, site) pair: the site's
    file, the notebook beside it, or (``create``) a new file of its own."""
    if variant == "NotebookEdit":
        return site.path + ".ipynb"
    if variant == "create":
        return f"created/{number}/{site.path}"
    return site.path


def text_of(variant: str, data: bytes) -> str:
    """The text an edit of ``variant`` works on, from the bytes of its file."""
    if variant == "NotebookEdit":
        (cell,) = json.loads(data)["cells"]
        source = cell["source"]
        return source if isinstance(source, str) else "".join(source)
    return data.decode("utf-8")


#: What a second call can do: left the file alone saying "already applied", refused
#: (file untouched), changed the file again, or left it alone with another answer.
OUTCOMES = ("already applied", "refused", "applied twice", "other")


def measure(
    root: Path, state: Path, preset: str, variant: str, chosen: list[Site], *, history: bool = True
) -> Counter[tuple[str, str]]:
    """Outcomes of the second call of every (shape, site) pair through one variant, by
    (shape, outcome): each pair's edit is made once (checked byte for byte), then the
    very same call is sent again, as an agent does after a time-out."""
    workspace = Workspace(root, state_dir=state, history=history)
    # the syntax guard has nothing to say about a retry: off, for a shorter run
    toolbox = Toolbox(workspace, preset=preset, syntax_policy="off")
    outcomes: Counter[tuple[str, str]] = Counter()
    for site in {s.path: s for s in chosen}.values():
        placed = root / target(variant, site, 0)
        placed.parent.mkdir(parents=True, exist_ok=True)
        if variant == "NotebookEdit":
            placed.write_bytes(notebook(site.text))
        elif variant != "create":
            placed.write_bytes(site.text.encode("utf-8"))
    # each shape on its own lines: the sites of shape k are chosen[k::len(SHAPES)]
    pairs = [(SHAPES[k % len(SHAPES)], site) for k, site in enumerate(chosen)]
    for number, (shape, site) in enumerate(pairs):
        path = target(variant, site, number)
        file = root / path
        if preset == "claude-code":
            assert toolbox.call("Read", {"file_path": path}).ok
        text = text_of(variant, file.read_bytes()) if file.exists() else site.text
        edit = change(site.line, shape, number)
        assert text.count(edit.old) == 1, (path, edit.old)
        name, arguments = tool_call(variant, path, text, edit)
        first = toolbox.call(name, arguments)
        assert first.ok, (variant, shape, first.text)
        applied = file.read_bytes()
        assert text_of(variant, applied) == text.replace(edit.old, edit.new, 1), (variant, shape)
        second = toolbox.call(name, arguments)
        if file.read_bytes() != applied:
            outcome = "applied twice"
        elif second.ok and second.text.startswith("Already applied"):
            outcome = "already applied"
        elif not second.ok:
            outcome = "refused"
        else:
            outcome = "other"
        outcomes[(shape, outcome)] += 1
    return outcomes
