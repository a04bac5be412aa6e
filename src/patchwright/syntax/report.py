"""What the syntax check says about one edit: the issues it introduced and how it was checked."""

from __future__ import annotations

from patchwright._lazy import lazy_literals
from patchwright._records import field, record
from patchwright.syntax.policy import POLICIES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    SyntaxPolicy = Literal["off", "warn", "reject"]
    """``off``: no check; ``warn`` (default): report new errors; ``reject``: refuse the edit."""
else:
    __getattr__ = lazy_literals(__name__, {"SyntaxPolicy": POLICIES}, globals())

# Issues listed in full in a warning; the rest are counted so the text stays short.
_LISTED = 3


@record(frozen=True)
class FilePlace:
    """Where an issue's line stands in the file before the edit: what a refusal names,
    the file being left as it was (the text after the edit exists nowhere then).

    Attributes:
        first / last: 1-based inclusive file lines: ``first == last`` for a file line
            the edit left as it was (``untouched``); for a line the edit writes, the
            lines its change replaces (``last == first - 1`` for lines inserted after
            line ``last``).
        untouched: True when the line is a file line the edit left as it was.
        message: the parser's message with the lines it names numbered by the file
            (a line the edit writes is "a new line").
        excerpt: the excerpt numbered by the file, the lines the edit writes marked ``+``.
    """

    first: int
    last: int
    untouched: bool
    message: str
    excerpt: str

    def place(self, column: int) -> str:
        """Where the error is, after ``at`` or ``in`` (see :meth:`SyntaxIssue.place`)."""
        if self.untouched:
            return f"at line {self.first}, column {column}"
        if self.first > self.last:
            where = (
                f"inserted after file line {self.last}" if self.last else "inserted at the start"
            )
        elif self.first == self.last:
            where = f"that would replace file line {self.first}"
        else:
            where = f"that would replace file lines {self.first}-{self.last}"
        return f"in the new text {where} (the line marked >, column {column})"


@record(frozen=True)
class SyntaxIssue:
    """One syntax error the edit introduced, located in the text after the edit.

    Attributes:
        line: 1-based line number.
        column: 1-based column, counted in characters.
        message: the parser's short description (``unexpected indent``).
        excerpt: the lines around it, numbered, the offending line marked with ``>``
            and the column with ``^``.
        in_file: where it stands in the file before the edit (``None`` for a file the
            edit creates).
    """

    line: int
    column: int
    message: str
    excerpt: str
    in_file: FilePlace | None = None

    def place(self, *, refused: bool) -> str:
        """Where the error is, after ``at`` or ``in``: a line of the text after the edit
        for a written edit; for a ``refused`` one, where it would be in the file as it is."""
        if refused and self.in_file is not None:
            return self.in_file.place(self.column)
        return f"at line {self.line}, column {self.column}"

    def shown(self, *, refused: bool) -> tuple[str, str]:
        """The message and excerpt a warning (``refused`` False) or a refusal shows."""
        if refused and self.in_file is not None:
            return self.in_file.message, self.in_file.excerpt
        return self.message, self.excerpt

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view."""
        data: dict[str, Any] = {
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "excerpt": self.excerpt,
        }
        if self.in_file is not None:
            data["file_lines"] = [self.in_file.first, self.in_file.last]
            data["untouched"] = self.in_file.untouched
        return data


@record(frozen=True)
class SyntaxReport:
    """The outcome of :func:`patchwright.syntax.check_edit`.

    Attributes:
        language: the language chosen from the file name, or ``None``.
        checked: True when a parser judged the edit.
        elapsed_ms: time the whole check took.
        new_errors: errors the edit introduced (empty when none or not checked).
        preexisting: errors found after the edit that were already there before it
            (0 when only the edited statements were parsed).
        scope: ``"file"`` when whole texts were parsed, ``"region"`` when compiling the
            edited statements alone, before and after the edit, decided (clean, or an
            error the edit introduced), ``"unchanged"`` when the text did not change,
            ``""`` when not checked.
        reason: why the file was not checked, when it was not.
        note: when the file did not parse before the edit either, what its own errors
            were and that errors of its dialect were not blamed on the edit.
    """

    language: str | None
    checked: bool
    elapsed_ms: float
    new_errors: list[SyntaxIssue] = field(default_factory=list)
    preexisting: int = 0
    scope: str = ""
    reason: str = ""
    note: str = ""

    @property
    def ok(self) -> bool:
        """True when the edit introduced no syntax error that was detected."""
        return not self.new_errors

    def warning_text(self) -> str:
        """The warning for the model, or ``""`` when the edit introduced no error."""
        if not self.new_errors:
            return f"Syntax check ({self.language}): {self.note}" if self.note else ""
        return self._describe(f"Syntax check ({self.language}): your edit introduced", False)

    def rejection_text(self, path: str) -> str:
        """The refusal message (the ``reject`` policy, a loosely placed edit): nothing is
        written, so lines are named as the file has them (see :meth:`SyntaxIssue.place`)."""
        if not self.new_errors:
            return ""
        head = f"Syntax check ({self.language}) refused the edit to {path}: it would introduce"
        return self._describe(head, True)

    def _describe(self, head: str, refused: bool) -> str:
        first = self.new_errors[0]
        count = len(self.new_errors)
        if count == 1:
            message, shown = first.shown(refused=refused)
            parts = [f"{head} a syntax error {first.place(refused=refused)}: {message}", shown]
        else:
            parts = [f"{head} {count} syntax errors:"]
            for issue in self.new_errors[:_LISTED]:
                message, shown = issue.shown(refused=refused)
                parts.append(f"{issue.place(refused=refused).removeprefix('at ')}: {message}")
                parts.append(shown)
            if count > _LISTED:
                parts.append(f"... and {count - _LISTED} more.")
        if self.preexisting:
            parts.append(
                f"(The file also has {self.preexisting} syntax error(s) that were there "
                "before this edit.)"
            )
        if self.note:
            parts.append(f"({self.note[:1].upper()}{self.note[1:]}.)")
        return "\n".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view for the result data."""
        data: dict[str, Any] = {
            "language": self.language,
            "checked": self.checked,
            "elapsed_ms": round(self.elapsed_ms, 3),
            "new_errors": [issue.to_dict() for issue in self.new_errors],
            "preexisting": self.preexisting,
            "scope": self.scope,
        }
        if self.reason:
            data["reason"] = self.reason
        if self.note:
            data["note"] = self.note
        return data
