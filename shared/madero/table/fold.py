"""The fold: how each Madero event changes the table, live and on replay (one handler per event
class), and how the round then moves to its next step (Art. 7–9).

The open round's own entries (``ROUND_EVENTS``) change only the round's state and are kept in
the round's log, so an undone entry is dropped and the round refolded without it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import random
import secrets

from shared.cards import make_rng
from shared.codec import capture, decode, encode, restore
from shared.engine import EntryUndone, Prompt, Snapshot, TableEngine, round_log_into_base
from shared.errors import RuleViolation
from shared.events import EventBody, Fold
from shared.journal import Event, Journal
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.madero.meter import MeterStore, reading_from_dict
from shared.madero.meter_share import MeterMovement
from shared.madero.settlement import Bet, BoxStatus, RoundSettlement, SettlementRecord, upcast_record
from shared.madero.table.events import (
    CODEC,
    ROUND_EVENTS,
    UNDOABLE,
    Adjustment,
    BetPlaced,
    BetsClosed,
    BoxesGrouped,
    CardCorrected,
    CarruselChanged,
    CardKeyed,
    Collusion,
    CommunityDealt,
    CommunityError,
    DeadHand,
    Decision,
    PrizeAnswered,
    PrizeClaimed,
    RoundSettled,
    RoundStarted,
    RoundVoided,
)
from shared.madero.table.state import (
    STREET_OF_BOARD,
    WAITING_PHASE,
    BoxState,
    MaderoSnapshot,
    MaderoState,
    Phase,
    RoundState,
    active_boxes,
    parse_card,
    parse_cards,
    voided,
)
from shared.madero.table.announcements import announcement, prompt
from shared.madero.table.carrusel import MaderoCarrusel, meter_store_for
from shared.madero.table.commands import MaderoPlay
from shared.madero.table.supervisor import MaderoSupervisor
from shared.messages import Msg
from shared.money import ZERO
from shared.staff import StaffRegistry

E = TypeVar("E", bound=EventBody)

FOLD: Fold[MaderoTable] = Fold()


def round_entry(*classes: type[E]) -> Callable[[Callable[[RoundState, E], None]], Callable[[RoundState, E], None]]:
    """Register the fold of one of the open round's entries; the round then advances."""
    def register(fold_round: Callable[[RoundState, E], None]) -> Callable[[RoundState, E], None]:
        def handler(table: MaderoTable, body: E) -> None:
            assert table.r is not None
            fold_round(table.r, body)
            advance(table)
        FOLD.on(*classes)(handler)
        return fold_round
    return register


# --- the fold's steps -------------------------------------------------------------------------

def owe(table: MaderoTable, e: RoundSettled) -> None:
    """Fold a settled round into the outbox (see ``outbox``)."""
    if e.meter_ref is None:
        return  # a fixed table, or an earlier version's round applied before it was journaled
    if e.fallback is not None:
        table.outbox.append({"ref": e.meter_ref, "contribution": e.fallback["contribution"]})
        table.carrusel_fallback = e.fallback["reason"]
    else:
        # delivered before this round was valued: only this one can still be owed
        table.outbox = [{"ref": e.meter_ref, "reading": e.meter, "movement": encode(e.settlement.meter)}]
        table.carrusel_fallback = None


def last_journaled_movement(journal: Journal) -> list[dict[str, Any]]:
    """The outbox of a journal whose snapshot predates it: the last settled round's."""
    event = journal.last_event_of(RoundSettled.type)
    if event is None or "meter_ref" not in event.payload:
        return []
    body = CODEC.decode(event.type, event.payload)
    assert isinstance(body, RoundSettled)
    return [{"ref": body.meter_ref, "reading": body.meter, "movement": encode(body.settlement.meter)}]


def upgrade_v1(table: MaderoTable, data: Snapshot) -> Snapshot:
    """A snapshot of version 1 (hand-written) as one of version 2 (``MaderoSnapshot``)."""
    if data["round"] is not None:
        for number, box in data["round"]["boxes"].items():
            box["number"] = int(number)
    # A snapshot from before the outbox was kept: then only the last settled round's
    # movement can be missing from the meter.
    if "outbox" not in data:
        data["outbox"] = last_journaled_movement(table.journal)
    data.setdefault("carrusel_fallback", None)
    return round_log_into_base(data)

def upgrade_v2(table: MaderoTable, data: Snapshot) -> Snapshot:
    """Version 2 as version 3: the last settlement's words as message codes, and the
    outbox's meter movements as the typed settlement writes them (a ``rounding`` of 0 where
    rounds journaled before it had none)."""
    if data["last_settlement"] is not None:
        data["last_settlement"] = upcast_record(data["last_settlement"])
    for item in data["outbox"]:
        if "movement" in item:
            item["movement"] = encode(decode(MeterMovement, item["movement"]))
    return data


def close_round(table: MaderoTable, settlement: RoundSettlement, journaled: SettlementRecord) -> None:
    """``journaled`` is the settlement as recorded: the books add what was actually
    settled, even if a later table setting would settle the same cards differently."""
    assert table.r is not None
    for key in ("staked", "returned", "collected", "paid"):
        table.books[key] += getattr(journaled.totals, key)
    if not settlement.void:
        table.last_bets = {
            n: {"ante": str(b.ante), "bonus": str(b.bonus), "jackpot_credits": b.jackpot_credits}
            for n, b in sorted(table.r.boxes.items()) if b.in_play
        }
    table.last_settlement = settlement
    table.last_record = journaled
    table.r = None
    table.round_start = None
    table.round_log = []

def advance(table: MaderoTable) -> None:
    """Move to the next step once the current one is complete."""
    r = table.r
    assert r is not None
    while r.phase not in (Phase.IDLE, Phase.BETS, Phase.SETTLEMENT):
        if not active_boxes(r):
            # Everyone folded or was put out: nothing more to deal (no card is needed to settle).
            r.phase = Phase.SETTLEMENT
            return
        nxt = next_phase(table, r)
        if nxt is None:
            return
        r.phase = nxt

def next_phase(table: MaderoTable, r: RoundState) -> Phase | None:
    """The step after ``r.phase`` if that one is complete: a betting round when every active
    box has decided, a street when its cards are on the board, the showdown when every
    card is known."""
    done = {
        Phase.FIRST: table.to_act is None, Phase.FLOP: len(r.board) >= 3,
        Phase.SECOND: table.to_act is None, Phase.TURN: len(r.board) >= 4,
        Phase.THIRD: table.to_act is None, Phase.RIVER: len(r.board) >= 5,
        Phase.SHOWDOWN: table.expected_card() is None,
    }[r.phase]
    return NEXT_PHASE[r.phase] if done else None


class MaderoTable(MaderoState):
    """A Madero Poker Bonus table: its state folded from its journal, snapshots of the fold,
    and what the croupier does or says now. Its commands are its desks': the croupier's
    (``play``), the supervisor's (``supervisor``) and the calls to its meter store
    (``carrusel``)."""

    COLLABORATORS = {**TableEngine.COLLABORATORS, "play": MaderoPlay, "supervisor": MaderoSupervisor,
                     "carrusel": MaderoCarrusel}
    play: MaderoPlay
    supervisor: MaderoSupervisor
    carrusel: MaderoCarrusel

    codec = CODEC
    undoable = UNDOABLE
    # 2: the state is MaderoSnapshot, written by the codec; the round's log is the base's.
    # 3: the last settlement's words are message codes.
    snapshot_version = 3
    snapshot_upgrades = {1: upgrade_v1, 2: upgrade_v2}

    def __init__(
        self,
        journal: Journal,
        staff: StaffRegistry | None = None,
        *,
        config: MaderoTableConfig = DEFAULT_MADERO_TABLE,
        training: bool = False,
        seed: int | None = None,
        meter_store: MeterStore | None = None,
        draw_rng: random.Random | None = None,
        reach_server_now: bool = True,
    ) -> None:
        """``seed`` makes a training session's deals and special-prize draws repeatable.
        ``draw_rng`` is for tests only: a live table draws Carta Mágica and Jugador
        Afortunado with ``secrets.SystemRandom()``. ``reach_server_now=False`` leaves a
        Carrusel server's first trip (owed movements, the head) to the first
        ``carrusel.call_due()``, which the console runs off its screen's thread."""
        self.config = config
        self._deal_rng = make_rng(seed)
        # Training draws from the session's deal generator (None here: it may be reseeded).
        self._draw_rng: random.Random | None = (
            draw_rng if draw_rng is not None or training else secrets.SystemRandom())
        store = meter_store_for(config, training, meter_store)
        self.last_settlement = None
        super().__init__(journal, staff, training=training)
        self.carrusel.connect(store, reach_server_now=reach_server_now)

    def reseed_training_deal(self, seed: int) -> None:
        """Training: the virtual cards from now on come from ``make_rng(seed)`` (a graded
        session without a seed picks the deal that trains its trainee most). Every card
        dealt is journaled, so a replay never needs the generator."""
        if not self.training:
            raise RuleViolation("Art. 7 §24", Msg.of("madero.live_cards_are_keyed"))
        self._deal_rng = make_rng(seed)

    @property
    def prompt(self) -> Prompt:
        return prompt(self)

    @property
    def announcement(self) -> Prompt | None:
        return announcement(self)

    def close_recorded(self, *, shift: bool) -> None:
        super().close_recorded(shift=shift)
        if shift:
            self.carrusel.shift_closed()

    def apply(self, event: Event) -> None:
        body = CODEC.decode(event.type, event.payload)
        if type(body) in ROUND_EVENTS:
            self.log_round_entry(event.seq, body)
        elif isinstance(body, RoundStarted):
            # The opening event's hash names the round uniquely, even across journals.
            self.round_start = event.payload | {"hash": event.hash}
        FOLD.apply(self, body)

    def shift_ended(self) -> None:
        # §72 groups one player's boxes; the next shift's players group their own.
        self.groups.clear()

    def refold_round(self) -> None:
        self.r = None
        if self.round_start is None:
            return
        self.r = RoundState(self.round_start["round"], self.round_start["deck"])
        for entry in self.round_log:
            FOLD.apply(self, entry.body)

    def snapshot_state(self) -> Snapshot:
        return encode(capture(MaderoSnapshot, self))  # type: ignore[no-any-return]

    def restore_state(self, data: Snapshot) -> None:
        restore(decode(MaderoSnapshot, data), self, skip=frozenset({"round"}))
        self.refold_round()

NEXT_PHASE = {Phase.FIRST: Phase.FLOP, Phase.FLOP: Phase.SECOND, Phase.SECOND: Phase.TURN, Phase.TURN: Phase.THIRD,
              Phase.THIRD: Phase.RIVER, Phase.RIVER: Phase.SHOWDOWN, Phase.SHOWDOWN: Phase.SETTLEMENT}


# --- between rounds ----------------------------------------------------------------------------

@FOLD.on(RoundStarted)
def _round_started(table: MaderoTable, e: RoundStarted) -> None:
    table.round_no = e.round
    table.round_log = []
    table.r = RoundState(e.round, e.deck)


@FOLD.on(EntryUndone)
def _entry_undone(table: MaderoTable, e: EntryUndone) -> None:
    table.fold_undo(e)


@FOLD.on(RoundSettled)
def _round_settled(table: MaderoTable, e: RoundSettled) -> None:
    # Replay recomputes the settlement from the round's cards and bets and the meter reading.
    if e.fallback is not None:
        settlement = table.fixed_settlement()
    else:
        settlement = table.settlement(reading_from_dict(e.meter) if e.meter else None)
    owe(table, e)
    close_round(table, settlement, e.settlement)


@FOLD.on(RoundVoided)
def _round_voided(table: MaderoTable, e: RoundVoided) -> None:
    close_round(table, voided(table, e.article, e.reason), e.settlement)


@FOLD.on(BoxesGrouped)
def _boxes_grouped(table: MaderoTable, e: BoxesGrouped) -> None:
    for b in e.boxes:
        table.groups.pop(b, None)
        if len(e.boxes) > 1:
            table.groups[b] = e.seeing


@FOLD.on(CarruselChanged)
def _carrusel_changed(table: MaderoTable, e: CarruselChanged) -> None:
    pass  # the server's record: the table's Carrusel and seed are its table file's


@FOLD.on(Adjustment)
def _adjustment(table: MaderoTable, e: Adjustment) -> None:
    table.books["adjusted"] += e.amount


# --- the open round's entries ------------------------------------------------------------------

@round_entry(PrizeClaimed)
def _prize_claimed(r: RoundState, e: PrizeClaimed) -> None:
    r.prize_claimed = True


@round_entry(PrizeAnswered)
def _prize_answered(r: RoundState, e: PrizeAnswered) -> None:
    r.prize_answer = {"meter": e.meter} if e.fallback is None else {"fallback": e.fallback}


@round_entry(BetPlaced)
def _bet_placed(r: RoundState, e: BetPlaced) -> None:
    box = r.boxes.setdefault(e.box, BoxState(e.box))
    if e.bet is Bet.JACKPOT:
        box.jackpot_credits = int(e.amount)
    else:
        setattr(box, e.bet.value, e.amount)
    if not box.ante and not box.bonus and not box.jackpot_credits:
        del r.boxes[e.box]


@round_entry(BetsClosed)
def _bets_closed(r: RoundState, e: BetsClosed) -> None:
    r.phase = Phase.FIRST
    r.carta_magica = parse_card(e.carta_magica) if e.carta_magica else None
    r.jugador_afortunado = e.jugador_afortunado
    for n, cards in (e.hole_cards or {}).items():
        r.boxes[int(n)].cards = parse_cards(cards)
    r.bank = parse_cards(e.bank or ())


@round_entry(Decision)
def _decision(r: RoundState, e: Decision) -> None:
    box = r.boxes[e.box]
    box.decisions[e.round - 1] = e.action
    if e.action == "fold":
        box.status = BoxStatus.FOLDED
    else:
        setattr(box, STREET_BET[e.round], e.amount)


STREET_BET = {1: "flop", 2: "turn", 3: "river"}
"""The bet of each betting round, as a ``BoxState`` field."""


@round_entry(CardKeyed)
def _card_keyed(r: RoundState, e: CardKeyed) -> None:
    card = parse_card(e.card)
    if e.target == "board":
        r.board.append(card)
        if len(r.board) in STREET_OF_BOARD:  # the street is complete
            r.no_burn_next = False
    elif e.target == "bank":
        r.bank.append(card)
    else:
        assert e.box is not None
        r.boxes[e.box].cards.append(card)


@round_entry(CommunityDealt)
def _community_dealt(r: RoundState, e: CommunityDealt) -> None:
    r.burns.extend(parse_cards(e.burn))
    r.board.extend(parse_cards(e.cards))
    r.no_burn_next = False


@round_entry(DeadHand)
def _dead_hand(r: RoundState, e: DeadHand) -> None:
    r.boxes[e.box].status = BoxStatus.DEAD


@round_entry(Collusion)
def _collusion(r: RoundState, e: Collusion) -> None:
    r.boxes[e.box].status = BoxStatus.VOIDED


@round_entry(CommunityError)
def _community_error(r: RoundState, e: CommunityError) -> None:
    if e.reordered is not None:
        return  # §39.2 put right before the flop was turned: no card and no bet changes
    removed = set(parse_cards(e.removed))
    r.board = [c for c in r.board if c not in removed]
    r.exposed.extend(parse_cards(e.removed) + parse_cards(e.exposed))
    r.no_burn_next = True
    if e.reopened_round:
        # The bets made since the faulty street are returned and asked again (§39.3).
        for b in r.boxes.values():
            b.decisions[e.reopened_round - 1] = None
            setattr(b, STREET_BET[e.reopened_round], ZERO)
    if e.street:
        r.phase = WAITING_PHASE[e.street]


@round_entry(CardCorrected)
def _card_corrected(r: RoundState, e: CardCorrected) -> None:
    old, new = parse_card(e.old), parse_card(e.new)
    for cards in (r.board, r.bank, *(b.cards for b in r.boxes.values())):
        if old in cards:
            cards[cards.index(old)] = new
