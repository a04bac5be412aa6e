"""Plain records the workspace takes and returns.

Requests:

* :class:`FileChange`: what one commit does to one path (write, delete, move), with an
  optional SHA256 precondition and the per-change metadata spec 001 keeps
  (:class:`ChangeRecord`: key, description, operation, line ranges).

Answers:

* :class:`FileState`: a file as read from the workspace (bytes, SHA256, permission bits);
* :class:`CommitRecord` / :class:`FileCommitRecord` / :class:`ChangeCommitRecord`: what a
  commit did, with the server-assigned IDs (``b-``, ``f-``, ``c-`` followed by eight hex
  digits) that history lookups and ``undo`` take.

Every record has ``to_dict()`` giving a JSON-ready view (bytes are left out).
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime, timezone

from patchwright._lazy import lazy_literals
from patchwright._records import field, record
from patchwright.model.errors import ErrorCode, PatchwrightError

#: ``get_args(FileAction)``, kept as a constant so that no run-time use of the alias
#: imports ``typing`` (start-up time).
FILE_ACTIONS = ("create", "update", "delete", "move")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    FileAction = Literal["create", "update", "delete", "move"]
else:
    __getattr__ = lazy_literals(__name__, {"FileAction": FILE_ACTIONS}, globals())

_SHA256 = re.compile(r"[0-9a-fA-F]{64}")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_hex(data: bytes) -> str:
    """The lowercase hex SHA256 of ``data``.

    The last few digests are kept with their bytes: a tool call hashes the same content
    several times (the file as the tool reads it, again under the commit's lock to see
    that it did not change, and the next call reads what this one wrote), and comparing
    bytes costs a tenth of hashing them. Equal bytes have the same digest, so a kept
    digest is only ever returned for the very bytes it was computed from.
    """
    if len(data) > _KEEP_DIGEST_MAX or type(data) is not bytes:  # a bytearray may change
        return _digest(data)
    scope: _KeptDigests | None = getattr(_SCOPE, "kept", None)
    found = scope.find(data) if scope is not None else None
    if found is not None:
        return found
    with _DIGEST_LOCK:
        for kept, digest in _DIGESTS:
            if kept is data or kept == data:
                return digest
    digest = _digest(data)
    with _DIGEST_LOCK:
        _DIGESTS.insert(0, (data, digest))
        del _DIGESTS[_KEEP_DIGESTS:]
    if scope is not None:
        scope.add(data, digest)
    return digest


# A few contents of at most this size are kept with their digests (larger ones would
# hold too much memory once the call is over).
_KEEP_DIGEST_MAX = 1 << 20
_KEEP_DIGESTS = 4
_DIGESTS: list[tuple[bytes, str]] = []
_DIGEST_LOCK = threading.Lock()
_SCOPE = threading.local()


class _KeptDigests:
    """The digests kept by one :func:`digests_kept` block, by content length."""

    def __init__(self, budget: int) -> None:
        self.room = budget
        self.by_size: dict[int, list[tuple[bytes, str]]] = {}

    def find(self, data: bytes) -> str | None:
        for kept, digest in self.by_size.get(len(data), ()):
            if kept is data or kept == data:
                return digest
        return None

    def add(self, data: bytes, digest: str) -> None:
        if len(data) <= self.room:
            self.room -= len(data)
            self.by_size.setdefault(len(data), []).append((data, digest))


@contextmanager
def digests_kept(budget: int = 64 << 20) -> Iterator[None]:
    """A block in which this thread keeps the digest of every content it hashes (each of
    at most 1 MiB, up to ``budget`` bytes of contents in all), let go when it ends.

    A patch of many files hashes each old content when it is planned and again when the
    commit checks it inside the locks; the few digests :func:`sha256_hex` keeps anyway
    cover one file, not hundreds. A nested block shares the outer one.
    """
    if getattr(_SCOPE, "kept", None) is not None:
        yield
        return
    _SCOPE.kept = _KeptDigests(budget)
    try:
        yield
    finally:
        _SCOPE.kept = None


def new_id(prefix: str) -> str:
    """A short random ID such as ``b-7f3a2c1d`` (uniqueness is checked by the history store)."""
    return new_ids(prefix, 1)[0]


def new_ids(prefix: str, count: int) -> list[str]:
    """``count`` IDs as :func:`new_id` gives them, from one read of random bytes (a diff
    of thousands of hunks draws an ID per hunk)."""
    # os.urandom is what secrets.token_hex reads; secrets itself is slow to import
    pool = os.urandom(4 * count).hex()
    return [f"{prefix}-{pool[k : k + 8]}" for k in range(0, 8 * count, 8)]


def draw_ids(
    counts: Mapping[str, int], used: Callable[[str], bool] = lambda _: False
) -> dict[str, list[str]]:
    """``counts[prefix]`` distinct new IDs per prefix, skipping those ``used`` reports taken."""
    out: dict[str, list[str]] = {prefix: [] for prefix in counts}
    seen: set[str] = set()
    for prefix, count in counts.items():
        drawn = out[prefix]
        while len(drawn) < count:
            for candidate in new_ids(prefix, count - len(drawn)):
                if candidate not in seen and not used(candidate):
                    seen.add(candidate)
                    drawn.append(candidate)
    return out


def utc_now() -> str:
    """The current time as ISO 8601 UTC with milliseconds."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def normalise_sha256(value: str, *, field_name: str, path: str | None = None) -> str:
    """Check that ``value`` is 64 hex digits and return it in lowercase.

    Raises:
        PatchwrightError: ``invalid_request`` naming the field when it is not a SHA256.
    """
    if not isinstance(value, str) or not _SHA256.fullmatch(value.strip()):
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"{field_name} must be a hex SHA256 (64 characters 0-9a-f), got {value!r}.",
            "Copy the sha256 returned when the file was read; do not invent or shorten it.",
            path=path,
            field=field_name,
        )
    return value.strip().lower()


@record(frozen=True)
class FileState:
    """A regular file read from the workspace.

    Attributes:
        path: normalised posix path relative to the root.
        data: the file's bytes.
        sha256: lowercase hex SHA256 of ``data``.
        mode_bits: permission bits (``stat.S_IMODE``), ``None`` when unknown.
        identity: the file's ``(device, inode, size, mtime_ns)`` when it was read, so the
            commit journal can tell whether the file on disk is still the one read (and
            hard-link it instead of copying its bytes); ``None`` when unknown.
    """

    path: str
    data: bytes
    sha256: str
    mode_bits: int | None = None
    identity: tuple[int, int, int, int] | None = field(default=None, compare=False, repr=False)


@record(frozen=True)
class ChangeRecord:
    """Metadata of one logical change inside a file patch (spec 001 ``ChangeObject``).

    Line numbers are 1-based and inclusive; an insertion has ``end == start - 1``.

    Attributes:
        key: the caller's semantic key (``changeKey``), echoed back, never relied upon.
        description: why the change exists.
        op: the operation (``insert``, ``replace``, ``delete``, ``edit``...).
        old_start / old_end: the range in the file before the commit.
        new_start / new_end: the range in the file after the commit.
        meta: any further JSON-ready data.
    """

    key: str | None = None
    description: str = ""
    op: str = ""
    old_start: int | None = None
    old_end: int | None = None
    new_start: int | None = None
    new_end: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)


@record(frozen=True)
class FileChange:
    """What one commit does to one path.

    * write: ``data`` is the new content (created when the file is missing);
    * delete: ``data is None`` and no ``move_from``;
    * move: ``move_from`` names the old path, removed by the commit; ``path`` is written
      with ``data``, or with the old file's content when ``data is None``.

    Attributes:
        path: the file to write or delete (the destination of a move).
        data: new bytes, ``None`` for a delete or a move that keeps the content.
        expected_sha256: the content the caller based its edit on (of ``move_from`` for a
            move); checked inside the file locks. ``None`` skips the check.
        move_from: the old path of a move.
        diff: the unified diff shown to people and kept in history.
        key / label: the caller's semantic key and description of this file patch.
        changes: per-change metadata kept in history.
        meta: any further JSON-ready data kept in history.
        must_not_exist: refuse when ``path`` already exists (creations).
        mode_bits: permission bits to give the written file; ``None`` keeps the current
            bits (a new file gets the process default, i.e. the umask).
            ``LINK_MODE`` (:mod:`patchwright.workspace.fs`, git's 120000) makes the change
            act on a symbolic link as a link, as git does: ``data`` is the link's target,
            a delete or move removes the link itself (never its target), a path beyond a
            link is refused, and the target must stay inside the root.
        replaces_link: ``path`` is a symbolic link that this change replaces with a
            regular file (git's type change), read and replaced as a link, never
            followed; a path beyond a link is refused as for ``LINK_MODE``.
    """

    path: str
    data: bytes | None
    expected_sha256: str | None = None
    move_from: str | None = None
    diff: str = ""
    key: str | None = None
    label: str = ""
    changes: Sequence[ChangeRecord] = ()
    meta: dict[str, Any] = field(default_factory=dict)
    must_not_exist: bool = False
    mode_bits: int | None = None
    replaces_link: bool = False


@record(frozen=True)
class ChangeCommitRecord:
    """A change as recorded: the server-assigned ``change_id`` plus the caller's metadata."""

    change_id: str
    key: str | None
    description: str
    op: str
    old_start: int | None = None
    old_end: int | None = None
    new_start: int | None = None
    new_end: int | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "change_id": self.change_id,
            "key": self.key,
            "description": self.description,
            "op": self.op,
            "old_start": self.old_start,
            "old_end": self.old_end,
            "new_start": self.new_start,
            "new_end": self.new_end,
            "meta": dict(self.meta),
        }


@record(frozen=True)
class FileCommitRecord:
    """One file of a commit.

    ``before_sha256`` is ``None`` for a creation, ``after_sha256`` ``None`` for a deletion;
    for a move ``before_*`` describe ``move_from`` and ``after_*`` describe ``path``.
    """

    file_id: str
    path: str
    action: FileAction
    before_sha256: str | None
    after_sha256: str | None
    diff: str = ""
    move_from: str | None = None
    before_mode: int | None = None
    after_mode: int | None = None
    key: str | None = None
    label: str = ""
    changes: tuple[ChangeCommitRecord, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def change_ids(self) -> list[str]:
        """The IDs of this file's changes, in order."""
        return [c.change_id for c in self.changes]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "file_id": self.file_id,
            "path": self.path,
            "action": self.action,
            "move_from": self.move_from,
            "before_sha256": self.before_sha256,
            "after_sha256": self.after_sha256,
            "before_mode": self.before_mode,
            "after_mode": self.after_mode,
            "key": self.key,
            "label": self.label,
            "diff": self.diff,
            "changes": [c.to_dict() for c in self.changes],
            "meta": dict(self.meta),
        }


@record(frozen=True)
class CommitRecord:
    """What a commit did (or, with ``dry_run``, would do).

    Attributes:
        batch_id: the server-assigned batch ID.
        files: one record per file, in request order.
        created_at: ISO 8601 UTC time.
        tool / label / key / meta: the caller's description of the batch.
        reverts: for an undo, the batch it reverts.
        dry_run: nothing was written and nothing recorded.
    """

    batch_id: str
    files: tuple[FileCommitRecord, ...]
    created_at: str
    tool: str = ""
    label: str = ""
    key: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    reverts: str | None = None
    dry_run: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        return {
            "batch_id": self.batch_id,
            "created_at": self.created_at,
            "tool": self.tool,
            "label": self.label,
            "key": self.key,
            "meta": dict(self.meta),
            "reverts": self.reverts,
            "dry_run": self.dry_run,
            "files": [f.to_dict() for f in self.files],
        }
