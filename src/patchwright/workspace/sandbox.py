"""Paths and file types: what the workspace may touch.

:meth:`Sandbox.resolve` turns a path a caller sent into a normalised posix path relative
to the (real) workspace root, or refuses it:

* ``invalid_request``: empty, or contains a NUL byte;
* ``path_outside_root``: ``..`` climbs above the root, an absolute path lies outside it,
  or a symlink (the file itself or any parent folder) leads outside it;
* ``path_denied``: a deny glob matches (``.git`` at any depth by default, and the state
  folder when it sits inside the root), or allow globs are set and none matches;
* ``not_a_file``: the path names the root itself.

Symlinks that stay inside the root are followed: the resolved path is the real file, so
two spellings of one file share one lock and one history. Deny globs are checked on the
path as sent and on the resolved one, and ignore case because on case-insensitive file
systems ``.GIT/config`` is ``.git/config``.

:meth:`Sandbox.read` then refuses what is not a regular file (folders, FIFOs, sockets,
devices: ``not_a_file``) and files over the size limit (``too_large``). A commit reads
every path it writes through it, so a folder or FIFO in the way of a write is refused
the same way, and :meth:`Sandbox.missing_dirs` refuses a parent that is not a folder.

Every file-system call goes through the :class:`~patchwright.workspace.fs.FileSystem`
seam, which reaches paths from the root's directory descriptor without following a
symlink on the way: a folder swapped for a symlink between the check above and the use
is refused (``path_outside_root``, nothing read or written), never followed.

Two variants serve commits (:meth:`Sandbox.variant`):

* ``writing``: :meth:`Sandbox.read` also refuses (``path_denied``) a file the commit may
  not write: a read-only file (no write permission for this user; for root, no write bit
  at all, since root's own permission bypass is no reason to rewrite it), and a file with
  several hard links (replacing it would split the links; writing in place could leave it
  torn by a crash; the choice is to refuse, and say how to split it on purpose);
* ``follow_links=False`` (undo): a path is used as recorded, and a symlink on it, at
  any component, is refused (``not_a_file``) rather than followed;
* ``links=True`` (a change that acts on a link as a link, as git does: see
  :data:`~patchwright.workspace.fs.LINK_MODE`): the last component is never followed,
  a symlink there is read as itself (its target as content, ``mode_bits``
  ``LINK_MODE``), and a path beyond a symlink (one among its folders) is refused
  (``not_a_file``, as git refuses a path "beyond a symbolic link"). A link's new target
  must stay inside the root (:meth:`Sandbox.check_link_target`).
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from patchwright.model.errors import ErrorCode, PatchwrightError
from patchwright.workspace.fs import LINK_MODE, FileSystem, FolderMoved, Probe, SymlinkInPath
from patchwright.workspace.globs import GlobSet
from patchwright.workspace.records import FileState, sha256_hex
from patchwright.workspace.writable import require_writable

_KIND_TEXT = {
    "dir": "a folder",
    "fifo": "a named pipe (FIFO)",
    "socket": "a socket",
    "char_device": "a character device",
    "block_device": "a block device",
    "symlink": "a symlink",
    "other": "a special file",
}


_PATH_MAX = 4096  # Linux's; a longer path cannot be opened in one call anyway


def _name_max(root: str) -> int:
    try:
        return int(os.pathconf(root, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        return 255


def _names_root(path: str, field: str) -> PatchwrightError:
    return PatchwrightError(
        ErrorCode.NOT_A_FILE,
        f"Path {path!r} names the workspace root folder, not a file.",
        "Name a file inside the workspace.",
        path=path,
        field=field,
    )


def _within(base: str, path: str) -> bool:
    return path == base or path.startswith(base.rstrip("/") + "/")


class Sandbox:
    """Path resolution and file-type checks for one workspace root.

    Args:
        root: the workspace root folder (must exist).
        fs: the file system to use.
        max_file_bytes: the largest file that may be read or written.
        allow: when given, only paths matching one of these globs are allowed.
        deny: globs always refused (see :mod:`patchwright.workspace.globs`).
        hidden: absolute folders inside the root that are always refused (state folder).
    """

    def __init__(
        self,
        root: str,
        fs: FileSystem,
        *,
        max_file_bytes: int,
        allow: Sequence[str] | None,
        deny: Sequence[str],
        hidden: Sequence[str] = (),
    ) -> None:
        self.fs = fs
        self.given_root = posixpath.normpath(posixpath.abspath(root))
        self.root = fs.realpath(root)
        self.max_file_bytes = max_file_bytes
        self.allow = GlobSet(allow or ())
        hidden_rel = [posixpath.relpath(h, self.root) for h in hidden if _within(self.root, h)]
        self.deny = GlobSet([*deny, *hidden_rel], ignore_case=True)
        self.follow_links = True
        self.writing = False
        self.links = False
        self.name_max = _name_max(self.root)
        fs.hold_root(self.root)

    def variant(
        self, *, follow_links: bool = True, writing: bool = False, links: bool = False
    ) -> Sandbox:
        """The same sandbox, following symlinks or not, checking writability or not,
        taking a link at the last component as a link or not (see module)."""
        # a shallow copy by hand: the ``copy`` module is not worth its import here
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.follow_links, other.writing, other.links = follow_links, writing, links
        return other

    def as_links(self) -> Sandbox:
        """This sandbox with ``links=True``, the rest unchanged."""
        return self.variant(follow_links=self.follow_links, writing=self.writing, links=True)

    # paths -----------------------------------------------------------------------------------
    def abspath(self, rel: str) -> str:
        """The absolute path of a resolved relative path."""
        return posixpath.join(self.root, rel)

    def resolve(self, path: str, *, field: str = "path") -> str:
        """Normalise ``path`` to a posix path relative to the root, or refuse it (see module)."""
        lexical = self._lexical(path, field)
        self._check_rules(lexical, path, field)
        if not self.follow_links or self.links:
            return self._unlinked(lexical, path, field)
        real = self.fs.realpath_below(self.root, lexical)
        if not _within(self.root, real):
            link = self.first_link(lexical)
            through = f"goes through the symlink {link!r}, which" if link else ""
            raise PatchwrightError(
                ErrorCode.PATH_OUTSIDE_ROOT,
                f"Path {path!r} {through or 'resolves to a place that'} leads outside the "
                f"workspace root {self.given_root}.",
                "Only files inside the workspace can be read or changed; edit the file at "
                "its real location inside the workspace.",
                path=path,
                field=field,
                details={"symlink": link, "target": real},
            )
        rel = posixpath.relpath(real, self.root)
        if rel == ".":
            raise _names_root(path, field)
        if rel != lexical:
            self._check_rules(rel, path, field)
        return rel

    def resolve_lexical(self, path: str, *, field: str = "path") -> str:
        """Like :meth:`resolve` but without following symlinks (no file-system access)."""
        lexical = self._lexical(path, field)
        self._check_rules(lexical, path, field)
        return lexical

    def _lexical(self, path: str, field: str) -> str:
        if not isinstance(path, str) or not path.strip():
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"The {field} is empty; a file path relative to the workspace root is required.",
                "Send a path such as 'src/app.py'.",
                field=field,
            )
        if "\x00" in path:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"Path {path!r} contains a NUL byte, which no file name can hold.",
                "Send the path as plain text without control characters.",
                field=field,
            )
        normal = posixpath.normpath(path)
        self._check_length(normal, path, field)
        if posixpath.isabs(normal):
            for base in (self.root, self.given_root):
                if _within(base, normal):
                    return posixpath.relpath(normal, base)
            raise self._outside(path, field, "is an absolute path outside")
        if normal == ".." or normal.startswith("../"):
            raise self._outside(path, field, "climbs with '..' above")
        return normal

    def _check_length(self, normal: str, path: str, field: str) -> None:
        # the file system would refuse it mid-commit with ENAMETOOLONG; say so up front
        for name in normal.split("/"):
            size = len(name.encode("utf-8", "surrogateescape"))
            if size > self.name_max:
                raise PatchwrightError(
                    ErrorCode.INVALID_REQUEST,
                    f"The {field} has a name of {size} bytes ({name[:40]!r}...), longer than "
                    f"the {self.name_max} bytes a file or folder name can have here.",
                    f"Use a name of at most {self.name_max} bytes.",
                    path=path[:300],
                    field=field,
                    details={"name_bytes": size, "limit": self.name_max},
                )
        if len(normal.encode("utf-8", "surrogateescape")) > _PATH_MAX:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"The {field} is longer than the {_PATH_MAX} bytes a path can have.",
                "Use a shorter path.",
                field=field,
                details={"limit": _PATH_MAX},
            )

    def _outside(self, path: str, field: str, how: str) -> PatchwrightError:
        return PatchwrightError(
            ErrorCode.PATH_OUTSIDE_ROOT,
            f"Path {path!r} {how} the workspace root {self.given_root}.",
            "Use a path relative to the workspace root, such as 'src/app.py', that stays "
            "inside it.",
            path=path,
            field=field,
        )

    def _check_rules(self, rel: str, path: str, field: str) -> None:
        if rel == ".":
            return
        pattern = self.deny.match(rel)
        if pattern is not None:
            raise PatchwrightError(
                ErrorCode.PATH_DENIED,
                f"Path {path!r} is protected: it matches the deny rule {pattern!r}.",
                "Protected paths (such as .git) cannot be read or changed here; pick another file.",
                path=path,
                field=field,
                details={"rule": pattern},
            )
        if self.allow and self.allow.match(rel) is None:
            raise PatchwrightError(
                ErrorCode.PATH_DENIED,
                f"Path {path!r} is outside the allowed paths ({', '.join(self.allow.patterns)}).",
                "Only files matching the allowed paths can be read or changed.",
                path=path,
                field=field,
                details={"allow": list(self.allow.patterns)},
            )

    def first_link(self, lexical: str) -> str | None:
        """The first component of the resolved-lexical path ``lexical`` that is a
        symlink (``None``: none is)."""
        parts = lexical.split("/")
        for n in range(1, len(parts) + 1):
            prefix = "/".join(parts[:n])
            with self.guard():
                if self.fs.probe(self.abspath(prefix)).kind == "symlink":
                    return prefix
        return None

    def _unlinked(self, lexical: str, path: str, field: str) -> str:
        link = self.first_link(lexical) if lexical != "." else None
        if (link is None or (self.links and link == lexical)) and lexical != ".":
            return lexical
        if link is None:
            raise _names_root(path, field)
        if self.links:
            raise PatchwrightError(
                ErrorCode.NOT_A_FILE,
                f"{path}: the folder {link} on its path is a symbolic link; a patch never "
                "reaches a file beyond a link (git refuses it too). Nothing was changed.",
                f"Name the file by its real path (without {link}/), or ask the user.",
                path=path,
                field=field,
                details={"kind": "symlink", "symlink": link},
            )
        raise PatchwrightError(
            ErrorCode.NOT_A_FILE,
            f"{link!r} is now a symlink; {path!r} is used only as it was recorded, "
            "never through a symlink.",
            "Put the file back where it was, or edit it by hand.",
            path=path,
            field=field,
            details={"kind": "symlink", "symlink": link},
        )

    @contextmanager
    def guard(self) -> Iterator[None]:
        """Turn a symlink met on the way to a path (a folder swapped mid-call) into a
        ``path_outside_root`` refusal."""
        try:
            yield
        except SymlinkInPath as exc:
            link = posixpath.relpath(exc.component, self.root)
            rel = posixpath.relpath(exc.path, self.root)
            now = "was moved or replaced" if isinstance(exc, FolderMoved) else "is a symlink now"
            raise PatchwrightError(
                ErrorCode.PATH_OUTSIDE_ROOT,
                f"The folder {link!r} on the way to {rel!r} {now} (it was changed while "
                "patchwright worked); patchwright never reads or writes through it. "
                "Nothing was written.",
                "Check that folder: if it should be a folder again, retry; edit files at "
                "their real location inside the workspace.",
                path=rel,
                details={"symlink": link},
            ) from None

    # file types ------------------------------------------------------------------------------
    def read(self, rel: str) -> FileState | None:
        """A resolved path's state, ``None`` when missing; refuses non-files and big files."""
        with self.guard():
            found = self.fs.read_file(self.abspath(rel), self.max_file_bytes)
        if found.kind == "missing":
            return None
        if self.links and found.kind == "symlink" and found.data is not None:
            # the link itself: its target is its content (git's view of a link)
            return FileState(
                rel, found.data, sha256_hex(found.data), LINK_MODE, identity=found.identity
            )
        self.require_file(rel, found)
        if found.data is None:
            raise self._too_large(rel, found.size)
        if self.writing:
            require_writable(rel, found)
        return FileState(
            rel, found.data, sha256_hex(found.data), found.mode_bits, identity=found.identity
        )

    def check_link_target(self, rel: str, target: bytes, *, field: str = "path") -> None:
        """Refuse a link at ``rel`` to ``target`` unless the target stays inside the root.

        The target is taken as the kernel would take it from the link's folder, existing
        links on its way followed; it must name a place inside the root that the rules
        allow. A link leading out would let a later read or write of it leave the root.
        """
        text = os.fsdecode(target)
        if not text or "\x00" in text or "\n" in text:
            raise PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"The new target of the link {rel!r} is "
                + ("empty" if not text else f"{text[:80]!r}, which holds a line break")
                + ". Nothing was changed.",
                "Give the link's target as one line without a final newline (in a diff, "
                "the line '\\ No newline at end of file' after it).",
                path=rel,
                field=field,
            )
        # as the kernel will take it: from the link's folder, each link on the way
        # followed before a ".." after it (realpath does the same)
        where = posixpath.join(self.root, posixpath.dirname(rel), text)
        real = self.fs.realpath(where)
        if not _within(self.root, real):
            raise PatchwrightError(
                ErrorCode.PATH_OUTSIDE_ROOT,
                f"The link {rel!r} would point to {text!r}, which leads outside the "
                f"workspace root {self.given_root}. Nothing was changed.",
                "A link may only point to a place inside the workspace; ask the user to "
                "make this one.",
                path=rel,
                field=field,
                details={"target": text, "resolves_to": real},
            )
        inside = posixpath.relpath(real, self.root)
        if inside != ".":
            self._check_rules(inside, rel, field)

    def check_size(self, rel: str, data: bytes) -> None:
        """Refuse content over the size limit."""
        if len(data) > self.max_file_bytes:
            raise self._too_large(rel, len(data), writing=True)

    def missing_dirs(self, rel: str) -> list[str]:
        """The parent folders of ``rel`` that a write must create, outermost first.

        Raises:
            PatchwrightError: ``not_a_file`` when a parent exists but is not a folder.
        """
        missing: list[str] = []
        parent = posixpath.dirname(rel)
        while parent:
            with self.guard():
                found = self.fs.probe(self.abspath(parent))
            if found.kind == "dir":
                break
            if found.kind != "missing":
                raise PatchwrightError(
                    ErrorCode.NOT_A_FILE,
                    f"Cannot write {rel!r}: its parent {parent!r} is "
                    f"{_KIND_TEXT.get(found.kind, 'a file')}, not a folder.",
                    "Choose a path whose parent folders are folders.",
                    path=rel,
                )
            missing.append(parent)
            parent = posixpath.dirname(parent)
        return missing[::-1]

    def require_file(self, rel: str, found: Probe) -> None:
        """Refuse (``not_a_file``) what ``found`` shows is not a regular file."""
        if found.kind == "file":
            return
        what = _KIND_TEXT.get(found.kind, "a special file")
        if found.kind == "symlink":
            # a resolved path is symlink-free: this one never resolves (a loop)
            what = "a symlink that cannot be followed (a loop, or one swapped in just now)"
        hint = (
            "Name a file inside the folder; list the folder to see its files."
            if found.kind == "dir"
            else "Only regular files can be read or edited."
        )
        raise PatchwrightError(
            ErrorCode.NOT_A_FILE,
            f"{rel!r} is {what}, not a regular file.",
            hint,
            path=rel,
            details={"kind": found.kind},
        )

    def _too_large(self, rel: str, size: int, *, writing: bool = False) -> PatchwrightError:
        what = "The new content of" if writing else "File"
        return PatchwrightError(
            ErrorCode.TOO_LARGE,
            f"{what} {rel!r} is {size} bytes, over the workspace limit of "
            f"{self.max_file_bytes} bytes.",
            "Work on smaller files, or raise the workspace's max_file_bytes.",
            path=rel,
            details={"size": size, "limit": self.max_file_bytes},
        )
