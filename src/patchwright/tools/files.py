"""Reading workspace files as text, for every tool.

:func:`load` reads through the workspace (sandbox, size limit) and decodes once into a
:class:`~patchwright.model.TextFile`, remembering the SHA256 of the bytes: the version
every later write is checked against. :func:`resolve_doc_path` finds a file the way
spec 001 names it (``docPath``, matched ignoring case). Refusals name the request field
that carried the path (:func:`in_field`), whatever the tool calls it.
"""

from __future__ import annotations

from dataclasses import dataclass

from patchwright.model import ErrorCode, PatchwrightError, TextFile
from patchwright.workspace import FileState, Workspace

_NEWLINE_NAMES = {"\n": "lf", "\r\n": "crlf", "\r": "cr"}


@dataclass(frozen=True)
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


def resolve(ws: Workspace, path: str, *, field: str = "path") -> str:
    """``ws.resolve(path)``, with refusals naming the request ``field``.

    Raises:
        PatchwrightError: sandbox refusals.
    """
    try:
        return ws.resolve(path)
    except PatchwrightError as err:
        raise in_field(err, field) from None


def load(ws: Workspace, path: str, *, missing_ok: bool = False, field: str = "path") -> Loaded:
    """Read and decode ``path``.

    Raises:
        PatchwrightError: sandbox refusals, ``file_not_found`` (unless ``missing_ok``),
            ``binary_file``, ``too_large``; ``field`` names the request field.
    """
    try:
        rel = ws.resolve(path)
        try:
            state = ws.read(rel)
        except PatchwrightError as err:
            if err.code is ErrorCode.FILE_NOT_FOUND and missing_ok:
                return Loaded(rel, None, None)
            raise
        return Loaded(rel, state, TextFile.decode(state.data, path=rel))
    except PatchwrightError as err:
        raise in_field(err, field) from None


def resolve_doc_path(ws: Workspace, doc_path: str, *, field: str = "docPath") -> str:
    """The workspace path a spec 001 ``docPath`` names: the exact path when it exists,
    else the one file whose path equals it ignoring case.

    Raises:
        PatchwrightError: ``ambiguous`` when several files match ignoring case;
            ``file_not_found`` when none does; sandbox refusals.
    """
    try:
        if ws.exists(doc_path):
            return ws.resolve(doc_path)
        found = ws.find_case_insensitive(doc_path)
    except PatchwrightError as err:
        raise in_field(err, field) from None
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
    raise PatchwrightError(
        ErrorCode.FILE_NOT_FOUND,
        f"{field} {doc_path!r} does not name a file in the workspace (letter case ignored).",
        "Check the path (relative to the workspace root); read the file first to get its sha256.",
        path=doc_path,
        field=field,
    )


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
