"""Baccarat (punto banco) drawing rules of Midi Punto y Banca, as data.

Card points (Art. 2 §1, Art. 6 §1), naturals (Art. 6 §2), the PUNTO rule (tercera carta
§1) and the BANCA tableau (tercera carta §2: the published text lost its table; the
standard punto banco tableau is this product's decision, midi-rules.md).

Cards may be given as ``Rank`` or as their points (int 0–9): the odds enumeration works
on the ten point classes, the engine on ranks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn
from enum import StrEnum

from shared.cards import Rank
from shared.codec import json_form
from shared.errors import InputError
from shared.messages import Msg
from shared.record import record


class Hand(StrEnum):
    PUNTO = "punto"
    BANCA = "banca"


class Winner(StrEnum):
    PUNTO = "punto"
    BANCA = "banca"
    TIE = "tie"


NATURALS = frozenset({8, 9})
"""Art. 6 §2: a first-two-card total of 8 or 9 ends the coup."""

PUNTO_DRAWS_ON = frozenset(range(0, 6))
"""Tercera carta §1: PUNTO draws on 0–5 and stands on 6–7."""

BANCA_DRAWS_WHEN_PUNTO_STOOD = frozenset(range(0, 6))
"""Tableau, PUNTO without a third card: BANCA draws on 0–5, stands on 6–7."""

BANCA_TABLEAU: dict[int, frozenset[int]] = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset(range(10)) - {8},
    4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)),
    6: frozenset({6, 7}),
    7: frozenset(),
}
"""Tableau, PUNTO drew a third card worth p: BANCA total → the values of p on which it draws."""


def points(card: Rank | int) -> int:
    """Art. 2 §1: A = 1, 2–9 face value, 10/J/Q/K = 0; an int is taken as points already."""
    if isinstance(card, Rank):
        return card.baccarat_points
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card <= 9:
        return card
    raise InputError(Msg.of("baccarat.invalid_card", card=repr(card)))


def total(cards: Sequence[Rank | int]) -> int:
    """Art. 6 §1: only the units digit of the sum counts."""
    return sum(points(c) for c in cards) % 10


def is_natural(two_card_total: int) -> bool:
    return two_card_total in NATURALS


def punto_draws(punto_total: int) -> bool:
    return punto_total in PUNTO_DRAWS_ON


def banca_draws(banca_total: int, punto_third: int | None) -> bool:
    """The tableau: ``punto_third`` is the points of PUNTO's third card, None if it stood."""
    if punto_third is None:
        return banca_total in BANCA_DRAWS_WHEN_PUNTO_STOOD
    return punto_third in BANCA_TABLEAU[banca_total]


def next_draw(punto_cards: Sequence[Rank | int], banca_cards: Sequence[Rank | int]) -> Hand | None:
    """Which hand the next card of the coup goes to, or None when the coup is complete.

    Art. 8 §3: the 1st and 3rd cards go to PUNTO, the 2nd and 4th to BANCA; then the
    third-card rules. Raises InputError for a card layout the rules cannot produce.
    """
    np_, nb = len(punto_cards), len(banca_cards)
    if np_ < 2 or nb < 2:
        return _first_four(punto_cards, banca_cards)
    pt, bt = total(punto_cards[:2]), total(banca_cards[:2])
    if is_natural(pt) or is_natural(bt):
        if np_ == 2 and nb == 2:
            return None
        _impossible(punto_cards, banca_cards)
    if np_ == 2 and punto_draws(pt):
        if nb == 2:
            return Hand.PUNTO
        _impossible(punto_cards, banca_cards)
    if np_ == 2:
        return _banca_third_card(bt, None, punto_cards, banca_cards)
    if np_ == 3 and punto_draws(pt):
        return _banca_third_card(bt, points(punto_cards[2]), punto_cards, banca_cards)
    _impossible(punto_cards, banca_cards)


def _first_four(punto_cards: Sequence[Rank | int], banca_cards: Sequence[Rank | int]) -> Hand:
    """Art. 8 §3: the first four cards alternate, PUNTO first."""
    if len(punto_cards) == len(banca_cards):
        return Hand.PUNTO
    if len(punto_cards) == len(banca_cards) + 1:
        return Hand.BANCA
    _impossible(punto_cards, banca_cards)


def _banca_third_card(banca_total: int, punto_third: int | None, punto_cards: Sequence[Rank | int],
                      banca_cards: Sequence[Rank | int]) -> Hand | None:
    """Tercera carta §2, once PUNTO has stood (``punto_third`` None) or drawn: BANCA's third
    card if the tableau gives one and it is not dealt yet; the coup is complete otherwise."""
    draws = banca_draws(banca_total, punto_third)
    if len(banca_cards) == 2:
        return Hand.BANCA if draws else None
    if len(banca_cards) == 3 and draws:
        return None
    _impossible(punto_cards, banca_cards)


def _impossible(punto_cards: Sequence[Rank | int], banca_cards: Sequence[Rank | int]) -> NoReturn:
    p = " ".join(card_label(c) for c in punto_cards) or "—"
    b = " ".join(card_label(c) for c in banca_cards) or "—"
    raise InputError(Msg.of("baccarat.impossible", punto=p, banca=b))


def card_label(card: Rank | int) -> str:
    """A card as the croupier reads it: its rank (``10``, not ``T``), or points as a number."""
    return card.label if isinstance(card, Rank) else str(card)


@record(slots=True)
class CoupResult:
    """A complete coup: the cards of each hand in dealing order and what they decide."""

    punto_cards: tuple[Rank | int, ...]
    banca_cards: tuple[Rank | int, ...]
    punto_total: int
    banca_total: int
    punto_drew: bool
    banca_drew: bool
    winner: Winner
    natural: bool
    """Either hand had 8 or 9 on its first two cards (Art. 6 §2)."""
    banca_six: bool
    """BANCA won with a total of 6: half pay under Art. 5 §2."""
    punto_pair: bool
    banca_pair: bool
    """The first two cards of the hand share a rank (a scoreboard count, never a payout)."""

    @property
    def cards_in_dealing_order(self) -> tuple[Rank | int, ...]:
        order = [self.punto_cards[0], self.banca_cards[0], self.punto_cards[1], self.banca_cards[1]]
        order += self.punto_cards[2:] + self.banca_cards[2:]
        return tuple(order)

    def to_dict(self) -> dict[str, Any]:
        return {
            "punto": [card_label(c) for c in self.punto_cards],
            "banca": [card_label(c) for c in self.banca_cards],
            "punto_total": self.punto_total,
            "banca_total": self.banca_total,
            "punto_drew": self.punto_drew,
            "banca_drew": self.banca_drew,
            "winner": self.winner.value,
            "natural": self.natural,
            "banca_six": self.banca_six,
            "punto_pair": self.punto_pair,
            "banca_pair": self.banca_pair,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CoupResult:
        """A result as ``to_dict`` journaled it, read as it was decided (not decided again)."""
        return cls(tuple(Rank.parse(c) for c in data["punto"]), tuple(Rank.parse(c) for c in data["banca"]),
                   data["punto_total"], data["banca_total"], data["punto_drew"], data["banca_drew"],
                   Winner(data["winner"]), data["natural"], data["banca_six"], data["punto_pair"], data["banca_pair"])


def cards_needed(cards: Sequence[Rank | int]) -> int:
    """How many cards the coup that starts with these cards takes (4, 5 or 6).

    Needs the cards up to PUNTO's third one when PUNTO draws; fewer cards give the
    smallest count still possible (4, or 5 while PUNTO's third card is unknown).
    """
    if len(cards) < 4:
        return 4
    pt = (points(cards[0]) + points(cards[2])) % 10
    bt = (points(cards[1]) + points(cards[3])) % 10
    if pt in NATURALS or bt in NATURALS:
        return 4
    if pt in PUNTO_DRAWS_ON:
        if len(cards) < 5:
            return 5
        return 6 if points(cards[4]) in BANCA_TABLEAU[bt] else 5
    return 5 if bt in BANCA_DRAWS_WHEN_PUNTO_STOOD else 4


def deal_order(cards: Sequence[Rank | int]) -> tuple[list[Rank | int], list[Rank | int]]:
    """Split cards in dealing order into the PUNTO and BANCA hands, by the rules.

    Raises InputError when a card is not called for or the coup is incomplete.
    """
    need = cards_needed(cards)
    if len(cards) > need:
        raise InputError(Msg.of("baccarat.card_not_called", position=need + 1, card=card_label(cards[need])))
    if len(cards) < need:
        raise InputError(Msg.of("baccarat.cards_missing", count=len(cards)))
    punto = [cards[0], cards[2]]
    banca = [cards[1], cards[3]]
    if need >= 5:
        # The fifth card is PUNTO's when PUNTO draws, else BANCA's (PUNTO stood).
        pt = (points(cards[0]) + points(cards[2])) % 10
        (punto if pt in PUNTO_DRAWS_ON else banca).append(cards[4])
    if need == 6:
        banca.append(cards[5])
    return punto, banca


def resolve_coup(cards_in_dealing_order: Sequence[Rank | int]) -> CoupResult:
    """The whole coup from its cards in dealing order (exactly the cards the rules call for)."""
    punto, banca = deal_order(cards_in_dealing_order)
    return _result(punto, banca)


def resolve_hands(punto: Sequence[Rank | int], banca: Sequence[Rank | int]) -> CoupResult:
    """The coup from the two finished hands (checked against the rules)."""
    p, b = list(punto), list(banca)
    missing = next_draw(p, b)
    if missing is not None:
        raise InputError(Msg.of("baccarat.incomplete_for", card=Msg.of(f"midi.ann_card_for_{missing.value}")))
    return _result(p, b)


def _result(p: list[Rank | int], b: list[Rank | int]) -> CoupResult:
    pt, bt = total(p), total(b)
    winner = Winner.PUNTO if pt > bt else Winner.BANCA if bt > pt else Winner.TIE
    return CoupResult(
        punto_cards=tuple(p),
        banca_cards=tuple(b),
        punto_total=pt,
        banca_total=bt,
        punto_drew=len(p) == 3,
        banca_drew=len(b) == 3,
        winner=winner,
        natural=is_natural(total(p[:2])) or is_natural(total(b[:2])),
        banca_six=winner is Winner.BANCA and bt == 6,
        punto_pair=p[0] == p[1],
        banca_pair=b[0] == b[1],
    )


# A journaled coup's result is its ``to_dict`` (the shape the journal has always held).
json_form(CoupResult, CoupResult.to_dict, CoupResult.from_dict)
