"""Apply a patch text to a folder, from Python: what ``patchwright apply`` does.

    from patchwright import apply_patch_text

    report = apply_patch_text(open("fix.diff").read(), root="path/to/repo")
    if not report.ok:
        print(report.summary())      # which file and hunk failed, and how to fix the patch
    print(report.diff)               # what changed

Every file of the patch is planned in memory first (parse, locate every hunk, build
every new text, run the syntax guard); only when all of them succeed is anything
written, as one atomic, crash-safe commit of the workspace (recorded in its history with
one change per hunk, so ``patchwright undo`` reverts it). A refusal writes nothing and
reports, per file and per hunk, what applied and what failed (spec 002's form).

Git mode changes (``old mode`` / ``new mode``, ``new file mode``) set the executable
bits in the same commit; a mode git cannot express as permission bits (symlink,
submodule) is refused.

Large files: each file is decoded once, its old text is dropped as soon as its diff is
rendered, and the bytes read are not kept (only their SHA256, the commit's
precondition), so a patch holds few copies of a big file at once.
"""

from __future__ import annotations

from patchwright._lazy import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - static view of the lazy exports
    from patchwright.api.apply import apply_patch_text as apply_patch_text
    from patchwright.api.report import ApplyReport as ApplyReport
    from patchwright.api.report import FileOutcome as FileOutcome
    from patchwright.engine.matching.failures import HunkFailure as HunkFailure
else:  # type checkers read the imports above
    __getattr__, __dir__, __all__ = lazy_exports(globals())
