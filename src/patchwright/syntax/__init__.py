"""The syntax guard: after an edit, report the syntax errors the edit introduced.

Pure (text in, report out) and cheap: a file type without a parser costs nothing, and
grammar packages are imported only when a file of their language is checked.

    report = check_edit("src/app.py", before, after)          # policy "warn"
    if report.new_errors:
        warnings.append(report.warning_text())
    check_edit(path, before, after, policy="reject")            # raises SYNTAX_ERROR
"""

from patchwright.syntax.check import MAX_CHARS, check_edit
from patchwright.syntax.languages import known_suffixes, language_for
from patchwright.syntax.report import SyntaxIssue, SyntaxPolicy, SyntaxReport

__all__ = [
    "MAX_CHARS",
    "SyntaxIssue",
    "SyntaxPolicy",
    "SyntaxReport",
    "check_edit",
    "known_suffixes",
    "language_for",
]
