"""Records behave as the dataclasses they replace, for every feature the package uses.

Each property builds the same class twice, once with ``dataclasses`` and once with
``patchwright._records``, from a random shape (frozen or not, fields with no default, a
default or a factory, fields left out of init/repr/compare), then compares what a caller
can observe: construction, ``repr``, equality, hashing, ``replace``, ``asdict``,
``__match_args__`` and the refusals.
"""

from __future__ import annotations

import dataclasses
from functools import cached_property
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from patchwright import _records
from patchwright._records import FrozenRecordError, asdict, field, record, replace

# A field: (kind, init, repr, compare); kind 0 = no default, 1 = default, 2 = factory.
_FIELD = st.tuples(st.integers(0, 2), st.booleans(), st.booleans(), st.booleans())


@st.composite
def shapes(draw: st.DrawFn) -> tuple[bool, list[tuple[int, bool, bool, bool]]]:
    """A class shape both mechanisms accept: defaulted fields after the others."""
    frozen = draw(st.booleans())
    # past _records.WRITTEN_FIELDS: the written-out templates and the compiled ones
    specs = draw(st.lists(_FIELD, max_size=_records.WRITTEN_FIELDS + 4))
    # no default and not in init cannot be built by either; fields without a default first
    specs = [(k, i or k == 0, r, c) for k, i, r, c in specs]
    specs.sort(key=lambda spec: spec[0] != 0)
    return frozen, specs


def _build(shape: tuple[bool, list[tuple[int, bool, bool, bool]]], *, use_records: bool) -> Any:
    frozen, specs = shape
    make_field: Any = field if use_records else dataclasses.field
    namespace: dict[str, Any] = {"__annotations__": {}, "__doc__": "A record."}
    for n, (kind, init, rep, compare) in enumerate(specs):
        name = f"f{n}"
        namespace["__annotations__"][name] = "Any"
        options: dict[str, Any] = {"init": init, "repr": rep, "compare": compare}
        if kind == 1:
            options["default"] = n * 10
        elif kind == 2:
            options["default_factory"] = list
        namespace[name] = make_field(**options)
    cls = type("Shape", (), namespace)
    if use_records:
        return record(frozen=frozen)(cls)
    return dataclasses.dataclass(frozen=frozen)(cls)


def _values(item: Any) -> dict[str, Any]:
    # every field as read; a dataclass leaves a non-init default on the class alone
    return (
        {f.name: getattr(item, f.name) for f in dataclasses.fields(item)}
        if dataclasses.is_dataclass(item)
        else {f.name: getattr(item, f.name) for f in _records.fields(item)}
    )


def _hashes(item: Any, same: Any) -> bool | str:
    """Whether two equal records hash alike, or the refusal (a list field)."""
    try:
        return hash(item) == hash(same)
    except TypeError as error:
        return str(error)


def _arguments(shape: tuple[bool, list[tuple[int, bool, bool, bool]]], seed: int) -> dict[str, Any]:
    _, specs = shape
    values: dict[str, Any] = {}
    for n, (kind, init, _, _) in enumerate(specs):
        if init and (kind == 0 or (seed >> n) & 1):
            values[f"f{n}"] = [n, seed] if kind == 2 else (n + seed) % 3
    return values


@given(shapes(), st.integers(0, 255), st.integers(0, 255))
def test_records_observe_like_dataclasses(
    shape: tuple[bool, list[tuple[int, bool, bool, bool]]], seed: int, other: int
) -> None:
    made = _build(shape, use_records=True)
    reference = _build(shape, use_records=False)
    arguments, others = _arguments(shape, seed), _arguments(shape, other)
    one, two = made(**arguments), made(**others)
    ref_one, ref_two = reference(**arguments), reference(**others)
    assert repr(one) == repr(ref_one)
    assert (one == two) == (ref_one == ref_two)
    assert made.__match_args__ == reference.__match_args__
    assert _values(one) == _values(ref_one)
    frozen = shape[0]
    if frozen:
        assert _hashes(one, made(**arguments)) == _hashes(ref_one, reference(**arguments))
        with pytest.raises(FrozenRecordError):
            one.f0 = 1
    else:
        assert made.__hash__ is None and reference.__hash__ is None
    assert asdict(one) == dataclasses.asdict(ref_one)
    assert _values(replace(one, **others)) == _values(dataclasses.replace(ref_one, **others))
    positional = list(arguments.values())
    if list(arguments) == list(made.__match_args__)[: len(arguments)]:
        assert _values(made(*positional)) == _values(reference(*positional))


def test_a_factory_gives_each_record_its_own_value() -> None:
    @record
    class Holder:
        """A record."""

        items: list[int] = field(default_factory=list)

    first, second = Holder(), Holder()
    first.items.append(1)
    assert second.items == []


def test_missing_and_unknown_arguments_are_refused_as_by_any_function() -> None:
    @record(frozen=True)
    class Pair:
        """A record."""

        left: int
        right: int = 2

    with pytest.raises(TypeError, match="left"):
        Pair()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="middle"):
        Pair(1, middle=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="middle"):
        replace(Pair(1), middle=3)
    assert Pair(1) != (1, 2) and Pair(1) == Pair(left=1, right=2)  # type: ignore[comparison-overlap]


def test_a_field_without_default_after_one_with_is_refused_at_class_creation() -> None:
    with pytest.raises(TypeError, match="'late'"):

        @record
        class Bad:
            """A record."""

            early: int = 1
            late: int  # type: ignore[misc]


def test_post_init_runs_on_construction_and_on_replace() -> None:
    seen: list[int] = []

    @record(frozen=True)
    class Checked:
        """A record."""

        value: int

        def __post_init__(self) -> None:
            if self.value < 0:
                raise ValueError("negative")
            seen.append(self.value)

    replace(Checked(1), value=2)
    with pytest.raises(ValueError, match="negative"):
        replace(Checked(3), value=-1)
    assert seen == [1, 2, 3]


def test_methods_written_in_the_class_win_and_cached_values_are_not_copied() -> None:
    @record(frozen=True)
    class Named:
        """A record."""

        text: str

        def __repr__(self) -> str:
            return f"<{self.text}>"

        @cached_property
        def upper(self) -> str:
            return self.text.upper()

    item = Named("a")
    assert repr(item) == "<a>" and item.upper == "A"
    assert replace(item, text="b").upper == "B"
    assert hash(item) == hash(Named("a"))


def test_fields_of_a_record_and_of_something_else() -> None:
    @record
    class One:
        """A record."""

        a: int
        b: int = field(default=0, init=False)

    assert [f.name for f in _records.fields(One)] == ["a", "b"]
    assert _records.is_record(One(1)) and not _records.is_record(1)
    with pytest.raises(TypeError, match="not a record"):
        _records.fields(int)
    with pytest.raises(ValueError, match="'b'"):
        replace(One(1), b=2)


def _code_of(source: str) -> Any:
    namespace: dict[str, Any] = {}
    # not inheriting this module's `from __future__ import annotations` (a code flag)
    exec(compile(source, "<template>", "exec", dont_inherit=True), {}, namespace)
    (function,) = namespace.values()
    return function.__code__


@pytest.mark.parametrize("finish", [False, True])
@pytest.mark.parametrize("count", range(_records.WRITTEN_FIELDS + 1))
def test_written_templates_are_the_generated_source(count: int, finish: bool) -> None:
    from patchwright import _record_inits

    name = _records.written_name(count, finish)
    written = getattr(_record_inits, name).__code__
    compiled = _code_of(_records.template_source(count, finish, name))
    for attribute in (
        "co_code", "co_consts", "co_names", "co_varnames", "co_argcount", "co_flags",
        "co_stacksize",
    ):  # fmt: skip
        assert getattr(written, attribute) == getattr(compiled, attribute), attribute


def test_written_templates_are_all_there_is() -> None:
    from patchwright import _record_inits

    names = {n for n in vars(_record_inits) if not n.startswith("__")}
    expected = {
        _records.written_name(count, finish)
        for count in range(_records.WRITTEN_FIELDS + 1)
        for finish in (False, True)
    }
    assert names == expected


def test_an_init_is_named_as_the_class_s_own() -> None:
    @record
    class Small:
        """A record."""

        a: int

    fields = {f"f{i}": int for i in range(_records.WRITTEN_FIELDS + 2)}
    Large = record(type("Large", (), {"__annotations__": fields}))  # compiled, not written

    for cls in (Small, Large):
        code = cls.__init__.__code__
        assert code.co_name == "__init__"
        assert code.co_qualname == f"{cls.__qualname__}.__init__"
    with pytest.raises(TypeError, match="__init__"):
        Small()
