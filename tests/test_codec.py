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

