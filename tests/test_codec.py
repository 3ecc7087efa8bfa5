"""The one codec (shared/codec.py) of events and snapshots: the shapes a state holds round-trip
through JSON, a class's own text form is used as a value and as a key, and ``capture`` /
``restore`` never leave the engine and its copy sharing a container."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from enum import Enum
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared.cards import FULL_DECK, Card, Rank
from shared.codec import ATTR, capture, decode, encode, restore
from shared.engine import BASE_KEY
from shared.madero.table import MaderoTable
from shared.midi.table import MidiTable
from shared.journal import Journal
from shared.midi.table.state import CoupRecord, KeyedCard


class Colour(Enum):
    RED = 1
    BLACK = 2


@dataclass(frozen=True)
class Shapes:
    by_box: dict[int, Decimal]
    by_colour: dict[Colour, list[int]]
    counts: Counter[Rank]
    seen: set[int]
    cards: list[Card]
    nested: dict[int, dict[str, Decimal]]
    maybe: tuple[int, ...] | None = None


def through_json(value: Any) -> Any:
    return json.loads(json.dumps(encode(value)))


@given(
    by_box=st.dictionaries(st.integers(-5, 99), st.decimals(allow_nan=False, allow_infinity=False, places=2)),
    by_colour=st.dictionaries(st.sampled_from(Colour), st.lists(st.integers())),
    counts=st.dictionaries(st.sampled_from(Rank), st.integers(0, 32)),
    seen=st.sets(st.integers()),
    cards=st.lists(st.sampled_from(FULL_DECK)),
    maybe=st.none() | st.tuples(st.integers()),
)
def test_every_shape_of_a_state_round_trips(by_box, by_colour, counts, seen, cards, maybe):
    value = Shapes(by_box, by_colour, Counter(counts), seen, cards, {1: {"ante": Decimal("2.5")}}, maybe)
    decoded = decode(Shapes, through_json(value))
    assert decoded == value
    assert type(decoded.counts) is Counter and all(type(k) is int for k in decoded.by_box)
    assert encode(decoded) == encode(value)  # equal states, equal JSON (a set is written sorted)


def test_a_class_with_its_own_text_form_is_written_so_as_a_value_and_as_a_key():
    assert encode({Rank.TEN: [Card.parse("Th")], Rank.ACE: []}) == {"T": ["Th"], "A": []}
    assert decode(dict[Rank, KeyedCard], {"K": "Ks"}) == {Rank.KING: KeyedCard.parse("Ks")}


def test_a_finished_coup_is_written_as_its_ranks_and_decided_again_when_read():
    record = CoupRecord.of(7, [KeyedCard.parse(t) for t in ("9h", "K", "T", "3")])
    assert encode(record) == [7, "9KT3"]
    assert decode(CoupRecord, [7, "9KT3"]) == record and decode(CoupRecord, [8, None]) == CoupRecord(8, None)


@dataclass(frozen=True)
class Kept:
    bets: dict[int, dict[str, int]]
    order: list[int] = field(metadata={ATTR: "_order"})


class Keeper:
    def __init__(self) -> None:
        self.bets = {1: {"punto": 5}}
        self._order = [3, 1]


def test_capture_and_restore_copy_every_container():
    keeper = Keeper()
    kept = capture(Kept, keeper)
    keeper.bets[1]["banca"] = 9
    keeper._order.append(4)
    assert kept == Kept({1: {"punto": 5}}, [3, 1])
    restore(kept, keeper)
    keeper.bets[1]["tie"] = 1
    assert kept.bets == {1: {"punto": 5}} and keeper._order == [3, 1]


@pytest.mark.parametrize("game", [MaderoTable, MidiTable])
def test_a_snapshot_of_a_version_with_no_way_up_is_not_read(game, tmp_path):
    table = game(Journal(tmp_path / "t.sqlite3", "T1", game.game, training=True), training=True)
    data = table.state_dict()
    assert table.upgrade_snapshot(data) is data  # today's version: read as it stands
    assert table.upgrade_snapshot({**data, BASE_KEY: {**data[BASE_KEY], "version": 0}}) is None
    assert table.upgrade_snapshot({**data, BASE_KEY: {**data[BASE_KEY], "version": game.snapshot_version + 1}}) is None



# --- the codec as it read every hint at every value (before issue 32), the oracle of the one that
# works out each type's reader and writer once -----------------------------------------------------

def reference_encode(value: Any) -> Any:
    import dataclasses
    from collections.abc import Mapping

    from shared.codec import _FORMS

    if type(value) in (str, int, bool, float, type(None)):
        return value
    form = _FORMS.get(type(value))
    if form is not None:
        return form[0](value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Decimal):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: reference_encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [reference_encode(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(reference_encode(v) for v in value)
    if isinstance(value, Mapping):
        return {str(reference_encode(k)): reference_encode(v) for k, v in value.items()}
    return value


def reference_decode(tp: Any, value: Any) -> Any:
    import dataclasses
    import types
    import typing
    from collections.abc import Mapping

    from shared.codec import _FORMS, hints

    if value is None:
        return None
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in args if a is not type(None)]
        return reference_decode(members[0], value) if len(members) == 1 else value
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(reference_decode(args[0], v) for v in value)
        return tuple(reference_decode(a, v) for a, v in zip(args, value, strict=True))
    if origin in (list, set, frozenset):
        return origin(reference_decode(args[0], v) for v in value)
    if origin in (dict, Mapping, Counter):
        if not args:
            return dict(value)
        key_type, value_type = args if len(args) == 2 else (args[0], int)

        def key(k: str) -> Any:
            if key_type is int:
                return int(k)
            if key_type in _FORMS:
                return _FORMS[key_type][1](k)
            if isinstance(key_type, type) and issubclass(key_type, Enum):
                return {str(m.value): m for m in key_type}[k]
            return reference_decode(key_type, k)

        container = Counter if origin is Counter else dict
        return container({key(k): reference_decode(value_type, v) for k, v in value.items()})
    if not isinstance(tp, type):
        return value
    if tp in _FORMS:
        return _FORMS[tp][1](value)
    if issubclass(tp, Enum):
        return tp(value)
    if issubclass(tp, Decimal):
        return Decimal(value)
    if dataclasses.is_dataclass(tp):
        fields = hints(tp)
        return tp(**{f.name: reference_decode(fields[f.name], value[f.name])
                     for f in dataclasses.fields(tp) if f.name in value})
    return value


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (a Counter is not a dict, a tuple not a list)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(k, next(j for j in b if j == k)) and same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@pytest.mark.parametrize("game", ["madero", "midi"])
def test_every_entry_and_snapshot_of_a_played_journal_reads_and_writes_as_the_reference_codec(game, tmp_path):
    """Every entry of a journal played through the engine (40 Madero rounds, or a Midi shoe) and
    its snapshot: read into the same values of the same types as the codec that asked the hints
    at every value read them, and written back to the same JSON."""
    from bench_modules import bench_module

    bench = bench_module(f"bench_{game}_tui")
    from shared.base_events import COMMON_CODEC
    from shared.events import VERSION_KEY
    from shared.madero.table.events import CODEC as MADERO_CODEC
    from shared.madero.table.state import MaderoSnapshot
    from shared.midi.table.base import MIDI_CODEC
    from shared.midi.table.state import MidiSnapshot

    db = tmp_path / "table.db"
    bench.prepare(db, 40 if game == "madero" else 1)
    codec = (MADERO_CODEC if game == "madero" else MIDI_CODEC) + COMMON_CODEC
    journal = Journal.open_existing(db)
    read = 0
    for event in journal.events():
        if event.type not in codec.types:
            continue
        cls = codec.by_type[event.type]
        body = codec.decode(event.type, event.payload)
        data = dict(event.payload)
        version = data.pop(VERSION_KEY, 1)
        if version != cls.version:
            data = cls.upcast(data, version)
        assert same(body, reference_decode(cls, data)), event
        assert same(encode(body), reference_encode(body)), event
        read += 1
    assert read > 700
    _, snapshot = journal.latest_snapshot()
    state_class = MaderoSnapshot if game == "madero" else MidiSnapshot
    state = decode(state_class, snapshot)  # as the engine restores it (the base's part is not a field)
    assert same(state, reference_decode(state_class, snapshot))
    assert same(encode(state), reference_encode(state)) and json.loads(json.dumps(encode(state))) == encode(state)


def _project_dataclasses() -> list[type]:
    import dataclasses
    import importlib
    import pkgutil

    import shared

    found: dict[type, None] = {}
    for module in pkgutil.walk_packages(shared.__path__, "shared."):
        for value in vars(importlib.import_module(module.name)).values():
            if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__.startswith("shared."):
                found[value] = None
    return list(found)


def test_every_dataclass_of_the_engine_has_the_hints_typing_gives_it() -> None:
    """``hints`` evaluates each annotation itself (its compiled text kept): the same hints as
    ``typing.get_type_hints``, for every state, event and record the engine declares."""
    import typing

    from shared.codec import _class_hints

    def outcome(resolve: Any, cls: type) -> object:
        try:
            return resolve(cls)
        except NameError as error:  # a name its module imports only for the type checker
            return f"NameError: {error}"

    classes = _project_dataclasses()
    assert len(classes) > 150
    for cls in classes:
        assert outcome(_class_hints, cls) == outcome(typing.get_type_hints, cls), cls


@pytest.mark.parametrize("annotation", [
    "int", "Decimal | None", "dict[int, dict[str, Decimal]]", "tuple[int, ...]", "Counter[Rank]",
    "ClassVar[int]", "Literal['a', 'b']", "Callable[[int], str]", "list['Card']", "None", "Any",
    "Annotated[int, 'a note']", "T", "Colour", "Shadowed", "typing.Optional[Card]",
])
def test_a_hint_is_what_typing_makes_of_it_given_the_names_it_would_see(annotation: str) -> None:
    """Made-up classes whose hints are plain, need typing's own conversions (a text inside, None,
    Annotated, a type variable), or name the class's own attribute besides the module's."""
    import typing
    from collections.abc import Callable
    from typing import Annotated, ClassVar, Literal, TypeVar

    from shared.codec import _class_hints

    namespace = {"Decimal": Decimal, "Counter": Counter, "Rank": Rank, "Card": Card, "ClassVar": ClassVar,
                 "Literal": Literal, "Callable": Callable, "Any": Any, "Annotated": Annotated, "T": TypeVar("T"),
                 "Colour": Colour, "typing": typing, "__name__": "made_up"}
    module = type(json)("made_up")
    vars(module).update(namespace)
    import sys

    sys.modules["made_up"] = module
    try:
        # The class names Shadowed alone, and Colour as the module does: the module's wins.
        body = {"__module__": "made_up", "__annotations__": {"x": annotation, "y": "int"}, "Shadowed": Card, "Colour": Card}
        parent = type("Parent", (), {"__module__": "made_up", "__annotations__": {"y": "str", "z": "Colour"}})
        made = type("Made", (parent,), body)
        assert _class_hints(made) == typing.get_type_hints(made)
        assert list(_class_hints(made)) == list(typing.get_type_hints(made))
    finally:
        del sys.modules["made_up"]
