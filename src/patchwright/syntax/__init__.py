"""The syntax guard: after an edit, report the syntax errors the edit introduced.

Pure (text in, report out) and cheap: a file type without a parser costs nothing, and
grammar packages are imported only when a file of their language is checked.

    report = check_edit("src/app.py", before, after)          # policy "warn"
    if report.new_errors:
        warnings.append(report.warning_text())
    check_edit(path, before, after, policy="reject")            # raises SYNTAX_ERROR

Importing the package loads the language table only; the report types load when a
file with a parser is checked, and the checkers (and the parsers they use) on the first
:func:`check_edit`, so a patch of files without a parser never pays for them.
"""

from __future__ import annotations

from patchwright._lazy import lazy_exports
from patchwright.syntax.languages import known_suffixes, language_for
from patchwright.syntax.policy import POLICIES, check_policy

__all__ = [
    "MAX_CHARS",
    "POLICIES",
    "TOO_LARGE_REASON",
    "SyntaxIssue",
    "SyntaxPolicy",
    "SyntaxReport",
    "check_edit",
    "check_policy",
    "known_suffixes",
    "language_for",
]

# public name -> module that defines it (imported on first use: see patchwright/_lazy.py)
_LAZY = {
    "MAX_CHARS": "patchwright.syntax.check",
    "TOO_LARGE_REASON": "patchwright.syntax.check",
    "check_edit": "patchwright.syntax.check",
    "SyntaxIssue": "patchwright.syntax.report",
    "SyntaxPolicy": "patchwright.syntax.report",
    "SyntaxReport": "patchwright.syntax.report",
}

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - static view of the lazy exports
    from patchwright.syntax.check import MAX_CHARS, TOO_LARGE_REASON, check_edit
    from patchwright.syntax.report import SyntaxIssue, SyntaxPolicy, SyntaxReport
else:  # mypy reads the imports above, so it flags an unknown name
    __getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals())
