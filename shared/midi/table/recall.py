"""The recall words of each Midi event (the journal's F3 screen and ``journal recall``): one
function per event class, in the croupier's words, as catalog messages."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from shared.baccarat import resolve_coup
from shared.cards import Rank
from shared.engine import EntryUndone
from shared.events import EventBody
from shared.messages import Joined, Localized, Money, Msg, Plain
from shared.midi.config import MidiTableConfig
from shared.midi.payouts import BET_LABEL, BetKind
from shared.midi.table.announcements import joined, result_announcements
from shared.midi.table.events import (
    BetPlaced,
    BetRemoved,
    BetsRepeated,
    BurnCard,
    Burned,
    CardCorrected,
    CardDealt,
    CommissionCollected,
    CoupSettled,
    CoupVoided,
    CutCardSeen,
    JsonBets,
    NoVaMas,
    SabotAssigned,
    SabotPassed,
    ShoeEnded,
    ShoeOpened,
    SupervisorDeals,
)

HAND = {"punto": "PUNTO", "banca": "BANCA", "burn": "quema"}


def _bets(bets: JsonBets) -> Localized:
    """«1:BANCA 1.500, 2:TIE 20»: each amount written as the reader's language writes it."""
    items = tuple(Joined((Plain(f"{spot}:{BET_LABEL[BetKind(kind)]}"), Money(Decimal(amount))), " ")
                  for spot, kinds in bets.items() for kind, amount in kinds.items())
    return Joined(items, ", ") if items else Plain("—")


def _card(rank: str, suit: str | None) -> str:
    return Rank.parse(rank).label + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}.get(suit or "", "")


def _settled(e: CoupSettled, config: MidiTableConfig) -> Msg:
    result = resolve_coup([Rank.parse(c[0]) for c in e.cards])
    said = joined([Msg.of("midi.rc_quoted", text=a) for a in result_announcements(result, config)])
    return Msg.of("midi.rc_settled", cards=" ".join(e.cards), said=said)


def _commission(e: CommissionCollected) -> Msg:
    boxes = [Msg.of("midi.rc_commission_box", box=box, tally=Decimal(b["tally"]),
                    collected=Decimal(b["collected"])) for box, b in e.boxes.items()]
    return Msg.of("midi.rc_commission", boxes=joined_list(boxes))


def joined_list(msgs: list[Msg]) -> Msg:
    """Several messages separated by commas."""
    if len(msgs) == 1:
        return msgs[0]
    return Msg.of("midi.rc_comma", head=msgs[0], tail=joined_list(msgs[1:]))


RECALL: dict[type[EventBody], Callable[[Any, MidiTableConfig], Msg]] = {
    ShoeOpened: lambda e, c: Msg.of("midi.rc_shoe", shoe=e.shoe, decks=e.decks, size=e.size),
    BurnCard: lambda e, c: Msg.of("midi.rc_burn_card", card=_card(e.rank, e.suit)),
    Burned: lambda e, c: Msg.of("midi.rc_burned", n=e.count),
    BetPlaced: lambda e, c: Msg.of("midi.rc_bet", box=e.spot, bet=BET_LABEL[e.kind], amount=e.amount,
                                   previous=e.previous),
    BetRemoved: lambda e, c: Msg.of("midi.rc_bet_removed", box=e.spot, bet=BET_LABEL[e.kind],
                                    amount=e.previous),
    BetsRepeated: lambda e, c: Msg.of("midi.rc_repeated", bets=_bets(e.bets)),
    NoVaMas: lambda e, c: Msg.of("midi.rc_no_va_mas", bets=_bets(e.bets)),
    CardDealt: lambda e, c: Msg.of("midi.rc_card", card=_card(e.rank, e.suit), hand=HAND.get(e.to, e.to)),
    CutCardSeen: lambda e, c: Msg.of("midi.rc_cut_card", dealt=e.dealt),
    EntryUndone: lambda e, c: Msg.of("midi.rc_undone", type=e.undone, seq=e.seq),
    CardCorrected: lambda e, c: Msg.of("midi.rc_corrected", n=e.index + 1, old=e.old, new=e.new, reason=e.reason),
    CoupSettled: _settled,
    CoupVoided: lambda e, c: Msg.of("midi.rc_voided", reason=e.reason),
    ShoeEnded: lambda e, c: Msg.of("midi.rc_shoe_ended", reason=e.note or e.reason),
    SabotAssigned: lambda e, c: Msg.of("midi.rc_sabot", box=e.box),
    SabotPassed: lambda e, c: Msg.of("midi.rc_sabot_passed", box=e.to if e.to is not None else "—"),
    CommissionCollected: lambda e, c: _commission(e),
    SupervisorDeals: lambda e, c: Msg.of("midi.rc_supervisor_deals", reason=e.reason),
}


def recall(body: EventBody, config: MidiTableConfig) -> Msg:
    """What the event says, in the croupier's words."""
    return RECALL[type(body)](body, config)
