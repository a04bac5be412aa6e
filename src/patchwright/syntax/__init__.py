"""The syntax guard: after an edit, report the syntax errors the edit introduced.

Pure (text in, report out) and cheap: a file type without a parser costs nothing, and
grammar packages are imported only when a file of their language is checked.

    report = check_edit("src/app.py", before, after)          # policy "warn"
    if report.new_errors:
        warnings.append(report.warning_text())
    check_edit(path, before, after, policy="reject")            # raises SYNTAX_ERROR

Importing the package loads the language table and the report types only; the
checkers (and the parsers they use) load on the first :func:`check_edit`, so a patch of
files without a parser never pays for them.
"""

from __future__ import annotations

from importlib import import_module

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

_LAZY = {"MAX_CHARS": "patchwright.syntax.check", "check_edit": "patchwright.syntax.check"}

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover - static view of the lazy exports
    from typing import Any

    from patchwright.syntax.check import MAX_CHARS, check_edit


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'patchwright.syntax' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
