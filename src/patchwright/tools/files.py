"""Reading workspace files as text, for every tool.

:func:`load` reads through the workspace (sandbox, size limit) and decodes once into a
:class:`~patchwright.model.TextFile`, remembering the SHA256 of the bytes: the version
every later write is checked against. :func:`resolve_doc_path` finds a file the way
spec 001 names it (``docPath``, matched ignoring case). Refusals name the request field
that carried the path (:func:`in_field`), whatever the tool calls it, and give a next
step: a missing path names the nearest existing paths, a folder lists its entries.
``\\`` separators are read as ``/`` (:func:`posix_path`).
"""

from __future__ import annotations

from patchwright._records import record
from patchwright.model import ErrorCode, PatchwrightError, TextFile
from patchwright.tools.session import Session
from patchwright.workspace import FileState, Workspace

#: Most lines, and about most characters, one page of a file shows.
PAGE_LINES = 2000
PAGE_CHARS = 100_000

_NEWLINE_NAMES = {"\n": "lf", "\r\n": "crlf", "\r": "cr"}


@record(frozen=True)
class Loaded:
    """A workspace file as a tool sees it.

    Attributes:
        path: the normalised path relative to the workspace root.
        state: the bytes and SHA256, ``None`` when the file does not exist.
        text: the decoded text, ``None`` when the file does not exist.
    """

    path: str
    state: FileState | None
    text: TextFile | None

    @property
    def exists(self) -> bool:
        """Whether the file exists."""
        return self.state is not None

    @property
    def sha256(self) -> str | None:
        """The SHA256 of the file's bytes (``None`` for a missing file)."""
        return self.state.sha256 if self.state is not None else None

    @property
    def current(self) -> TextFile:
        """The text, or an empty text for a missing file."""
        return self.text if self.text is not None else TextFile()


def in_field(err: PatchwrightError, field: str) -> PatchwrightError:
    """``err`` naming the request ``field`` that carried the path; returns ``err``.

    The workspace calls every path it is handed ``path``, which is a request field of
    some tools only; another field name (``target``, ``files[0].docPath``) replaces it.
    A more precise field a lower layer already set is kept.
    """
    if err.field is None or err.field == "path":
        err.field = field
    return err


def posix_path(path: str) -> str:
    """``path`` with ``\\`` separators read as ``/`` (models trained on Windows paths
    send ``src\\app.py``; a backslash in a real file name is rare enough to give up)."""
    return path.replace("\\", "/") if isinstance(path, str) else path


def resolve(ws: Workspace, path: str, *, field: str = "path") -> str:
    """``ws.resolve(path)``, with refusals naming the request ``field``.

    Raises:
        PatchwrightError: sandbox refusals.
    """
    try:
        return ws.resolve(posix_path(path))
    except PatchwrightError as err:
        raise in_field(err, field) from None


MAX_ENTRIES_SHOWN = 40


def _is_root(path: str) -> bool:
    return isinstance(path, str) and posix_path(path).strip().strip("/") in ("", ".")


def with_next_step(ws: Workspace, err: PatchwrightError, path: str) -> PatchwrightError:
    """``err`` with a next step for a path that names no file: the nearest existing
    paths for a missing one, the entries for a folder; returns ``err``.

    Raises:
        PatchwrightError: ``io_error`` when the file is missing because the workspace
            folder itself was removed or replaced (:meth:`Workspace.check_root`).
    """
    if err.code in (ErrorCode.FILE_NOT_FOUND, ErrorCode.NOT_A_FILE):
        ws.check_root()
    if err.code is ErrorCode.FILE_NOT_FOUND:
        near = ws.nearest(posix_path(path))
        if near:
            err.hint = f"Did you mean {', '.join(repr(p) for p in near)}?"
            err.details = {**err.details, "nearest": near}
        else:
            err.hint = (
                "No file has a similar path: check the path (relative to the workspace root)."
            )
    elif err.code is ErrorCode.NOT_A_FILE and (err.details.get("kind") == "dir" or _is_root(path)):
        folder = "" if _is_root(path) else err.path or posix_path(path)
        names = ws.entries(folder)
        shown = ", ".join(names[:MAX_ENTRIES_SHOWN]) or "(nothing)"
        more = (
            f" and {len(names) - MAX_ENTRIES_SHOWN} more" if len(names) > MAX_ENTRIES_SHOWN else ""
        )
        what = f"{folder!r} is a folder" if folder else f"{path!r} is the workspace root"
        err.message = f"{what}, not a file. It holds: {shown}{more}."
        example = f"{folder}/{names[0]}" if folder else (names[0] if names else "")
        err.hint = (
            f"Name a file inside it, e.g. {example}."
            if names
            else "The folder is empty: name a file elsewhere."
        )
        err.details = {**err.details, "entries": names}
    return err


def load(
    ws: Workspace,
    path: str,
    *,
    missing_ok: bool = False,
    field: str = "path",
    session: Session | None = None,
) -> Loaded:
    """Read and decode ``path`` (a file that still holds what ``session`` last wrote to
    it is not decoded again: its model comes from :meth:`Session.written_file`).

    Raises:
        PatchwrightError: sandbox refusals, ``file_not_found`` (unless ``missing_ok``),
            ``binary_file``, ``too_large``; ``field`` names the request field.
    """
    wanted = posix_path(path)
    try:
        try:
            # the workspace resolves the path once, as it reads
            state = ws.read_if_exists(wanted) if missing_ok else ws.read(wanted)
        except PatchwrightError as err:
            raise with_next_step(ws, err, err.path or wanted) from None
        if state is None:
            return Loaded(ws.resolve(wanted), None, None)
        kept = session.written_file(state.path, state.sha256) if session is not None else None
        return Loaded(state.path, state, kept or TextFile.decode(state.data, path=state.path))
    except PatchwrightError as err:
        if _is_root(path):
            with_next_step(ws, err, path)
        raise in_field(err, field) from None


def resolve_doc_path(ws: Workspace, doc_path: str, *, field: str = "docPath") -> str:
    """The workspace path a spec 001 ``docPath`` names: the exact path when it exists,
    else the one file whose path equals it ignoring case.

    Raises:
        PatchwrightError: ``ambiguous`` when several files match ignoring case;
            ``file_not_found`` when none does; sandbox refusals.
    """
    doc_path = posix_path(doc_path)
    try:
        if ws.exists(doc_path):
            return ws.resolve(doc_path)
        found = ws.find_case_insensitive(doc_path)
        if not found:
            ws.read_if_exists(doc_path)  # refuses a folder, with its entries below
    except PatchwrightError as err:
        raise in_field(with_next_step(ws, err, doc_path), field) from None
    if len(found) == 1:
        return found[0]
    if found:
        raise PatchwrightError(
            ErrorCode.AMBIGUOUS,
            f"{field} {doc_path!r} matches {len(found)} files that differ only in letter case: "
            f"{', '.join(found)}.",
            "Send the exact path (with its letter case) of the file you mean.",
            path=doc_path,
            field=field,
            details={"candidates": found},
        )
    missing = PatchwrightError(
        ErrorCode.FILE_NOT_FOUND,
        f"{field} {doc_path!r} does not name a file in the workspace (letter case ignored).",
        "Check the path (relative to the workspace root); read the file first to get its sha256.",
        path=doc_path,
        field=field,
    )
    raise with_next_step(ws, missing, doc_path)


def newline_name(text: TextFile) -> str:
    """``lf``, ``crlf``, ``cr``, ``mixed``, or ``none`` (a file without line breaks)."""
    kinds = {e for e in text.endings if e}
    if not kinds:
        return "none"
    if len(kinds) > 1:
        return "mixed"
    return _NEWLINE_NAMES[kinds.pop()]


def numbered(lines: list[str], first: int) -> str:
    """Lines prefixed with their 1-based numbers (``"    12\\tcode"``), one per line.

    The engine recognises and removes this prefix when a model pastes it back.
    """
    width = max(6, len(str(first + len(lines))))
    return "\n".join(f"{n:>{width}}\t{line}" for n, line in enumerate(lines, start=first))


def line_stats(diff: str) -> tuple[int, int]:
    """Lines added and removed according to a unified diff."""
    added = removed = 0
    for line in diff.splitlines():
        if line.startswith("+") and not line.startswith("+++ "):
            added += 1
        elif line.startswith("-") and not line.startswith("--- "):
            removed += 1
    return added, removed


def preview(text: str, limit: int = 60) -> str:
    """The first non-blank line of ``text``, stripped and cut to ``limit`` characters;
    ``...`` marks a cut or further lines."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    first = lines[0] if lines else text.strip()
    more = len(lines) > 1
    if len(first) > limit:
        first, more = first[: limit - 3], True
    return first + ("..." if more else "")


def page_bounds(
    file: TextFile, start: int, end: int | None, limit: int, max_chars: int = PAGE_CHARS
) -> tuple[int, int]:
    """The 1-based inclusive lines of one page starting at ``start`` (at least one line
    when the file has any)."""
    n = len(file.lines)
    last = min(n, end if end is not None else n, start + limit - 1)
    size = 0
    for number in range(start, last + 1):
        size += len(file.lines[number - 1]) + 1
        if size > max_chars and number > start:
            return start, number - 1
    return start, last
