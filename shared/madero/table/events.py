"""The events a Madero table journals: one frozen dataclass each, fields = the payload's keys.

Every body has the exact keys and JSON shapes the journal has held since before the events
were typed (``tests/data/madero-journal-v1.json`` is such a journal), so an old journal
decodes as it stands and a new row hashes as it always did. Cards are kept as journaled
(``"AS"``, ``"10h"`` → ``Card.parse``); amounts are Decimals written as their text.

The few events whose payload leaves a key out rather than writing it empty say so with
``OMITTED_WHEN_NONE``: a key listed there is written only when it has a value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ClassVar

from shared.engine import EntryUndone
from shared.events import EventBody, EventCodec
from shared.madero.settlement import Bet


class MaderoEvent(EventBody):
    """A Madero event; ``OMITTED_WHEN_NONE`` names the keys written only when set."""

    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset()

    def to_payload(self) -> dict[str, Any]:
        return {k: v for k, v in super().to_payload().items() if v is not None or k not in self.OMITTED_WHEN_NONE}


@dataclass(frozen=True)
class RoundStarted(MaderoEvent):
    """The first bet of a round opens it, with the deck it is dealt from (Art. 2 §7)."""

    type: ClassVar[str] = "round_started"
    round: int
    deck: str


@dataclass(frozen=True)
class BetPlaced(MaderoEvent):
    """A box's bet set (0 removes it); a Jackpot ``amount`` is in credits (Art. 6–7, §42, §61)."""

    type: ClassVar[str] = "bet_placed"
    box: int
    bet: Bet
    amount: Decimal


@dataclass(frozen=True)
class BetsClosed(MaderoEvent):
    """«No va más» (Art. 7 §24): a progressive table's draws (§56–57); a training table's deal."""

    type: ClassVar[str] = "bets_closed"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"carta_magica", "jugador_afortunado", "hole_cards",
                                                             "bank"})
    carta_magica: str | None = None
    jugador_afortunado: int | None = None
    hole_cards: dict[str, tuple[str, ...]] | None = None
    bank: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Decision(MaderoEvent):
    """A box's decision in betting round 1–3: voy/fold (§26), bet/check (§27–28)."""

    type: ClassVar[str] = "decision"
    box: int
    round: int
    action: str
    amount: Decimal


@dataclass(frozen=True)
class CardKeyed(MaderoEvent):
    """A live card as turned: ``target`` is "board", "bank" or "box" (then ``box``) (§27–30)."""

    type: ClassVar[str] = "card_keyed"
    card: str
    target: str
    box: int | None


@dataclass(frozen=True)
class CommunityDealt(MaderoEvent):
    """Training: a street burnt and dealt by the console (§27–29, §39.5)."""

    type: ClassVar[str] = "community_dealt"
    street: str
    burn: tuple[str, ...]
    cards: tuple[str, ...]


@dataclass(frozen=True)
class RoundSettled(MaderoEvent):
    """The croupier confirmed the settlement (§36), with the meter reading it was computed from."""

    type: ClassVar[str] = "round_settled"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"meter_ref"})
    meter: dict[str, Any] | None
    settlement: dict[str, Any]
    meter_ref: str | None = None


@dataclass(frozen=True)
class RoundVoided(MaderoEvent):
    """The round voided, every bet returned (§37, §70; §73 arbitration by two supervisors)."""

    type: ClassVar[str] = "round_voided"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"arbitration", "second_supervisor"})
    kind: str
    article: str
    reason: str
    settlement: dict[str, Any]
    arbitration: bool | None = None
    second_supervisor: str | None = None


@dataclass(frozen=True)
class DeadHand(MaderoEvent):
    """An irregular hand once betting began: the box is out, its bets lost (§38)."""

    type: ClassVar[str] = "dead_hand"
    box: int
    article: str
    reason: str


@dataclass(frozen=True)
class Collusion(MaderoEvent):
    """Players exchanged information: the hand is void, its bets returned (§69)."""

    type: ClassVar[str] = "collusion"
    box: int
    article: str
    reason: str


@dataclass(frozen=True)
class CommunityError(MaderoEvent):
    """A community-card error of §39. Two shapes: a street dealt again (``street`` … ``returned``),
    or a flop put in order before it was turned (``reordered``: the burns made, §39.2)."""

    type: ClassVar[str] = "community_error"
    case: str
    article: str
    reason: str
    street: str | None = None
    removed: tuple[str, ...] = ()
    exposed: tuple[str, ...] = ()
    reopened_round: int | None = None
    returned: dict[str, Decimal] = field(default_factory=dict)
    reordered: int | None = None

    def to_payload(self) -> dict[str, Any]:
        payload = super().to_payload()
        if self.reordered is not None:
            return {k: payload[k] for k in ("case", "article", "reordered", "reason")}
        del payload["reordered"]
        return payload


@dataclass(frozen=True)
class CardCorrected(MaderoEvent):
    """A mis-keyed card replaced by the right one (a correcting entry)."""

    type: ClassVar[str] = "card_corrected"
    old: str
    new: str
    reason: str


@dataclass(frozen=True)
class Adjustment(MaderoEvent):
    """A supervisor's correcting payment (positive: paid to the box; negative: collected) (§73)."""

    type: ClassVar[str] = "adjustment"
    box: int
    amount: Decimal
    article: str
    round: int
    reason: str


@dataclass(frozen=True)
class BoxesGrouped(MaderoEvent):
    """One player plays ``boxes`` and looks only at ``seeing``'s cards (§72)."""

    type: ClassVar[str] = "boxes_grouped"
    boxes: tuple[int, ...]
    seeing: int


CODEC = EventCodec(RoundStarted, BetPlaced, BetsClosed, Decision, CardKeyed, CommunityDealt, EntryUndone,
                   RoundSettled, RoundVoided, DeadHand, Collusion, CommunityError, CardCorrected, Adjustment,
                   BoxesGrouped)
"""Every event type a Madero table journals besides the base's (shifts, staff, tray, config)."""

ROUND_EVENTS: frozenset[type[EventBody]] = frozenset({BetPlaced, BetsClosed, Decision, CardKeyed, CommunityDealt,
                                                      DeadHand, Collusion, CommunityError, CardCorrected})
"""The open round's own entries: kept in its log and folded again after an undo."""

UNDOABLE: frozenset[type[EventBody]] = frozenset({BetPlaced, Decision, CardKeyed})
"""What the croupier may take back: the last bet, decision or keyed card of the round."""


