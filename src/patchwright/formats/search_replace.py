"""SEARCH/REPLACE blocks into the edit model.

Grammar::

    text   := (prose | path_line | fence | block)*
    block  := "<<<<<<< SEARCH" NL old_line* "=======" NL new_line* ">>>>>>> REPLACE" NL
    path_line := a file path on its own line

Each block belongs to the nearest path named before it since the previous block;
a block with none reuses the previous block's path. Blocks become
``Edit(OldText(search), replacement=replace, label="block N")`` (N counts blocks in
the whole text), consecutive blocks of one path form one :class:`FilePatch`, composed
SEQUENTIALLY. Search and replacement are their lines each followed by ``"\\n"`` (whole
lines; an empty side is ``""``). An empty SEARCH stays ``OldText("")``: the apply layer
creates a missing file from it and the engine refuses it on a non-empty file.

Leniencies:

* 5 to 9 marker characters (``<<<<<``, ``>>>>>>>>>``) and ``ORIGINAL`` / ``UPDATED``
  as synonyms of ``SEARCH`` / ``REPLACE``, in any case (models miscount the arrows and
  mix up the conventions of different tools).
* The path may be in backticks, bold, a heading, after ``File:``, or in the info
  string of the fence holding the block (models format it in all these ways; see
  :mod:`patchwright.formats._sr_paths`). Fences and prose are otherwise ignored.
* Content lines of ``=====`` (a reST underline) next to the real divider: when a block
  holds several divider-like lines, one of exactly seven ``=`` is preferred, then the
  split whose two sides share the most lines (search and replacement share their
  context); a tie is a parse error rather than a guess.
* CRLF line endings of the patch text are ignored.
"""

from __future__ import annotations

import re
from collections import Counter

from patchwright._records import field, record
from patchwright.formats._common import (
    SEARCH_MARKER,
    is_fence,
    parse_error,
    require_text,
    split_patch_lines,
)
from patchwright.formats._sr_paths import path_from_fence, path_from_line
from patchwright.model import Composition, Edit, FilePatch, OldText, PatchSet

FORMAT = "search-replace"

_DIVIDER = re.compile(r"={5,9}[ \t]*$")
_REPLACE_MARKER = re.compile(r"[ \t]*>{5,9}[ \t]*(?:REPLACE|UPDATED)[ \t]*$", re.IGNORECASE)
_MAX_DIVIDERS = 64
_SYNTAX_HINT = (
    "Write each block as: the file path on its own line, '<<<<<<< SEARCH', the exact "
    "lines to find, '=======', the new lines, '>>>>>>> REPLACE'."
)


@record
class _Group:
    path: str
    line_no: int
    edits: list[Edit] = field(default_factory=list)


def parse_search_replace(text: str) -> PatchSet:
    """Parse SEARCH/REPLACE blocks into a :class:`PatchSet`.

    Raises:
        PatchwrightError: ``PARSE_ERROR`` naming the line for an unterminated block, a
            missing ``=======``, a stray ``>>>>>>> REPLACE``, a block without a path,
            or a text without blocks.
    """
    lines = split_patch_lines(require_text(text))
    warnings: list[str] = []
    groups: list[_Group] = []
    pending: tuple[str, int] | None = None
    number = 0
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if SEARCH_MARKER.match(line):
            number += 1
            path, path_line = _block_path(pending, groups, i + 1)
            search, replace, i = _read_block(lines, i, number, warnings)
            edit = Edit(
                OldText(search, whole_lines=True), replacement=replace, label=f"block {number}"
            )
            if not groups or groups[-1].path != path:
                groups.append(_Group(path, path_line))
            groups[-1].edits.append(edit)
            pending = None
            continue
        if _REPLACE_MARKER.match(line):
            raise parse_error(
                i + 1,
                "'>>>>>>> REPLACE' without an opening '<<<<<<< SEARCH'.",
                _SYNTAX_HINT,
            )
        found = _path_candidate(lines, i)
        if found is not None:
            pending = (found, i + 1)
        i += 1
    if not groups:
        raise parse_error(None, "No SEARCH/REPLACE block found.", _SYNTAX_HINT)
    files = tuple(
        FilePatch(
            path=g.path,
            edits=tuple(g.edits),
            composition=Composition.SEQUENTIAL,
            source_line=g.line_no,
        )
        for g in groups
    )
    return PatchSet(files=files, format=FORMAT, warnings=tuple(warnings))


def _block_path(
    pending: tuple[str, int] | None, groups: list[_Group], line_no: int
) -> tuple[str, int]:
    if pending is not None:
        return pending
    if groups:
        return groups[-1].path, groups[-1].line_no
    raise parse_error(
        line_no,
        "This SEARCH/REPLACE block has no file path before it.",
        "Put the file path on its own line right above '<<<<<<< SEARCH' (or above the "
        "opening ``` fence).",
    )


def _path_candidate(lines: list[str], i: int) -> str | None:
    line = lines[i]
    if is_fence(line):
        return path_from_fence(line)
    if not line.strip() or _DIVIDER.match(line):
        return None
    nxt = lines[i + 1] if i + 1 < len(lines) else ""
    adjacent = is_fence(nxt) or SEARCH_MARKER.match(nxt) is not None
    return path_from_line(line, adjacent=adjacent)


def _read_block(lines: list[str], i: int, number: int, warnings: list[str]) -> tuple[str, str, int]:
    """Read the block whose SEARCH marker is ``lines[i]``; returns search, replace, next index."""
    end, n = i + 1, len(lines)
    # a marker has its five '>', '<' or '=' in a row: most lines are ruled out by a
    # substring test before any pattern runs
    while end < n:
        line = lines[end]
        if ">>>>>" in line and _REPLACE_MARKER.match(line):
            break
        if "<<<<<" in line and SEARCH_MARKER.match(line):
            raise _unterminated(i + 1, number, f"a new '<<<<<<< SEARCH' at line {end + 1}")
        end += 1
    if end >= n:
        raise _unterminated(i + 1, number, "the end of the text")
    candidates = [
        k for k in range(i + 1, end) if lines[k].startswith("=====") and _DIVIDER.match(lines[k])
    ]
    if not candidates:
        raise parse_error(
            i + 1,
            f"Block {number} has no '=======' line between '<<<<<<< SEARCH' and "
            f"'>>>>>>> REPLACE' (line {end + 1}).",
            _SYNTAX_HINT,
        )
    divider = _choose_divider(lines, i, end, candidates, number)
    if len(candidates) > 1:
        warnings.append(
            f"line {i + 1}: block {number} has {len(candidates)} '=======' lines; "
            f"the one at line {divider + 1} is read as the divider"
        )
    search = "".join(line + "\n" for line in lines[i + 1 : divider])
    replace = "".join(line + "\n" for line in lines[divider + 1 : end])
    return search, replace, end + 1


def _unterminated(line_no: int, number: int, found: str) -> Exception:
    return parse_error(
        line_no,
        f"Block {number} is not terminated: no '>>>>>>> REPLACE' before {found}.",
        _SYNTAX_HINT,
    )


def _choose_divider(
    lines: list[str], start: int, end: int, candidates: list[int], number: int
) -> int:
    if len(candidates) == 1:
        return candidates[0]
    sevens = [k for k in candidates if lines[k].rstrip() == "======="]
    if len(sevens) == 1:
        return sevens[0]
    pool = sevens or candidates
    if len(pool) <= _MAX_DIVIDERS:
        scores = [(_shared_lines(lines, start, end, k), k) for k in pool]
        scores.sort(reverse=True)
        if scores[0][0] > scores[1][0]:
            return scores[0][1]
    raise parse_error(
        start + 1,
        f"Block {number} has several '=======' lines (lines "
        f"{', '.join(str(k + 1) for k in pool[:8])}) and it is unclear which one divides "
        "SEARCH from REPLACE.",
        "Split the block into smaller ones so that no content line of the block consists "
        "only of '=' characters.",
    )


def _shared_lines(lines: list[str], start: int, end: int, divider: int) -> int:
    before = Counter(lines[start + 1 : divider])
    after = Counter(lines[divider + 1 : end])
    return sum((before & after).values())
