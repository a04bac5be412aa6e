"""``search_files``: lines that contain a text (or match a regular expression).

Files come from the same walk as ``list_files`` (sorted, ``.gitignore`` honoured,
denied paths never read); binary files and files over the size limit are skipped. The
search is bounded three ways, and the answer says which bound stopped it: at most
``limit`` matching lines, at most :data:`MAX_FILES_SEARCHED` files, and at most
:data:`SEARCH_SECONDS` seconds (checked between files and every few thousand lines;
the pattern is matched with RE2, in time linear in each line, so no single match can
outlast the bound by more than one line's linear scan).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from patchwright._records import field, record
from patchwright.model import ErrorCode, PatchwrightError, TextFile, ToolResult
from patchwright.model.quoting import quote_name, visible
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.navigation.listing import check_folder
from patchwright.tools.navigation.models import MAX_MATCHES, SearchFilesRequest
from patchwright.tools.spec import READ_ONLY, ToolSpec
from patchwright.workspace import Workspace
from patchwright.workspace.patterns import compile_search

TYPE_CHECKING = False
if TYPE_CHECKING:
    from patchwright.workspace.patterns import LinearPattern

SEARCH_SECONDS = 10.0
MAX_FILES_SEARCHED = 20_000
_SHOWN_CHARS = 200
_CLOCK_EVERY = 4096  # lines between two looks at the clock


@record
class Found:
    """What a search found and why it stopped (``stopped`` is ``""`` when complete)."""

    matches: list[tuple[str, int, str]] = field(default_factory=list)
    files_searched: int = 0
    stopped: str = ""


def compile_pattern(req: SearchFilesRequest) -> LinearPattern:
    """The request's pattern compiled with RE2 (``workspace/patterns.py``): each line is
    matched in time linear in its length, so the time bound holds inside a match too.

    Raises:
        PatchwrightError: ``invalid_request`` naming ``pattern`` (empty, a construct RE2
            does not have, or a regular expression that does not compile).
    """
    if not req.pattern:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            "pattern is empty: there is nothing to search for.",
            "Send the text to find in pattern.",
            field="pattern",
        )
    return compile_search(req.pattern, regex=bool(req.regex), ignore_case=bool(req.ignore_case))


def search(
    ws: Workspace,
    folder: str,
    regex: LinearPattern,
    *,
    glob: str | None,
    limit: int,
    seconds: float = SEARCH_SECONDS,
    clock: Callable[[], float] = time.monotonic,
) -> Found:
    """Search the files under ``folder`` (see the module docstring for the bounds)."""
    deadline = clock() + seconds
    found = Found()
    walk = ws.walk(folder, glob=glob, limit=MAX_FILES_SEARCHED)
    for path in walk.files:
        if clock() > deadline:
            found.stopped = f"time limit of {seconds:g} s"
            return found
        text = _text(ws, path)
        found.files_searched += 1
        if text is None:
            continue
        for number, line in enumerate(text.lines, start=1):
            if number % _CLOCK_EVERY == 0 and clock() > deadline:
                found.stopped = f"time limit of {seconds:g} s"
                return found
            if regex.search(line):
                if len(found.matches) == limit:
                    found.stopped = f"{limit} matching lines"
                    return found
                found.matches.append((path, number, line))
    if walk.truncated:
        found.stopped = f"{MAX_FILES_SEARCHED} files searched"
    return found


def _text(ws: Workspace, path: str) -> TextFile | None:
    """The file's text, ``None`` for a file that cannot be searched (binary, too large,
    gone, undecodable)."""
    try:
        state = ws.read(path)
        return ws.decode(state.data, path)
    except PatchwrightError:
        return None


def run(ctx: ToolContext, req: SearchFilesRequest) -> ToolResult:
    """Search the files."""
    regex = compile_pattern(req)
    folder = check_folder(ctx.workspace, req.path)
    limit = min(req.limit or MAX_MATCHES, MAX_MATCHES)
    found = search(ctx.workspace, folder, regex, glob=req.glob, limit=limit)
    files = len({p for p, _, _ in found.matches})
    count = len(found.matches)
    what = f"{'regex' if req.regex else 'text'} {req.pattern!r}"
    head = (
        f"{count} matching line{'s' if count != 1 else ''} for {what} in {files} "
        f"file{'s' if files != 1 else ''} ({found.files_searched} searched, .gitignore "
        "honoured):"
    )
    if not count:
        head = (
            f"No line matches {what} ({found.files_searched} files searched, .gitignore honoured)."
        )
    # names quoted and control characters visible: one line per match, whatever it holds
    lines = [head, *(f"{quote_name(p)}:{n}: {visible(_shown(t))}" for p, n, t in found.matches)]
    if found.stopped:
        lines.append(
            f"[stopped at the {found.stopped}: narrow the search with path, glob or a more "
            "precise pattern]"
        )
    data = {
        "matches": [{"path": p, "line": n, "text": t} for p, n, t in found.matches],
        "files_searched": found.files_searched,
        "truncated": bool(found.stopped),
        "stopped": found.stopped or None,
    }
    return ToolResult(True, "\n".join(lines), data=data)


def _shown(line: str) -> str:
    return line if len(line) <= _SHOWN_CHARS else line[: _SHOWN_CHARS - 3] + "..."


SPEC = ToolSpec(
    name="search_files",
    title="Search files",
    description=description("search_files"),
    request_model=SearchFilesRequest,
    handler=run,
    annotations=READ_ONLY,
    contract="navigation: search_files (literal or regex, line numbers, bounded)",
)
