"""The pieces of a Midi table's state: phases, keyed cards, the shoe's view, the coup's hands.

Pure helpers over the coup's cards live here too: which hand the next card goes to (Art. 6),
and the PUNTO and BANCA hands of a coup in progress.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
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
from shared.midi.payouts import BetKind

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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class CoupRecord:
    """One finished coup of the shoe (NULO coups have ``result=None``)."""

    coup: int
    result: CoupResult | None


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


def cards_of(result: CoupResult) -> tuple[KeyedCard, ...]:
    return tuple(KeyedCard(Rank(r), None) for r in result.cards_in_dealing_order)


def split_order(order: str | None) -> list[str] | None:
    """A training shoe's order as journaled (card texts run together) as a list of card texts."""
    return None if order is None else [order[i:i + 2] for i in range(0, len(order), 2)]


def keyed(rank: str, suit: str | None) -> KeyedCard:
    return KeyedCard(Rank.parse(rank), None if suit is None else Suit(suit))


Json = dict[str, Any]
