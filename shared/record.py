"""``record``: a dataclass, frozen by default, whose methods are not compiled class by class.

Python 3.11's ``dataclass(frozen=True)`` writes each of a class's ``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, ``__setattr__`` and ``__delattr__`` as source text and compiles it
with its own ``exec`` (~0.15 ms each): ~110 value classes made it ~95 ms of a console's launch,
a third of all it adds to a bare Textual app's (issue 32). A record is
``dataclass(init=False, repr=False, eq=False)`` — its fields, ``dataclasses.fields``,
``replace`` and ``asdict`` are a dataclass's — with one ``__init__``, made when the class's
first instance is made (most are not made at a launch) from its code shipped compiled in
``record_inits.bin`` (``python -m shared.record`` writes it), or else compiled then, and the
other five written once here, doing what the generated ones do: ``==`` between instances of
the same class with equal compared fields, the hash of those fields' tuple,
``Name(field=value, ...)`` of the shown fields, and ``FrozenInstanceError`` on any assignment
or deletion.

What a record does not take from ``dataclass``: ``order`` (compare records of an order with a
plain dataclass), ``InitVar`` fields and ``unsafe_hash``.
"""

from __future__ import annotations

import abc
import contextlib
import dataclasses
import importlib
import importlib.util
import inspect
import marshal
import reprlib
import sys
import types
import typing
from collections.abc import Callable, Sequence
from functools import cache
from operator import attrgetter
from pathlib import Path
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


def _signature_text(fields: tuple[dataclasses.Field[Any], ...]) -> str:
    """``str()`` of that signature, less ``self`` and ``-> None``, as ``dataclass`` words a class
    without a docstring, written without ``inspect``'s parameter objects."""
    shown: list[str] = []
    for kw_only in (False, True):
        params = [f for f in fields if f.init and f.kw_only is kw_only]
        if kw_only and params:
            shown.append("*")
        for f in params:
            text = f"{f.name}: {inspect.formatannotation(f.type)}"
            if f.default_factory is not dataclasses.MISSING:
                text += f" = {_HAS_FACTORY!r}"
            elif f.default is not dataclasses.MISSING:
                text += f" = {f.default!r}"
            shown.append(text)
    return f"({', '.join(shown)})"


SHIPPED_INITS = Path(__file__).with_name("record_inits.bin")
"""Every console record's ``__init__`` compiled, by its source text (``ship_inits``)."""


@cache
def _shipped_inits() -> dict[str, bytes]:
    """The shipped code of each ``__init__`` text, marshalled: none from another Python's
    bytecode release (``importlib.util.MAGIC_NUMBER`` heads the file) or from a file that
    cannot be read. Read with ``marshal`` as trusted as the code beside it, never written by a
    running console."""
    try:
        data = SHIPPED_INITS.read_bytes()
    except OSError:
        return {}
    magic = importlib.util.MAGIC_NUMBER
    try:
        shipped = marshal.loads(data[len(magic):]) if data.startswith(magic) else {}
    except (EOFError, ValueError, TypeError):
        return {}
    return shipped if isinstance(shipped, dict) else {}


def _init_code(text: str) -> types.CodeType:
    """``text`` compiled as ``exec`` compiles it; from the shipped file where it holds that text
    (compiling took ~0.5 M instructions a record, ~30 records' at a console's launch)."""
    shipped = _shipped_inits().get(text)
    if shipped is not None:
        with contextlib.suppress(EOFError, ValueError, TypeError):
            code = marshal.loads(shipped)
            if isinstance(code, types.CodeType):
                return code
    return compile(text, "<string>", "exec")


class _FirstInit:
    """A record's ``__init__`` until its first instance: it makes the real one (its code
    shipped compiled, else compiled now: ``_init_code``), puts it in its place and runs it.
    Most of a console's ~150 records are not made at its launch; their compiling, then the
    parameter objects of their signatures, were a tenth of what its imports cost (issue 32).
    ``inspect`` sees the real one's signature; ``compile_waiting`` makes those still waiting."""

    __name__ = "__init__"

    def __init__(self, cls: type, fields: tuple[dataclasses.Field[Any], ...], frozen: bool) -> None:
        self._cls = cls
        self._fields = fields
        self._frozen = frozen
        self.__qualname__ = f"{cls.__qualname__}.__init__"
        self.__annotations__ = {f.name: f.type for f in fields if f.init} | {"return": None}
        _WAITING[cls] = self
        _STAND_INS.append(self)

    def source(self) -> tuple[str, dict[str, Any]]:
        """The real ``__init__``'s text, and the names it reads."""
        return _init_source(self._fields, hasattr(self._cls, "__post_init__"), self._frozen)

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        return self if instance is None else types.MethodType(self, instance)

    def __call__(self, instance: Any, *args: Any, **kwargs: Any) -> None:
        self.compiled()(instance, *args, **kwargs)

    def compiled(self) -> Callable[..., None]:
        """The real ``__init__``, compiled and put in the class in this stand-in's place."""
        text, values = self.source()
        exec(_init_code(text), values)
        init: Callable[..., None] = values["__init__"]
        init.__qualname__ = self.__qualname__
        init.__annotations__ = self.__annotations__
        type.__setattr__(self._cls, "__init__", init)
        _WAITING.pop(self._cls, None)
        return init

    @property
    def __signature__(self) -> inspect.Signature:
        return _signature(self._fields)


_WAITING: dict[type, _FirstInit] = {}
"""The records whose ``__init__`` waits for their first instance."""
_STAND_INS: list[_FirstInit] = []
"""Every record's stand-in, compiled or not (``ship_inits``)."""


def compile_waiting() -> int:
    """Compile the ``__init__`` of every record still waiting for its first instance; how many.
    A console does it in a thread once its table is up (``TableApp.PRELOAD``), so that no key
    pays for a record first made under it (the first settlement's ~10)."""
    done = 0
    for cls, stand_in in list(_WAITING.items()):
        if cls.__dict__.get("__init__") is stand_in:  # not compiled meanwhile by a first instance
            stand_in.compiled()
            done += 1
    return done


def _check_order(fields: tuple[dataclasses.Field[Any], ...]) -> None:
    """dataclass's own refusal, at the class as it gives it, not at a first instance."""
    defaulted = False
    for f in fields:
        if f.init and not f.kw_only:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                if defaulted:
                    raise TypeError(f"non-default argument {f.name!r} follows default argument")
            else:
                defaulted = True


_FIELD_MARKS = sys.version_info[:2] == (3, 11)
"""Whether ``_marked`` may mark a class's fields itself: it writes what Python 3.11's
``dataclasses`` writes (its private ``_FIELD``, ``_FIELDS``, ``_PARAMS``); on another Python
``dataclass`` does it all."""


@cache
def _leading_name(annotation: str) -> tuple[str | None, str | None]:
    """The module and the name an annotation starts with, as ``dataclasses`` reads them
    (``_MODULE_IDENTIFIER_RE``): once per text (most fields share a few: ``int``, ``str``)."""
    found = dataclasses._MODULE_IDENTIFIER_RE.match(annotation)  # type: ignore[attr-defined]
    return (found.group(1), found.group(2)) if found else (None, None)


def _field_of(cls: type, name: str, annotation: str, kw_only: bool, namespace: dict[str, Any]) -> Any:
    """``dataclasses._get_field`` for one annotation written as text (``from __future__ import
    annotations``): a field, a ClassVar's pseudo-field, or None for what this does not decide
    (an InitVar, KW_ONLY, a name through a module: ``dataclass`` decides)."""
    module, first = _leading_name(annotation)
    if module and namespace.get(module) in (typing, dataclasses):
        return None  # «typing.ClassVar[...]»
    named = namespace.get(first) if first and not module else None
    if named is dataclasses.KW_ONLY or named is dataclasses.InitVar or isinstance(named, dataclasses.InitVar):
        return None
    default: Any = getattr(cls, name, dataclasses.MISSING)
    if isinstance(default, dataclasses.Field):
        f = default
    else:
        if isinstance(default, types.MemberDescriptorType):  # a slot: no default
            default = dataclasses.MISSING
        f = dataclasses.field(default=default)
    f.name = name
    f.type = annotation
    if named is typing.ClassVar:
        f._field_type = dataclasses._FIELD_CLASSVAR  # type: ignore[attr-defined]
        if f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"field {f.name} cannot have a default factory")
        if f.kw_only is not dataclasses.MISSING:
            raise TypeError(f"field {f.name} is a ClassVar but specifies kw_only")
        return f
    f._field_type = dataclasses._FIELD  # type: ignore[attr-defined]
    if f.kw_only is dataclasses.MISSING:
        f.kw_only = kw_only
    if f.default.__class__.__hash__ is None:
        raise ValueError(f"mutable default {type(f.default)} for field {f.name} is not allowed: use default_factory")
    return f


def _marked(cls: type[T], kw_only: bool) -> type[T] | None:
    """``dataclass(cls, init=False, repr=False, eq=False, kw_only=kw_only)``: the fields found
    and marked as ``dataclass`` marks them (``fields``, ``replace``, ``asdict`` and subclasses
    read them), the defaults as class attributes, ``__match_args__``. ``dataclass``'s way of
    reading each annotation (three pattern matches and lookups each) was a tenth of a console's
    imports, for ~550 fields (issue 32): this one reads each once. None for what it does not
    decide (another Python, a field it does not read), before it sets anything on the class:
    ``dataclass`` marks that class."""
    annotations = inspect.get_annotations(cls)
    if not _FIELD_MARKS or not all(isinstance(a, str) for a in annotations.values()):
        return None
    module = sys.modules.get(cls.__module__)
    namespace = module.__dict__ if module is not None else {}
    own = []
    for name, annotation in annotations.items():
        f = _field_of(cls, name, annotation, kw_only, namespace)
        if f is None:
            return None
        own.append(f)
    fields: dict[str, Any] = {}
    for base in cls.__mro__[-1:0:-1]:
        base_fields = getattr(base, "__dataclass_fields__", None)
        if base_fields is not None:
            fields.update((f.name, f) for f in base_fields.values())
            if base.__dataclass_params__.frozen:  # type: ignore[attr-defined]
                raise TypeError("cannot inherit non-frozen dataclass from a frozen one")
    for f in own:
        fields[f.name] = f
        if isinstance(getattr(cls, f.name, None), dataclasses.Field):
            if f.default is dataclasses.MISSING:
                delattr(cls, f.name)
            else:
                setattr(cls, f.name, f.default)
    for name, value in cls.__dict__.items():
        if isinstance(value, dataclasses.Field) and name not in annotations:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    cls.__dataclass_params__ = dataclasses._DataclassParams(  # type: ignore[attr-defined]
        False, False, False, False, False, False)
    cls.__dataclass_fields__ = fields  # type: ignore[attr-defined]
    if "__match_args__" not in cls.__dict__:
        cls.__match_args__ = tuple(f.name for f in fields.values()  # type: ignore[attr-defined,misc]
                                   if f._field_type is dataclasses._FIELD and f.init and not f.kw_only)  # type: ignore[attr-defined]
    abc.update_abstractmethods(cls)
    return cls


def _slotted(cls: type[T]) -> type[T]:
    """``cls``, marked, made anew with a slot per field, as ``dataclass(slots=True)`` makes it
    (Python 3.11's ``_add_slots``): ``dataclass`` would read and mark every field of the class
    again first (~0.4 M instructions a class, a dozen at Midi's launch)."""
    if "__slots__" in cls.__dict__:
        raise TypeError(f"{cls.__name__} already specifies __slots__")
    namespace = dict(cls.__dict__)
    names = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    inherited = {name for base in cls.__mro__[1:-1] for name in dataclasses._get_slots(base)}  # type: ignore[attr-defined]
    namespace["__slots__"] = tuple(name for name in names if name not in inherited)
    for name in names:
        namespace.pop(name, None)  # a default: the slot's name (the __init__ holds the value)
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)  # the old class's
    made: type[T] = type(cls)(cls.__name__, cls.__bases__, namespace)  # type: ignore[misc]
    made.__qualname__ = cls.__qualname__
    return made


def _make(cls: type[T], slots: bool, kw_only: bool, frozen: bool) -> type[T]:
    undocumented = not cls.__dict__.get("__doc__")
    if undocumented:
        cls.__doc__ = "?"  # dataclass would word it from an __init__ not yet written
    marked = _marked(cls, kw_only)
    if marked is not None and slots:
        marked = _slotted(marked)
    made = marked or dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=slots, kw_only=kw_only)
    fields = dataclasses.fields(made)  # type: ignore[arg-type]
    own = made.__dict__
    methods: dict[str, Any] = {
        _KEY: staticmethod(_key_of(tuple(f.name for f in fields if f.compare))),
        _SHOWN: tuple(f.name for f in fields if f.repr),
    }
    if frozen:
        methods.update(__setattr__=_setattr, __delattr__=_delattr)
    if "__init__" not in own:
        _check_order(fields)
        methods["__init__"] = _FirstInit(made, fields, frozen)
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
        words = _signature_text(fields) if isinstance(made.__dict__["__init__"], _FirstInit) else \
            str(inspect.signature(made)).replace(" -> None", "")
        made.__doc__ = made.__name__ + words
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


CONSOLE_PACKAGES = ("shared", "tui_common", "madero_tui", "midi_tui")


def ship_inits(packages: Sequence[str] = CONSOLE_PACKAGES, target: Path = SHIPPED_INITS) -> int:
    """Write the compiled ``__init__`` of every record ``packages`` declare (each of their
    modules imported); how many. ``python -m shared.record`` after adding, removing or
    changing a record's fields: ``tests/test_record.py`` says when the file is not current."""
    import pkgutil

    for package in packages:
        for info in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
            if not info.name.endswith("__main__"):
                importlib.import_module(info.name)
    codes: dict[str, bytes] = {}
    for stand_in in _STAND_INS:
        text = stand_in.source()[0]
        codes[text] = marshal.dumps(compile(text, "<string>", "exec"))
    target.write_bytes(importlib.util.MAGIC_NUMBER + marshal.dumps(codes))
    return len(codes)


if __name__ == "__main__":
    from shared.record import SHIPPED_INITS as written, ship_inits as ship  # this module as the records know it

    print(f"{ship()} records' __init__ written to {written}")
