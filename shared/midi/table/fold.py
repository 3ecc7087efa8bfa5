"""The fold: how each Midi event changes the table's state, live and on replay.

One handler per event class (``FOLD``); ``fold`` is the table's ``apply``. The undo is
event-sourced, as Madero's: the open coup keeps the log of its entries since its base (the
state when its bets opened, or when «No va más», the shoe's opening or its burn closed the
entries before), and an undone entry is taken out of the log and the log refolded over the
base — no inverse logic per entry kind.
"""

from __future__ import annotations

from collections import Counter

from shared.baccarat import Winner
from shared.cards import Rank
from shared.codec import capture, restore
from shared.engine import EntryUndone
from shared.events import EventBody, Fold
from shared.midi.table.base import MidiBase, sabot_next
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
    NoVaMas,
    SabotAssigned,
    SabotPassed,
    ShoeEnded,
    ShoeOpened,
    SupervisorDeals,
)
from shared.midi.table.state import (
    CARDS_BELOW_CUT,
    CoupRecord,
    KeyedCard,
    MidiState,
    Phase,
    bets_from_json,
    keyed,
    next_hand,
)
from shared.money import ZERO

FOLD: Fold[MidiBase] = Fold()
"""Every event but ``entry_undone``, which ``fold`` folds by refolding the coup's log."""

BARRIERS = (ShoeOpened, Burned, NoVaMas, CoupSettled, CoupVoided, ShoeEnded)
"""Events after which nothing before them can be undone: the coup's log starts again."""


def undoable(body: EventBody) -> bool:
    """The croupier's own entries of the open coup: a bet, or a card keyed (not dealt by the
    console), before settlement. «No va más» closes the bets (Art. 9 §1)."""
    if isinstance(body, (BetPlaced, BetRemoved, BetsRepeated)):
        return True
    return isinstance(body, (CardDealt, BurnCard)) and body.source == "keyed"


def fold(t: MidiBase, seq: int, body: EventBody) -> None:
    """Apply one journaled event, and keep the open coup's log of it (``round_log``)."""
    if isinstance(body, EntryUndone):
        t.fold_undo(body)
        return
    FOLD.apply(t, body)
    if isinstance(body, BARRIERS):
        t.coup_base = capture(MidiState, t)
        t.round_log = []
    else:
        t.log_round_entry(seq, body)


def refold(t: MidiBase) -> None:
    """The open coup's state, from its base and ``round_log``."""
    log = t.round_log
    restore(t.coup_base, t)
    t.round_log = []
    for entry in log:
        # A correction of a card taken back goes with it.
        if not (isinstance(entry.body, CardCorrected) and entry.body.index >= len(t.cards)):
            fold(t, entry.seq, entry.body)


def _take(t: MidiBase, card: KeyedCard) -> None:
    t._left[card.rank] -= 1
    t._dealt += 1


@FOLD.on(ShoeOpened)
def _shoe_opened(t: MidiBase, e: ShoeOpened) -> None:
    t.shoe_no = e.shoe
    t._decks = e.decks
    t._size = e.size
    t._order = e.order
    t._left = Counter({r: 4 * t._decks for r in Rank})
    if t._order is not None and len(t._order) != 2 * t._size:
        raise ValueError("shoe order and size disagree")
    t._dealt = 0
    t._burn_card = None
    t._burned = None
    t._cut_out = False
    t._cut_seen = False
    t._shoe_coups = 0
    t.history = []
    t.shoe_end_reason = None
    t._last_dealer = None
    t.phase = Phase.BURN


@FOLD.on(BurnCard)
def _burn_card(t: MidiBase, e: BurnCard) -> None:
    card = keyed(e.rank, e.suit)
    _take(t, card)
    t._burn_card = card


@FOLD.on(Burned)
def _burned(t: MidiBase, e: Burned) -> None:
    for text in e.cards or ():
        t._left[Rank.parse(text[0])] -= 1
    t._dealt += e.count
    t._burned = e.count
    # A rigged drill shoe may be so short that the cut card comes out in the burn.
    t._cut_out = t._dealt > t._size - CARDS_BELOW_CUT
    t.phase = Phase.BETS


@FOLD.on(BetPlaced)
def _bet_placed(t: MidiBase, e: BetPlaced) -> None:
    t.bets.setdefault(e.spot, {})[e.kind] = e.amount


@FOLD.on(BetRemoved)
def _bet_removed(t: MidiBase, e: BetRemoved) -> None:
    spot_bets = t.bets[e.spot]
    del spot_bets[e.kind]
    if not spot_bets:
        del t.bets[e.spot]


@FOLD.on(BetsRepeated)
def _bets_repeated(t: MidiBase, e: BetsRepeated) -> None:
    for spot, bets in bets_from_json(e.bets).items():
        t.bets.setdefault(spot, {}).update(bets)


@FOLD.on(NoVaMas)
def _no_va_mas(t: MidiBase, e: NoVaMas) -> None:
    t._last_dealer = e.sabot_holder
    t.phase = Phase.CARDS


@FOLD.on(CardDealt)
def _card(t: MidiBase, e: CardDealt) -> None:
    card = keyed(e.rank, e.suit)
    if t._dealt == t._size - CARDS_BELOW_CUT:
        t._cut_out = True  # the cut card came out before this card (Art. 8 §1)
    _take(t, card)
    t.cards.append(card)
    if next_hand(t.cards) is None:
        t.phase = Phase.RESULT


@FOLD.on(CutCardSeen)
def _cut_card_seen(t: MidiBase, e: CutCardSeen) -> None:
    t._cut_out = t._cut_seen = True


@FOLD.on(CardCorrected)
def _card_corrected(t: MidiBase, e: CardCorrected) -> None:
    old, new = t.cards[e.index], KeyedCard.parse(e.new)
    t._left[old.rank] += 1
    t._left[new.rank] -= 1
    t.cards[e.index] = new
    t.phase = Phase.RESULT if next_hand(t.cards) is None else Phase.CARDS


def _end_coup(t: MidiBase, settled: bool) -> None:
    t.history.append(CoupRecord.of(t.coup_no, t.cards if settled else None))
    if t.bets:
        t.last_bets = {s: dict(b) for s, b in t.bets.items()}
    t.bets = {}
    t.cards = []
    t._shoe_coups += 1
    t.coup_no += 1
    t.phase = Phase.BETS


def _move_sabot(t: MidiBase, to: int | None) -> None:
    """The sabot leaves its holder: the holder has passed it in this round (Art. 9 §4)."""
    holder = t.sabot_holder
    if holder is not None and to != holder:
        t._sabot_passed.add(holder)
        if len(t._sabot_passed) >= t.config.boxes:
            t._sabot_passed = set()  # every box has had it: a new round
    t.sabot_holder = to


def _pass_right(t: MidiBase) -> None:
    if t.sabot_holder is not None:
        _move_sabot(t, sabot_next(t, t.sabot_holder))


def _rotate_sabot(t: MidiBase, winner: Winner | None) -> None:
    """Art. 9 §4–6 and the customary decision, at the end of a coup."""
    if t.sabot_holder is None:
        return
    if t.supervisor_dealing:
        _pass_right(t)  # §5
    elif t._cut_out:
        if winner is not Winner.BANCA:  # §6: the new shoe starts with the same box only after BANCA
            _pass_right(t)
    elif t.config.sabot_rotation == "each-coup" or winner is Winner.PUNTO:
        _pass_right(t)
    t.supervisor_dealing = False


@FOLD.on(CoupSettled)
def _coup_settled(t: MidiBase, e: CoupSettled) -> None:
    t.last_settlement = list(e.lines)
    for line in t.last_settlement:
        if line.commission:
            t.commission_tally[line.spot] = t.commission_tally.get(line.spot, ZERO) + line.commission
    _rotate_sabot(t, e.result.winner)
    _end_coup(t, settled=True)


@FOLD.on(CoupVoided)
def _coup_voided(t: MidiBase, e: CoupVoided) -> None:
    t.last_settlement = list(e.lines)
    if t.supervisor_dealing:
        _pass_right(t)  # §5
    t.supervisor_dealing = False
    _end_coup(t, settled=False)


@FOLD.on(ShoeEnded)
def _shoe_ended(t: MidiBase, e: ShoeEnded) -> None:
    t.shoe_end_reason = e.reason
    t.bets = {}
    t.phase = Phase.SHOE_END
    # §6: a shoe ended without a BANCA win in its last coup (a NULO coup, the supervisor
    # ending it) passes the sabot right, unless the last coup already moved it on.
    last = t.history[-1].result if t.history else None
    if (e.reason != "cut" and t.sabot_holder is not None
            and t.sabot_holder == t._last_dealer and (last is None or last.winner is not Winner.BANCA)):
        _pass_right(t)


@FOLD.on(SabotAssigned)
def _sabot_assigned(t: MidiBase, e: SabotAssigned) -> None:
    t.sabot_holder = e.box


@FOLD.on(SabotPassed)
def _sabot_passed(t: MidiBase, e: SabotPassed) -> None:
    _move_sabot(t, e.to)


@FOLD.on(CommissionCollected)
def _commission_collected(t: MidiBase, e: CommissionCollected) -> None:
    for box in e.boxes:
        del t.commission_tally[int(box)]


@FOLD.on(SupervisorDeals)
def _supervisor_deals(t: MidiBase, e: SupervisorDeals) -> None:
    t.supervisor_dealing = True

