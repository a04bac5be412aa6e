"""Lazy exports for package ``__init__`` modules: each name is imported on first use.

A package that re-exports its modules' names would otherwise import all of them as
soon as any one is needed: ``patchwright apply`` would pay for approval mode, tree
walking and every patch format to apply one unified diff (about 70 ms more per run,
docs/architecture.md). With :func:`lazy_exports` a package keeps its public names
(``from patchwright.workspace import Workspace`` works as before) while importing only
the module that defines the name asked for.

The names are written once, as the package's ``if TYPE_CHECKING:`` imports in the form
of explicit re-exports, ``from module import Name as Name``: type checkers read them
there, and :func:`lazy_exports` reads the same lines of the package's source at run
time, so no second table of names can drift from them::

    if TYPE_CHECKING:
        from patchwright.workspace.workspace import Workspace as Workspace
    else:
        __getattr__, __dir__, __all__ = lazy_exports(globals())
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from importlib import import_module

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any


def _imports(source: str) -> Iterator[tuple[bool, str]]:
    """Each ``from ... import ...`` statement of ``source`` at the top level or directly
    in a top-level ``if TYPE_CHECKING:`` block, as (in that block?, statement on one
    line). Plain string work: the package's start-up pays for no regular expression."""
    block = False
    pending: list[str] = []
    for line in source.splitlines():
        stripped = line.partition("#")[0].strip()  # an import line holds no string
        if pending:
            pending.append(stripped)
            if ")" in stripped:
                yield block, " ".join(pending)
                pending = []
            continue
        if not stripped:
            continue
        indented = line[0] in " \t"
        if not indented:
            block = stripped.startswith("if TYPE_CHECKING:")
        if not stripped.startswith("from ") or (indented and not block):
            continue
        if "(" in stripped and ")" not in stripped:
            pending = [stripped]
        else:
            yield indented, stripped


def exported_names(source: str) -> tuple[dict[str, str], set[str]]:
    """The names ``source`` re-exports under ``if TYPE_CHECKING:``, each with its module
    (the lazy ones), and those it re-exports at the top level (imported already).

    A re-export is written ``from module import Name as Name``; any other import is for
    type checking only, or for the package's own use.
    """
    lazy: dict[str, str] = {}
    imported: set[str] = set()
    for in_block, statement in _imports(source):
        module, _, names = statement[len("from ") :].partition(" import ")
        for item in names.strip("() ").split(","):
            words = item.split()
            if len(words) == 3 and words[1] == "as" and words[0] == words[2]:
                if in_block:
                    lazy[words[0]] = module.strip()
                else:
                    imported.add(words[0])
    return lazy, imported


def lazy_exports(
    namespace: dict[str, Any], *own: str
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """The module-level ``__getattr__``, ``__dir__`` and ``__all__`` of a package.

    ``namespace`` is the package's ``globals()``: its source gives the names (see the
    module's docstring), and a name is kept there once imported (later look-ups do not
    come back here). ``own`` names what the package defines itself and exports too
    (what it imports itself and exports is written ``from module import Name as Name``
    at the top level). Any other name is looked for as a submodule, so that
    ``package.submodule`` works after ``import package`` as it did when the package
    imported every module; a name that is neither raises ``AttributeError``.
    """
    package: str = namespace["__name__"]
    with open(namespace["__file__"], encoding="utf-8") as source:
        exports, imported = exported_names(source.read())

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is not None:
            value = getattr(import_module(module), name)
            namespace[name] = value
            return value
        if not name.startswith("__"):
            # a submodule, as when the package imported all of them (``pkg.sub.Name``
            # after ``import pkg``): importing it sets it on the package
            try:
                return import_module(f"{package}.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{name}":
                    raise  # the submodule exists but imports something missing
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*namespace, *exports})

    return __getattr__, __dir__, sorted({*own, *imported, *exports})


def lazy_literals(
    module: str, aliases: dict[str, tuple[str, ...]], namespace: dict[str, Any]
) -> Callable[[str], Any]:
    """The module-level ``__getattr__`` of a module whose ``Literal`` aliases are built on
    first use, so that importing the module does not import ``typing``.

    ``aliases`` maps each alias to its values, the module's run-time constant (which a
    test compares with ``get_args`` of the alias); type checkers read the alias itself
    from the module's ``TYPE_CHECKING`` block. ``namespace`` is the module's
    ``globals()``, where an alias is kept once built.
    """

    def __getattr__(name: str) -> Any:
        values = aliases.get(name)
        if values is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        from typing import Literal  # only for a caller that asks for the alias at run time

        alias = Literal[values]  # type: ignore[valid-type]  # the values, built at run time
        namespace[name] = alias
        return alias

    return __getattr__
