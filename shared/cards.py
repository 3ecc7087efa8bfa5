"""Cards, the poker deck of one round and the baccarat shoe.

Text forms round-trip: ``Card.parse(str(card)) == card``. The croupier's syntax
(console.md): rank then suit, case-insensitive, ``As`` ``kd`` ``10h`` ``Th`` ``2c``;
suits by English initials (s h d c), shown as ♠ ♥ ♦ ♣. For baccarat a rank alone
is enough (``A 2 … 9 T/0 J Q K``) and a suit may follow.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from dataclasses import field
from enum import Enum

from shared.codec import json_form
from shared.errors import InputError, RuleViolation
from shared.messages import Msg
from shared.record import record
from shared.text import ascii_words


class Rank(Enum):
    """Ranks with their poker value (A high = 14; the evaluator handles A-2-3-4-5)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        return _RANK_CHARS[self]

    @property
    def label(self) -> str:
        """Display form: ``10`` rather than ``T``."""
        return "10" if self is Rank.TEN else self.char

    @property
    def baccarat_points(self) -> int:
        """Midi Art. 2 §1: A = 1, 2–9 face value, 10/J/Q/K = 0."""
        if self is Rank.ACE:
            return 1
        return self.value if self.value < 10 else 0

    @property
    def burn_count(self) -> int:
        """Midi Art. 8 §2: for the burn only, 10 and face cards count 10 (A = 1)."""
        if self is Rank.ACE:
            return 1
        return self.value if self.value < 10 else 10

    @classmethod
    def parse(cls, token: str) -> Rank:
        text = token.strip().upper()
        rank = _RANK_BY_TEXT.get(text)
        if rank is None:
            raise InputError(Msg.of("common.card_unknown_rank", token=token))
        return rank


class Suit(Enum):
    SPADES = "s"
    HEARTS = "h"
    DIAMONDS = "d"
    CLUBS = "c"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_RANK_CHARS = {r: "23456789TJQKA"[r.value - 2] for r in Rank}
_RANK_BY_TEXT = {c: r for r, c in _RANK_CHARS.items()} | {"10": Rank.TEN, "0": Rank.TEN}
_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {sym: s for s, sym in _SUIT_SYMBOLS.items()}


@record(slots=True)
class Card:
    rank: Rank = field(compare=False)
    suit: Suit = field(compare=False)
    index: int = field(init=False, repr=False)
    """0–51, rank-major: a stable integer for sets, ordering and the evaluator."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", (self.rank.value - 2) * 4 + _SUIT_ORDER[self.suit])

    # Ordered by index, as ``dataclass(order=True)`` orders it (a record is not: its four
    # methods were compiled one by one at every launch).
    def __lt__(self, other: object) -> bool:
        return self.index < other.index if other.__class__ is self.__class__ else NotImplemented

    def __le__(self, other: object) -> bool:
        return self.index <= other.index if other.__class__ is self.__class__ else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self.index > other.index if other.__class__ is self.__class__ else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self.index >= other.index if other.__class__ is self.__class__ else NotImplemented

    def __str__(self) -> str:
        return self.rank.char + self.suit.value

    @property
    def display(self) -> str:
        return self.rank.label + self.suit.symbol

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read one poker card as typed by the croupier; explain what is wrong otherwise."""
        text = token.strip()
        if len(text) < 2:
            raise InputError(Msg.of("common.card_no_suit", token=token))
        rank_text, suit_text = text[:-1], text[-1].lower()
        suit = _SUIT_BY_TEXT.get(suit_text)
        rank = _RANK_BY_TEXT.get(rank_text.upper()) if rank_text.upper() != "0" else None
        if rank is None and suit is None:
            raise InputError(Msg.of("common.card_not_a_card", token=token))
        if rank is None:
            raise InputError(Msg.of("common.card_unknown_rank_of", token=token, rank=rank_text))
        if suit is None:
            raise InputError(Msg.of("common.card_unknown_suit", token=token, suit=text[-1]))
        return cls(rank, suit)

    @classmethod
    def from_index(cls, index: int) -> Card:
        return FULL_DECK[index]


_SUIT_ORDER = {Suit.SPADES: 0, Suit.HEARTS: 1, Suit.DIAMONDS: 2, Suit.CLUBS: 3}
FULL_DECK: tuple[Card, ...] = tuple(
    sorted((Card(r, s) for r in Rank for s in Suit), key=lambda c: c.index)
)


# A card is written as its text («Ah», «Td»), in snapshots as in events.
json_form(Card, str, Card.parse)


def parse_cards(text: str | list[str]) -> list[Card]:
    """Several poker cards separated by spaces or commas (``"As Kd"`` or ``"AsKd"``)."""
    if isinstance(text, str):
        tokens = ascii_words(text.replace(",", " "))
    elif isinstance(text, list) and all(isinstance(token, str) for token in text):
        tokens = text
    else:  # from a file: 14 is not «As», a nested list is not a card
        raise InputError(Msg.of("common.cards_as_text"))
    cards: list[Card] = []
    for token in tokens:
        cards.extend(_split_glued(token))
    return cards


def _split_glued(token: str) -> list[Card]:
    # "AsKd" is two cards typed without a space; "10h" is one. A blank token is refused as a
    # card, not skipped (``hand -- As Kd Qh Jc 10s ""`` was a hand).
    out: list[Card] = []
    rest = token.strip()
    while True:
        size = 3 if rest[:2] == "10" else 2
        out.append(Card.parse(rest[:size]))
        rest = rest[size:]
        if not rest:
            return out


def parse_baccarat_card(token: str) -> tuple[Rank, Suit | None]:
    """One baccarat card: a rank alone (one key), optionally followed by a suit."""
    if not isinstance(token, str):  # from a file: 5 is not «5»
        raise InputError(Msg.of("common.card_as_text"))
    text = token.strip()
    if not text:
        raise InputError(Msg.of("common.card_empty"))
    if text.upper() in _RANK_BY_TEXT:
        return Rank.parse(text), None
    if len(text) == 1:
        Rank.parse(text)  # one key that is no rank: say so, not "suit missing"
    card = Card.parse(text)
    return card.rank, card.suit


def make_rng(seed: int | None) -> random.Random:
    """Repeatable ``Random(seed)`` for training; a secure generator otherwise."""
    return random.Random(seed) if seed is not None else secrets.SystemRandom()


class PokerDeck:
    """The 52 cards of one Madero round (Art. 2 §5): what is still unseen.

    A live table only learns cards as they are keyed in; a card already out this round
    is refused. In training the deck is shuffled and dealt by the console itself.
    """

    def __init__(self, seen: list[Card] | None = None) -> None:
        self._seen: set[Card] = set()
        for card in seen or ():
            self.take(card)

    def can_take(self, card: Card) -> bool:
        return card not in self._seen

    def verify_take(self, card: Card) -> None:
        if card in self._seen:
            raise RuleViolation(
                "Art. 2 §5", Msg.of("common.card_already_out", card=card.display),
            )

    def take(self, card: Card) -> None:
        self.verify_take(card)
        self._seen.add(card)

    def put_back(self, card: Card) -> None:
        """A redealt community card returns to the unseen pool (§39.5)."""
        self._seen.discard(card)

    @property
    def seen(self) -> frozenset[Card]:
        return frozenset(self._seen)

    def unseen(self) -> list[Card]:
        return [c for c in FULL_DECK if c not in self._seen]

    def shuffled_unseen(self, rng: random.Random) -> list[Card]:
        cards = self.unseen()
        rng.shuffle(cards)
        return cards


class BaccaratShoe:
    """A Midi shoe of 6 or 8 decks (Art. 2 §1), knowing how many of each rank are left.

    A live shoe knows only its composition; a virtual (training) shoe also knows its
    order. The cut card lies with ``CARDS_BELOW_CUT`` cards under it (Art. 8 §1).
    """

    CARDS_BELOW_CUT = 7

    def __init__(self, decks: int, order: list[Card] | None = None) -> None:
        if decks not in (6, 8):
            raise RuleViolation("Art. 2 §1", Msg.of("common.shoe_decks"))
        self.decks = decks
        self.left: Counter[Rank] = Counter({r: 4 * decks for r in Rank})
        self.order = order
        self.dealt = 0

    @classmethod
    def shuffled(cls, decks: int, rng: random.Random) -> BaccaratShoe:
        cards = list(FULL_DECK) * decks
        rng.shuffle(cards)
        return cls(decks, cards)

    @property
    def size(self) -> int:
        return 52 * self.decks

    @property
    def cards_left(self) -> int:
        return self.size - self.dealt

    @property
    def cut_card_out(self) -> bool:
        """True once the cut card has come out, i.e. the first card below it was drawn: the
        coup that drew it is the shoe's last (Art. 8 §1), as the Midi engine and the shoe
        audit deal it."""
        return self.cards_left < self.CARDS_BELOW_CUT

    def can_take(self, rank: Rank) -> bool:
        return self.left[rank] > 0

    def verify_take(self, rank: Rank) -> None:
        if self.left[rank] <= 0:
            raise RuleViolation(
                "Art. 2 §1", Msg.of("common.shoe_rank_exhausted", rank=rank.label, decks=self.decks),
            )

    def take(self, rank: Rank) -> None:
        """Record a card seen at a live table (rank only)."""
        self.verify_take(rank)
        self.left[rank] -= 1
        self.dealt += 1

    def put_back(self, rank: Rank) -> None:
        """Undo a mis-keyed card: the rank returns to the shoe's composition."""
        if self.left[rank] >= 4 * self.decks or self.dealt == 0:
            raise ValueError(f"{rank} was not taken from this shoe")
        self.left[rank] += 1
        self.dealt -= 1

    def deal(self) -> Card:
        """Next card of a virtual shoe."""
        if self.order is None:
            raise ValueError("a live shoe's order is unknown: key the card in instead")
        if self.dealt >= len(self.order):
            raise RuleViolation("Art. 9 §3", Msg.of("common.shoe_empty"))
        card = self.order[self.dealt]
        self.left[card.rank] -= 1
        self.dealt += 1
        return card

    def burn(self) -> tuple[Card, list[Card]]:
        """Art. 8 §2 on a virtual shoe: expose the first card, burn as many as it is worth."""
        first = self.deal()
        return first, [self.deal() for _ in range(first.rank.burn_count)]
