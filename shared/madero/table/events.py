"""The events a Madero table journals: one frozen dataclass each, fields = the payload's keys.

Every body has the exact keys and JSON shapes the journal has held since before the events
were typed (``tests/data/madero-journal-v1.json`` is such a journal), so an old journal
decodes as it stands and a new row hashes as it always did. Cards are kept as journaled
(``"AS"``, ``"10h"`` → ``Card.parse``); amounts are Decimals written as their text.

The few events whose payload leaves a key out rather than writing it empty say so with
``OMITTED_WHEN_NONE``: a key listed there is written only when it has a value.

Each event says itself in the croupier's words for the recall screen and the table's log
(``recall()``, a catalog message of the ``[madero]`` section).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import field
from decimal import Decimal
from typing import Any, ClassVar

from shared.base_events import ReportItem, RoundClosed
from shared.cards import Card
from shared.engine import EntryUndone
from shared.events import EventBody, EventCodec, event_body
from shared.madero.settlement import Bet, SettlementRecord, upcast_record
from shared.messages import Joined, Money, Msg
from shared.money import ZERO


class MaderoEvent(EventBody, ABC):
    """A Madero event; ``OMITTED_WHEN_NONE`` names the keys written only when set."""

    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset()

    def to_payload(self) -> dict[str, Any]:
        return {k: v for k, v in super().to_payload().items() if v is not None or k not in self.OMITTED_WHEN_NONE}

    @abstractmethod
    def recall(self) -> Msg:
        """The entry in the croupier's words."""


def shown(cards: Iterable[str]) -> str:
    """Journaled cards as the screens show them (A♠ 10♥), or «—» for none."""
    return " ".join(Card.parse(c).display for c in cards) or "—"


def bet_name(bet: Bet | str) -> Msg:
    return Msg.of(f"madero.bet_{Bet(bet).value}")


STREET_BET = {1: Bet.FLOP, 2: Bet.TURN, 3: Bet.RIVER}
"""The bet of each betting round (Art. 8 §26–28)."""


def _closed(settlement: SettlementRecord, game: str, round_id: int, croupier: str | None, *, voided: bool,
            arbitrated: bool = False) -> RoundClosed:
    """A journaled settlement's totals as the round's close: a voided round returns every
    stake; a box voided for collusion (§69) gets its bets back like a voided round."""
    totals = settlement.totals
    returned = totals.staked if voided else settlement.voided_stakes
    # The meter's shares paid in whole chips above the exact ones are the house's (issue 28 §2).
    rounding = settlement.meter.rounding if settlement.meter else ZERO
    return RoundClosed(game, round_id, croupier, voided, arbitrated, totals.staked - returned, returned,
                       totals.paid, totals.collected, rounding)


class RoundClose(MaderoEvent, ABC):
    """A round's close with its settlement; version 2: the settlement's words are message
    codes, not Spanish and English words."""

    version: ClassVar[int] = 2

    @classmethod
    def upcast(cls, payload: dict[str, Any], version: int) -> dict[str, Any]:
        """Version 1: the settlement's words in Spanish and English (``upcast_record``)."""
        return payload | {"settlement": upcast_record(payload["settlement"])}


@event_body
class RoundStarted(MaderoEvent):
    """The first bet of a round opens it, with the deck it is dealt from (Art. 2 §7)."""

    type: ClassVar[str] = "round_started"
    round: int
    deck: str

    def recall(self) -> Msg:
        return Msg.of("madero.ev_round_started", number=self.round, deck=self.deck)


@event_body
class BetPlaced(MaderoEvent):
    """A box's bet set (0 removes it); a Jackpot ``amount`` is in credits (Art. 6–7, §42, §61)."""

    type: ClassVar[str] = "bet_placed"
    box: int
    bet: Bet
    amount: Decimal

    def recall(self) -> Msg:
        amount = Msg.of("madero.credits", n=int(self.amount)) if self.bet is Bet.JACKPOT else self.amount
        return Msg.of("madero.ev_bet_placed", box=self.box, bet=bet_name(self.bet), amount=amount)


@event_body
class BetsClosed(MaderoEvent):
    """«No va más» (Art. 7 §24): a progressive table's draws (§56–57); a training table's deal."""

    type: ClassVar[str] = "bets_closed"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"carta_magica", "jugador_afortunado", "hole_cards",
                                                             "bank"})
    carta_magica: str | None = None
    jugador_afortunado: int | None = None
    hole_cards: dict[str, tuple[str, ...]] | None = None
    bank: tuple[str, ...] | None = None

    def recall(self) -> Msg:
        if self.carta_magica is None:
            return Msg.of("madero.ev_bets_closed")
        return Msg.of("madero.ev_bets_closed_drawn", card=shown([self.carta_magica]), box=self.jugador_afortunado)


@event_body
class Decision(MaderoEvent):
    """A box's decision in betting round 1–3: voy/fold (§26), bet/check (§27–28)."""

    type: ClassVar[str] = "decision"
    box: int
    round: int
    action: str
    amount: Decimal

    def recall(self) -> Msg:
        what = Msg.of(f"madero.ev_{self.action}", bet=bet_name(STREET_BET[self.round]))
        if self.amount:
            return Msg.of("madero.ev_decision_amount", box=self.box, what=what, amount=self.amount)
        return Msg.of("madero.ev_decision", box=self.box, what=what)


@event_body
class CardKeyed(MaderoEvent):
    """A live card as turned: ``target`` is "board", "bank" or "box" (then ``box``) (§27–30)."""

    type: ClassVar[str] = "card_keyed"
    card: str
    target: str
    box: int | None

    def recall(self) -> Msg:
        where = Msg.of("madero.ev_to_box", box=self.box) if self.target == "box" else Msg.of(f"madero.ev_to_{self.target}")
        return Msg.of("madero.ev_card", card=shown([self.card]), where=where)


@event_body
class CommunityDealt(MaderoEvent):
    """Training: a street burnt and dealt by the console (§27–29, §39.5)."""

    type: ClassVar[str] = "community_dealt"
    street: str
    burn: tuple[str, ...]
    cards: tuple[str, ...]

    def recall(self) -> Msg:
        return Msg.of("madero.ev_dealt", cards=shown(self.cards), burns=shown(self.burn))


@event_body
class RoundSettled(RoundClose):
    """The croupier confirmed the settlement (§36), with the meter reading it was computed from."""

    type: ClassVar[str] = "round_settled"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"meter_ref", "fallback"})
    meter: dict[str, Any] | None
    settlement: SettlementRecord
    meter_ref: str | None = None
    fallback: dict[str, str] | None = None
    """A progressive round settled on the fixed paytable of §48 because the meter could not be
    used: ``reason`` (the server's error, no password) and ``contribution``, the share of its
    Jackpot bets (§51) the table still owes the meter and delivers when it can."""

    def recall(self) -> Msg:
        totals = self.settlement.totals
        # «devolvió»: the stakes of tied bets, as on the settlement screen (the journal's
        # "returned" also counts the stakes winning bets keep).
        code = "madero.ev_settled" if self.fallback is None else "carrusel.ev_settled_on_48"
        return Msg.of(code, paid=totals.paid, collected=totals.collected, returned=self.settlement.pushed)

    def round_closed(self, game: str, round_id: int, croupier: str | None) -> RoundClosed:
        return _closed(self.settlement, game, round_id, croupier, voided=False)


@event_body
class PrizeClaimed(MaderoEvent):
    """A meter prize (a royal, a straight flush) is being claimed from the meter store under
    ``meter_ref`` (Art. 11 §52–§53, §58): journaled before the store is asked, because from
    then on the store may hold its debit. The round can then only be settled (on the store's
    answer, asked again with the same key until it comes, or on §48's fixed paytable)."""

    type: ClassVar[str] = "prize_claimed"
    meter_ref: str

    def recall(self) -> Msg:
        return Msg.of("carrusel.ev_prize_claimed")


@event_body
class PrizeAnswered(MaderoEvent):
    """The meter store's answer to the round's prize claim, journaled before the settlement is
    shown (issue 27 §1): ``meter``, the reading the store valued and debited the prize on
    (the settlement is computed from it), or ``fallback``, why the store could not be reached
    (the round is shown and settled on the fixed paytable of §48). The croupier pays what the
    screen shows from then on, so a restart shows the same."""

    type: ClassVar[str] = "prize_answered"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"meter", "fallback"})
    meter_ref: str
    meter: dict[str, Any] | None = None
    fallback: str | None = None

    def recall(self) -> Msg:
        if self.fallback is not None:
            return Msg.of("carrusel.ev_prize_on_48", reason=self.fallback)
        return Msg.of("carrusel.ev_prize_answered", jackpot=Decimal(str((self.meter or {}).get("linked_total", 0))))


@event_body
class CarruselChanged(MaderoEvent):
    """A supervisor moved the table's meter (issue 27 §4): to another Carrusel (``to``; the
    table's own id is a Carrusel of its own, so leaving one is a move to it) or to another
    seed, as recorded on the server. ``kept``: the meter's ``value`` went with the table
    (``carried``) or what it held above its seed stayed with the Carrusel it left (``left``)."""

    type: ClassVar[str] = "carrusel_changed"
    source: str
    to: str
    from_seed: str
    to_seed: str
    value: str
    kept: str
    reason: str

    def recall(self) -> Msg:
        return Msg.of(f"carrusel.ev_changed_{self.kept}", source=self.source, to=self.to,
                      from_seed=Decimal(self.from_seed), to_seed=Decimal(self.to_seed), value=Decimal(self.value),
                      reason=self.reason)


@event_body
class RoundVoided(RoundClose):
    """The round voided, every bet returned (§37, §70; §73 arbitration by two supervisors)."""

    type: ClassVar[str] = "round_voided"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"arbitration", "second_supervisor"})
    kind: str
    article: str
    reason: str
    settlement: SettlementRecord
    arbitration: bool | None = None
    second_supervisor: str | None = None

    def recall(self) -> Msg:
        if self.arbitration:
            return Msg.of("madero.ev_arbitrated", article=self.article, second=self.second_supervisor,
                          reason=self.reason)
        return Msg.of("madero.ev_voided", article=self.article, reason=self.reason)

    def round_closed(self, game: str, round_id: int, croupier: str | None) -> RoundClosed:
        return _closed(self.settlement, game, round_id, croupier, voided=True, arbitrated=bool(self.arbitration))


@event_body
class DeadHand(MaderoEvent):
    """An irregular hand once betting began: the box is out, its bets lost (§38)."""

    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"second_supervisor"})
    type: ClassVar[str] = "dead_hand"
    box: int
    article: str
    reason: str
    second_supervisor: str | None = None
    """Once the result is known, the second supervisor who signed too (two-person control)."""

    def recall(self) -> Msg:
        return Msg.of("madero.ev_dead_hand", box=self.box, article=self.article, reason=self.reason)

    def reported(self) -> ReportItem:
        return ReportItem(dead_hand=True)


@event_body
class Collusion(MaderoEvent):
    """Players exchanged information: the hand is void, its bets returned (§69)."""

    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"second_supervisor"})
    type: ClassVar[str] = "collusion"
    box: int
    article: str
    reason: str
    second_supervisor: str | None = None
    """Once the result is known, the second supervisor who signed too (two-person control)."""

    def recall(self) -> Msg:
        return Msg.of("madero.ev_collusion", box=self.box, article=self.article, reason=self.reason)

    def reported(self) -> ReportItem:
        return ReportItem(correction=True)


@event_body
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

    def recall(self) -> Msg:
        if self.reordered is not None:
            return Msg.of(f"madero.ev_flop_reordered_{self.reordered}", article=self.article, reason=self.reason)
        redealt = Msg.of("madero.ev_community", article=self.article, cards=shown(self.removed + self.exposed),
                         reason=self.reason)
        returned = self.returned_bets()
        return redealt if returned is None else Msg.of("madero.ev_community_returned", redealt=redealt, returned=returned)

    def returned_bets(self) -> Msg | None:
        """The bets made since the faulty street that the croupier hands back (§39.3), box by box."""
        if not self.returned or self.reopened_round is None:
            return None
        boxes = Joined(tuple(Msg.of("madero.box_amount", box=box, amount=Money(Decimal(amount)))
                             for box, amount in sorted(self.returned.items(), key=lambda item: int(item[0]))), ", ")
        return Msg.of("madero.return_bets", bet="Turn" if self.reopened_round == 2 else "River", boxes=boxes)

    def reported(self) -> ReportItem:
        return ReportItem(correction=True)


@event_body
class CardCorrected(MaderoEvent):
    """A mis-keyed card replaced by the right one (a correcting entry)."""

    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"second_supervisor"})
    type: ClassVar[str] = "card_corrected"
    old: str
    new: str
    reason: str
    second_supervisor: str | None = None
    """Once the result is known, the second supervisor who signed too (two-person control)."""

    def recall(self) -> Msg:
        return Msg.of("madero.ev_corrected", old=shown([self.old]), new=shown([self.new]), reason=self.reason)

    def reported(self) -> ReportItem:
        return ReportItem(correction=True)


@event_body
class Adjustment(MaderoEvent):
    """A supervisor's correcting payment (positive: paid to the box; negative: collected) (§73)."""

    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"second_supervisor"})
    type: ClassVar[str] = "adjustment"
    box: int
    amount: Decimal
    article: str
    round: int
    reason: str
    second_supervisor: str | None = None
    """Once the result is known, the second supervisor who signed too (two-person control)."""

    def recall(self) -> Msg:
        code = "madero.ev_adjustment_paid" if self.amount > 0 else "madero.ev_adjustment_collected"
        return Msg.of(code, box=self.box, amount=abs(self.amount), article=self.article, reason=self.reason)

    def reported(self) -> ReportItem:
        return ReportItem(adjusted=self.amount)


@event_body
class BoxesGrouped(MaderoEvent):
    """One player plays ``boxes`` and looks only at ``seeing``'s cards (§72)."""

    type: ClassVar[str] = "boxes_grouped"
    boxes: tuple[int, ...]
    seeing: int

    def recall(self) -> Msg:
        return Msg.of("madero.ev_grouped", boxes=", ".join(map(str, self.boxes)), seeing=self.seeing)


CODEC = EventCodec(RoundStarted, BetPlaced, BetsClosed, Decision, CardKeyed, CommunityDealt, EntryUndone,
                   RoundSettled, RoundVoided, DeadHand, Collusion, CommunityError, CardCorrected, Adjustment,
                   BoxesGrouped, PrizeClaimed, PrizeAnswered, CarruselChanged)
"""Every event type a Madero table journals besides the base's (shifts, staff, tray, config)."""

ROUND_EVENTS: frozenset[type[EventBody]] = frozenset({BetPlaced, BetsClosed, Decision, CardKeyed, CommunityDealt,
                                                      DeadHand, Collusion, CommunityError, CardCorrected,
                                                      PrizeClaimed, PrizeAnswered})
"""The open round's own entries: kept in its log and folded again after an undo."""

UNDOABLE: frozenset[type[EventBody]] = frozenset({BetPlaced, Decision, CardKeyed})
"""What the croupier may take back: the last bet, decision or keyed card of the round."""




def recall(body: EventBody) -> Msg:
    """A Madero journal entry in the croupier's words (an undo, the base's event, included)."""
    if isinstance(body, EntryUndone):
        return Msg.of("madero.ev_undone", seq=body.seq)
    assert isinstance(body, MaderoEvent)
    return body.recall()
