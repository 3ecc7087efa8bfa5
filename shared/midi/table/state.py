"""The pieces of a Midi table's state: phases, keyed cards, the shoe's view, the coup's hands,
and the state a snapshot writes (``MidiState``, ``MidiSnapshot``, through ``shared.codec``).

Pure helpers over the coup's cards live here too: which hand the next card goes to (Art. 6),
and the PUNTO and BANCA hands of a coup in progress.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import field
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache
from typing import Any

from shared.baccarat import (
    CoupResult,
    Hand,
    cards_needed,
    punto_draws,
    resolve_coup,
    total,
)
from shared.cards import BaccaratShoe, Rank, Suit, parse_baccarat_card
from shared.codec import ATTR, json_form
from shared.midi.payouts import BetKind, SettlementLine
from shared.record import record

CARDS_BELOW_CUT = BaccaratShoe.CARDS_BELOW_CUT

Bets = dict[int, dict[BetKind, Decimal]]
"""The bets on the layout: spot → bet kind → amount."""


class Phase(StrEnum):
    NO_SHOE = "no_shoe"
    """No shoe in play yet: a new shoe is needed."""
    BURN = "burn"
    """Art. 8 §2: the first card is exposed, then as many cards as it is worth are burned."""
    BETS = "bets"
    """Bets open, until "No va más" (Art. 9 §1)."""
    CARDS = "cards"
    """"Cartas": the cards of the coup, one by one as the rules call for them (Art. 8 §3–5)."""
    RESULT = "result"
    """The coup is decided: settle (Art. 8 §6)."""
    SHOE_END = "shoe_end"
    """The cut card appeared and its coup is over, or the supervisor ended the shoe."""


@record(slots=True)
class KeyedCard:
    rank: Rank
    suit: Suit | None

    @property
    def text(self) -> str:
        return self.rank.char + (self.suit.value if self.suit else "")

    @property
    def display(self) -> str:
        return self.rank.label + (self.suit.symbol if self.suit else "")

    @classmethod
    def parse(cls, text: str) -> KeyedCard:
        rank, suit = parse_baccarat_card(text)
        return cls(rank, suit)


@record(slots=True)
class ShoeView:
    number: int
    decks: int
    size: int
    dealt: int
    left: dict[Rank, int]
    """Cards of each rank the shoe may still hold (live: an upper bound, burned cards unseen)."""
    virtual: bool
    burn_card: KeyedCard | None
    burned: int | None
    cut_card_out: bool
    coups: int

    @property
    def cards_left(self) -> int:
        return self.size - self.dealt

    @property
    def cut_position(self) -> int:
        """Cards dealt when the cut card comes out (Art. 8 §1)."""
        return self.size - CARDS_BELOW_CUT


@record(slots=True)
class CoupRecord:
    """One finished coup of the shoe (NULO coups have ``result=None``)."""

    coup: int
    result: CoupResult | None
    ranks: str | None = field(default=None, compare=False)
    """The coup's ranks in dealing order («9KT3»): what a snapshot writes, made once with the
    record rather than at each snapshot of the shoe."""

    @classmethod
    def of(cls, coup: int, cards: list[KeyedCard] | None) -> CoupRecord:
        """The record of a coup decided by ``cards`` (keyed in dealing order), or NULO (None)."""
        if cards is None:
            return cls(coup, None)
        return cls(coup, resolve_keyed(cards), "".join(c.rank.char for c in cards))

    def to_json(self) -> list[Any]:
        return [self.coup, self.ranks]

    @classmethod
    def from_json(cls, value: list[Any]) -> CoupRecord:
        coup, ranks = value
        return cls(coup, None if ranks is None else _decided_by(ranks), ranks)


@lru_cache(maxsize=256)
def _decided_by(ranks: str) -> CoupResult:
    # A snapshot holds each coup of the shoe twice (the state and the open coup's base): decided once.
    return resolve_coup([Rank.parse(c) for c in ranks])


# How the table's values are written, in snapshots as anywhere else: a rank or a card as its
# text, a finished coup as its ranks.
json_form(Rank, lambda rank: rank.char, Rank.parse)
json_form(KeyedCard, lambda card: card.text, KeyedCard.parse)
json_form(CoupRecord, CoupRecord.to_json, CoupRecord.from_json)


@record
class MidiState:
    """The table's state but the open coup's log: what a snapshot keeps, and the open coup's
    base (the state its log is refolded over after an undo). Fields name the engine's
    attributes (``ATTR`` where the attribute is private)."""

    phase: Phase
    coup_no: int
    shoe_no: int
    decks: int = field(metadata={ATTR: "_decks"})
    size: int = field(metadata={ATTR: "_size"})
    left: Counter[Rank] = field(metadata={ATTR: "_left"})
    """The shoe's composition left."""
    dealt: int = field(metadata={ATTR: "_dealt"})
    order: str | None = field(metadata={ATTR: "_order"})
    """A training shoe's order, its card texts run together as journaled (None live)."""
    burn_card: KeyedCard | None = field(metadata={ATTR: "_burn_card"})
    burned: int | None = field(metadata={ATTR: "_burned"})
    cut_out: bool = field(metadata={ATTR: "_cut_out"})
    cut_seen: bool = field(metadata={ATTR: "_cut_seen"})
    shoe_coups: int = field(metadata={ATTR: "_shoe_coups"})
    bets: dict[int, dict[BetKind, Decimal]]
    cards: list[KeyedCard]
    sabot_holder: int | None
    supervisor_dealing: bool
    sabot_passed: set[int] = field(metadata={ATTR: "_sabot_passed"})
    last_dealer: int | None = field(metadata={ATTR: "_last_dealer"})
    commission_tally: dict[int, Decimal]
    history: list[CoupRecord]
    last_bets: dict[int, dict[BetKind, Decimal]]
    last_settlement: list[SettlementLine]
    shoe_end_reason: str | None


@record
class MidiSnapshot(MidiState):
    """What a snapshot keeps of the table: its state and the open coup's base (the base's
    part adds who is on duty and the coup's log)."""

    coup_base: MidiState


def right_of(box: int, boxes: int) -> int:
    """The box on the holder's right: the next box number, wrapping (decision: boxes are
    numbered in the order the sabot travels)."""
    return box % boxes + 1


def bets_to_json(bets: Bets) -> dict[str, dict[str, str]]:
    return {str(s): {k.value: str(v) for k, v in sorted(b.items())} for s, b in sorted(bets.items())}


def bets_from_json(data: dict[str, dict[str, str]]) -> Bets:
    return {int(s): {BetKind(k): Decimal(v) for k, v in b.items()} for s, b in data.items()}


def next_hand(cards: list[KeyedCard]) -> Hand | None:
    """The hand the coup's next card goes to (Art. 6), or None when the coup is complete."""
    need = cards_needed([c.rank for c in cards])
    n = len(cards)
    if n >= need:
        return None
    if n < 4:
        return Hand.PUNTO if n % 2 == 0 else Hand.BANCA
    if n == 4:
        pt = total([cards[0].rank, cards[2].rank])
        return Hand.PUNTO if punto_draws(pt) else Hand.BANCA
    return Hand.BANCA


def deal_order_partial(cards: list[KeyedCard]) -> tuple[list[KeyedCard], list[KeyedCard]]:
    """The PUNTO and BANCA hands of a coup in progress."""
    punto: list[KeyedCard] = []
    banca: list[KeyedCard] = []
    for i, card in enumerate(cards):
        hand = next_hand(cards[:i])
        (punto if hand is Hand.PUNTO else banca).append(card)
    return punto, banca


def resolve_keyed(cards: list[KeyedCard]) -> CoupResult:
    return resolve_coup([c.rank for c in cards])


def order_cards(order: str, start: int, count: int = 1) -> list[str]:
    """The texts of ``count`` cards of a training shoe's order (card texts run together, two
    characters each) from the ``start``-th card."""
    return [order[i:i + 2] for i in range(2 * start, 2 * (start + count), 2)]


def keyed(rank: str, suit: str | None) -> KeyedCard:
    return KeyedCard(Rank.parse(rank), None if suit is None else Suit(suit))


Json = dict[str, Any]
