"""Records: patchwright's value classes, cheap to define and cheap to build.

Every plain data class of the package (edits, hunks, reports, commit records, options) is
declared with :func:`record` the way it would be with ``dataclasses.dataclass``: annotated
fields, defaults, :func:`field` for factories and for fields left out of ``__init__``,
``repr`` or comparison, ``__post_init__`` for checks. Type checkers see it as a dataclass
(``dataclass_transform``), so mypy checks constructor calls and frozen assignments alike.

Why not ``dataclasses`` itself: it compiles each generated method of each class on its own
when the class is created (about half a millisecond for a frozen three-field class on
CPython 3.11) and imports ``inspect`` to do so. A one-line ``patchwright apply`` defines
some forty classes, and that was the largest part of its start-up (docs/benchmarks.md).
Here nothing is compiled per class: ``__init__`` comes from a template per number of
fields, renamed (see ``_make_init``), which for up to 16 fields is written out in
``_record_inits.py`` and loads with its bytecode; equality, hashing and ``repr`` are
closures over the field names, and :func:`replace` copies the fields instead of calling
``__init__`` through a field lookup. Behaviour kept from ``dataclasses`` where patchwright
relies on it: positional and keyword construction with defaults, ``__post_init__``,
equality only between instances of the same class over the compared fields, frozen
records hashable and refusing assignment (``FrozenRecordError``, an ``AttributeError``),
mutable records unhashable, methods written in the class body winning over generated
ones, ``__match_args__``, inherited fields from record bases. Not provided because nothing
uses them: ordering, keyword-only fields, slots, ``InitVar``.
"""

from __future__ import annotations

import builtins
import sys
from collections.abc import Callable
from operator import attrgetter
from types import CodeType, FunctionType

from patchwright import _record_inits

# no ``typing`` at run time: every module of ``patchwright apply`` defines records, and
# the command starts a fresh interpreter per patch (start-up time)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar, overload

    from typing_extensions import dataclass_transform

    _T = TypeVar("_T")
else:

    def dataclass_transform(**_options: object) -> Callable[[Any], Any]:
        """At run time the marker for type checkers does nothing."""
        return lambda function: function


__all__ = [
    "MISSING", "Field", "FrozenRecordError", "asdict", "field", "fields", "is_record", "record",
    "replace",
]  # fmt: skip


class _Missing:
    """The absence of a default (``None`` is a valid default)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class FrozenRecordError(AttributeError):
    """An assignment to a field of a frozen record."""


class Field:
    """One field of a record: its name, default or factory, and where it takes part."""

    __slots__ = ("compare", "default", "default_factory", "init", "name", "repr")

    def __init__(
        self,
        default: Any = MISSING,
        default_factory: Callable[[], Any] | Any = MISSING,
        *,
        init: bool = True,
        repr: bool = True,
        compare: bool = True,
    ) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("a field takes a default or a default_factory, not both")
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare

    def __repr__(self) -> str:
        return f"Field({self.name!r}, default={self.default!r})"


if TYPE_CHECKING:

    @overload
    def field(*, default: _T, init: bool = ..., repr: bool = ..., compare: bool = ...) -> _T: ...

    @overload
    def field(
        *,
        default_factory: Callable[[], _T],
        init: bool = ...,
        repr: bool = ...,
        compare: bool = ...,
    ) -> _T: ...

    @overload
    def field(*, init: bool = ..., repr: bool = ..., compare: bool = ...) -> Any: ...


def field(
    *,
    default: Any = MISSING,
    default_factory: Any = MISSING,
    init: bool = True,
    repr: bool = True,
    compare: bool = True,
) -> Any:
    """Describe a field beyond its plain default, as ``dataclasses.field`` does.

    ``default_factory`` is called for each new record (a fresh list or dict); ``init=False``
    leaves the field out of ``__init__`` (it takes its default); ``repr=False`` and
    ``compare=False`` leave it out of ``repr`` and of equality and hashing.
    """
    return Field(default, default_factory, init=init, repr=repr, compare=compare)


def _is_class_var(annotation: object) -> bool:
    # Annotations are strings under `from __future__ import annotations`, which every
    # module of the package uses; a real object is checked by its printed name.
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar", "t.ClassVar"))


def _collect_fields(cls: type) -> dict[str, Field]:
    fields: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        fields.update(base.__dict__.get("__record_fields__", {}))
    # The class's own annotations only (inspect.get_annotations would import inspect).
    own: dict[str, object] = cls.__dict__.get("__annotations__", {})  # noqa: RUF063
    for name, annotation in own.items():
        if _is_class_var(annotation):
            continue
        value = cls.__dict__.get(name, MISSING)
        spec = value if isinstance(value, Field) else Field(value)
        spec.name = name
        if isinstance(value, Field):
            # Like dataclasses: a plain default stays readable on the class, a factory
            # or a missing default leaves no class attribute behind.
            if spec.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
        fields[name] = spec
    return fields


# __init__ is made from one template per number of parameters: the template's
# placeholder parameter names and dictionary keys are renamed to the fields' (a code
# object's names and constants can be replaced without compiling), and the defaults set
# on the function. What not every class needs (factories, fields outside __init__,
# __post_init__) runs in a per-class `finish` the template calls when there is one.
# The templates up to WRITTEN_FIELDS parameters are written out in _record_inits.py and
# load with its bytecode: compiling the ones a one-line apply needs cost more than the
# rest of its record classes' definitions (docs/benchmarks.md); larger ones are compiled.
_TEMPLATES: dict[tuple[int, bool], CodeType] = {}
_LOCAL = "_pw_values"  # the template's one local name besides its parameters
WRITTEN_FIELDS = 16


def template_source(count: int, finish: bool, name: str = "__init__") -> str:
    """The source of the ``__init__`` template of ``count`` parameters, calling the
    class's ``finish`` or not (``_record_inits.py`` holds these up to WRITTEN_FIELDS)."""
    params = "".join(f", _pw_p{i}" for i in range(count))
    lines = [f"def {name}(self{params}):", f"    {_LOCAL} = self.__dict__"]
    lines += [f'    {_LOCAL}["_pw_k{i}"] = _pw_p{i}' for i in range(count)]
    if finish:
        lines.append(f"    _pw_finish(self, {_LOCAL})")
    return "\n".join(lines) + "\n"


def written_name(count: int, finish: bool) -> str:
    """The name of a written-out template in ``_record_inits.py``."""
    return f"init_{count}_finish" if finish else f"init_{count}"


def _template(count: int, finish: bool) -> CodeType:
    key = (count, finish)
    code = _TEMPLATES.get(key)
    if code is None:
        if count <= WRITTEN_FIELDS:
            code = getattr(_record_inits, written_name(count, finish)).__code__
        else:
            namespace: dict[str, Any] = {}
            exec(template_source(count, finish), {}, namespace)  # our own fixed source
            code = namespace["__init__"].__code__
        _TEMPLATES[key] = code
    return code


def _make_init(cls: type, fields: dict[str, Field]) -> Callable[..., None]:
    """``__init__``: the fields in ``__init__`` in order, then the rest (see above)."""
    taken = [spec for spec in fields.values() if spec.init]
    later = [spec for spec in fields.values() if not spec.init]
    factories = [(s.name, s.default_factory) for s in taken if s.default_factory is not MISSING]
    post = hasattr(cls, "__post_init__")
    finish = bool(factories or later or post)
    rename = {"self": "self", _LOCAL: _LOCAL}
    defaults: list[Any] = []
    for i, spec in enumerate(taken):
        if spec.name in rename:
            raise TypeError(f"{cls.__qualname__}: a field cannot be named {spec.name!r}")
        rename[f"_pw_p{i}"] = rename[f"_pw_k{i}"] = spec.name
        if spec.default_factory is not MISSING:
            defaults.append(MISSING)
        elif spec.default is not MISSING:
            defaults.append(spec.default)
        elif defaults:
            raise TypeError(
                f"{cls.__qualname__}: field {spec.name!r} without a default follows one with a "
                "default; give it a default or move it before the defaulted fields"
            )
    code = _template(len(taken), finish)
    changes: dict[str, Any] = {
        "co_varnames": tuple(rename.get(n, n) for n in code.co_varnames),
        "co_consts": tuple(rename.get(c, c) if isinstance(c, str) else c for c in code.co_consts),
    }
    changes["co_name"] = "__init__"  # a written-out template has a name of its own
    if sys.version_info >= (3, 11):
        changes["co_qualname"] = f"{cls.__qualname__}.__init__"
    scope: dict[str, Any] = {"__name__": cls.__module__, "__builtins__": builtins}
    if finish:
        scope["_pw_finish"] = _finisher(factories, later, post)
    init = FunctionType(code.replace(**changes), scope, "__init__", tuple(defaults) or None)
    return init


def _finisher(
    factories: list[tuple[str, Callable[[], Any]]], later: list[Field], post: bool
) -> Callable[[Any, dict[str, Any]], None]:
    """What ``__init__`` does after storing its arguments, for a class that needs it."""
    rest = [(s.name, s.default, s.default_factory) for s in later]

    def finish(item: Any, values: dict[str, Any]) -> None:
        for name, factory in factories:
            if values[name] is MISSING:
                values[name] = factory()
        for name, default, factory in rest:
            if factory is not MISSING:
                values[name] = factory()
            elif default is not MISSING:
                values[name] = default
        if post:
            item.__post_init__()

    return finish


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function from a record to the tuple of the named fields' values."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda item: (one(item),)
    return lambda item: ()


def _set_if_absent(cls: type, name: str, value: Any) -> None:
    # A method written in the class body wins, as with dataclasses.
    if name not in cls.__dict__:
        value.__qualname__ = f"{cls.__qualname__}.{name}"
        setattr(cls, name, value)


def _build(cls: type[_T], frozen: bool) -> type[_T]:
    fields = _collect_fields(cls)
    _set_if_absent(cls, "__init__", _make_init(cls, fields))

    shown = tuple(name for name, spec in fields.items() if spec.repr)
    compared = _getter(tuple(name for name, spec in fields.items() if spec.compare))

    def __repr__(self: Any) -> str:
        parts = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({parts})"

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(compared(self) == compared(other))
        return NotImplemented

    _set_if_absent(cls, "__repr__", __repr__)
    _set_if_absent(cls, "__eq__", __eq__)
    if frozen:

        def __hash__(self: Any) -> int:
            return hash(compared(self))

        def __setattr__(self: Any, name: str, value: object) -> None:
            raise FrozenRecordError(f"cannot assign to field {name!r} of a frozen record")

        def __delattr__(self: Any, name: str) -> None:
            raise FrozenRecordError(f"cannot delete field {name!r} of a frozen record")

        if cls.__dict__.get("__hash__", MISSING) is None and "__eq__" in cls.__dict__:
            # Python's own None for a class body that wrote __eq__ alone, not a choice.
            del cls.__hash__
        _set_if_absent(cls, "__hash__", __hash__)
        if "__setattr__" in cls.__dict__ or "__delattr__" in cls.__dict__:
            raise TypeError(f"{cls.__qualname__}: a frozen record cannot define __setattr__")
        _set_if_absent(cls, "__setattr__", __setattr__)
        _set_if_absent(cls, "__delattr__", __delattr__)
    elif "__hash__" not in cls.__dict__ or cls.__dict__["__hash__"] is None:
        # Equal by value but mutable: unhashable, as Python makes any class defining __eq__.
        setattr(cls, "__hash__", None)  # noqa: B010 - mypy refuses a method set to None
    # setattr: these names are not declared on `type` for a type checker.
    setattr(cls, "__match_args__", tuple(name for name, spec in fields.items() if spec.init))  # noqa: B010
    setattr(cls, "__record_fields__", fields)  # noqa: B010
    setattr(cls, "__record_frozen__", frozen)  # noqa: B010
    return cls


if TYPE_CHECKING:

    @overload
    @dataclass_transform(field_specifiers=(field, Field))
    def record(cls: type[_T], /) -> type[_T]: ...

    @overload
    @dataclass_transform(field_specifiers=(field, Field))
    def record(*, frozen: bool = False) -> Callable[[type[_T]], type[_T]]: ...


def record(cls: Any = None, /, *, frozen: bool = False) -> Any:
    """Make ``cls`` a record: ``@record`` for a mutable one, ``@record(frozen=True)``.

    Generates ``__init__`` (fields in order, defaults and factories, then
    ``__post_init__`` if the class has one), ``__repr__``, ``__eq__``, ``__hash__`` (frozen)
    and, for a frozen record, ``__setattr__``/``__delattr__`` that refuse.
    """
    if cls is None:
        return lambda target: _build(target, frozen)
    return _build(cls, frozen)


def is_record(item: object) -> bool:
    """Whether ``item`` is a record class or an instance of one."""
    cls = item if isinstance(item, type) else type(item)
    return hasattr(cls, "__record_fields__")


def fields(item: object) -> tuple[Field, ...]:
    """The fields of a record class or instance, in order."""
    cls = item if isinstance(item, type) else type(item)
    found: dict[str, Field] = getattr(cls, "__record_fields__", {})
    if not found and not is_record(cls):
        raise TypeError(f"{cls.__qualname__} is not a record")
    return tuple(found.values())


def replace(item: _T, /, **changes: Any) -> _T:
    """A copy of the record ``item`` with the given fields changed.

    Fields left out of ``__init__`` take their default again, as with
    ``dataclasses.replace``; a record with ``__post_init__`` is built through ``__init__``
    so that its checks run on the new values. Anything else an instance carries beyond its
    fields (a cached property's value) is not copied: it belonged to the old values.
    """
    cls = type(item)
    spec: dict[str, Field] = cls.__record_fields__  # type: ignore[attr-defined]
    for name in changes:
        found = spec.get(name)
        if found is None:
            raise TypeError(f"{cls.__qualname__} has no field {name!r}")
        if not found.init:
            raise ValueError(f"field {name!r} of {cls.__qualname__} is not set by __init__")
    old = item.__dict__
    if hasattr(cls, "__post_init__"):
        values = {n: old[n] for n, f in spec.items() if f.init}
        values.update(changes)
        return cls(**values)
    new = object.__new__(cls)
    values = new.__dict__
    for name, found in spec.items():
        if found.init:
            values[name] = changes[name] if name in changes else old[name]
        elif found.default_factory is not MISSING:
            values[name] = found.default_factory()
        elif found.default is not MISSING:
            values[name] = found.default
    return new


def asdict(item: object) -> Any:
    """A record as a dict of its fields, records inside lists, tuples and dicts included.

    Values that are not records, lists, tuples or dicts are returned as they are (the
    package's records hold strings, numbers and other records), not copied.
    """
    if is_record(item) and not isinstance(item, type):
        return {f.name: asdict(getattr(item, f.name)) for f in fields(item)}
    if isinstance(item, list):
        return [asdict(value) for value in item]
    if isinstance(item, tuple):
        return tuple(asdict(value) for value in item)
    if isinstance(item, dict):
        return {key: asdict(value) for key, value in item.items()}
    return item
