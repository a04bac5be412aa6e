"""The edit model every format parses into and the engine resolves.

An :class:`Edit` is an *anchor* (where) plus replacement text (what). Anchors:

* :class:`OldText`: text that must occur exactly once (or every occurrence, with
  ``replace_all``), found through the engine's matching ladder;
* :class:`LineRange`: 1-based inclusive line numbers, optionally with the lines the
  caller expects to find there;
* :class:`Hunk`: diff-style context / removed / added lines with a position hint;
* :class:`BeginningOfFile`, :class:`EndOfFile`, :class:`WholeFile`.

A :class:`FilePatch` names one file and what happens to it (update, create, delete,
optionally move) with its ordered edits; a :class:`PatchSet` is what one patch text
or one tool call asks for.
"""

from __future__ import annotations

from enum import Enum

from patchwright._records import field, record

# where they always were: every diff format imports them from here
from patchwright.model.hunks import Hunk as Hunk
from patchwright.model.hunks import HunkLine as HunkLine

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from patchwright.model.anchors import Anchor as Anchor
    from patchwright.model.anchors import BeginningOfFile as BeginningOfFile
    from patchwright.model.anchors import EndOfFile as EndOfFile
    from patchwright.model.anchors import LineRange as LineRange
    from patchwright.model.anchors import OldText as OldText
    from patchwright.model.anchors import WholeFile as WholeFile
    from patchwright.model.hunks import HunkOp as HunkOp

# Defined in anchors.py, which a diff's apply never needs (start-up time), and found here
# on first use as they always were.
_ANCHORS = frozenset(
    {"Anchor", "BeginningOfFile", "EndOfFile", "LineRange", "OldText", "WholeFile"}
)


def __getattr__(name: str) -> Any:
    if name in _ANCHORS:
        from patchwright.model import anchors

        return getattr(anchors, name)
    if name == "HunkOp":  # built on first use by model.hunks: no ``typing`` at start-up
        from patchwright.model import hunks

        return hunks.HunkOp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Composition(str, Enum):
    """How several edits of one file combine.

    ``SEQUENTIAL``: each edit sees the result of the previous one (batched ``edit_file``,
    diff hunks with offset tracking). ``SIMULTANEOUS``: every edit is resolved against
    the original text and overlapping spans are an error (spec 000's ``patch``).
    """

    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"


@record(frozen=True)
class Edit:
    """One edit: an anchor plus the text that takes its place.

    For :class:`Hunk` anchors the replacement is carried by the hunk's own lines and
    ``replacement`` is ignored. For :class:`LineRange` and :class:`OldText` the
    replacement is inserted as given (the engine only adjusts a detected indentation
    shift and gives new lines the file's newline style).

    Attributes:
        label: how messages name this edit (``"edit 2"``, ``"hunk 3"``, ``"patches[1]"``).
    """

    anchor: Anchor
    replacement: str = ""
    label: str = ""


class FileAction(str, Enum):
    """What a :class:`FilePatch` does to its file."""

    UPDATE = "update"
    CREATE = "create"
    DELETE = "delete"


@record(frozen=True)
class FilePatch:
    """Everything one patch asks of one file.

    Attributes:
        path: the file, relative to the workspace root, ``/`` separated.
        action: update (edits), create (``content``) or delete.
        edits: ordered edits for an update.
        content: the full text of a created file.
        move_to: new path when the file is also moved/renamed.
        composition: how ``edits`` combine.
        binary: the patch text declared a binary change (always refused when applied).
        old_mode / new_mode: git file modes when the patch named them.
        source_line: 1-based line in the patch text where this file's section starts.
    """

    path: str
    action: FileAction = FileAction.UPDATE
    edits: tuple[Edit, ...] = ()
    content: str | None = None
    move_to: str | None = None
    composition: Composition = Composition.SEQUENTIAL
    binary: bool = False
    old_mode: str | None = None
    new_mode: str | None = None
    source_line: int | None = None


@record(frozen=True)
class PatchSet:
    """A parsed patch: one :class:`FilePatch` per file, in order of appearance.

    Attributes:
        format: ``"unified"``, ``"v4a"``, ``"search-replace"`` or a tool name.
        warnings: repairs the parser made (recounted headers, missing spaces...).
    """

    files: tuple[FilePatch, ...]
    format: str = ""
    warnings: tuple[str, ...] = field(default=())
