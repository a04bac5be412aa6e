r"""The OpenAI patch format (``apply_patch``, "V4A") into the edit model.

Grammar::

    patch     := "*** Begin Patch" NL operation* "*** End Patch" NL?
    operation := add | delete | update
    add       := "*** Add File: " path NL ("+" text NL)*
    delete    := "*** Delete File: " path NL
    update    := "*** Update File: " path NL ["*** Move to: " path NL] hunk*
    hunk      := ("@@" [" " anchor] NL)+ body ["*** End of File" NL]
    body      := (" " text | "-" text | "+" text)+ NL-separated

The file format has no line numbers: hunks are located by content, helped by the
anchors of their ``@@`` lines (consecutive ``@@ class A`` / ``@@ def f`` lines nest:
``Hunk.anchors == ("class A", "def f")``). ``*** End of File`` pins the hunk before it
to the end of the file.

Mapping: Add File is CREATE with the ``+`` lines as content (each followed by ``"\n"``),
Delete File is DELETE, Update File is UPDATE with ``Edit(Hunk(...), label="hunk N")``
composed SEQUENTIALLY and ``move_to`` from Move to.

Leniencies (recorded in ``PatchSet.warnings`` where they change the reading):

* Fences, prose and shell heredoc lines around the envelope are ignored (models wrap
  the patch in Markdown or in ``apply_patch <<'EOF'``); several envelopes are read in
  turn.
* A missing ``*** End Patch`` is tolerated (models stop early); trailing lines that
  cannot be patch lines (a closing fence, prose) are then dropped.
* A missing ``*** Begin Patch`` is tolerated when a file operation is present.
* Marker case and spacing are not checked (``***Update File:path``), and marker lines
  may be indented (models indent a patch they quote).
* An empty body line inside a hunk is a blank context line (models drop the lone
  space); empty lines before a hunk's first line are skipped.
* A body line with no prefix is a context line missing its leading space (models drop
  it); a Markdown fence line inside the envelope is ignored (models close the fence
  before ``*** End Patch``).
* Body lines before the first ``@@`` of an update form the first hunk (models omit it).
* A unified-diff header ``@@ -l,n +l,n @@`` gives a line hint instead of an anchor, and
  ``@@ def f @@`` is the anchor ``def f`` (models mix the two formats).
* ``\ No newline at end of file`` is understood as in unified diffs.
* In Add File, an empty line between ``+`` lines is a blank line of the content
  (models drop the ``+``); body lines after Delete File are ignored.
* Paths wrapped in backticks or quotes are unwrapped (models format them).
"""

from __future__ import annotations

from patchwright._records import record
from patchwright.formats._common import (
    is_fence,
    parse_error,
    require_text,
    shorten,
    split_patch_lines,
    with_conversions,
)
from patchwright.formats._v4a_hunks import read_update_body
from patchwright.formats._v4a_markers import FILE_OPS, marker
from patchwright.model import Composition, Edit, FileAction, FilePatch, PatchSet

FORMAT = "v4a"


@record
class _Envelope:
    start: int  # index of the first line after "*** Begin Patch"
    end: int  # index of "*** End Patch", or where the patch text stops


def parse_v4a(text: str) -> PatchSet:
    """Parse an OpenAI ``*** Begin Patch`` text into a :class:`PatchSet`.

    Raises:
        PatchwrightError: ``PARSE_ERROR`` naming the line when no patch is found, a
            line is out of place, a path is missing or a hunk is empty.
    """
    lines = split_patch_lines(require_text(text))
    warnings: list[str] = []
    files: list[FilePatch] = []
    for envelope in _envelopes(lines, warnings):
        files.extend(_read_operations(lines, envelope, warnings))
    if not files:
        raise parse_error(
            None,
            "The patch contains no file operation.",
            "Between '*** Begin Patch' and '*** End Patch' write '*** Update File: <path>' "
            "followed by '@@' hunks, '*** Add File: <path>' followed by '+' lines, or "
            "'*** Delete File: <path>'.",
        )
    files = with_conversions(text, files)
    return PatchSet(files=tuple(files), format=FORMAT, warnings=tuple(warnings))


def _envelopes(lines: list[str], warnings: list[str]) -> list[_Envelope]:
    found: list[_Envelope] = []
    i, n = 0, len(lines)
    while i < n:
        kind = _kind(lines[i])
        if kind == "begin patch":
            start = i + 1
        elif kind in FILE_OPS and not found:
            warnings.append(f"line {i + 1}: no '*** Begin Patch' before the first operation")
            start = i
        else:
            i += 1
            continue
        end = start
        while end < n and _kind(lines[end]) not in ("end patch", "begin patch"):
            end += 1
        if end >= n or _kind(lines[end]) == "begin patch":
            until = "the end of the text" if end >= n else f"line {end + 1}"
            warnings.append(f"line {i + 1}: the patch has no '*** End Patch'; read until {until}")
            end = _trim_tail(lines, start, end)
            found.append(_Envelope(start, end))
            i = end
        else:
            found.append(_Envelope(start, end))
            i = end + 1
    if not found:
        raise parse_error(
            None,
            "No '*** Begin Patch' line found.",
            "Start the patch with '*** Begin Patch' and end it with '*** End Patch'.",
        )
    return found


def _kind(line: str) -> str | None:
    found = marker(line)
    return found[0] if found else None


def _trim_tail(lines: list[str], start: int, end: int) -> int:
    """Drop trailing lines that cannot belong to the patch (a closing fence, prose)."""
    while end > start:
        line = lines[end - 1]
        if line[:1] in (" ", "-", "+", "@", "*") and not is_fence(line):
            break
        end -= 1
    return end


def _read_operations(lines: list[str], env: _Envelope, warnings: list[str]) -> list[FilePatch]:
    files: list[FilePatch] = []
    i = env.start
    while i < env.end:
        line = lines[i]
        found = marker(line)
        if found is None or found[0] not in FILE_OPS:
            if line.strip() and not is_fence(line):
                raise parse_error(
                    i + 1,
                    f"Expected '*** Update File: <path>', '*** Add File: <path>' or "
                    f"'*** Delete File: <path>', found {shorten(line)!r}.",
                    "Start every file with one of those lines; put hunk lines after an "
                    "Update File line.",
                )
            i += 1
            continue
        kind, raw_path = found
        path = _clean_path(raw_path, i + 1)
        body_end = _operation_end(lines, i + 1, env.end)
        if kind == "add file":
            files.append(_add(lines, i, body_end, path, warnings))
        elif kind == "delete file":
            if any(lines[k].strip() for k in range(i + 1, body_end)):
                warnings.append(f"line {i + 2}: lines after '*** Delete File' ignored")
            files.append(FilePatch(path=path, action=FileAction.DELETE, source_line=i + 1))
        else:
            files.append(_update(lines, i, body_end, path, warnings))
        i = body_end
    return files


def _operation_end(lines: list[str], i: int, end: int) -> int:
    while i < end and _kind(lines[i]) not in FILE_OPS:
        i += 1
    return i


def _clean_path(raw: str, line_no: int) -> str:
    path = raw.strip()
    while len(path) >= 2 and path[0] == path[-1] and path[0] in "`\"'":
        path = path[1:-1].strip()
    if not path:
        raise parse_error(
            line_no,
            "The file operation names no path.",
            "Write the path after the colon, e.g. '*** Update File: src/app.py'.",
        )
    return path


def _add(lines: list[str], i: int, end: int, path: str, warnings: list[str]) -> FilePatch:
    body = lines[i + 1 : end]
    while body and not body[-1]:
        body.pop()  # empty lines before the next marker separate operations
    parts: list[str] = []
    for k, line in enumerate(body, i + 2):
        if line.startswith("+"):
            parts.append(line[1:] + "\n")
        elif not line:
            warnings.append(f"line {k}: empty line in '*** Add File' read as a blank line")
            parts.append("\n")
        else:
            raise parse_error(
                k,
                f"In '*** Add File: {path}' every line must start with '+', found "
                f"{shorten(line)!r}.",
                "Prefix every line of the new file with '+' (a blank line is a lone '+').",
            )
    return FilePatch(path=path, action=FileAction.CREATE, content="".join(parts), source_line=i + 1)


def _update(lines: list[str], i: int, end: int, path: str, warnings: list[str]) -> FilePatch:
    start = i + 1
    move_to: str | None = None
    while start < end and not lines[start].strip():
        start += 1
    found = marker(lines[start]) if start < end else None
    if found is not None and found[0] == "move to":
        move_to = _clean_path(found[1], start + 1)
        start += 1
    hunks = read_update_body(lines, start, end, warnings)
    if not hunks and move_to is None:
        raise parse_error(
            i + 1,
            f"'*** Update File: {path}' has no hunks.",
            "Follow it with '@@' and the hunk lines (' ' context, '-' removed, '+' added).",
        )
    edits = tuple(Edit(h, label=f"hunk {k}") for k, h in enumerate(hunks, 1))
    return FilePatch(
        path=path,
        edits=edits,
        move_to=move_to,
        composition=Composition.SEQUENTIAL,
        source_line=i + 1,
    )
