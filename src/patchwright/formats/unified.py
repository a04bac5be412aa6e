r"""Unified and git diffs into the edit model.

Grammar (what a well-formed diff looks like)::

    diff      := (prose | section)*
    section   := [git_line git_ext*] [old_file new_file] hunk*
               | "Binary files " X " and " Y " differ"
    git_line  := "diff --git " old_path " " new_path
    git_ext   := "index " ... | "old mode " M | "new mode " M | "new file mode " M
               | "deleted file mode " M | "similarity index " N% | "dissimilarity index " N%
               | "rename from " P | "rename to " P | "Binary files " ... " differ"
               | "GIT binary patch" base85-data
    old_file  := "--- " path [TAB timestamp]          (path "/dev/null": no old file)
    new_file  := "+++ " path [TAB timestamp]          (path "/dev/null": no new file)
    hunk      := "@@ -" l ["," n] " +" l ["," n] " @@" [section_heading] body
    body      := (" " text | "-" text | "+" text | "\ No newline at end of file")*

Paths may be git-quoted (C escapes). ``a/`` and ``b/`` prefixes are removed when the
header uses them. Text before, between and after sections is prose and ignored.

Mapping: each section is one :class:`FilePatch` (``/dev/null`` or ``new file mode``:
CREATE with the added lines as content; ``+++ /dev/null`` or ``deleted file mode``:
DELETE; ``rename from``/``to``: ``move_to``; binary: ``binary=True``). Hunks become
``Edit(Hunk(...), label="hunk N")`` in written order, composed SEQUENTIALLY.

Leniencies, each recorded in ``PatchSet.warnings`` where it changes the reading:

* Wrong line numbers are kept as hints only (models miscount positions); the engine
  locates hunks by content.
* ``@@``, ``@@ @@`` and headers without readable numbers are accepted (models leave the
  numbers out when they cannot know them); such hunks have ``old_start=None``. Spacing
  inside the header and a missing closing ``@@`` are not checked (``@@-1,3+1,4``).
* Header counts that disagree with the body are recounted (models miscount lines).
* Blank context lines written as empty lines are context lines, without a warning (models
  and editors strip the lone space; git accepts them too); empty lines at the very end
  of a hunk are separators unless the header counts say they belong to it.
* A line without any prefix inside a hunk, followed by more hunk lines, is a context
  line missing its leading space (models drop it). After a hunk whose counts are
  complete, unprefixed text is prose.
* ``--- x``/``+++ y`` inside a hunk are a removed and an added line while the counts
  still expect lines, otherwise they start the next file.
* Lines of ``...`` are ordinary context lines: the engine treats them as elisions
  (models abbreviate unchanged code).
* CRLF line endings of the patch text are ignored (patches get saved on Windows).
* Hunks without any file header get the path ``""`` (the caller names the target file;
  models often send bare hunks); file headers without an ``@@`` line before the first
  hunk line start a hunk without numbers (models forget the header).
* Markdown fences and prose around or between sections are ignored.
"""

from __future__ import annotations

from patchwright._records import field, record, replace
from patchwright.formats._common import (
    check_hunk_count,
    parse_error,
    require_text,
    split_patch_lines,
    with_conversions,
)
from patchwright.formats._diff_paths import (
    binary_line_paths,
    header_path,
    strip_prefixes,
)
from patchwright.formats._git_header import GitHeader, read_git_header
from patchwright.formats._hunks import (
    build_hunk,
    parse_hunk_header,
    read_body,
    read_counted,
    starts_file,
)
from patchwright.model import (
    Composition,
    Edit,
    FileAction,
    FilePatch,
    Hunk,
    PatchSet,
)

FORMAT = "unified"


@record
class _Section:
    """One file section while it is being read."""

    line_no: int
    git: GitHeader | None = None
    old_path: str | None = None
    new_path: str | None = None
    has_file_lines: bool = False
    hunks: list[Hunk] = field(default_factory=list)


def parse_unified(text: str) -> PatchSet:
    """Parse a unified or git diff (one or more files) into a :class:`PatchSet`.

    Raises:
        PatchwrightError: ``PARSE_ERROR`` when no file section or hunk is found, or a
            section cannot be read; ``UNSUPPORTED`` for combined diffs and copies;
            ``TOO_LARGE`` for more hunks than a patch may hold (``check_hunk_count``).
    """
    check_hunk_count(require_text(text))
    lines = split_patch_lines(text)
    warnings: list[str] = []
    files: list[FilePatch] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if starts_file(lines, i, expecting=False) or line.startswith("@@"):
            section, i = _read_section(lines, i, warnings)
            files.append(_to_file_patch(section, warnings))
        elif _is_binary_line(line):
            files.append(_plain_binary(line, i + 1))
            i += 1
        else:
            i += 1
    if not files:
        raise parse_error(
            None,
            "No unified diff found: there is no '--- a/<path>' / '+++ b/<path>' file "
            "header, no 'diff --git' line and no '@@' hunk header.",
            "Start each file with '--- a/<path>' and '+++ b/<path>', then one or more "
            "hunks: an '@@ -l,n +l,n @@' line followed by lines starting with ' ', '-' or '+'.",
        )
    files = with_conversions(text, files)
    return PatchSet(files=tuple(files), format=FORMAT, warnings=tuple(warnings))


def _read_section(lines: list[str], i: int, warnings: list[str]) -> tuple[_Section, int]:
    section = _Section(line_no=i + 1)
    if lines[i].startswith("diff "):
        section.git, i = read_git_header(lines, i)
    if i + 1 < len(lines) and lines[i].startswith("--- ") and lines[i + 1].startswith("+++ "):
        old = header_path(lines[i][4:], i + 1)
        new = header_path(lines[i + 1][4:], i + 2)
        if old is None and new is None:
            raise parse_error(
                i + 1,
                "Both file headers are /dev/null.",
                "Name the file on '--- a/<path>' (or '+++ b/<path>' for a new file).",
            )
        prefixed = section.git is not None and section.git.prefixed
        section.old_path, section.new_path = strip_prefixes(old, new, git_prefixed=prefixed)
        section.has_file_lines = True
        i += 2
        if i < len(lines) and lines[i][:1] in (" ", "-", "+") and not starts_file(lines, i, False):
            warnings.append(f"line {i + 1}: hunk lines without an '@@' header; read as one hunk")
            i = _read_hunk(lines, i, section, warnings, header_line=None)
    return _read_hunks(lines, i, section, warnings)


def _read_hunks(
    lines: list[str], i: int, section: _Section, warnings: list[str]
) -> tuple[_Section, int]:
    n = len(lines)
    while i < n:
        line = lines[i]
        if line.startswith("@@"):
            i = _read_hunk(lines, i, section, warnings, header_line=line)
        elif starts_file(lines, i, expecting=False) or _is_binary_line(line):
            break
        else:
            i += 1  # prose between hunks ("and further down:") is ignored
    return section, i


def _read_hunk(
    lines: list[str], i: int, section: _Section, warnings: list[str], header_line: str | None
) -> int:
    if header_line is None:
        header = parse_hunk_header("@@", i + 1, warnings)
        line_no, start = i + 1, i
    else:
        header = parse_hunk_header(header_line, i + 1, warnings)
        line_no, start = i + 1, i + 1
        counted = read_counted(lines, start, header, line_no)
        if counted is not None:
            section.hunks.append(counted[0])
            return counted[1]
    label = f"hunk {len(section.hunks) + 1}"
    body, end = read_body(lines, start, header, warnings)
    if not body.lines:
        raise parse_error(
            line_no,
            f"{label.capitalize()} has no lines.",
            "Follow each '@@' header with the hunk's lines, each starting with ' ' "
            "(context), '-' (removed) or '+' (added).",
        )
    section.hunks.append(build_hunk(header, body, line_no, label, warnings))
    return end


def _section_paths(section: _Section, git: GitHeader) -> tuple[str | None, str | None]:
    """Old and new path: ``---``/``+++`` first, the ``diff --git`` line without them;
    ``rename from``/``to`` override both (they are never abbreviated)."""
    old, new = section.old_path, section.new_path
    if not section.has_file_lines:
        old, new = git.old_path, git.new_path
    if git.rename_from is not None:
        old = git.rename_from
    if git.rename_to is not None:
        new = git.rename_to
    return old, new


def _to_file_patch(section: _Section, warnings: list[str]) -> FilePatch:
    git = section.git or GitHeader()
    old, new = _section_paths(section, git)
    created = git.new_file or (section.has_file_lines and old is None)
    deleted = git.deleted_file or (section.has_file_lines and new is None)
    path = (old if deleted else new) or old or new or ""
    if not path and (section.git is not None or section.has_file_lines):
        raise parse_error(
            section.line_no,
            "The file section names no file.",
            "Write '--- a/<path>' and '+++ b/<path>' before the hunks.",
        )
    if not path:
        warnings.append(
            f"line {section.line_no}: hunks without a file header; the target file "
            "must be named by the caller"
        )
    base = FilePatch(
        path=path,
        source_line=section.line_no,
        binary=git.binary,
        old_mode=git.old_mode,
        new_mode=git.new_mode,
    )
    if deleted:
        return replace(base, action=FileAction.DELETE)
    if created:
        return _created(base, section, warnings)
    move_to = new if git.is_rename and new != old else None
    if move_to is not None:
        base = replace(base, path=old or path, move_to=move_to)
    if not section.hunks and not _has_effect(base):
        raise parse_error(
            section.line_no,
            f"The section for {path} has no hunks.",
            "Add at least one '@@' hunk with the lines to change.",
        )
    edits = tuple(Edit(h, label=f"hunk {k}") for k, h in enumerate(section.hunks, 1))
    return replace(base, edits=edits, composition=Composition.SEQUENTIAL)


def _has_effect(fp: FilePatch) -> bool:
    return fp.binary or fp.move_to is not None or fp.old_mode != fp.new_mode


def _created(base: FilePatch, section: _Section, warnings: list[str]) -> FilePatch:
    if base.binary:
        return replace(base, action=FileAction.CREATE)
    parts: list[str] = []
    for hunk in section.hunks:
        if any(hl.op != "+" for hl in hunk.lines):
            warnings.append(
                f"line {hunk.source_line}: a new file's hunk has context or removed "
                "lines; the file is created from its context and added lines"
            )
        parts.extend(text + "\n" for text in hunk.new_lines)
    content = "".join(parts)
    if section.hunks and section.hunks[-1].no_newline_new and content.endswith("\n"):
        content = content[:-1]
    return replace(base, action=FileAction.CREATE, content=content)


def _is_binary_line(line: str) -> bool:
    return line.startswith("Binary files ") and line.endswith(" differ")


def _plain_binary(line: str, line_no: int) -> FilePatch:
    paths = binary_line_paths(line)
    if paths is None:
        raise parse_error(
            line_no,
            "The 'Binary files ... differ' line names no files.",
            "patchwright does not apply binary changes; leave binary files out of the diff.",
        )
    old, new = strip_prefixes(*paths, git_prefixed=False)
    action = FileAction.UPDATE
    if old is None:
        action = FileAction.CREATE
    elif new is None:
        action = FileAction.DELETE
    return FilePatch(path=new or old or "", action=action, binary=True, source_line=line_no)
