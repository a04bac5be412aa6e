"""The :class:`Workspace` facade: the one object the tools layer talks to.

It ties together the sandbox (paths, file types, size limit), the mode gate (restricted
/ unrestricted, waiting for idle on a change), the per-file locks, the journal (crash-safe
commits), the history store and undo. Opening a workspace rolls back any commit a
crashed process left unfinished on that root.

The root is held open as a directory descriptor from the start (see fs.py), so every
read and write stays below it even when a folder inside is swapped for a symlink
mid-call. No ``OSError`` leaves the facade: a symlink met on the way is
``path_outside_root``, any other refusal of the file system ``io_error``. Commits use
the sandbox's ``writing`` variant (read-only and multiply-linked files refused); undo
also never follows a symlink (a path that no longer holds a regular file is a
``conflict``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar

from patchwright._records import replace
from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.workspace.commit import BatchInfo, CommitContext, run_commit
from patchwright.workspace.fs import FileSystem, OsFileSystem
from patchwright.workspace.gate import DEFAULT_APPROVAL_TIMEOUT, ModeGate
from patchwright.workspace.globs import DEFAULT_DENY
from patchwright.workspace.history import History, open_history
from patchwright.workspace.journal import Journal
from patchwright.workspace.locks import PathLocks
from patchwright.workspace.records import CommitRecord, FileChange, FileState
from patchwright.workspace.recovery import Recovery
from patchwright.workspace.sandbox import Sandbox
from patchwright.workspace.state import state_base, state_paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from patchwright.model.text import TextFile

    # approval mode, tree walking, case-insensitive look-up and undo are imported by
    # the methods that use them: applying a patch needs none of them (start-up time)
    from patchwright.workspace import navigation
    from patchwright.workspace.approval import Approval, Proposals
    from patchwright.workspace.gate import Mode

#: Default largest file the workspace reads or writes: 16 MiB.
DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024

# who makes the current call: set by a server around each call (calling_as), read by
# the commits and proposals it makes
_WHO: ContextVar[tuple[tuple[str, str], ...]] = ContextVar("patchwright_who", default=())


@contextmanager
def calling_as(client: str = "", session: str = "") -> Iterator[None]:
    """Record ``client`` (a program's name and version, e.g. from MCP ``clientInfo``)
    and ``session`` (its connection) with every batch and proposal made inside this
    block, in this thread or task; ``session`` then stands for the workspace's own."""
    token = _WHO.set(tuple((k, v) for k, v in (("client", client), ("session", session)) if v))
    try:
        yield
    finally:
        _WHO.reset(token)


class Workspace:
    """One root folder that files are read from and committed to.

    Args:
        root: the workspace root (an existing folder).
        mode: ``"unrestricted"`` (default) or ``"restricted"`` (every write refused).
        state_dir: the per-user state folder (see state.py for the default); the
            workspace keeps its history, journal and locks in a subfolder of it.
        history: keep a history of commits (needed by :meth:`undo` and :attr:`history`).
        max_file_bytes: the largest file that may be read or written.
        allow: when given, only paths matching one of these globs may be used.
        deny: globs never to be read or written (``.git`` at any depth by default).
        lock_timeout: seconds to wait for a busy file lock.
        fs: the file-system implementation (tests wrap the real one).
        session: who is writing (an MCP server, a script): kept in each batch's
            ``meta["session"]`` and shown on proposals.
        encoding: the encoding of files that are neither UTF-8 nor UTF-16 (``cp1252``,
            ``shift_jis``...), used instead of detecting it (see encoding.py); a BOM or
            valid UTF-8 still decides.

    Raises:
        PatchwrightError: ``file_not_found`` / ``not_a_file`` when ``root`` is not an
            existing folder; ``io_error`` when the state folder cannot be created;
            ``invalid_request`` for an unknown ``encoding``.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        mode: Mode = "unrestricted",
        state_dir: str | os.PathLike[str] | None = None,
        history: bool = True,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        allow: Sequence[str] | None = None,
        deny: Sequence[str] = DEFAULT_DENY,
        lock_timeout: float = 10.0,
        fs: FileSystem | None = None,
        session: str = "",
        encoding: str | None = None,
    ) -> None:
        self.session = session
        self.encoding: str | None = None
        """The encoding of files that are neither UTF-8 nor UTF-16 (``None``: detected)."""
        if encoding is not None:
            from patchwright.model.encoding import codec_name

            self.encoding = codec_name(encoding)
        self._approval: Approval | None = None
        self._fs: FileSystem = fs if fs is not None else OsFileSystem()
        self._gate = ModeGate(mode)
        real_root = _existing_folder(self._fs, os.fspath(root))
        self._root_identity = _folder_identity(real_root)
        base = os.fspath(state_dir) if state_dir is not None else state_base()
        # real, so that a state folder inside the root is reached without a symlink
        base = self._fs.realpath(os.path.abspath(os.path.expanduser(base)))
        paths = state_paths(real_root, base)
        hidden = [self._fs.realpath(p) for p in (base, paths.folder)]
        self._sandbox = Sandbox(
            real_root, self._fs, max_file_bytes=max_file_bytes, allow=allow, deny=deny,
            hidden=hidden,
        )  # fmt: skip
        self._state = paths
        locks = PathLocks(paths.locks, lock_timeout)
        journal = Journal(paths.journal, real_root, self._fs)
        store = open_history(paths.folder, real_root, self._fs) if history else None
        # a commit recorded by a process that keeps history is forgotten on rollback
        # even by one that does not
        known = store or open_history(paths.folder, real_root, self._fs, create=False)
        recovery = Recovery(journal, locks, known)
        writer = self._sandbox.variant(writing=True)
        self._ctx = CommitContext(writer, self._fs, locks, journal, recovery, store)
        self._undo_ctx = replace(
            self._ctx, sandbox=self._sandbox.variant(follow_links=False, writing=True)
        )
        with self._on_disk():
            self.recovered: list[str] = recovery.recover_all()
        """Batch IDs of interrupted commits rolled back when this workspace opened."""

    # state -----------------------------------------------------------------------------------
    @property
    def root(self) -> Path:
        """The real (symlink-free) root folder."""
        from pathlib import Path  # not on an edit's path: see state.py

        return Path(self._sandbox.root)

    @property
    def state_folder(self) -> Path:
        """This workspace's state folder (history, journal, locks)."""
        from pathlib import Path

        return Path(self._state.folder)

    @property
    def mode(self) -> Mode:
        """The current mode."""
        return self._gate.mode

    def set_mode(self, mode: Mode, *, timeout: float | None = None) -> None:
        """Switch mode once the operations in flight have finished (see gate.py)."""
        self._gate.set_mode(mode, timeout=timeout)

    def ensure_writable(self) -> None:
        """Raise ``restricted`` with the exact REQ-PATCH-009 text in restricted mode."""
        self._gate.ensure_writable()

    @property
    def keeps_history(self) -> bool:
        """Whether commits are recorded in a history (and so can be undone)."""
        return self._ctx.history is not None

    @property
    def history(self) -> History:
        """The history store.

        Raises:
            PatchwrightError: ``history`` when the workspace was opened with ``history=False``.
        """
        if self._ctx.history is None:
            raise PatchwrightError(
                ErrorCode.HISTORY,
                "This workspace keeps no history, so there is nothing to look up or undo.",
                "Open the workspace with history=True.",
            )
        return self._ctx.history

    @property
    def max_file_bytes(self) -> int:
        """The largest file, in bytes, that may be read or written."""
        return self._sandbox.max_file_bytes

    def resolve_lexical(self, path: str) -> str:
        """``path`` normalised relative to the root without following any symlink (the
        sandbox's rules checked, nothing on disk looked at)."""
        with self._on_disk():
            return self._sandbox.resolve_lexical(path)

    # reading ---------------------------------------------------------------------------------
    def resolve(self, path: str, *, links: bool = False) -> str:
        """The normalised posix path of ``path`` relative to the root (see sandbox.py).

        ``links``: a symlink at ``path`` is not followed (the path names the link
        itself) and a path beyond a symlink is refused (``not_a_file``), as git does.
        """
        with self._on_disk():
            return self._box(links).resolve(path)

    def _box(self, links: bool) -> Sandbox:
        return self._sandbox.as_links() if links else self._sandbox

    def exists(self, path: str) -> bool:
        """Whether a regular file exists at ``path`` (``False`` for a folder).

        Raises:
            PatchwrightError: sandbox refusals; ``not_a_file`` when a special file stands
                there (a FIFO, a socket, a device, a symlink loop): no file of that name
                can be read or created, so "missing" would mislead.
        """
        with self._gate.operation(writing=False), self._on_disk():
            rel = self._sandbox.resolve(path)
            with self._sandbox.guard():
                found = self._fs.probe(self._sandbox.abspath(rel))
            if found.kind in ("missing", "dir"):
                return False
            self._sandbox.require_file(rel, found)
            return True

    def read(self, path: str) -> FileState:
        """Read a file.

        Raises:
            PatchwrightError: sandbox refusals; ``not_a_file``, ``too_large``;
                ``file_not_found`` (suggesting files whose name differs only in case).
        """
        with self._gate.operation(writing=False), self._on_disk():
            rel = self._sandbox.resolve(path)
            state = self._sandbox.read(rel)
            if state is not None:
                return state
            from patchwright.workspace.listing import find_case_insensitive

            similar = [p for p in find_case_insensitive(self._sandbox, rel) if p != rel]
            hint = (
                "Check the path (relative to the workspace root); list the folder to see its files."
            )
            if similar:
                hint = f"Did you mean {', '.join(repr(p) for p in similar)}?"
            raise PatchwrightError(
                ErrorCode.FILE_NOT_FOUND,
                f"{rel!r} does not exist in the workspace.",
                hint,
                path=rel,
                details={"similar": similar} if similar else None,
            )

    def decode(
        self, data: bytes, path: str | None = None, *, encoding: str | None = None
    ) -> TextFile:
        """A file's bytes as text: UTF-8 or UTF-16 when they are, else in ``encoding``,
        else in this workspace's :attr:`encoding`, else in the detected encoding.

        Raises:
            PatchwrightError: ``binary_file``; ``encoding`` (undecodable, not
                round-tripping, or not told for sure); ``invalid_request`` for an
                unknown ``encoding``.
        """
        from patchwright.workspace.encoding import decode_file

        return decode_file(data, path, encoding=encoding or self.encoding)

    def read_if_exists(self, path: str, *, links: bool = False) -> FileState | None:
        """Read a file, or ``None`` when nothing is at ``path``.

        Unlike :meth:`exists` followed by :meth:`read`, something that is not a regular
        file (a folder, a FIFO, a device) is refused, not taken for a missing file, and
        the path is resolved and probed once. ``links``: as in :meth:`resolve`, and a
        symlink at ``path`` is read as itself (its target as content, ``mode_bits``
        :data:`~patchwright.workspace.fs.LINK_MODE`).

        Raises:
            PatchwrightError: sandbox refusals; ``not_a_file``, ``too_large``.
        """
        with self._gate.operation(writing=False), self._on_disk():
            box = self._box(links)
            return box.read(box.resolve(path))

    def keeping_folders(self) -> AbstractContextManager[None]:
        """A block in which this thread reaches each folder of the tree once and keeps it
        open (the reads of a many-file patch: one walk per folder, not one per file).

        Reads in the block go through the kept folders; a commit inside it rechecks each
        kept folder before it writes and refuses (``path_outside_root``) one moved or
        replaced meanwhile (docs/security.md). The folders close when the block ends.
        """
        return self._fs.keeping_folders()

    def find_case_insensitive(self, path: str) -> list[str]:
        """Existing files whose path equals ``path`` ignoring case (spec 001 ``docPath``)."""
        from patchwright.workspace.listing import find_case_insensitive

        with self._gate.operation(writing=False), self._on_disk():
            return find_case_insensitive(self._sandbox, path)

    def list_files(self, under: str = "", *, limit: int = 10_000) -> list[str]:
        """Regular files below ``under`` (default: everything), depth first by name."""
        from patchwright.workspace import navigation

        with self._gate.operation(writing=False), self._on_disk():
            return navigation.list_files(self._sandbox, under, limit=limit)

    def entries(self, path: str = "") -> list[str]:
        """The names in folder ``path`` (default: the root), folders ending in ``/``."""
        from patchwright.workspace import navigation

        with self._gate.operation(writing=False):
            return navigation.entries(self._sandbox, navigation.folder_of(self._sandbox, path))

    def walk(
        self, under: str = "", *, glob: str | None = None, limit: int = 1000,
        gitignore: bool = True,
    ) -> navigation.Walk:  # fmt: skip
        """Files under ``under`` matching ``glob``, ``.gitignore`` honoured (see navigation.py)."""
        from patchwright.workspace import navigation

        with self._gate.operation(writing=False):
            folder = navigation.folder_of(self._sandbox, under)
            return navigation.walk(
                self._sandbox, folder, glob=glob, limit=limit, gitignore=gitignore
            )

    def nearest(self, path: str, count: int = 3) -> list[str]:
        """Existing paths closest to ``path``, which does not exist ("did you mean")."""
        from patchwright.workspace import navigation

        with self._gate.operation(writing=False):
            return navigation.nearest(self._sandbox, path, count)

    # writing ---------------------------------------------------------------------------------
    def commit(
        self,
        changes: Sequence[FileChange],
        *,
        tool: str = "",
        label: str = "",
        key: str | None = None,
        meta: dict[str, Any] | None = None,
        dry_run: bool = False,
    ) -> CommitRecord:
        """Apply ``changes`` all-or-nothing and record them (see commit.py).

        A dry run checks everything (paths, types, preconditions, inside the locks) and
        returns the record without writing; it is allowed in restricted mode.

        Raises:
            PatchwrightError: ``restricted``; sandbox refusals; ``invalid_request``;
                ``stale``; ``file_not_found``; ``file_exists``; ``lock_timeout``; ``io_error``.
        """
        info = BatchInfo(tool, label, key, {**self._stamp(), **(meta or {})})
        if self._approval is not None and not dry_run:
            self.ensure_writable()  # waits for the decision outside the mode gate
            return self._approval.submit(changes, info)
        with self._gate.operation(writing=not dry_run), self._on_disk():
            return run_commit(self._ctx, changes, info, dry_run=dry_run)

    @contextmanager
    def exclusive(self, paths: Iterable[str]) -> Iterator[None]:
        """Hold the write locks of ``paths`` from a tool's read to its commit, so no
        other writer (thread or process) changes them in between; a commit inside the
        ``with`` body takes them again without waiting. A tool that lost the race to
        other writers several times reads, plans and commits under it once more.

        In approval mode it holds nothing: a proposal waits for a person, and holding
        the files that long would stop every other writer of them.

        Raises:
            PatchwrightError: ``lock_timeout`` naming a path whose lock stayed busy.
        """
        if self._approval is not None:
            yield
            return
        with self._ctx.locks.hold(paths):
            yield

    def _stamp(self) -> dict[str, str]:
        """Who writes, for the batch's ``meta``: the session, and the client and its
        session when a server said so (:func:`calling_as`)."""
        stamp = {"session": self.session} if self.session else {}
        return {**stamp, **dict(_WHO.get())}

    def undo(self, batch_id: str | None = None) -> CommitRecord:
        """Revert a batch (default: the newest not yet undone) as a new recorded batch.

        Raises:
            PatchwrightError: ``restricted``; ``history`` (nothing to undo, unknown ID,
                already undone); ``conflict`` when a file changed since that batch.
        """
        from patchwright.workspace.undo import conflict, inverse_changes, select_batch

        with self._gate.operation(writing=True), self._on_disk():
            store = self.history
            record = select_batch(store, batch_id)
            changes = inverse_changes(store, record)
            info = BatchInfo(
                "undo", f"Undo {record.batch_id}", None, self._stamp(), record.batch_id
            )
            if self._approval is not None:
                return self._approval.submit(changes, info)
            try:
                return run_commit(self._undo_ctx, changes, info, dry_run=False)
            except PatchwrightError as exc:
                if exc.code in (ErrorCode.STALE, ErrorCode.FILE_EXISTS, ErrorCode.NOT_A_FILE):
                    raise conflict(record.batch_id, exc) from exc
                raise

    # approval --------------------------------------------------------------------------------
    def require_approval(self, timeout: float = DEFAULT_APPROVAL_TIMEOUT) -> None:
        """Hold every write as a proposal until a person decides (see approval.py).

        Raises:
            PatchwrightError: ``history`` without a history; ``invalid_request`` for a
                time-out that is not positive.
        """
        from patchwright.workspace.approval import Approval, ProposalStore, history_needed

        if self._ctx.history is None:
            raise history_needed()
        store = ProposalStore(self._ctx.history)
        # a proposal is written as shown: never through a symlink (undo's context)
        self._approval = Approval(store, self._undo_ctx, timeout=timeout, session=self.session)

    @property
    def proposals(self) -> Proposals:
        """The proposals in this workspace's history store (with a shared history, every
        machine's): list, approve, reject.

        Raises:
            PatchwrightError: ``history`` when the workspace keeps no history.
        """
        from patchwright.workspace.approval import Proposals, ProposalStore

        return Proposals(ProposalStore(self.history), self._undo_ctx, self._gate)

    def recover(self) -> list[str]:
        """Roll back commits left unfinished by crashed processes; returns their batch IDs."""
        with self._on_disk():
            return self._ctx.recovery.recover_all()

    def check_root(self) -> None:
        """Raise ``io_error`` naming the cause when the root folder this workspace opened
        was removed or replaced since (a folder deleted and made again, a checkout
        moved): its files are no longer those at the root's path, and only a new
        workspace (a restarted server) reaches them.

        Raises:
            PatchwrightError: ``io_error`` with ``details["root_replaced"]``.
        """
        root = self._sandbox.root
        # a folder made anew may get the old one's inode: the held one's link count tells
        if _folder_identity(root) == self._root_identity and not self._fs.root_deleted(root):
            return
        raise PatchwrightError(
            ErrorCode.IO_ERROR,
            f"The workspace folder {root} was removed or replaced after it was opened; "
            "nothing was read or written.",
            "Ask the user to restart the server (or open the workspace again) on the "
            "folder as it is now.",
            details={"root_replaced": True},
        )

    @contextmanager
    def _on_disk(self) -> Iterator[None]:
        """No ``OSError`` leaves the facade (see module docstring); a failure caused by a
        removed or replaced root says so (:meth:`check_root`)."""
        try:
            with self._sandbox.guard():
                yield
        except PatchwrightError as err:
            if err.code in _ROOT_SYMPTOMS:
                self.check_root()
            raise
        except OSError as exc:
            self.check_root()
            where = f" ({exc.filename})" if exc.filename else ""
            raise PatchwrightError(
                ErrorCode.IO_ERROR,
                f"The file system refused an operation: {exc.strerror or exc}{where}. "
                "Nothing of this request was written.",
                "Check the folder's permissions and free space, then retry.",
                details={"errno": exc.errno},
            ) from exc


# refusals that a removed or replaced root folder causes (then named as such)
_ROOT_SYMPTOMS = (
    ErrorCode.FILE_NOT_FOUND, ErrorCode.IO_ERROR, ErrorCode.NOT_A_FILE,
    ErrorCode.PATH_OUTSIDE_ROOT, ErrorCode.STALE,
)  # fmt: skip


def _folder_identity(path: str) -> tuple[int, int] | None:
    """The device and inode of the folder at ``path`` (``None``: no folder there).

    Looked up by its path from the file system's top, not through the folder the
    workspace holds open (which would find the old folder again).
    """
    import stat

    try:
        found = os.lstat(path)
    except OSError:
        return None
    return (found.st_dev, found.st_ino) if stat.S_ISDIR(found.st_mode) else None


def _existing_folder(fs: FileSystem, root: str) -> str:
    real = fs.realpath(os.path.abspath(root))
    kind = fs.probe(real).kind
    if kind == "dir":
        return real
    code = ErrorCode.FILE_NOT_FOUND if kind == "missing" else ErrorCode.NOT_A_FILE
    raise PatchwrightError(
        code,
        f"The workspace root {root!r} is not an existing folder.",
        "Open the workspace on a folder that exists.",
    )
