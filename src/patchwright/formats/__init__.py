"""Patch text formats models write, parsed into the edit model.

Three formats are read: unified / git diffs (:mod:`~patchwright.formats.unified`), the
OpenAI patch format (:mod:`~patchwright.formats.v4a`) and SEARCH/REPLACE blocks
(:mod:`~patchwright.formats.search_replace`). Each module's docstring holds its grammar
and the leniencies it grants. Parsing never touches the disk; every failure is a
:class:`~patchwright.model.PatchwrightError` (``PARSE_ERROR`` or ``UNSUPPORTED``) naming
the patch line.

Each parser is imported when its format is parsed (see patchwright/_lazy.py): applying a
unified diff does not load the other two.
"""

from __future__ import annotations

from importlib import import_module

from patchwright._lazy import lazy_exports
from patchwright.formats._common import check_hunk_count, require_text, unsupported
from patchwright.formats.detect import SEARCH_REPLACE, UNIFIED, V4A
from patchwright.formats.detect import detect_format as detect_format
from patchwright.model.errors import ErrorCode, PatchwrightError

#: A lazy edit snippet of one file (read and merged by the engine, :mod:`patchwright.engine.
#: snippet`): it names no file, so it is applied with a path (``apply_patch_text(...,
#: format="snippet", path=...)``).
SNIPPET = "snippet"


FORMAT_ALIASES: dict[str, str] = {
    "unified": UNIFIED,
    "udiff": UNIFIED,
    "diff": UNIFIED,
    "git": UNIFIED,
    "v4a": V4A,
    "openai": V4A,
    "apply-patch": V4A,
    "search-replace": SEARCH_REPLACE,
    "sr": SEARCH_REPLACE,
}
"""Accepted format names (lower case, ``_`` read as ``-``) and the format each means."""

# format -> its parser, a name of this package (imported on first use)
_PARSERS: dict[str, str] = {
    UNIFIED: "parse_unified",
    V4A: "parse_v4a",
    SEARCH_REPLACE: "parse_search_replace",
}

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - static view of the lazy exports
    from collections.abc import Callable

    from patchwright.formats.search_replace import parse_search_replace as parse_search_replace
    from patchwright.formats.unified import parse_unified as parse_unified
    from patchwright.formats.v4a import parse_v4a as parse_v4a
    from patchwright.model import PatchSet
else:  # type checkers read the imports above
    __getattr__, __dir__, __all__ = lazy_exports(
        globals(), "FORMAT_ALIASES", "normalize_format", "parse_patch"
    )


def normalize_format(format: str) -> str:
    """The canonical name (``"unified"``, ``"v4a"``, ``"search-replace"``), ``"auto"`` or
    ``"snippet"`` (a lazy edit snippet, applied with a path, never parsed as a patch).

    Raises:
        PatchwrightError: ``UNSUPPORTED`` for an unknown name.
    """
    key = format.strip().lower().replace("_", "-") if isinstance(format, str) else ""
    if key in ("auto", SNIPPET):
        return key
    if key in FORMAT_ALIASES:
        return FORMAT_ALIASES[key]
    raise unsupported(
        None,
        f"Unknown patch format {format!r}.",
        "Use 'auto', 'unified' (or 'udiff', 'diff', 'git'), 'v4a' (or 'openai', "
        "'apply_patch'), 'search-replace' (or 'sr', 'search_replace') or 'snippet' (with "
        "a path).",
    )


def parse_patch(text: str, format: str = "auto") -> PatchSet:
    """Parse patch text in the given format, or the detected one with ``"auto"``.

    Raises:
        PatchwrightError: ``UNSUPPORTED`` for an unknown format name or an unsupported
            diff flavour; ``PARSE_ERROR`` naming the line for text that is not a patch
            of that format; ``TOO_LARGE`` for more than :data:`MAX_HUNKS` hunks.
    """
    name = normalize_format(format)
    text = require_text(text)
    check_hunk_count(text)
    if name == "auto":
        name = detect_format(text)
    if name == SNIPPET:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            "A snippet names no file, so it is not parsed as a patch.",
            "Apply it with the path of the file it edits: apply_patch_text(text, root, "
            "format='snippet', path=PATH), or patchwright.merge_snippet(original, snippet).",
            field="format",
        )
    parse: Callable[[str], PatchSet] = getattr(import_module(__name__), _PARSERS[name])
    return parse(text)
