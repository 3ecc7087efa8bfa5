"""The events a Midi table journals: one frozen dataclass per type.

Each field is a key of the payload, under the same name and in the same JSON shape the
journal has always held (tests/data/midi-events-v1.sqlite3 is a journal of the engine before
the events were typed): old journals read as they stand and new rows hash as they did.

Each event says itself in the croupier's words for the journal's F3 screen and ``journal
recall`` (``recall(config)``, a catalog message of the ``[midi]`` section): the table's
config, because a settlement is announced as the table pays BANCA (Art. 5 §2–3).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from decimal import Decimal
from typing import Any, ClassVar

from shared.baccarat import CoupResult
from shared.base_events import ReportItem, RoundClosed
from shared.cards import Rank
from shared.engine import EntryUndone
from shared.events import EventBody, EventCodec, event_body
from shared.messages import Joined, Localized, Money, Msg, Plain
from shared.midi.config import MidiTableConfig
from shared.midi.payouts import BET_LABEL, BetKind, Outcome, SettlementLine, upcast_line
from shared.midi.table.result_words import joined, result_announcements
from shared.money import ZERO

JsonBets = dict[str, dict[str, str]]
"""Bets as journaled: spot (text) → bet kind → amount (text)."""

HAND = {"punto": "PUNTO", "banca": "BANCA", "burn": "quema"}


class MidiEvent(EventBody, ABC):
    """A Midi event; ``OMITTED_WHEN_NONE`` names the keys written only when set."""

    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset()

    def to_payload(self) -> dict[str, Any]:
        return {k: v for k, v in super().to_payload().items() if v is not None or k not in self.OMITTED_WHEN_NONE}

    @abstractmethod
    def recall(self, config: MidiTableConfig) -> Msg:
        """The entry in the croupier's words, at a table of ``config``."""


def _bets(bets: JsonBets) -> Localized:
    """«1:BANCA 1.500, 2:TIE 20»: each amount written as the reader's language writes it."""
    items = tuple(Joined((Plain(f"{spot}:{BET_LABEL[BetKind(kind)]}"), Money(Decimal(amount))), " ")
                  for spot, kinds in bets.items() for kind, amount in kinds.items())
    return Joined(items, ", ") if items else Plain("—")


def _card(rank: str, suit: str | None) -> str:
    return Rank.parse(rank).label + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}.get(suit or "", "")


def _joined_list(msgs: list[Msg]) -> Msg:
    """Several messages separated by commas."""
    if len(msgs) == 1:
        return msgs[0]
    return Msg.of("midi.rc_comma", head=msgs[0], tail=_joined_list(msgs[1:]))


def _closed(lines: tuple[SettlementLine, ...], game: str, round_id: int, croupier: str | None,
            voided: bool, arbitrated: bool = False) -> RoundClosed:
    """The coup's settlement lines (one per bet) as its close."""
    staked = returned = paid = collected = rounding = ZERO
    for line in lines:
        if line.outcome is Outcome.VOID:
            returned += line.stake
            continue
        staked += line.stake
        if line.outcome is Outcome.WIN:
            paid += line.paid
            # Rounding gave the player what the bet was paid above the regulated amount and
            # what it sent to the commission tally (journals before the tally have none).
            rounding += line.paid - line.commission - line.exact
        elif line.outcome is Outcome.LOSE:
            collected += line.stake
    return RoundClosed(game, round_id, croupier, voided, arbitrated, staked, returned, paid, collected, rounding)


@event_body
class ShoeOpened(MidiEvent):
    """Art. 8 §1: a new shoe; ``order`` is the training shoe's card texts run together."""

    type: ClassVar[str] = "shoe_opened"
    shoe: int
    decks: int
    size: int
    order: str | None

    def recall(self, config: MidiTableConfig) -> Msg:
        return Msg.of("midi.rc_shoe", shoe=self.shoe, decks=self.decks, size=self.size)


@event_body
class CardBody(MidiEvent):
    """A card out of the shoe: to what it is called for, its rank and suit (as keyed: the suit is
    optional), and its ``source``: "keyed" by the croupier or "dealt" by the training console."""

    to: str
    rank: str
    suit: str | None
    source: str


@event_body
class BurnCard(CardBody):
    """Art. 8 §2: the first card of the shoe, exposed."""

    type: ClassVar[str] = "burn_card"

    def recall(self, config: MidiTableConfig) -> Msg:
        return Msg.of("midi.rc_burn_card", card=_card(self.rank, self.suit))


@event_body
class Burned(MidiEvent):
    """Art. 8 §2: the cards the burn card is worth go to the discard (their texts: training)."""

    type: ClassVar[str] = "burned"
    count: int
    cards: tuple[str, ...] | None

    def recall(self, config: MidiTableConfig) -> Msg:
        return Msg.of("midi.rc_burned", count=self.count)


@event_body
class BetPlaced(MidiEvent):
    type: ClassVar[str] = "bet_placed"
    spot: int
    kind: BetKind
    amount: Decimal
    previous: Decimal

    def recall(self, config: MidiTableConfig) -> Msg:
        return Msg.of("midi.rc_bet", box=self.spot, bet=BET_LABEL[self.kind], amount=self.amount,
                      previous=self.previous)


@event_body
class BetRemoved(MidiEvent):
    type: ClassVar[str] = "bet_removed"
    spot: int
    kind: BetKind
    previous: Decimal

    def recall(self, config: MidiTableConfig) -> Msg:
        return Msg.of("midi.rc_bet_removed", box=self.spot, bet=BET_LABEL[self.kind], amount=self.previous)


@event_body
class BetsRepeated(MidiEvent):
    type: ClassVar[str] = "bets_repeated"
    bets: JsonBets

    def recall(self, config: MidiTableConfig) -> Msg:
        return Msg.of("midi.rc_repeated", bets=_bets(self.bets))


@event_body
class NoVaMas(MidiEvent):
    """Art. 8 §3, Art. 9 §1: bets close."""

    type: ClassVar[str] = "no_va_mas"
    bets: JsonBets
    sabot_holder: int | None
    reveal_box: int | None

    def recall(self, config: MidiTableConfig) -> Msg:
        return Msg.of("midi.rc_no_va_mas", bets=_bets(self.bets))


@event_body
class CardDealt(CardBody):
    """A card of the coup, to the hand the rules call it for (Art. 6, Art. 8 §3–5)."""

    type: ClassVar[str] = "card"

    def recall(self, config: MidiTableConfig) -> Msg:
        return Msg.of("midi.rc_card", card=_card(self.rank, self.suit), hand=HAND.get(self.to, self.to))


@event_body
class CutCardSeen(MidiEvent):
    """Art. 8 §1: the cut card came out before the count said (live)."""

    type: ClassVar[str] = "cut_card_seen"
    dealt: int
    size: int

    def recall(self, config: MidiTableConfig) -> Msg:
        return Msg.of("midi.rc_cut_card", dealt=self.dealt)


@event_body
class CardCorrected(MidiEvent):
    """Supervisor: the coup's card ``index`` (0 = first) replaced."""

    type: ClassVar[str] = "card_corrected"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"second_supervisor"})
    index: int
    old: str
    new: str
    reason: str
    second_supervisor: str | None = None
    """With the coup's result known, the second supervisor who signed too (two-person control)."""

    def reported(self) -> ReportItem:
        return ReportItem(correction=True)

    def recall(self, config: MidiTableConfig) -> Msg:
        return Msg.of("midi.rc_corrected", n=self.index + 1, old=self.old, new=self.new, reason=self.reason)


class CoupClose(MidiEvent, ABC):
    """A coup's close with its settlement lines; version 2: the lines' reasons are message
    codes, not words."""

    version: ClassVar[int] = 2

    @classmethod
    def upcast(cls, payload: dict[str, Any], version: int) -> dict[str, Any]:
        """Version 1: each line's reason in Spanish and English words (``upcast_line``)."""
        return payload | {"lines": [upcast_line(line) for line in payload["lines"]]}


@event_body
class CoupSettled(CoupClose):
    """Art. 8 §6: the coup's result, its cards and every bet's settlement line."""

    type: ClassVar[str] = "coup_settled"
    result: CoupResult
    cards: tuple[str, ...]
    lines: tuple[SettlementLine, ...]

    def round_closed(self, game: str, round_id: int, croupier: str | None) -> RoundClosed:
        return _closed(self.lines, game, round_id, croupier, voided=False)

    def recall(self, config: MidiTableConfig) -> Msg:
        said = joined([Msg.of("midi.rc_quoted", text=a) for a in result_announcements(self.result, config)])
        # The cards as the panels show them (10♠ K♥), not as journaled (Ts Kh).
        cards = " ".join(_card(card[0], card[1:] or None) for card in self.cards)
        return Msg.of("midi.rc_settled", cards=cards, said=said)


@event_body
class CoupVoided(CoupClose):
    """Art. 9 §3: the coup is NULO, every bet returned; ``cause`` says which command."""

    type: ClassVar[str] = "coup_voided"
    OMITTED_WHEN_NONE: ClassVar[frozenset[str]] = frozenset({"second_supervisor"})
    reason: str
    cause: str
    cards: tuple[str, ...]
    lines: tuple[SettlementLine, ...]
    second_supervisor: str | None = None
    """A NULO other than the empty sabot's: the second supervisor who signed it (flagged in the report)."""

    def round_closed(self, game: str, round_id: int, croupier: str | None) -> RoundClosed:
        return _closed(self.lines, game, round_id, croupier, voided=True, arbitrated=self.second_supervisor is not None)

    def recall(self, config: MidiTableConfig) -> Msg:
        return Msg.of("midi.rc_voided", reason=self.reason)


@event_body
class ShoeEnded(MidiEvent):
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
        return ReportItem(correction=self.reason == "supervisor")

    def recall(self, config: MidiTableConfig) -> Msg:
        if self.note:
            return Msg.of("midi.rc_shoe_ended", reason=self.note)
        return SHOE_ENDED.get(self.reason) or Msg.of("midi.rc_shoe_ended", reason=self.reason)


SHOE_ENDED = {"cut": Msg.of("midi.rc_shoe_ended_cut"), "exhausted": Msg.of("midi.rc_shoe_ended_exhausted")}
"""Why a shoe ended, in words (the row keeps the code; a supervisor's ending, its note)."""


@event_body
class SabotAssigned(MidiEvent):
    type: ClassVar[str] = "sabot_assigned"
    box: int

    def recall(self, config: MidiTableConfig) -> Msg:
        return Msg.of("midi.rc_sabot", box=self.box)


@event_body
class SabotPassed(MidiEvent):
    """Art. 9 §4: the sabot leaves ``from_`` for ``to`` (None: the croupier deals)."""

    type: ClassVar[str] = "sabot_passed"
    from_: int | None
    to: int | None

    def to_payload(self) -> dict[str, Any]:
        return {"from": self.from_, "to": self.to}

    @classmethod
    def from_payload(cls, payload: Any) -> SabotPassed:
        return cls(payload["from"], payload["to"])

    def recall(self, config: MidiTableConfig) -> Msg:
        return Msg.of("midi.rc_sabot_passed", box=self.to if self.to is not None else "—")


@event_body
class CommissionCollected(MidiEvent):
    """Art. 5 §3: each box's tally and what was collected (rounded down to the chip)."""

    type: ClassVar[str] = "commission_collected"
    boxes: dict[str, dict[str, str]]

    def reported(self) -> ReportItem:
        """The chips collected, and what rounding the tallies down to the chip gave the players."""
        collected = sum((Decimal(box["collected"]) for box in self.boxes.values()), ZERO)
        return ReportItem(commission=collected,
                          rounding=sum((Decimal(box["tally"]) for box in self.boxes.values()), ZERO) - collected)

    def recall(self, config: MidiTableConfig) -> Msg:
        boxes = [Msg.of("midi.rc_commission_box", box=box, tally=Decimal(b["tally"]),
                        collected=Decimal(b["collected"])) for box, b in self.boxes.items()]
        return Msg.of("midi.rc_commission", boxes=_joined_list(boxes))


@event_body
class SupervisorDeals(MidiEvent):
    """Art. 9 §5: the supervisor deals in the holder's place."""

    type: ClassVar[str] = "supervisor_deals"
    holder: int | None
    reason: str

    def reported(self) -> ReportItem:
        return ReportItem(correction=True)

    def recall(self, config: MidiTableConfig) -> Msg:
        return Msg.of("midi.rc_supervisor_deals", reason=self.reason)


MIDI_CODEC = EventCodec(
    ShoeOpened, BurnCard, Burned, BetPlaced, BetRemoved, BetsRepeated, NoVaMas, CardDealt, CutCardSeen, EntryUndone,
    CardCorrected, CoupSettled, CoupVoided, ShoeEnded, SabotAssigned, SabotPassed, CommissionCollected, SupervisorDeals,
)


UNDONE_KIND = {"card": Msg.of("midi.undone_card"), "burn_card": Msg.of("midi.undone_burn_card"),
               "bet_placed": Msg.of("midi.undone_bet_placed"), "bet_removed": Msg.of("midi.undone_bet_removed"),
               "bets_repeated": Msg.of("midi.undone_bets_repeated")}
"""What the croupier may take back (``fold.undoable``), in words: «Deshecho: card» was the row's code."""


def recall(body: EventBody, config: MidiTableConfig) -> Msg:
    """A Midi journal entry in the croupier's words (an undo, the base's event, included)."""
    if isinstance(body, EntryUndone):
        kind = UNDONE_KIND.get(body.undone)
        return Msg.of("midi.rc_undone", type=kind if kind is not None else body.undone, seq=body.seq)
    assert isinstance(body, MidiEvent)
    return body.recall(config)
