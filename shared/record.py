"""``record``: a frozen dataclass whose methods are not compiled class by class.

Python 3.11's ``dataclass(frozen=True)`` writes each of a class's ``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, ``__setattr__`` and ``__delattr__`` as source text and compiles it
with its own ``exec`` (~0.15 ms each): ~110 value classes made it ~95 ms of a console's launch,
a third of all it adds to a bare Textual app's (issue 32). A record is
``dataclass(init=False, repr=False, eq=False)`` — its fields, ``dataclasses.fields``,
``replace`` and ``asdict`` are a dataclass's — with one ``__init__``, compiled when the class's
first instance is made (most are not made at a launch), and the other five written once here,
doing what the generated ones do: ``==`` between instances of the same class with equal
compared fields, the hash of those fields' tuple, ``Name(field=value, ...)`` of the shown
fields, and ``FrozenInstanceError`` on any assignment or deletion.

What a record does not take from ``dataclass``: ``order`` (compare records of an order with a
plain dataclass), ``InitVar`` fields and ``unsafe_hash``.
"""

from __future__ import annotations

import dataclasses
import inspect
import reprlib
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")

_KEY = "_record_key"  # the class's compared fields' values of an instance, as a tuple
_SHOWN = "_record_shown"  # the names its repr shows


def _eq(self: Any, other: Any) -> bool:
    if other.__class__ is self.__class__:
        key: Callable[[Any], tuple[Any, ...]] = self._record_key
        return key(self) == key(other)
    return NotImplemented  # type: ignore[no-any-return]


def _hash(self: Any) -> int:
    return hash(self._record_key(self))


@reprlib.recursive_repr()
def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._record_shown)
    return f"{self.__class__.__qualname__}({shown})"


def _setattr(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _getstate(self: Any) -> list[Any]:
    """A slotted record's state for ``copy`` and ``pickle`` (it has no ``__dict__``)."""
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state, strict=True):
        object.__setattr__(self, f.name, value)


def _key_of(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The values of ``names`` as a tuple (``attrgetter`` gives a bare value for one name)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        get = attrgetter(names[0])
        return lambda instance: (get(instance),)
    return lambda instance: ()


class _Factory:
    """The default of a parameter whose field has a default_factory (shown as dataclass shows it)."""

    def __repr__(self) -> str:
        return "<factory>"


_HAS_FACTORY = _Factory()


def _init_source(fields: tuple[dataclasses.Field[Any], ...], post_init: bool,
                 frozen: bool) -> tuple[str, dict[str, Any]]:
    """The text of the ``__init__`` ``dataclass(frozen=frozen)`` would write for ``fields``, and
    the names it reads."""

    def assign(name: str, value: str) -> str:
        return f"_set(self, {name!r}, {value})" if frozen else f"self.{name} = {value}"

    values: dict[str, Any] = {"_set": object.__setattr__, "_HAS_FACTORY": _HAS_FACTORY}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    for f in fields:
        if f.default is not dataclasses.MISSING:
            values[f"_d_{f.name}"] = f.default
        if f.default_factory is not dataclasses.MISSING:
            values[f"_f_{f.name}"] = f.default_factory
        if not f.init:
            if f.default is not dataclasses.MISSING:
                body.append(assign(f.name, f"_d_{f.name}"))
            elif f.default_factory is not dataclasses.MISSING:
                body.append(assign(f.name, f"_f_{f.name}()"))
            continue
        if f.default_factory is not dataclasses.MISSING:
            param = f"{f.name}=_HAS_FACTORY"
            body.append(assign(f.name, f"_f_{f.name}() if {f.name} is _HAS_FACTORY else {f.name}"))
        else:
            param = f.name if f.default is dataclasses.MISSING else f"{f.name}=_d_{f.name}"
            body.append(assign(f.name, f.name))
        (keyword if f.kw_only else positional).append(param)
    if post_init:
        body.append("self.__post_init__()")
    params = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    return f"def __init__({params}):\n" + "".join(f" {line}\n" for line in body or ["pass"]), values


def _signature(fields: tuple[dataclasses.Field[Any], ...]) -> inspect.Signature:
    """The signature of that ``__init__``, ``self`` first, keyword-only fields last."""
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    params = [inspect.Parameter("self", kinds[0])]
    for kw_only in (False, True):
        for f in fields:
            if f.init and f.kw_only is kw_only:
                default = (f.default if f.default_factory is dataclasses.MISSING else _HAS_FACTORY)
                params.append(inspect.Parameter(
                    f.name, kinds[kw_only], annotation=f.type,
                    default=inspect.Parameter.empty if default is dataclasses.MISSING else default))
    return inspect.Signature(params, return_annotation=None, __validate_parameters__=False)


def _init(cls: type, fields: tuple[dataclasses.Field[Any], ...], frozen: bool) -> Callable[..., None]:
    """A stand-in for the ``__init__`` of ``fields`` that compiles it (one ``exec``) at the
    class's first instance and puts it in its place: most of a console's ~150 records are not
    made at its launch, and their compiling was a seventh of what its imports cost (issue 32).
    It has the compiled one's signature and annotations already."""
    qualname = f"{cls.__qualname__}.__init__"
    annotations = {f.name: f.type for f in fields if f.init} | {"return": None}
    defaulted = False
    for f in fields:  # dataclass's own refusal, at the class as it gives it, not at a first instance
        if f.init and not f.kw_only:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                if defaulted:
                    raise TypeError(f"non-default argument {f.name!r} follows default argument")
            else:
                defaulted = True

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        text, values = _init_source(fields, hasattr(cls, "__post_init__"), frozen)
        exec(text, values)
        init: Callable[..., None] = values["__init__"]
        init.__qualname__ = qualname
        init.__annotations__ = annotations
        type.__setattr__(cls, "__init__", init)
        init(self, *args, **kwargs)

    __init__.__qualname__ = qualname
    __init__.__annotations__ = annotations
    __init__.__signature__ = _signature(fields)  # type: ignore[attr-defined]
    return __init__


def _make(cls: type[T], slots: bool, kw_only: bool, frozen: bool) -> type[T]:
    undocumented = not cls.__dict__.get("__doc__")
    if undocumented:
        cls.__doc__ = "?"  # dataclass would word it from an __init__ not yet written
    made: type[T] = dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=slots, kw_only=kw_only)
    fields = dataclasses.fields(made)  # type: ignore[arg-type]
    own = made.__dict__
    methods: dict[str, Any] = {
        _KEY: staticmethod(_key_of(tuple(f.name for f in fields if f.compare))),
        _SHOWN: tuple(f.name for f in fields if f.repr),
    }
    if frozen:
        methods.update(__setattr__=_setattr, __delattr__=_delattr)
    if "__init__" not in own:
        methods["__init__"] = _init(made, fields, frozen)
    if "__repr__" not in own:
        methods["__repr__"] = _repr
    if "__eq__" not in own:
        methods["__eq__"] = _eq
    if own.get("__hash__") is None:  # None: Python's own, for a class that wrote its __eq__
        methods["__hash__"] = _hash if frozen else None  # a changing value has no hash
    if slots:
        methods.update(__getstate__=_getstate, __setstate__=_setstate)
    for name, method in methods.items():
        setattr(made, name, method)
    if undocumented:
        made.__doc__ = made.__name__ + str(inspect.signature(made)).replace(" -> None", "")
    return made


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, slots: bool = False, kw_only: bool = False, frozen: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: type[T] | None = None, /, *, slots: bool = False, kw_only: bool = False,
           frozen: bool = True) -> type[T] | Callable[[type[T]], type[T]]:
    """``@record`` or ``@record(slots=..., kw_only=..., frozen=...)``: ``@dataclass(frozen=True,
    ...)``, made without compiling what every record shares. ``frozen=False``: a value whose
    fields change (a round being played), as ``@dataclass`` makes it: assignable, no hash."""
    if cls is None:
        return lambda cls: _make(cls, slots, kw_only, frozen)
    return _make(cls, slots, kw_only, frozen)
