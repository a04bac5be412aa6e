"""Parsers from the standard library: Python (``compile``), JSON and TOML.

Each returns the errors of a whole text as :class:`ParseError` values (at most one: these
parsers stop at the first error) or raises :class:`NoVerdict` when it cannot judge the
text at all (parser missing, nesting too deep for the interpreter).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from types import ModuleType

from patchwright._records import record

_BOM = "\ufeff"


@record(frozen=True)
class ParseError:
    """One error as a parser reports it: 1-based line and character column, message."""

    line: int
    column: int
    message: str


class NoVerdict(Exception):
    """The text could not be judged; ``reason`` says why. Never leaves the package."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def python_errors(text: str) -> list[ParseError]:
    """Compile ``text`` as a module (no code runs) and return its syntax error, if any.

    ``compile`` rather than ``ast.parse``: it also reports what the compiler rejects
    (``'return' outside function``), typical of a block that lost its indentation.
    """
    if "\0" in text:
        # CPython refuses NUL characters before parsing, without a useful position.
        line, column = position_of(text, text.find("\0"))
        return [ParseError(line, column, "source code cannot contain null bytes")]
    try:
        compile_python(text, ast_only=False)
    except SyntaxError as exc:
        return [_from_syntax_error(exc)]
    except (RecursionError, MemoryError) as exc:
        raise NoVerdict("the Python parser gave up (nesting too deep)") from exc
    return []


def compile_python(text: str, *, ast_only: bool, future: int = 0) -> None:
    """Compile ``text`` and drop the result; raises ``SyntaxError`` on bad syntax.

    ``future`` adds compiler flags of ``__future__`` features (see :func:`future_flags`):
    a piece of a module is compiled under the imports at the module's top.

    Warnings the compiler emits (invalid escape sequences...) are silenced: they are not
    errors, and a host that turns warnings into errors must not see them as such.
    """
    flags = future | (0x400 if ast_only else 0)  # ast.PyCF_ONLY_AST, without importing ast
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compile(text.removeprefix(_BOM), "<edit>", "exec", flags=flags, dont_inherit=True)


_FUTURE_IMPORT = re.compile(r"^from[ \t]+__future__[ \t]+import[ \t]+\(?([\w \t,\\\n]*)", re.M)


def future_flags(text: str) -> int:
    """Compiler flags of the ``from __future__ import`` statements of module ``text``.

    ``annotations`` changes which annotations compile (no walrus inside one), so the
    statements of a module compiled alone must see the module's future imports.
    """
    if "__future__" not in text:
        return 0
    import __future__  # small; imported only for a module that has such an import

    flags = 0
    for found in _FUTURE_IMPORT.finditer(text):
        for name in re.split(r"[\s,\\]+", found.group(1)):
            if name in __future__.all_feature_names:
                flags |= getattr(__future__, name).compiler_flag
    return flags


def _from_syntax_error(exc: SyntaxError) -> ParseError:
    return ParseError(exc.lineno or 1, exc.offset or 1, exc.msg or "invalid syntax")


def json_errors(text: str) -> list[ParseError]:
    """Parse ``text`` as JSON and return its first error, if any."""
    import json

    try:
        json.loads(text.removeprefix(_BOM))
    except json.JSONDecodeError as exc:
        return [ParseError(exc.lineno, exc.colno, exc.msg)]
    except RecursionError as exc:
        raise NoVerdict("the JSON parser gave up (nesting too deep)") from exc
    return []


_TOML_POSITION = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)$")


def toml_errors(text: str) -> list[ParseError]:
    """Parse ``text`` as TOML and return its first error, if any.

    Uses ``tomllib`` (Python 3.11+) or ``tomli`` when installed; without either, raises
    :class:`NoVerdict`.
    """
    module = toml_module()
    if module is None:
        raise NoVerdict("no TOML parser: Python 3.11+ or the tomli package is needed")
    loads: Callable[[str], object] = module.loads
    try:
        loads(text.removeprefix(_BOM))
    except module.TOMLDecodeError as exc:
        return [_from_toml_error(exc, text)]
    except RecursionError as exc:
        raise NoVerdict("the TOML parser gave up (nesting too deep)") from exc
    return []


def toml_module() -> ModuleType | None:
    """``tomllib``, else ``tomli``, else ``None``."""
    for name in ("tomllib", "tomli"):
        try:
            return __import__(name)
        except ImportError:
            continue
    return None


def _from_toml_error(exc: Exception, text: str) -> ParseError:
    raw = str(exc)
    found = _TOML_POSITION.search(raw)
    message = raw[: found.start()] if found else raw
    # Python 3.14 exposes the position as attributes; older versions only in the text.
    line = getattr(exc, "lineno", None)
    column = getattr(exc, "colno", None)
    if not isinstance(line, int) or not isinstance(column, int):
        if found and found.group(1):
            line, column = int(found.group(1)), int(found.group(2))
        else:
            line, column = position_of(text, len(text))
    return ParseError(line, column, getattr(exc, "msg", None) or message)


def position_of(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of character ``index`` of ``text`` (lines end at ``\\n``)."""
    index = max(0, min(index, len(text)))
    line_start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - line_start + 1
