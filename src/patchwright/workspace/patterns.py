"""Patterns from a request or a file, matched in time linear in the text: RE2.

A regular expression, a glob or a ``.gitignore`` line comes from the model, the user
or a committed file; Python's backtracking ``re`` can take exponential time on some
(``(a+)+$`` against 28 ``a``\\ s took 13 s; a 14-pair ``*a*a...*b`` glob over 90 s), and
one match cannot be interrupted. Every such pattern is compiled here with RE2 instead
(``google-re2``), whose matching time is linear in the text and the pattern, so the
time bound of a search holds inside each match too:

* :func:`compile_search` for ``search_files`` (literal or regular expression), refusing
  the constructs RE2 does not have (backreferences, lookaround, atomic groups and
  possessive quantifiers, ...) by name, with the rewrite to use;
* :func:`compile_glob_regex` for the workspace's allow and deny globs (``globs.py``);
* :data:`GITIGNORE_BACKEND`, the ``pathspec`` backend that matches ``list_files`` globs
  and ``.gitignore`` lines with RE2.
"""

from __future__ import annotations

import re

import re2  # type: ignore[import-untyped]  # google-re2 ships no type information

from patchwright.model.errors import ErrorCode, PatchwrightError

#: ``pathspec``'s RE2 backend: globs and ignore files matched in linear time.
GITIGNORE_BACKEND = "re2"

TYPE_CHECKING = False  # no ``typing`` import at run time: start-up time of every apply
if TYPE_CHECKING:
    from typing import Protocol

    class LinearPattern(Protocol):
        """What callers use of a compiled RE2 expression."""

        def search(self, text: str) -> object | None:
            """The first match in ``text`` (``None`` for none)."""

        def fullmatch(self, text: str) -> object | None:
            """A match of the whole of ``text`` (``None`` for none)."""


# (construct found in the source, its name, how to write it for RE2)
_UNSUPPORTED: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"\(\?<?[=!]"), "a lookahead or lookbehind ((?=...), (?!...), (?<=...), "
     "(?<!...))", "match the surrounding text as part of the pattern (foo(?=bar) -> "
     "foobar), or leave the condition out and read the matching lines"),
    (re.compile(r"\\[1-9]|\(\?P=|\\k<|\\g<"), "a backreference (\\1, (?P=name))",
     "write the repeated text itself, or search for the first part and read the lines"),
    (re.compile(r"\(\?>|[*+?}][+]"), "an atomic group or a possessive quantifier "
     "((?>...), a++)", "use the plain group or quantifier (a+): RE2 never backtracks, so "
     "it is not needed"),
    (re.compile(r"\(\?\("), "a conditional ((?(1)...|...))",
     "search for each alternative separately"),
    (re.compile(r"\\Z"), "\\Z", "use \\z or $ (a line is searched without its ending)"),
)  # fmt: skip


def _options(*, ignore_case: bool = False, literal: bool = False) -> object:
    options = re2.Options()
    options.log_errors = False  # the refusal says it; nothing is printed to stderr
    options.case_sensitive = not ignore_case
    options.literal = literal
    return options


def compile_search(pattern: str, *, regex: bool, ignore_case: bool) -> LinearPattern:
    """``pattern`` (a regular expression when ``regex``, else literal text) compiled
    with RE2, matched in time linear in each line.

    Raises:
        PatchwrightError: ``invalid_request`` naming ``pattern``: a construct RE2 does not
            have (named, with the rewrite), or an expression that does not compile.
    """
    options = _options(ignore_case=ignore_case, literal=not regex)
    try:
        compiled: LinearPattern = re2.compile(pattern, options)
    except re2.error as exc:
        raise _refused(pattern, exc) from None
    return compiled


def _refused(pattern: str, exc: Exception) -> PatchwrightError:
    for construct, name, rewrite in _UNSUPPORTED:
        if construct.search(pattern):
            return PatchwrightError(
                ErrorCode.INVALID_REQUEST,
                f"pattern uses {name}, which the search does not support: it matches with "
                "RE2, in time linear in the text, so no pattern can stall it.",
                f"Rewrite it: {rewrite}. Or send regex false to search for the text as it is.",
                field="pattern",
            )
    reason = exc.args[0] if exc.args else exc
    if isinstance(reason, bytes):
        reason = reason.decode("utf-8", "replace")
    return PatchwrightError(
        ErrorCode.INVALID_REQUEST,
        f"pattern is not a valid regular expression (RE2 syntax): {reason}.",
        "Fix the expression, or send regex false to search for the text as it is.",
        field="pattern",
    )


def compile_glob_regex(source: str, *, ignore_case: bool = False) -> LinearPattern:
    """A regular expression made from a glob (``globs.glob_regex``), compiled with RE2.

    Raises:
        ValueError: the glob's set (``[...]``) is not one RE2 reads.
    """
    try:
        compiled: LinearPattern = re2.compile(source, _options(ignore_case=ignore_case))
    except re2.error as exc:
        raise ValueError(f"not a valid glob: {exc}") from None
    return compiled
