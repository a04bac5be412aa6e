"""Lazy exports for package ``__init__`` modules: each name is imported on first use.

A package that re-exports its modules' names would otherwise import all of them as
soon as any one is needed: ``patchwright apply`` would pay for approval mode, tree
walking and every patch format to apply one unified diff, and it runs in a fresh
interpreter for every patch. With :func:`lazy_exports` a package keeps its public
names (``from patchwright.workspace import Workspace`` works as before) while importing
only the module that defines the name asked for. The package lists the same names
under ``TYPE_CHECKING`` so that type checkers see them.

This module imports nothing itself (not even ``typing``): start-up time.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable
    from typing import Any


def lazy_exports(
    package: str, exports: dict[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of ``package``.

    ``exports`` maps each public name to the module that defines it; ``namespace`` is
    the package's ``globals()``, where a name is kept once imported (later look-ups
    do not come back here). Any other name is looked for as a submodule, so that
    ``package.submodule`` works after ``import package`` as it did when the package
    imported every module; a name that is neither raises ``AttributeError``.
    """

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

    return __getattr__, __dir__


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
