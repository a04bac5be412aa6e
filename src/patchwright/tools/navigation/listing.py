"""``list_files``: the workspace's files under a folder, sorted, ``.gitignore`` honoured.

Depth first, each folder's entries by name; folders that ``.gitignore`` ignores (the
root's and each folder's own) and denied folders are not entered. At most ``limit``
files (1000 by default and at most): the answer says when it stopped, so the model
narrows with ``path`` or ``glob`` instead of taking a partial list for the whole.
"""

from __future__ import annotations

from patchwright.model import ErrorCode, PatchwrightError, ToolResult
from patchwright.model.quoting import quote_name
from patchwright.tools.context import ToolContext
from patchwright.tools.descriptions import load as description
from patchwright.tools.files import posix_path, with_next_step
from patchwright.tools.navigation.models import MAX_FILES, ListFilesRequest
from patchwright.tools.spec import READ_ONLY, ToolSpec
from patchwright.workspace import Workspace


def check_folder(ws: Workspace, path: str | None, field: str = "path") -> str:
    """The folder ``path`` names, resolved (``""`` for the root).

    Raises:
        PatchwrightError: ``file_not_found`` naming the nearest paths; ``not_a_file``
            when ``path`` is a file; sandbox refusals.
    """
    if path is None or path.strip() in ("", ".", "/", "./"):
        return ""
    wanted = posix_path(path).rstrip("/")
    try:
        rel = ws.resolve(wanted)
        state = ws.read_if_exists(rel)
    except PatchwrightError as err:
        if err.code is ErrorCode.NOT_A_FILE and err.details.get("kind") == "dir":
            return err.path or wanted
        if err.code is not ErrorCode.TOO_LARGE:  # too large to read: still a file
            raise err.with_context(field=field) from None
        rel, state = wanted, None
    else:
        if state is None:
            missing = PatchwrightError(
                ErrorCode.FILE_NOT_FOUND,
                f"{rel!r} does not exist in the workspace.",
                "",
                path=rel,
                field=field,
            )
            raise with_next_step(ws, missing, rel)
    raise PatchwrightError(
        ErrorCode.NOT_A_FILE,
        f"{rel!r} is a file, not a folder.",
        "Leave path out to list the whole workspace, or name the folder that holds it.",
        path=rel,
        field=field,
    )


def run(ctx: ToolContext, req: ListFilesRequest) -> ToolResult:
    """List the files."""
    folder = check_folder(ctx.workspace, req.path)
    limit = min(req.limit or MAX_FILES, MAX_FILES)
    found = ctx.workspace.walk(folder, glob=req.glob, limit=limit)
    where = f"under {folder}/" if folder else "in the workspace"
    matching = f" matching {req.glob!r}" if req.glob else ""
    count = len(found.files)
    head = f"{count} file{'s' if count != 1 else ''} {where}{matching} (.gitignore honoured):"
    if not count:
        head = f"No files {where}{matching} (.gitignore honoured)."
    # a name is quoted as git quotes it: a newline in it never makes a line of its own
    lines = [head, *map(quote_name, found.files)]
    if found.truncated:
        lines.append(f"[stopped at {limit} files: narrow the listing with path or glob]")
    data = {"path": folder, "glob": req.glob, "files": found.files, "truncated": found.truncated}
    return ToolResult(True, "\n".join(lines), data=data)


SPEC = ToolSpec(
    name="list_files",
    title="List files",
    description=description("list_files"),
    request_model=ListFilesRequest,
    handler=run,
    annotations=READ_ONLY,
    contract="navigation: list_files (glob, .gitignore honoured, sorted, bounded)",
)
