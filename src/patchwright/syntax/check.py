"""The syntax guard: did this edit break the file?

:func:`check_edit` parses the text after an edit and, when it has errors, the text before
it, and reports only the errors the edit introduced (see :mod:`.compare`). Files without a
parser cost one dictionary look-up. Python edits are first judged by compiling just the
edited statements (:mod:`.pyregion`), which keeps large modules cheap; tree-sitter keeps
the last trees, so an edit of a file checked before reparses incrementally.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.syntax.compare import split_errors
from patchwright.syntax.excerpt import excerpt
from patchwright.syntax.languages import LanguageSpec, spec_for
from patchwright.syntax.pyregion import edit_is_clean
from patchwright.syntax.report import SyntaxIssue, SyntaxPolicy, SyntaxReport
from patchwright.syntax.stdlib_parsers import (
    NoVerdict,
    ParseError,
    json_errors,
    python_errors,
    toml_errors,
)
from patchwright.syntax.treesitter import tree_sitter_errors

# Beyond this size a parse is no longer cheap, and such files are rarely hand-edited.
MAX_CHARS = 2_000_000
_POLICIES = ("off", "warn", "reject")

Parse = Callable[[str], list[ParseError]]


def check_edit(
    path: str, before: str | None, after: str, *, policy: SyntaxPolicy = "warn"
) -> SyntaxReport:
    """Report the syntax errors an edit introduced into ``path``.

    Args:
        path: the file's path; only its name is used, to choose the language.
        before: the text before the edit, ``None`` for a file the edit creates.
        after: the text the edit produces.
        policy: ``off`` returns at once, unchecked; ``warn`` reports; ``reject`` also
            raises when the edit introduced an error.

    Raises:
        PatchwrightError: ``SYNTAX_ERROR`` under ``reject`` when the edit introduced an
            error (the caller must then write nothing); ``INVALID_REQUEST`` for an
            unknown policy.
    """
    started = time.perf_counter()
    if policy not in _POLICIES:
        raise PatchwrightError(
            ErrorCode.INVALID_REQUEST,
            f"Unknown syntax-check policy {policy!r}.",
            "Use one of: off, warn, reject.",
            field="syntax_check",
        )
    spec = spec_for(path)
    language = spec.name if spec else None
    if policy == "off":
        return SyntaxReport(language, False, 0.0, reason="the syntax check is off")
    reason = _skip_reason(spec, after)
    if spec is None or reason:
        return SyntaxReport(language, False, _since(started), reason=reason)
    try:
        errors, preexisting, scope = _judge(spec, before, after)
    except NoVerdict as exc:
        return SyntaxReport(language, False, _since(started), reason=exc.reason)
    lines = after.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()  # the empty piece after a final newline is not a line to show
    issues = [
        SyntaxIssue(e.line, e.column, e.message, excerpt(lines, e.line, e.column)) for e in errors
    ]
    report = SyntaxReport(language, True, _since(started), issues, preexisting, scope)
    if issues and policy == "reject":
        raise _rejection(path, report)
    return report


def _skip_reason(spec: LanguageSpec | None, after: str) -> str:
    if spec is None:
        return "no parser for this file type"
    if len(after) > MAX_CHARS:
        return f"file too large for the syntax check ({len(after)} characters)"
    return ""


def _since(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0


def _judge(spec: LanguageSpec, before: str | None, after: str) -> tuple[list[ParseError], int, str]:
    """New errors, count of old ones still there, and the scope that was parsed."""
    if before == after:
        return [], 0, "unchanged"
    parse = _parser(spec)
    if spec.backend == "python" and before is not None and edit_is_clean(before, after):
        return [], 0, "region"
    after_lines = after.split("\n")
    if spec.backend == "tree-sitter":
        found = tree_sitter_errors(spec, after, base=before)
    else:
        found = parse(after)
    after_errors = _clamped(found, after_lines)
    if not after_errors or before is None:
        return after_errors, 0, "file"
    before_lines = before.split("\n")
    before_errors = _clamped(parse(before), before_lines)
    new, preexisting = split_errors(
        before_errors,
        after_errors,
        before_lines,
        after_lines,
        first_error_only=spec.first_error_only,
    )
    return new, preexisting, "file"


def _parser(spec: LanguageSpec) -> Parse:
    if spec.backend == "python":
        return python_errors
    if spec.backend == "json":
        return json_errors
    if spec.backend == "toml":
        return toml_errors
    return lambda text: tree_sitter_errors(spec, text)


def _clamped(errors: list[ParseError], lines: Sequence[str]) -> list[ParseError]:
    """Errors reported past the last line (end of input) moved onto the last line."""
    last = max(1, len(lines))
    if lines and lines[-1] == "" and last > 1:
        last -= 1  # the empty piece after a final newline is not a line a model can see
    out = []
    for error in errors:
        line = min(max(1, error.line), last)
        if line != error.line:
            error = ParseError(line, len(lines[line - 1].rstrip("\r")) + 1, error.message)
        out.append(error)
    return out


def _rejection(path: str, report: SyntaxReport) -> PatchwrightError:
    first = report.new_errors[0]
    return PatchwrightError(
        ErrorCode.SYNTAX_ERROR,
        report.rejection_text(path),
        f"Nothing was written: {path} is unchanged. Fix the new text near line {first.line} "
        "(indentation, brackets, quotes, separators) and send the edit again; the excerpt "
        "shows the text the edit would have produced.",
        path=path,
        line=first.line,
        details={"syntax": report.to_dict()},
    )
