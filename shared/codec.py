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


_HINTS: dict[type, dict[str, Any]] = {}


def hints(cls: type) -> dict[str, Any]:
    """The resolved type hints of a dataclass, resolved once."""
    found = _HINTS.get(cls)
    if found is None:
        found = _HINTS[cls] = typing.get_type_hints(cls)
    return found


def encode(value: Any) -> Any:
    """``value`` as JSON (dicts, lists, strings, numbers, booleans and None)."""
    if type(value) in _PLAIN:
        return value
    form = _FORMS.get(type(value))
    if form is not None:
        return form[0](value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Decimal):
        return str(value)
    return _encode_structure(value)


def _encode_structure(value: Any) -> Any:
    """A dataclass or a container, as JSON (anything else as it stands)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(encode(v) for v in value)
    if isinstance(value, Mapping):
        return {str(encode(k)): encode(v) for k, v in value.items()}
    return value


_PLAIN = frozenset({str, int, bool, float, type(None)})
"""What JSON writes as it stands (checked first: most of a state is numbers and text)."""


def decode(tp: Any, value: Any) -> Any:
    """``value`` (as read from JSON) as the type ``tp`` says."""
    if value is None:
        return None
    generic = _DECODE_GENERIC.get(typing.get_origin(tp))
    if generic is not None:
        return generic(tp, value)
    return _decode_class(tp, value) if isinstance(tp, type) else value


def _decode_union(tp: Any, value: Any) -> Any:
    """``X | None`` reads as ``X``; a union of several types keeps the value as read."""
    members = [a for a in typing.get_args(tp) if a is not type(None)]
    return decode(members[0], value) if len(members) == 1 else value


def _decode_tuple(tp: Any, value: Any) -> tuple[Any, ...]:
    args = typing.get_args(tp)
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(decode(args[0], v) for v in value)
    return tuple(decode(a, v) for a, v in zip(args, value, strict=True))


def _decode_items(tp: Any, value: Any) -> Any:
    """A list, set or frozenset of the one type its hint names."""
    (arg,) = typing.get_args(tp)
    return typing.get_origin(tp)(decode(arg, v) for v in value)


def _decode_mapping(tp: Any, value: Any) -> Any:
    args = typing.get_args(tp)
    if not args:
        return dict(value)
    key_type, value_type = args if len(args) == 2 else (args[0], int)
    container = Counter if typing.get_origin(tp) is Counter else dict
    return container({_decode_key(key_type, k): decode(value_type, v) for k, v in value.items()})


def _decode_key(tp: Any, key: str) -> Any:
    """A JSON object's key (always text) as the key type says: an int, an enum member, …"""
    if tp is int:
        return int(key)
    if tp in _FORMS:
        return _FORMS[tp][1](key)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return _members_by_text(tp)[key]
    return decode(tp, key)


@cache
def _members_by_text(cls: type[Enum]) -> dict[str, Enum]:
    return {str(m.value): m for m in cls}


def _decode_class(tp: type, value: Any) -> Any:
    """A class with a JSON form, an enum member, a Decimal or a dataclass (field by field)."""
    if tp in _FORMS:
        return _FORMS[tp][1](value)
    if issubclass(tp, Enum):
        return tp(value)
    if issubclass(tp, Decimal):
        return Decimal(value)
    if dataclasses.is_dataclass(tp):
        fields = hints(tp)
        return tp(**{f.name: decode(fields[f.name], value[f.name]) for f in dataclasses.fields(tp) if f.name in value})
    return value


# The generic types a field may have, by their origin (``typing.get_origin``).
_DECODE_GENERIC: dict[Any, Callable[[Any, Any], Any]] = {
    typing.Union: _decode_union, types.UnionType: _decode_union, tuple: _decode_tuple, list: _decode_items,
    set: _decode_items, frozenset: _decode_items, dict: _decode_mapping, Mapping: _decode_mapping,
    Counter: _decode_mapping,
}


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
