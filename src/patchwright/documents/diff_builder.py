"""Build a ready-to-send unified diff from an original and an updated slice of text.

Smaller models get diff syntax wrong far more often than they get the text right, so
:func:`build_diff` takes the text as it is and the text as it should be and renders the
diff (via :func:`patchwright.engine.unified_diff`).

* **With the document** (``document=`` the snapshot text; recommended): the slice is
  located in the document (at ``start`` when given, else it must occur exactly once),
  replaced, and the whole document is diffed. The hunks carry real line numbers and
  real surrounding context, whether or not the slice began or ended mid-line.
* **Without it**: the two slices are diffed on their own. They are taken as whole
  lines: when neither ends with a newline, one is added to both, so that the hunk does
  not claim to sit at the end of the document (``\\ No newline at end of file``). The
  header line numbers are then relative to the slice; the applier locates hunks by
  context, so this works as long as the original slice is long enough to be unique. An
  empty original slice has no context to anchor on and is refused.

Headers are ``--- a/<path>`` and ``+++ b/<path>``.
"""

from __future__ import annotations

from patchwright.engine import unified_diff
from patchwright.model import ErrorCode, PatchwrightError


def build_diff(
    original: str,
    updated: str,
    *,
    document: str | None = None,
    start: int | None = None,
    path: str = "document",
    context: int = 3,
) -> str:
    """The unified diff that turns ``original`` into ``updated`` (see the module docstring).

    Args:
        original: the text as it is now (a slice of the document, or the whole of it).
        updated: the text as it should be.
        document: the snapshot text the slice comes from.
        start: the slice's offset in ``document``, to pick one of several occurrences.
        path: the name written in the ``---`` / ``+++`` headers.
        context: unchanged lines shown around each change.

    Raises:
        PatchwrightError: ``invalid_request`` when nothing changes, for a negative
            ``context``, for ``start`` without ``document`` or for an empty original
            without a document; ``not_found`` / ``ambiguous`` when the slice cannot be
            placed in ``document``.
    """
    if original == updated:
        raise _error(
            ErrorCode.INVALID_REQUEST,
            "updated",
            "`original` and `updated` are identical: there is no change to describe.",
            "Pass the text as it should be after the edit in `updated`.",
        )
    if context < 0:
        raise _error(
            ErrorCode.INVALID_REQUEST, "context", f"`context` must be >= 0; found {context}.", ""
        )
    if document is None:
        return _slices_diff(original, updated, start, path, context)
    at = _locate(document, original, start)
    new_document = document[:at] + updated + document[at + len(original) :]
    return unified_diff(document, new_document, f"a/{path}", f"b/{path}", context=context)


def _slices_diff(original: str, updated: str, start: int | None, path: str, context: int) -> str:
    if start is not None:
        raise _error(
            ErrorCode.INVALID_REQUEST,
            "start",
            "`start` is an offset into `document`, and no `document` was given.",
            "Pass the snapshot text as `document`, or drop `start`.",
        )
    if not original:
        raise _error(
            ErrorCode.INVALID_REQUEST,
            "original",
            "An empty `original` slice gives the diff no context to anchor on.",
            "Pass the snapshot text as `document` together with `start` (the insertion "
            "offset), or include the surrounding lines in both slices.",
        )
    if not original.endswith(("\n", "\r")) and not updated.endswith(("\n", "\r")):
        original += "\n"
        updated += "\n"
    return unified_diff(original, updated, f"a/{path}", f"b/{path}", context=context)


def _locate(document: str, original: str, start: int | None) -> int:
    if start is not None:
        if 0 <= start <= len(document) and document.startswith(original, start):
            return start
        found = document[start : start + len(original)] if start >= 0 else ""
        raise _error(
            ErrorCode.NOT_FOUND,
            "start",
            f"The document does not hold `original` at offset {start}; it holds "
            f"{found[:80]!r} there.",
            "Take the offset from the same snapshot as `document`, or drop `start` to "
            "search for the slice.",
        )
    if original == document:
        return 0  # the whole document (also: an empty one) has one place only
    if not original:
        raise _error(
            ErrorCode.INVALID_REQUEST,
            "start",
            "An empty `original` slice needs `start`: the offset where `updated` goes.",
            "Pass `start` (for instance the selection start of the snapshot).",
        )
    first = document.find(original)
    if first < 0:
        raise _error(
            ErrorCode.NOT_FOUND,
            "original",
            "`original` does not occur in the document.",
            "Copy the slice from the latest snapshot text exactly.",
        )
    second = document.find(original, first + 1)
    if second >= 0:
        raise _error(
            ErrorCode.AMBIGUOUS,
            "original",
            f"`original` occurs more than once in the document (offsets {first} and {second}).",
            "Pass `start` to say which occurrence, or widen the slice until it is unique.",
        )
    return first


def _error(code: ErrorCode, field: str, message: str, hint: str) -> PatchwrightError:
    return PatchwrightError(code, message, hint, field=field)
