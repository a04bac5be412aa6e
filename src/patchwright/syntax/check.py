"""The syntax guard: did this edit break the file?

:func:`check_edit` parses the text after an edit and, when it has errors, the text before
it, and reports only the errors the edit introduced (see :mod:`.compare`). Files without a
parser cost one dictionary look-up. Python edits are first judged by compiling just the
edited statements before and after the edit (:mod:`.pyregion`), which keeps large modules
cheap, also when the edit broke them. When the whole text after the edit must be parsed
and has an error on a line the edit wrote, compiling the old top-level statements around
the edit is enough to show the error is new; only otherwise is the old text parsed whole.
Whole-text verdicts of the standard-library parsers are kept for the next few checks (a
dry run then the real run, a refused edit sent again); tree-sitter keeps the last trees,
so an edit of a file checked before reparses incrementally.
"""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.syntax.compare import (
    DIALECT_ERRORS,
    LINE_REFERENCE,
    LineMap,
    _kind,
    split_errors,
)
from patchwright.syntax.excerpt import excerpt
from patchwright.syntax.languages import LanguageSpec, spec_for
from patchwright.syntax.policy import check_policy
from patchwright.syntax.pyregion import old_span_compiles, region_verdict
from patchwright.syntax.report import FilePlace, SyntaxIssue, SyntaxReport
from patchwright.syntax.shared import shared_lines
from patchwright.syntax.stdlib_parsers import (
    NoVerdict,
    ParseError,
    json_errors,
    python_errors,
    toml_errors,
)
from patchwright.syntax.steps import Block, Split
from patchwright.syntax.treesitter import tree_sitter_errors

TYPE_CHECKING = False
if TYPE_CHECKING:
    from patchwright.syntax.report import SyntaxPolicy

# Beyond this size a parse is no longer cheap, and such files are rarely hand-edited.
MAX_CHARS = 2_000_000
#: Why a file over :data:`MAX_CHARS` is not checked (the report's ``reason``).
TOO_LARGE_REASON = f"file too large for the syntax check (over {MAX_CHARS:,} characters)"

Parse = Callable[[str], list[ParseError]]


def check_edit(
    path: str,
    before: str | None,
    after: str,
    *,
    policy: SyntaxPolicy = "warn",
    changed: Sequence[Block] | None = None,
    split: Split | None = None,
) -> SyntaxReport:
    """Report the syntax errors an edit introduced into ``path``.

    Args:
        path: the file's path; only its name is used, to choose the language.
        before: the text before the edit, ``None`` for a file the edit creates.
        after: the text the edit produces.
        policy: ``off`` returns at once, unchecked; ``warn`` reports; ``reject`` also
            raises when the edit introduced an error.
        changed: the changed line blocks, when the caller knows them (the hunks of a
            diff): ``(old_start, old_end, new_start, new_end)``, 0-based, half open, in
            order. Only a hint that spares finding them; a wrong one costs time, never a
            wrong verdict.
        split: ``before`` and ``after`` split at ``\\n``, when the caller has them (a
            decoded file's lines): spares splitting the texts again. Unlike ``changed``
            it is trusted: it must be exactly those splits.

    Raises:
        PatchwrightError: ``SYNTAX_ERROR`` under ``reject`` when the edit introduced an
            error (the caller must then write nothing); ``INVALID_REQUEST`` for an
            unknown policy.
    """
    started = time.perf_counter()
    check_policy(policy, "syntax_check")
    spec = spec_for(path)
    language = spec.name if spec else None
    if policy == "off":
        return SyntaxReport(language, False, 0.0, reason="the syntax check is off")
    reason = _skip_reason(spec, after)
    if spec is None or reason:
        return SyntaxReport(language, False, _since(started), reason=reason)
    try:
        errors, preexisting, scope = _judge(spec, before, after, changed, split)
    except NoVerdict as exc:
        return SyntaxReport(language, False, _since(started), reason=exc.reason)
    note = ""
    if errors and before is not None and any(_dialect_kind(spec, e) for e in errors):
        errors, preexisting, note = _own_dialect(spec, before, errors, preexisting)
    issues = _issues(errors, before, after, changed, split)
    report = SyntaxReport(language, True, _since(started), issues, preexisting, scope, note=note)
    if issues and policy == "reject":
        raise _rejection(path, report)
    return report


def _issues(
    errors: Sequence[ParseError],
    before: str | None,
    after: str,
    changed: Sequence[Block] | None,
    split: Split | None,
) -> list[SyntaxIssue]:
    """The report's issues: each error located in the text after the edit, and where
    that line stands in the file before it (a refused edit leaves the file as it was,
    and its message must name the file's own lines, see :meth:`SyntaxIssue.place`)."""
    if not errors:
        return []
    pieces = list(split[1]) if split is not None else after.split("\n")
    lines = pieces[:-1] if len(pieces) > 1 and pieces[-1] == "" else pieces
    if before is None:
        return [
            SyntaxIssue(e.line, e.column, e.message, excerpt(lines, e.line, e.column))
            for e in errors
        ]
    line_map = LineMap(split[0] if split is not None else before.split("\n"), pieces, changed)

    def label(line: int) -> str:
        origin = line_map.origin(line)
        return str(origin.first) if origin.unchanged else "+"

    def named(found: re.Match[str]) -> str:
        origin = line_map.origin(int(found.group(1)))
        return f"line {origin.first}" if origin.unchanged else "a new line"

    issues = []
    for e in errors:
        origin = line_map.origin(e.line)
        in_file = FilePlace(
            origin.first,
            origin.last,
            origin.unchanged,
            LINE_REFERENCE.sub(named, e.message),
            excerpt(lines, e.line, e.column, label=label),
        )
        issues.append(
            SyntaxIssue(e.line, e.column, e.message, excerpt(lines, e.line, e.column), in_file)
        )
    return issues


def _dialect_kind(spec: LanguageSpec, error: ParseError) -> bool:
    """Whether ``error`` may be the file's own dialect rather than the edit's doing:
    any error of a tree-sitter language (their old text is parsed whole anyway), and
    for Python the errors another version or a mixed indentation gives (``except X,
    e:``, ``print x``, tabs against spaces), never one of indentation itself or an
    unclosed quote, which the whole old text is not parsed for (large modules)."""
    if spec.backend != "python":
        return True
    return _PY_DIALECT.search(error.message) is not None


# Python 2 forms and mixed tabs: what Python 3 says of a file written for another version.
_PY_DIALECT = re.compile(
    r"must be parenthesized|Missing parentheses|inconsistent use of tabs|leading zeros|"
    r"invalid decimal literal|did you mean print|Did you mean print|exec"
)


def _own_dialect(
    spec: LanguageSpec, before: str, errors: list[ParseError], preexisting: int
) -> tuple[list[ParseError], int, str]:
    """The errors left to blame on the edit once the file's own dialect is known, the
    count of those already there, and a note saying so (``""`` when nothing moved).

    A file that did not parse before the edit is in another dialect of its language
    (Python 2, a template, code split by the preprocessor): with several errors
    before, none after can be told apart from the dialect's; with fewer, an error of a
    kind the file already had (``except X, e:`` twice) is the dialect's too."""
    found = _clamped(_VERDICTS.parse(spec, before), before.split("\n"))
    if not found:
        return errors, preexisting, ""
    first = min(found, key=lambda e: e.line)
    kinds = {_kind(e.message) for e in found}
    if len(found) >= DIALECT_ERRORS:
        kept: list[ParseError] = []
    else:
        kept = [e for e in errors if _kind(e.message) not in kinds]
    if len(kept) == len(errors):
        return errors, preexisting, ""
    many = f"{len(found)} syntax errors, the first" if len(found) > 1 else "a syntax error"
    note = (
        f"the file itself did not parse as {spec.name} before this edit ({many} "
        f"at line {first.line}: {first.message}): it is written in another dialect, so "
        f"{len(errors) - len(kept)} error(s) after the edit were not blamed on it"
    )
    return kept, preexisting + len(errors) - len(kept), note


def _skip_reason(spec: LanguageSpec | None, after: str) -> str:
    if spec is None:
        return "no parser for this file type"
    if len(after) > MAX_CHARS:
        return TOO_LARGE_REASON
    return ""


def _since(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0


def _judge(
    spec: LanguageSpec,
    before: str | None,
    after: str,
    changed: Sequence[Block] | None,
    split: Split | None = None,
) -> tuple[list[ParseError], int, str]:
    """New errors, count of old ones still there, and the scope that was parsed."""
    if before == after:
        return [], 0, "unchanged"
    python = spec.backend == "python"
    if python and before is not None:
        verdict = region_verdict(before, after, changed, split)
        if verdict is not None:
            return verdict, 0, "region"
    after_lines = after.split("\n")
    if spec.backend == "tree-sitter":
        found = tree_sitter_errors(spec, after, base=before)
    else:
        found = _VERDICTS.parse(spec, after)
    after_errors = _clamped(found, after_lines)
    if not after_errors or before is None:
        return after_errors, 0, "file"
    before_lines = before.split("\n")
    line_map = LineMap(before_lines, after_lines, changed)
    if python and _surely_new(before, before_lines, after, line_map, after_errors):
        return after_errors, 0, "file"
    before_errors = _clamped(_VERDICTS.parse(spec, before), before_lines)
    new, preexisting = split_errors(
        before_errors,
        after_errors,
        before_lines,
        after_lines,
        first_error_only=spec.first_error_only,
        line_map=line_map,
    )
    return new, preexisting, "file"


def _surely_new(
    before: str,
    before_lines: Sequence[str],
    after: str,
    line_map: LineMap,
    after_errors: Sequence[ParseError],
) -> bool:
    """True when the Python error after the edit cannot have been there before it.

    Spares the parse of the whole text before the edit. The error (Python reports one)
    lies on a line the edit wrote, and the old top-level statements that line replaced
    compile alone: no error of the old text can lie among the replaced lines, and only
    one there could match an error on a written line (see :mod:`.compare`).
    """
    (error,) = after_errors
    if line_map.origin(error.line).unchanged:
        return False
    first, suffix = shared_lines(before, after)
    return old_span_compiles(before, first, len(before_lines) - suffix)


class _Verdicts:
    """The last few whole-text parses of the standard-library parsers, by text digest.

    An edit the guard rejects leaves the file as it was, and the model's next try is
    checked against the same old text; a dry run and the real run check the same pair.
    Keeping recent verdicts spares those repeated parses of large files.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._found: OrderedDict[tuple[str, bytes], list[ParseError]] = OrderedDict()
        self._lock = threading.Lock()  # an HTTP server may check edits from several threads

    def parse(self, spec: LanguageSpec, text: str) -> list[ParseError]:
        """The errors of ``text``, parsed now or remembered."""
        if len(text) < _REMEMBER_FROM:
            return _parser(spec)(text)  # cheap to parse again: not worth a digest
        import hashlib  # only for large files; its OpenSSL binding is slow to import

        key = (spec.backend, hashlib.sha1(text.encode("utf-8", "surrogatepass")).digest())
        with self._lock:
            found = self._found.get(key)
            if found is not None:
                self._found.move_to_end(key)
                return list(found)
        found = _parser(spec)(text)
        with self._lock:
            self._found[key] = found
            if len(self._found) > self._size:
                self._found.popitem(last=False)
        return list(found)

    def clear(self) -> None:
        """Forget every verdict."""
        with self._lock:
            self._found.clear()


# Texts shorter than this parse in well under a millisecond.
_REMEMBER_FROM = 20_000
_VERDICTS = _Verdicts(16)


def forget_verdicts() -> None:
    """Forget the remembered whole-text parses (benchmarks time the cold path)."""
    _VERDICTS.clear()


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
    # nothing is written: the file's own line numbers (a file the edit creates: the text's)
    place = first.in_file
    line = first.line if place is None else place.first
    new = place is not None and not place.untouched
    where = "new line marked >" if new else f"new text near line {line}"
    return PatchwrightError(
        ErrorCode.SYNTAX_ERROR,
        report.rejection_text(path),
        f"Nothing was written: {path} is unchanged. Fix the {where} "
        "(indentation, brackets, quotes, separators) and send the edit again; the excerpt "
        "shows the text the edit would have produced.",
        path=path,
        line=line,
        details={"syntax": report.to_dict()},
    )
