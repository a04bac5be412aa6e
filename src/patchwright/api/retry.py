"""Recognising a retry: an edit sent again after it was applied.

Agents resend a call whose answer they did not get (a time-out, a dropped connection).
Applying it again would double an append or a wrap, and refusing it sends the model to
re-read a file it already changed. Two kinds of evidence say "already applied":

* the history (:func:`replayed_by`): the newest batch that wrote the file made this very
  change, and the file still holds that batch's result. "This very change" is decided by
  replaying the edit on the content the file had before that batch (kept in the history's
  content store) and comparing with what the batch wrote, byte for byte: the same test
  serves string edits, patches of any format, added and deleted files;
* the file itself (:func:`file_evidence`): the new text stands where the old text
  matched, and the old text is nowhere else. "Where the old text matched" needs the
  new text to carry something of the old one (the whole old text, as an append or a
  wrap does, or a shared first or last line, as a hunk's context is); a rewrite that
  shares nothing could stand anywhere. When only part of that holds (the new text is
  there but the old text is there too, the new text stands at several places, or
  nothing ties it to the edit) the evidence says so, and nothing is claimed.

Every writer of the tools layer and :func:`~patchwright.api.apply_patch_text` ask here
before they apply anything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from patchwright._records import record
from patchwright.model import Edit, Hunk, OldText, PatchwrightError, TextFile
from patchwright.workspace import Workspace
from patchwright.workspace.records import sha256_hex

__all__ = [
    "Evidence",
    "PriorBatch",
    "edit_texts",
    "edits_evidence",
    "file_evidence",
    "prior_batch",
    "replayed_by",
]

# A new text with fewer letters and digits than this (a brace, ``pass``) turns up
# anywhere: finding it says nothing about this edit.
_MIN_TELLING_CHARS = 4


@record(frozen=True)
class PriorBatch:
    """The newest batch that wrote a file, when the file still holds what it wrote.

    Attributes:
        batch_id: the batch (``b-...``).
        tool: the tool that made it.
        before: the file's bytes before that batch (``None``: the batch created it, or
            ``before_file`` holds them decoded).
        before_file: the text before that batch, from the caller's memory of what it
            read (``known``), so the history's copy was not read back.
    """

    batch_id: str
    tool: str
    before: bytes | None
    before_file: TextFile | None = None


#: Where a caller keeps texts it read: ``known(path, sha256)`` is the text of ``path``
#: whose bytes hash to ``sha256``, or ``None`` (tools.session keeps the last few).
Known = Callable[[str, str], TextFile | None]


def prior_batch(
    ws: Workspace, path: str, current_sha256: str | None, known: Known | None = None
) -> PriorBatch | None:
    """The newest batch that wrote ``path`` if the file (whose bytes hash to
    ``current_sha256``, ``None`` when it is absent) still holds its result; ``None`` when
    there is no such batch, no history, or the history cannot be read (a retry is then
    judged from the file alone). The text before the batch comes from ``known`` when it
    has it, else from the history."""
    if not ws.keeps_history:
        return None
    try:
        row = ws.history.latest_file(path)
        if row is None or row["after_sha256"] != current_sha256 or row["move_from"]:
            return None
        before_sha = row["before_sha256"]
        kept = known(path, before_sha) if known is not None and before_sha else None
        if kept is not None:
            return PriorBatch(str(row["batch_id"]), str(row["tool"]), None, kept)
        before = ws.history.content(before_sha) if before_sha is not None else None
    except (PatchwrightError, OSError, ValueError):
        return None
    if before_sha is not None and before is None:
        return None
    return PriorBatch(str(row["batch_id"]), str(row["tool"]), before)


def replayed_by(
    ws: Workspace,
    path: str,
    current_sha256: str | None,
    replay: Callable[[TextFile | None], TextFile | None],
    known: Known | None = None,
) -> str | None:
    """The batch that already made this edit of ``path``, or ``None``.

    ``current_sha256`` is the SHA256 of the file's bytes now (``None``: absent);
    ``replay`` applies the edit to a text (``None``: the file absent) and gives the new
    text (``None``: deleted); it may raise :class:`PatchwrightError` when the edit does
    not apply there. ``known`` spares reading the text before the batch back from the
    history (:func:`prior_batch`).
    """
    prior = prior_batch(ws, path, current_sha256, known)
    if prior is None:
        return None
    try:
        before = prior.before_file
        if before is None and prior.before is not None:
            before = TextFile.decode(prior.before, path=path)
        after = replay(before)
    except PatchwrightError:
        return None
    if after is None:
        return prior.batch_id if current_sha256 is None else None
    written = sha256_hex(after.encode())
    return prior.batch_id if written == current_sha256 else None


@record(frozen=True)
class Evidence:
    """What the file says about a replacement ``old`` -> ``new``.

    Attributes:
        new_at: 1-based lines where the new text starts.
        old_free: 1-based lines where the old text stands outside every copy of the new
            text (an append or a wrap keeps the old text inside the new one).
    """

    new_at: tuple[int, ...]
    old_free: tuple[int, ...]
    anchored: bool = True
    removed_left: tuple[str, ...] = ()

    @property
    def applied(self) -> bool:
        """The new text stands at one place, tied to the edit, the old text nowhere else,
        and no line the edit removes is left: the file holds the edit's result."""
        return (
            len(self.new_at) == 1 and not self.old_free and self.anchored and not self.removed_left
        )

    def partial(self) -> str | None:
        """What the evidence shows when it is not enough to call the edit applied."""
        if self.applied:
            return None
        new = ", ".join(map(str, self.new_at))
        if self.removed_left:
            return (
                f"the new text stands at line {new}, but a line the edit removes is still "
                f"in the file ({self.removed_left[0]!r})"
            )
        if len(self.new_at) == 1 and not self.old_free:
            return (
                f"the new text stands at line {new} and the old text is nowhere, but the "
                "two share no line or text that ties that place to this edit"
            )
        if self.old_free:
            old = ", ".join(map(str, self.old_free))
            return (
                f"the new text already stands at line {new}, but the old text is still "
                f"there too (line {old})"
            )
        return (
            f"the new text stands at {len(self.new_at)} places (lines {new}) and the old "
            "text is nowhere: it may be already applied, but not at a place that can be "
            "told"
        )


def file_evidence(text: str, old: str, new: str) -> Evidence | None:
    """Whether ``text`` holds the result of replacing ``old`` by ``new`` (``None``: the
    new text is not there, or proves nothing: empty, too short, or equal to the old text
    but for whitespace)."""
    if not old or not new or "".join(old.split()) == "".join(new.split()):
        return None
    if not _telling(old, new):
        return None
    new_spans = list(_occurrences(text, new))
    if not new_spans:
        return None
    free = [
        p
        for p in _occurrences(text, old)
        if not any(n <= p and p + len(old) <= n + len(new) for n in new_spans)
    ]
    return Evidence(
        tuple(_line_of(text, p) for p in new_spans),
        tuple(_line_of(text, p) for p in free),
        _anchored(old, new),
        _removed_left(text, old, new),
    )


def edit_texts(edit: Edit) -> tuple[str | None, str]:
    """An edit's old and new text, for the file evidence (``None``: no old text, as for
    an insertion at a line number or the end of a file)."""
    anchor = edit.anchor
    if isinstance(anchor, Hunk):
        return "".join(f"{line}\n" for line in anchor.old_lines), "".join(
            f"{line}\n" for line in anchor.new_lines
        )
    if isinstance(anchor, OldText) and not anchor.replace_all:
        return anchor.text, edit.replacement
    return None, ""


def edits_evidence(text: str, edits: Sequence[Edit]) -> Evidence | None:
    """The file evidence for a call's ``edits`` together: the first edit's when every
    one shows its result applied, the first that does not otherwise; ``None`` when an
    edit has no old text or its evidence proves nothing (no claim is then made)."""
    found: list[Evidence] = []
    for edit in edits:
        old, new = edit_texts(edit)
        evidence = file_evidence(text, old, new) if old is not None else None
        if evidence is None:
            return None
        if not evidence.applied:
            return evidence
        found.append(evidence)
    return found[0] if found else None


def _telling(old: str, new: str) -> bool:
    """Whether the lines the edit adds say something: a line of a few letters or digits
    (a brace, a repeated ``a`` or ``pass`` stand anywhere). An edit that only removes
    lines leaves nothing of its own in the file: its lines' absence cannot tell it from
    an old text that never stood there (a typo in it), so the file alone proves nothing
    and only the history can say it was made."""
    old_lines = {line.strip() for line in old.splitlines()}
    added = {line.strip() for line in new.splitlines()} - old_lines
    return any(sum(ch.isalnum() for ch in line) >= _MIN_TELLING_CHARS for line in added)


def _removed_left(text: str, old: str, new: str) -> tuple[str, ...]:
    """The telling lines the edit removes (and does not add back) that still stand as
    whole lines in ``text``: an old text that is gone only because it was damaged (a
    context line dropped) leaves them there."""
    kept = {line.strip() for line in new.splitlines()}
    removed = [
        line.strip()
        for line in old.splitlines()
        if line.strip() not in kept and sum(ch.isalnum() for ch in line) >= _MIN_TELLING_CHARS
    ]
    if not removed:
        return ()
    present = {line.strip() for line in text.splitlines()}
    return tuple(line for line in removed if line in present)


def _anchored(old: str, new: str) -> bool:
    """Whether the new text carries something of the old one that says where it stands:
    the whole old text (an append, a wrap, an insertion: one old line may stand inside a
    new line), or a telling first or last line both share (a hunk's context). A rewrite
    that shares nothing could stand anywhere: finding its new text proves nothing about
    this edit."""
    if old.rstrip("\r\n") in new:
        return True
    old_lines, new_lines = old.splitlines(), new.splitlines()
    if len(old_lines) == 1 and sum(ch.isalnum() for ch in old_lines[0]) >= _MIN_TELLING_CHARS:
        # one old line kept whole inside a new line: text added to a line
        return any(old_lines[0].strip() in line for line in new_lines)
    shared = []
    if old_lines and new_lines and old_lines[0] == new_lines[0]:
        shared.append(old_lines[0])
    if old_lines and new_lines and old_lines[-1] == new_lines[-1]:
        shared.append(old_lines[-1])
    return any(sum(ch.isalnum() for ch in line) >= _MIN_TELLING_CHARS for line in shared)


def _occurrences(text: str, needle: str, limit: int = 50) -> list[int]:
    found: list[int] = []
    start = text.find(needle)
    while start >= 0 and len(found) < limit:
        found.append(start)
        start = text.find(needle, start + 1)
    return found


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1
