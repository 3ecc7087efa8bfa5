"""The events a Midi table journals: one frozen dataclass per type.

Each field is a key of the payload, under the same name and in the same JSON shape the
journal has always held (tests/data/midi-events-v1.sqlite3 is a journal of the engine before
the events were typed): old journals read as they stand and new rows hash as they did.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar

from shared.base_events import ReportItem, RoundClosed
from shared.engine import EntryUndone
from shared.events import EventBody, EventCodec
from shared.midi.payouts import BetKind
from shared.money import ZERO

JsonBets = dict[str, dict[str, str]]
"""Bets as journaled: spot (text) → bet kind → amount (text)."""


def _closed(lines: tuple[dict[str, Any], ...], game: str, round_id: int, croupier: str | None,
            voided: bool) -> RoundClosed:
    """The coup's settlement lines (one per bet) as its close."""
    staked = returned = paid = collected = rounding = ZERO
    for line in lines:
        stake = Decimal(line["stake"])
        if line["outcome"] == "void":
            returned += stake
            continue
        staked += stake
        if line["outcome"] == "win":
            paid += Decimal(line["paid"])
            # Rounding gave the player what the bet was paid above the regulated amount and
            # what it sent to the commission tally (journals before the tally have none).
            rounding += Decimal(line["paid"]) - Decimal(line.get("commission", "0")) - Decimal(line["exact"])
        elif line["outcome"] == "lose":
            collected += stake
    return RoundClosed(game, round_id, croupier, voided, False, staked, returned, paid, collected, rounding)


@dataclass(frozen=True)
class ShoeOpened(EventBody):
    """Art. 8 §1: a new shoe; ``order`` is the training shoe's card texts run together."""

    type: ClassVar[str] = "shoe_opened"
    shoe: int
    decks: int
    size: int
    order: str | None


@dataclass(frozen=True)
class CardBody(EventBody):
    """A card out of the shoe: to what it is called for, its rank and suit (as keyed: the suit is
    optional), and its ``source``: "keyed" by the croupier or "dealt" by the training console."""

    to: str
    rank: str
    suit: str | None
    source: str


@dataclass(frozen=True)
class BurnCard(CardBody):
    """Art. 8 §2: the first card of the shoe, exposed."""

    type: ClassVar[str] = "burn_card"


@dataclass(frozen=True)
class Burned(EventBody):
    """Art. 8 §2: the cards the burn card is worth go to the discard (their texts: training)."""

    type: ClassVar[str] = "burned"
    count: int
    cards: tuple[str, ...] | None


@dataclass(frozen=True)
class BetPlaced(EventBody):
    type: ClassVar[str] = "bet_placed"
    spot: int
    kind: BetKind
    amount: Decimal
    previous: Decimal


@dataclass(frozen=True)
class BetRemoved(EventBody):
    type: ClassVar[str] = "bet_removed"
    spot: int
    kind: BetKind
    previous: Decimal


@dataclass(frozen=True)
class BetsRepeated(EventBody):
    type: ClassVar[str] = "bets_repeated"
    bets: JsonBets


@dataclass(frozen=True)
class NoVaMas(EventBody):
    """Art. 8 §3, Art. 9 §1: bets close."""

    type: ClassVar[str] = "no_va_mas"
    bets: JsonBets
    sabot_holder: int | None
    reveal_box: int | None


@dataclass(frozen=True)
class CardDealt(CardBody):
    """A card of the coup, to the hand the rules call it for (Art. 6, Art. 8 §3–5)."""

    type: ClassVar[str] = "card"


@dataclass(frozen=True)
class CutCardSeen(EventBody):
    """Art. 8 §1: the cut card came out before the count said (live)."""

    type: ClassVar[str] = "cut_card_seen"
    dealt: int
    size: int


@dataclass(frozen=True)
class CardCorrected(EventBody):
    """Supervisor: the coup's card ``index`` (0 = first) replaced."""

    type: ClassVar[str] = "card_corrected"
    index: int
    old: str
    new: str
    reason: str

    def reported(self) -> ReportItem:
        return ReportItem(arbitration=True)


@dataclass(frozen=True)
class CoupSettled(EventBody):
    """Art. 8 §6: the coup's result, its cards and every bet's settlement line."""

    type: ClassVar[str] = "coup_settled"
    result: dict[str, Any]
    cards: tuple[str, ...]
    lines: tuple[dict[str, Any], ...]

    def round_closed(self, game: str, round_id: int, croupier: str | None) -> RoundClosed:
        return _closed(self.lines, game, round_id, croupier, voided=False)


@dataclass(frozen=True)
class CoupVoided(EventBody):
    """Art. 9 §3: the coup is NULO, every bet returned; ``cause`` says which command."""

    type: ClassVar[str] = "coup_voided"
    reason: str
    cause: str
    cards: tuple[str, ...]
    lines: tuple[dict[str, Any], ...]

    def round_closed(self, game: str, round_id: int, croupier: str | None) -> RoundClosed:
        return _closed(self.lines, game, round_id, croupier, voided=True)


@dataclass(frozen=True)
class ShoeEnded(EventBody):
    """The shoe is over: "cut" (Art. 8 §1), "exhausted" (Art. 9 §3) or "supervisor" (with a note)."""

    type: ClassVar[str] = "shoe_ended"
    reason: str
    note: str | None = None

    def to_payload(self) -> dict[str, Any]:
        # Only the supervisor's ending has a note: the other rows never had the key.
        payload = super().to_payload()
        if self.note is None:
            del payload["note"]
        return payload

    def reported(self) -> ReportItem:
        # Only the supervisor's ending is a ruling; a cut card or an empty sabot is the game.
        return ReportItem(arbitration=self.reason == "supervisor")


@dataclass(frozen=True)
class SabotAssigned(EventBody):
    type: ClassVar[str] = "sabot_assigned"
    box: int


@dataclass(frozen=True)
class SabotPassed(EventBody):
    """Art. 9 §4: the sabot leaves ``from_`` for ``to`` (None: the croupier deals)."""

    type: ClassVar[str] = "sabot_passed"
    from_: int | None
    to: int | None

    def to_payload(self) -> dict[str, Any]:
        return {"from": self.from_, "to": self.to}

    @classmethod
    def from_payload(cls, payload: Any) -> SabotPassed:
        return cls(payload["from"], payload["to"])


@dataclass(frozen=True)
class CommissionCollected(EventBody):
    """Art. 5 §3: each box's tally and what was collected (rounded down to the chip)."""

    type: ClassVar[str] = "commission_collected"
    boxes: dict[str, dict[str, str]]

    def reported(self) -> ReportItem:
        """The chips collected, and what rounding the tallies down to the chip gave the players."""
        collected = sum((Decimal(box["collected"]) for box in self.boxes.values()), ZERO)
        return ReportItem(commission=collected,
                          rounding=sum((Decimal(box["tally"]) for box in self.boxes.values()), ZERO) - collected)


@dataclass(frozen=True)
class SupervisorDeals(EventBody):
    """Art. 9 §5: the supervisor deals in the holder's place."""

    type: ClassVar[str] = "supervisor_deals"
    holder: int | None
    reason: str

    def reported(self) -> ReportItem:
        return ReportItem(arbitration=True)


MIDI_CODEC = EventCodec(
    ShoeOpened, BurnCard, Burned, BetPlaced, BetRemoved, BetsRepeated, NoVaMas, CardDealt, CutCardSeen, EntryUndone,
    CardCorrected, CoupSettled, CoupVoided, ShoeEnded, SabotAssigned, SabotPassed, CommissionCollected, SupervisorDeals,
)
