"""What lives for a session: named clipboards, document notes and edit metrics.

A :class:`Session` is plain memory. A host that runs one process per call (the CLI)
persists it as JSON with :func:`load_session` / :func:`save_session`. Saving merges:
only the entries this process changed are written over the file's current content, so
two processes sharing a session lose nothing but a simultaneous write to the same
clipboard (the later one wins, as it would in one process).
"""

from __future__ import annotations

import codecs
import json
import os
import re
import secrets
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from patchwright._records import field, record
from patchwright.model import ErrorCode, PatchwrightError, TextFile

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_FORMAT = 1
# texts kept by Session.remember_text: the files an agent is editing right now
_KEPT_TEXTS = 4
_KEPT_TEXT_MAX_CHARS = 1_000_000
# files whose last read or written version a session remembers (their SHA256 only: the
# contents are in the history's content store)
KEPT_READS = 256
#: client sessions a server keeps a :class:`Session` for (:class:`Sessions`); beyond
#: that, the least recently used one is dropped
KEPT_SESSIONS = 64
# hex digits of a session's tag, which starts each confirm token it is given
TAG_DIGITS = 6


@record
class Session:
    """State shared by the tool calls of one conversation.

    Attributes:
        clipboards: named texts stored by ``toClipboard`` and read by ``fromClipboard``.
        notes: notes attached to workspace files by ``document_edit`` (action annotate).
        metrics: counters of ``document_edit`` (patches, conflicts, latency).
    """

    clipboards: dict[str, str] = field(default_factory=dict)
    notes: list[dict[str, Any]] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)
    _changed_clipboards: set[str] = field(default_factory=set, repr=False)
    _new_notes: list[dict[str, Any]] = field(default_factory=list, repr=False)
    _metric_deltas: dict[str, float] = field(default_factory=dict, repr=False)
    _metric_values: dict[str, Any] = field(default_factory=dict, repr=False)
    _texts: OrderedDict[str, tuple[str, str, TextFile | None]] = field(
        default_factory=OrderedDict, repr=False, compare=False
    )
    _befores: OrderedDict[str, tuple[str, TextFile, bool]] = field(
        default_factory=OrderedDict, repr=False, compare=False
    )
    # calls of one session may run at the same time (an MCP server's worker threads):
    # what reads and then writes shared state does so under this lock
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    reads: OrderedDict[str, str] = field(default_factory=OrderedDict, repr=False, compare=False)
    #: confirm tokens handed out with a refusal's candidates (tools.confirm), and those used
    pending: OrderedDict[str, dict[str, Any]] = field(
        default_factory=OrderedDict, repr=False, compare=False
    )
    spent: list[str] = field(default_factory=list, repr=False, compare=False)
    _changed_reads: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    _new_pending: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False, compare=False)
    _new_spent: list[str] = field(default_factory=list, repr=False, compare=False)
    #: a few random hex digits that start each confirm token this session is given, so
    #: that a token sent in another session is told apart from an unknown one ("" until
    #: the first token; a session file keeps it)
    tag: str = field(default="", repr=False, compare=False)

    # confirm tokens ----------------------------------------------------------------------
    def hold_token(self, token: str, candidate: dict[str, Any], kept: int) -> None:
        """Keep ``candidate`` (JSON-ready) under ``token``; only the newest ``kept``
        tokens are kept."""
        with self._lock:
            self.pending[token] = candidate
            self._new_pending[token] = candidate
            while len(self.pending) > kept:
                self.pending.popitem(last=False)

    def own_tag(self) -> str:
        """This session's tag (made the first time it is asked for)."""
        with self._lock:
            if not self.tag:
                self.tag = secrets.token_hex(TAG_DIGITS // 2)
            return self.tag

    def take_token(self, token: str) -> dict[str, Any] | None:
        """The candidate ``token`` names, taken out (a token is accepted once), or
        ``None`` when the session does not hold it."""
        with self._lock:
            candidate = self.pending.pop(token, None)
            if candidate is not None:
                self.spent.append(token)
                self._new_spent.append(token)
                del self.spent[:-KEPT_READS]
        return candidate

    # versions seen -----------------------------------------------------------------------
    def saw(self, path: str, sha256: str) -> None:
        """Remember that the agent last read or wrote ``path`` when its bytes hashed to
        ``sha256`` (the newest :data:`KEPT_READS` files are remembered)."""
        with self._lock:
            self.reads[path] = sha256
            self.reads.move_to_end(path)
            self._changed_reads[path] = sha256
            while len(self.reads) > KEPT_READS:
                self.reads.popitem(last=False)

    def seen(self, path: str) -> str | None:
        """The SHA256 of the version of ``path`` the agent last read or wrote, or
        ``None`` when it has not (or the session no longer remembers it)."""
        return self.reads.get(path)

    # texts written -----------------------------------------------------------------------
    def remember_text(
        self, path: str, sha256: str, text: str, file: TextFile | None = None
    ) -> None:
        """Keep the text just written to ``path`` (whose bytes hash to ``sha256``), and the
        model ``file`` it was joined from, for :meth:`written_text` and
        :meth:`written_file`; only the last few files' texts are kept, in memory only,
        and none over a million characters (the syntax guard keeps none so large)."""
        if len(text) > _KEPT_TEXT_MAX_CHARS:
            with self._lock:
                self._texts.pop(path, None)
            return
        reread = file if file is not None and decodes_to_itself(file, text) else None
        with self._lock:
            self._texts[path] = (sha256, text, reread)
            self._texts.move_to_end(path)
            while len(self._texts) > _KEPT_TEXTS:
                self._texts.popitem(last=False)

    def remember_before(
        self, path: str, sha256: str, file: TextFile, chars: int, *, exact: bool = False
    ) -> None:
        """Keep the text a write of ``path`` replaced (its bytes hash to ``sha256``;
        ``chars`` is its size), for :meth:`text_before`: a retry of that write is then
        replayed on it without reading it back from the history. ``exact``: every edit
        of that write was placed by its exact text (:meth:`replaced_exactly`). The same
        bounds as :meth:`remember_text`."""
        with self._lock:
            if chars > _KEPT_TEXT_MAX_CHARS:
                self._befores.pop(path, None)
                return
            self._befores[path] = (sha256, file, exact)
            self._befores.move_to_end(path)
            while len(self._befores) > _KEPT_TEXTS:
                self._befores.popitem(last=False)

    def text_before(self, path: str, sha256: str) -> TextFile | None:
        """The text of ``path`` whose bytes hash to ``sha256`` if this session's last
        write of it replaced that text, else ``None``."""
        kept = self._befores.get(path)
        return kept[1] if kept is not None and kept[0] == sha256 else None

    def replaced_exactly(self, path: str) -> TextFile | None:
        """The text this session's last write of ``path`` replaced, when every edit of
        that write was placed by its exact text, else ``None``. The same edit sent again
        is then found exactly in that text too, so its replay there needs no loose rung
        (each of which looks at the whole file)."""
        kept = self._befores.get(path)
        return kept[1] if kept is not None and kept[2] else None

    def written_text(self, path: str, sha256: str | None) -> str | None:
        """The text this session last wrote to ``path`` if the file still has those
        bytes (``sha256``), else ``None``.

        The next edit of a file starts from the text the previous one wrote: handing
        on that very object (not an equal copy decoded again) spares joining its lines,
        and the syntax guard's cache of lexed texts, keyed by text, finds it without
        hashing 100 KB again (Python keeps a string's hash with the string).
        """
        kept = self._texts.get(path)
        return kept[1] if kept is not None and kept[0] == sha256 else None

    def written_file(self, path: str, sha256: str | None) -> TextFile | None:
        """The model this session last wrote to ``path`` if the file still has those
        bytes (``sha256``) and decoding them gives that very model, else ``None``: the
        next edit of the file starts from it instead of decoding and splitting the file
        again (models are never changed in place)."""
        kept = self._texts.get(path)
        return kept[2] if kept is not None and kept[0] == sha256 else None

    # clipboards ------------------------------------------------------------------------
    def set_clipboard(self, name: str, text: str) -> None:
        """Store ``text`` under ``name`` (replacing what was there)."""
        self.clipboards[name] = text
        self._changed_clipboards.add(name)

    # notes ---------------------------------------------------------------------------
    def add_note(self, note: dict[str, Any]) -> None:
        """Remember a note (a JSON-ready dict with at least ``path`` and ``id``)."""
        self.notes.append(note)
        self._new_notes.append(note)

    def notes_for(self, path: str) -> list[dict[str, Any]]:
        """The notes attached to ``path``, oldest first."""
        return [n for n in self.notes if n.get("path") == path]

    def next_note_id(self) -> str:
        """A new note ID (``note-`` and eight hex digits: random, so that two processes
        sharing a session file do not hand out the same one)."""
        known = {n.get("id") for n in self.notes}
        while True:
            candidate = f"note-{secrets.token_hex(4)}"
            if candidate not in known:
                return candidate

    # metrics -------------------------------------------------------------------------
    def count(self, name: str, amount: float = 1) -> None:
        """Add ``amount`` to the counter ``name``."""
        with self._lock:
            self.metrics[name] = self.metrics.get(name, 0) + amount
            self._metric_deltas[name] = self._metric_deltas.get(name, 0) + amount

    def set_metric(self, name: str, value: Any) -> None:
        """Set a non-counter metric (such as the last summary)."""
        self.metrics[name] = value
        self._metric_values[name] = value

    # persistence -----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "format": _FORMAT,
            "clipboards": dict(self.clipboards),
            "notes": list(self.notes),
            "metrics": dict(self.metrics),
            "reads": dict(self.reads),
            "pending": dict(self.pending),
            "spent": list(self.spent),
            "tag": self.tag,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Session:
        """Rebuild a session from :meth:`to_dict` output (unknown keys are ignored)."""
        clipboards = data.get("clipboards") or {}
        notes = data.get("notes") or []
        metrics = data.get("metrics") or {}
        reads = data.get("reads") or {}
        pending = data.get("pending") or {}
        return cls(
            clipboards={str(k): str(v) for k, v in dict(clipboards).items()},
            notes=[dict(n) for n in notes if isinstance(n, dict)],
            metrics=dict(metrics),
            reads=OrderedDict((str(k), str(v)) for k, v in dict(reads).items()),
            pending=OrderedDict(
                (str(k), dict(v)) for k, v in dict(pending).items() if isinstance(v, dict)
            ),
            spent=[str(t) for t in data.get("spent") or []],
            tag=str(data.get("tag") or ""),
        )

    def merged_into(self, stored: Session) -> Session:
        """``stored`` with this session's own changes applied on top."""
        for name in self._changed_clipboards:
            if name in self.clipboards:
                stored.clipboards[name] = self.clipboards[name]
        known = {n.get("id") for n in stored.notes}
        stored.notes.extend(n for n in self._new_notes if n.get("id") not in known)
        for name, amount in self._metric_deltas.items():
            stored.metrics[name] = stored.metrics.get(name, 0) + amount
        stored.metrics.update(self._metric_values)
        for path, sha in self._changed_reads.items():
            stored.saw(path, sha)
        for token, candidate in self._new_pending.items():
            stored.pending[token] = candidate
        for token in self._new_spent:
            stored.pending.pop(token, None)
            if token not in stored.spent:
                stored.spent.append(token)
        if not stored.tag:
            stored.tag = self.tag
        return stored


class Sessions:
    """One :class:`Session` per client session of a host that serves several (an MCP
    server over HTTP gives each client session an id), bounded: beyond ``kept`` sessions
    the least recently used one is dropped (its reads, tokens and clipboards with it).

    Args:
        default: the session of calls that name none (a stdio peer, a Python caller).
        kept: how many named sessions are kept at most.
    """

    def __init__(self, default: Session, kept: int = KEPT_SESSIONS) -> None:
        self.default = default
        self._kept = kept
        self._named: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str | None) -> Session:
        """The session called ``key`` (made when new), or the default one for ``None``."""
        if key is None:
            return self.default
        with self._lock:
            session = self._named.get(key)
            if session is None:
                session = self._named[key] = Session()
                while len(self._named) > self._kept:
                    self._named.popitem(last=False)
            else:
                self._named.move_to_end(key)
            return session

    def __len__(self) -> int:
        """How many named sessions are kept."""
        return len(self._named)


def decodes_to_itself(file: TextFile, text: str) -> bool:
    """Whether ``TextFile.decode`` of ``file``'s bytes gives ``file`` back (``text`` is
    its text), decided without decoding: UTF-8 (a BOM or none), no NUL, and LF endings
    only, every line ending in one but a non-empty last line. A model's lines never hold
    a line break, so splitting the text again would give the same lines and endings;
    CR endings are left out, since a CR line ending before an empty LF line reads back
    as one CRLF."""
    if file.encoding != "utf-8" or file.bom not in (b"", codecs.BOM_UTF8):
        return False
    if "\r" in text or "\x00" in text:
        return False
    endings, lf = file.endings, file.endings.count("\n")
    if lf == len(endings):
        return True
    return lf == len(endings) - 1 and endings[-1] == "" and file.lines[-1] != ""


def session_path(state_folder: Path, name: str) -> Path:
    """Where the session ``name`` of a workspace is kept.

    Raises:
        PatchwrightError: ``invalid_request`` for a name that is not a simple file name.
    """
    if not _NAME.fullmatch(name):
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"Invalid session name {name!r}.",
            "Use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.",
            field="session",
        )
    return state_folder / "sessions" / f"{name}.json"


def load_session(path: Path) -> Session:
    """Read a session file; a missing or unreadable file gives an empty session."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Session()
    return Session.from_dict(data) if isinstance(data, dict) else Session()


def save_session(session: Session, path: Path) -> None:
    """Merge ``session``'s changes into the file at ``path`` and write it atomically.

    Raises:
        PatchwrightError: ``io_error`` when the file cannot be written.
    """
    merged = session.merged_into(load_session(path))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(merged.to_dict(), fh, ensure_ascii=False, indent=1)
        os.replace(temp, path)
    except OSError as exc:
        raise PatchwrightError(
            ErrorCode.IO_ERROR,
            f"Cannot save the session to {path}: {exc.strerror or exc}.",
            "Check that the workspace state folder is writable.",
        ) from exc
