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
from patchwright.syntax.languages import known_suffixes as known_suffixes
from patchwright.syntax.languages import language_for as language_for
from patchwright.syntax.policy import POLICIES as POLICIES
from patchwright.syntax.policy import check_policy as check_policy

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - static view of the lazy exports
    from patchwright.syntax.check import MAX_CHARS as MAX_CHARS
    from patchwright.syntax.check import TOO_LARGE_REASON as TOO_LARGE_REASON
    from patchwright.syntax.check import check_edit as check_edit
    from patchwright.syntax.report import SyntaxIssue as SyntaxIssue
    from patchwright.syntax.report import SyntaxPolicy as SyntaxPolicy
    from patchwright.syntax.report import SyntaxReport as SyntaxReport
else:  # type checkers read the imports above
    __getattr__, __dir__, __all__ = lazy_exports(globals())
