"""One codec for everything the journal stores: typed values ⇄ JSON, driven by type hints.

Events (``shared.events``) and snapshots (each game's state dataclasses) are encoded and
decoded here. A dataclass is a JSON object of its fields; an enum its value; a Decimal its
text; a list, tuple, set or frozenset a list (a set sorted, so equal states give equal JSON);
a dict (a Counter too) an object whose keys are their encoded values as text. A class with a
shorter text form of its own (a card as ``"Ah"``) registers it with ``json_form``, and is
written that way wherever it appears, as a value or as a key.

``capture`` and ``restore`` move a state dataclass's fields to and from the attributes of the
object that keeps that state (an engine), copying the containers so that the two never share
a list or a dict that one of them changes in place.
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
import types
import typing
from collections import Counter
from collections.abc import Callable, Mapping
from decimal import Decimal
from enum import Enum
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")

ATTR = "attr"
"""Field metadata: the attribute of the keeping object a state field is captured from, when
its name differs (a private attribute, say)."""

_FORMS: dict[type, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {}


def json_form(cls: type[T], encode: Callable[[T], Any], decode: Callable[[Any], T]) -> None:
    """Write ``cls`` as ``encode`` says, and read it back with ``decode``, everywhere."""
    if cls in _FORMS:
        raise ValueError(f"{cls.__name__} has a JSON form already")
    _FORMS[cls] = (encode, decode)
    # A form changes how its class is read and written: the ways worked out before it go.
    _ENCODERS.clear()
    _DECODERS.clear()


_HINTS: dict[type, dict[str, Any]] = {}


def hints(cls: type) -> dict[str, Any]:
    """The resolved type hints of a dataclass (``typing.get_type_hints``), resolved once."""
    found = _HINTS.get(cls)
    if found is None:
        found = _HINTS[cls] = _class_hints(cls)
    return found


_ANNOTATION_CODE: dict[str, types.CodeType] = {}
"""Each annotation's text compiled, once for all the classes that write it."""


def _class_hints(cls: type) -> dict[str, Any]:
    """``typing.get_type_hints(cls)`` for annotations that evaluate to plain types.

    ``get_type_hints`` makes a ``ForwardRef`` of each annotation's text, compiles and checks it,
    and a subclass's hints evaluate its bases' annotations again: 5.8 M instructions of Madero's
    launch, 7.4 M of Midi's (issue 32). Here each base's annotations are evaluated as it
    evaluates them (the base's module's names first, then the class's own), each text compiled
    once: 3.2 and 2.6 M. A hint it would convert or look into further (a text left inside, None,
    ``Annotated``, a type variable) gives the class to ``get_type_hints`` whole.
    """
    found: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        annotations = inspect.get_annotations(base)
        if not annotations:
            continue
        module = vars(sys.modules[base.__module__])
        names = dict(vars(base))
        for name, text in annotations.items():
            if not isinstance(text, str):
                return typing.get_type_hints(cls)
            code = _ANNOTATION_CODE.get(text)
            if code is None:
                code = _ANNOTATION_CODE[text] = compile(text, "<annotation>", "eval")
            value = eval(code, names, module)  # as ForwardRef._evaluate: the module's names win
            if not _plain_hint(value):
                return typing.get_type_hints(cls)
            found[name] = value
    return found


def _plain_hint(value: Any) -> bool:
    """A hint ``get_type_hints`` returns as it is (or an equal one): a class, or a generic or
    union of such (a Literal's arguments are values)."""
    if isinstance(value, type):
        return True
    origin = typing.get_origin(value)
    if origin is None or origin in (typing.Annotated, typing.Required, typing.NotRequired):
        return False
    return origin is typing.Literal or all(arg is Ellipsis or _plain_hint(arg) for arg in value.__args__)


# Each type is read and written by a function worked out once from its hints (``_decoder``,
# ``_encoder``): asking the hints again for every value (its origin, its arguments, its
# fields) took most of a settlement's encoding and reading, a few milliseconds of the key
# that confirms it (issue 32).
_ENCODERS: dict[type, Callable[[Any], Any]] = {}
_DECODERS: dict[Any, Callable[[Any], Any]] = {}


def encode(value: Any) -> Any:
    """``value`` as JSON (dicts, lists, strings, numbers, booleans and None)."""
    cls = type(value)
    if cls in _PLAIN:
        return value
    encoder = _ENCODERS.get(cls)
    if encoder is None:
        encoder = _ENCODERS[cls] = _encoder(cls)
    return encoder(value)


def _encoder(cls: type) -> Callable[[Any], Any]:
    """How a value of the class ``cls`` is written: a JSON form, an enum's value, a Decimal's
    text, a dataclass's fields, a container's items (a set sorted), else the value itself."""
    form = _FORMS.get(cls)
    if form is not None:
        return form[0]
    if issubclass(cls, Enum):
        return _enum_value
    if issubclass(cls, Decimal):
        return str
    if dataclasses.is_dataclass(cls):
        names = tuple(f.name for f in dataclasses.fields(cls))
        return lambda value: {name: encode(getattr(value, name)) for name in names}
    if issubclass(cls, (tuple, list)):
        return lambda value: [encode(v) for v in value]
    if issubclass(cls, (set, frozenset)):
        return lambda value: sorted(encode(v) for v in value)
    if issubclass(cls, Mapping):
        return lambda value: {str(encode(k)): encode(v) for k, v in value.items()}
    return _as_it_stands


def _enum_value(member: Enum) -> Any:
    return member.value


def _as_it_stands(value: Any) -> Any:
    return value


_PLAIN = frozenset({str, int, bool, float, type(None)})
"""What JSON writes as it stands (checked first: most of a state is numbers and text)."""


def decode(tp: Any, value: Any) -> Any:
    """``value`` (as read from JSON) as the type ``tp`` says."""
    return None if value is None else _decoder(tp)(value)


def _decoder(tp: Any) -> Callable[[Any], Any]:
    """How a value that is not None is read as ``tp``."""
    found = _DECODERS.get(tp)
    if found is None:
        found = _DECODERS[tp] = _new_decoder(tp)
    return found


def _new_decoder(tp: Any) -> Callable[[Any], Any]:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        # ``X | None`` reads as ``X``; a union of several types keeps the value as read.
        members = [a for a in args if a is not type(None)]
        return _decoder(members[0]) if len(members) == 1 else _as_it_stands
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return lambda value: tuple([None if v is None else item(v) for v in value])
        items = [_decoder(a) for a in args]
        return lambda value: tuple([None if v is None else d(v) for d, v in zip(items, value, strict=True)])
    if origin in (list, set, frozenset):
        (arg,) = args
        item, container = _decoder(arg), origin
        return lambda value: container([None if v is None else item(v) for v in value])
    if origin in (dict, Mapping, Counter):
        if not args:
            return dict
        key_type, value_type = args if len(args) == 2 else (args[0], int)
        key, item = _key_decoder(key_type), _decoder(value_type)
        container = Counter if origin is Counter else dict
        return lambda value: container({key(k): None if v is None else item(v) for k, v in value.items()})
    return _class_decoder(tp) if isinstance(tp, type) else _as_it_stands


def _key_decoder(tp: Any) -> Callable[[str], Any]:
    """A JSON object's key (always text) as the key type says: an int, an enum member, …"""
    if tp is int:
        return int
    if tp in _FORMS:
        return _FORMS[tp][1]
    if isinstance(tp, type) and issubclass(tp, Enum):
        return _members_by_text(tp).__getitem__
    return _decoder(tp)


@cache
def _members_by_text(cls: type[Enum]) -> dict[str, Enum]:
    return {str(m.value): m for m in cls}


def _class_decoder(tp: type) -> Callable[[Any], Any]:
    """A class with a JSON form, an enum member, a Decimal or a dataclass (field by field)."""
    if tp in _FORMS:
        return _FORMS[tp][1]
    if issubclass(tp, Enum):
        return _enum_reader(tp)
    if issubclass(tp, Decimal):
        return Decimal
    if dataclasses.is_dataclass(tp):
        return _dataclass_decoder(tp)
    return _as_it_stands


def _enum_reader(tp: type[Enum]) -> Callable[[Any], Any]:
    """``tp``'s member of a value, as ``tp(value)`` gives it, by a lookup first (calling an
    enum costs several times more, and a settlement reads ~70 members back)."""
    members = {member.value: member for member in tp}

    def read(value: Any) -> Any:
        try:
            return members[value]
        except (KeyError, TypeError):  # not a member's value: the enum's own answer (a refusal)
            return tp(value)

    return read


def _dataclass_decoder(tp: type) -> Callable[[Any], Any]:
    fields: list[tuple[str, Callable[[Any], Any]]] = []

    def read(value: Any) -> Any:
        if not fields:  # at the first value: a dataclass may name itself in its fields' hints
            found = hints(tp)
            fields.extend((f.name, _decoder(found[f.name])) for f in dataclasses.fields(tp))
        return tp(**{name: None if value[name] is None else read_field(value[name])
                     for name, read_field in fields if name in value})

    return read


# --- state dataclasses and the objects that keep their state -----------------------------------


def capture(cls: type[T], source: object, **given: Any) -> T:
    """The state dataclass ``cls`` from ``source``'s attributes (its own copies of them);
    ``given`` supplies fields ``source`` does not keep as attributes."""
    fields = hints(cls)
    return cls(**{f.name: copy(fields[f.name], getattr(source, _attr(f)))
                  for f in dataclasses.fields(cls) if f.name not in given}, **given)  # type: ignore[arg-type]


def restore(state: object, target: object, *, skip: frozenset[str] = frozenset()) -> None:
    """Set ``target``'s attributes from the state dataclass ``state`` (as copies), but ``skip``."""
    fields = hints(type(state))
    for f in dataclasses.fields(state):  # type: ignore[arg-type]
        if f.name not in skip:
            setattr(target, _attr(f), copy(fields[f.name], getattr(state, f.name)))


def _attr(f: dataclasses.Field[Any]) -> str:
    return str(f.metadata.get(ATTR, f.name))


def copy(tp: Any, value: Any) -> Any:
    """``value`` with every container its type names copied (lists, dicts, sets, Counters).
    Anything else is shared: numbers, text, enums and frozen dataclasses cannot change, and a
    mutable object (Madero's open round) is only captured to be encoded at once."""
    origin = typing.get_origin(tp)
    if value is None or origin is None:
        return value
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(tp) if a is not type(None)]
        return copy(members[0], value) if len(members) == 1 else value
    if origin in (list, set):
        return _copy_items(tp, origin, value)
    return _copy_mapping(tp, origin, value) if origin in (dict, Counter) else value


def _copy_items(tp: Any, origin: type, value: Any) -> Any:
    (arg,) = typing.get_args(tp)
    return origin(value) if typing.get_origin(arg) is None else origin(copy(arg, v) for v in value)


def _copy_mapping(tp: Any, origin: type, value: Any) -> Any:
    args = typing.get_args(tp)
    value_type = args[1] if len(args) == 2 else int
    if typing.get_origin(value_type) is None:
        return origin(value)
    return origin({k: copy(value_type, v) for k, v in value.items()})
