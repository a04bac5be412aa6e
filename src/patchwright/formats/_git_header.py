"""The ``diff --git`` line and git's extended header lines that follow it."""

from __future__ import annotations

import re

from patchwright._records import record
from patchwright.formats._common import shorten, unsupported
from patchwright.formats._diff_paths import git_line_paths, strip_prefixes, unquote_c

#: git's mode of a symbolic link.
LINK = "120000"

# A line of "GIT binary patch" data: a length letter then base85, or the block headers.
_BINARY_DATA = re.compile(
    r"(?:[A-Za-z][0-9A-Za-z!#$%&()*+\-;<=>?@^_`{|}~]*|(?:literal|delta) \d+|)$"
)


@record
class GitHeader:
    """What the git header lines of one file section say."""

    old_path: str | None = None
    new_path: str | None = None
    prefixed: bool = False
    rename_from: str | None = None
    rename_to: str | None = None
    new_file: bool = False
    deleted_file: bool = False
    old_mode: str | None = None
    new_mode: str | None = None
    binary: bool = False

    @property
    def is_rename(self) -> bool:
        """Whether the header declares a rename."""
        return self.rename_from is not None or self.rename_to is not None


def read_git_header(lines: list[str], i: int) -> tuple[GitHeader, int]:
    """Read ``lines[i]`` (``diff --git ...``) and its extended lines.

    Returns the header and the index of the first line after it.

    Raises:
        PatchwrightError: ``UNSUPPORTED`` for combined diffs and copies.
    """
    line = lines[i]
    if not line.startswith("diff --git "):
        raise unsupported(
            i + 1,
            f"{shorten(line)!r} starts a combined (merge) diff, which patchwright does not apply.",
            "Write an ordinary unified diff against one version of the file.",
        )
    header = GitHeader()
    paths = git_line_paths(line[len("diff --git ") :], i + 1)
    if paths is not None:
        header.prefixed = paths[0].startswith("a/") and paths[1].startswith("b/")
        header.old_path, header.new_path = strip_prefixes(*paths, git_prefixed=header.prefixed)
    i += 1
    while i < len(lines):
        if not _read_extended(lines[i], i + 1, header):
            break
        i += 1
        if lines[i - 1].startswith("GIT binary patch"):
            while i < len(lines) and _BINARY_DATA.match(lines[i]):
                i += 1
    return header, i


def _read_extended(line: str, line_no: int, header: GitHeader) -> bool:
    """Apply one extended header line to ``header``; ``False`` if it is not one."""
    if line.startswith("index "):
        # "index a..b 120000": git names an unchanged mode here only; a link's mode is
        # carried (the section edits the link's target, not a file's lines), a regular
        # file's is left out as it changes nothing
        if line.split()[2:3] == [LINK] and header.old_mode is None and header.new_mode is None:
            header.old_mode = header.new_mode = LINK
        return True
    if line.startswith(("similarity index ", "dissimilarity index ")):
        return True
    if line.startswith(("old mode ", "new mode ")):
        mode = line.split()[-1]
        if line.startswith("old"):
            header.old_mode = mode
        else:
            header.new_mode = mode
        return True
    if line.startswith("new file mode "):
        header.new_file, header.new_mode = True, line.split()[-1]
        return True
    if line.startswith("deleted file mode "):
        header.deleted_file, header.old_mode = True, line.split()[-1]
        return True
    if line.startswith(("rename from ", "rename old ")):
        header.rename_from = _path_value(line.split(" ", 2)[2], line_no)
        return True
    if line.startswith(("rename to ", "rename new ")):
        header.rename_to = _path_value(line.split(" ", 2)[2], line_no)
        return True
    if line.startswith(("copy from ", "copy to ")):
        raise unsupported(
            line_no,
            "git copies ('copy from' / 'copy to') are not supported.",
            "Create the new file with '--- /dev/null' and '+++ b/<new path>' instead.",
        )
    if line.startswith("GIT binary patch") or (
        line.startswith("Binary files ") and line.endswith(" differ")
    ):
        header.binary = True
        return True
    return False


def _path_value(raw: str, line_no: int) -> str:
    raw = raw.strip()
    if raw.startswith('"'):
        return unquote_c(raw, 0, line_no)[0]
    return raw
