"""Syntax errors from tree-sitter grammars, loaded lazily and cached.

``tree_sitter`` and a grammar package are imported the first time a file of that language
is checked, never at ``import patchwright``. A grammar that is missing, or built for a
``tree_sitter`` it is incompatible with, makes the language unavailable (remembered, so
the import is not retried on every edit). tree-sitter recovers from errors, so one parse
finds every ``ERROR`` region and every token it had to assume (``MISSING``).

The last few trees are kept with their texts: the text after one edit is the text before
the next, so the next parse is incremental (the old tree, edited, guides the parser) and
costs a fraction of a full parse.
"""

from __future__ import annotations

import importlib
import threading
from collections import OrderedDict

from patchwright._records import field, record
from patchwright.syntax.languages import LanguageSpec
from patchwright.syntax.shared import shared_length
from patchwright.syntax.stdlib_parsers import NoVerdict, ParseError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# A file with more errors than this is hopeless; listing them all costs time for nothing.
MAX_ERRORS = 50
_SNIPPET = 40
# Trees kept per grammar, keyed by their text.
_KEPT_TREES = 4


@record
class _Loaded:
    parser: Any  # tree_sitter.Parser; typed loosely so mypy needs no tree-sitter stubs
    lock: threading.Lock = field(default_factory=threading.Lock)
    trees: OrderedDict[str, Any] = field(default_factory=OrderedDict)


_cache: dict[tuple[str, str], _Loaded | str] = {}
_cache_lock = threading.Lock()


def _load(spec: LanguageSpec) -> _Loaded | str:
    """The cached parser for ``spec``, or why there is none."""
    key = (spec.module, spec.function)
    with _cache_lock:
        found = _cache.get(key)
        if found is None:
            found = _create(spec)
            _cache[key] = found
        return found


def _create(spec: LanguageSpec) -> _Loaded | str:
    try:
        tree_sitter = importlib.import_module("tree_sitter")
        grammar = importlib.import_module(spec.module)
    except ImportError:
        package = spec.module.replace("_", "-")
        return f"no {spec.name} parser installed (install patchwright[syntax] or {package})"
    try:
        language = tree_sitter.Language(getattr(grammar, spec.function)())
        parser = tree_sitter.Parser(language)
    except (AttributeError, TypeError, ValueError) as exc:
        return f"the {spec.name} grammar cannot be loaded by this tree-sitter: {exc}"
    return _Loaded(parser)


def forget_trees() -> None:
    """Drop every kept tree (grammars stay loaded); the next parse of each text is full."""
    with _cache_lock:
        loaded = [found for found in _cache.values() if isinstance(found, _Loaded)]
    for found in loaded:
        with found.lock:
            found.trees.clear()


def available(spec: LanguageSpec) -> bool:
    """True when the grammar for ``spec`` loads (imports it on first call)."""
    return isinstance(_load(spec), _Loaded)


def tree_sitter_errors(
    spec: LanguageSpec, text: str, *, base: str | None = None
) -> list[ParseError]:
    """Every ``ERROR`` and ``MISSING`` node of ``text`` parsed with ``spec``'s grammar.

    ``base``, the text ``text`` was edited from, makes the parse incremental when its tree
    is still kept. Raises :class:`NoVerdict` when the grammar is unavailable.
    """
    loaded = _load(spec)
    if isinstance(loaded, str):
        raise NoVerdict(loaded)
    source = text.encode("utf-8", "surrogatepass")
    with loaded.lock:  # a Parser is not safe to share between threads mid-parse
        tree = loaded.trees.get(text)
        if tree is None:
            tree = _parse(loaded, text, source, base)
        loaded.trees[text] = tree
        loaded.trees.move_to_end(text)
        while len(loaded.trees) > _KEPT_TREES:
            loaded.trees.popitem(last=False)
    root = tree.root_node
    if not root.has_error:
        return []
    return _collect(root, source)


def _parse(loaded: _Loaded, text: str, source: bytes, base: str | None) -> Any:
    old = loaded.trees.get(base) if base is not None else None
    if old is None or base is None:
        return loaded.parser.parse(source)
    old = old.copy()  # the kept tree must keep describing ``base``
    old.edit(**_edit(base, text))
    return loaded.parser.parse(source, old)


def _edit(before: str, after: str) -> dict[str, Any]:
    """The changed span between two texts, as tree-sitter's ``Tree.edit`` wants it."""
    lead = shared_length(before, after, from_end=False)
    tail = shared_length(before, after, from_end=True)
    tail = min(tail, min(len(before), len(after)) - lead)
    old_end, new_end = len(before) - tail, len(after) - tail
    start_byte, start_point = _byte_position(before, lead)
    old_end_byte, old_end_point = _byte_position(before, old_end)
    new_end_byte, new_end_point = _byte_position(after, new_end)
    return {
        "start_byte": start_byte,
        "old_end_byte": old_end_byte,
        "new_end_byte": new_end_byte,
        "start_point": start_point,
        "old_end_point": old_end_point,
        "new_end_point": new_end_point,
    }


def _byte_position(text: str, index: int) -> tuple[int, tuple[int, int]]:
    """UTF-8 byte offset and (row, byte column) of character ``index``."""
    line_start = text.rfind("\n", 0, index) + 1
    column = len(text[line_start:index].encode("utf-8", "surrogatepass"))
    offset = len(text[:line_start].encode("utf-8", "surrogatepass")) + column
    return offset, (text.count("\n", 0, index), column)


def _collect(root: Any, source: bytes) -> list[ParseError]:
    errors: list[ParseError] = []
    stack = [root]
    while stack and len(errors) < MAX_ERRORS:
        node = stack.pop()
        if node.is_error:
            near = _snippet(node, source)
            message = f'invalid syntax near "{near}"' if near else "invalid syntax"
            errors.append(_error_at(node, source, message))
        elif node.is_missing:
            expected = node.type if node.is_named else f'"{node.type}"'
            errors.append(_error_at(node, source, f"missing {expected}"))
        elif node.has_error:
            stack.extend(reversed(node.children))
    return errors


def _snippet(node: Any, source: bytes) -> str:
    start: int = node.start_byte
    raw = source[start : min(node.end_byte, start + 4 * _SNIPPET)]
    text = raw.decode("utf-8", "replace").split("\n", 1)[0].strip()
    if len(text) > _SNIPPET:
        text = text[: _SNIPPET - 1] + "…"
    return text


def _error_at(node: Any, source: bytes, message: str) -> ParseError:
    row: int = node.start_point[0]
    byte_column: int = node.start_point[1]
    line_start = node.start_byte - byte_column
    prefix = source[line_start : node.start_byte].decode("utf-8", "replace")
    return ParseError(row + 1, len(prefix) + 1, message)
