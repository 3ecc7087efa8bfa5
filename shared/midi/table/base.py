"""The Midi table's state base: its state and the views the screens and the desks read (the fold
is fold.py's, the commands the desks': play.py, supervisor.py).

Event-sourced (shared.engine): every command verifies, records one event (or a fixed few in
one transaction) and applies it with the same ``apply`` used on replay.
"""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal
from typing import Any

from shared.baccarat import CoupResult, total
from shared.cards import Rank, make_rng
from shared.codec import capture, decode, encode, restore
from shared.engine import BASE_KEY, Snapshot, TableEngine, round_log_into_base
from shared.errors import RuleViolation
from shared.journal import Journal
from shared.messages import Msg
from shared.midi.config import DEFAULT_MIDI_TABLE, MidiTableConfig
from shared.midi.payouts import BetKind, SettlementLine, settle_bets, upcast_line
from shared.midi.roads import Roads, build_roads
from shared.midi.table.events import MIDI_CODEC, CoupVoided
from shared.midi.table.state import (
    CoupRecord,
    KeyedCard,
    MidiSnapshot,
    MidiState,
    Phase,
    ShoeView,
    deal_order_partial,
    next_hand,
    resolve_keyed,
    right_of,
)
from shared.money import ZERO
from shared.staff import StaffRegistry

_SHOE_EVENTS = frozenset({"shoe_opened", "burn_card", "burned", "shoe_ended", "sabot_assigned"})


def upgrade_v3(table: Any, data: Snapshot) -> Snapshot:
    """A snapshot of version 3 (hand-written) as one of version 4 (``MidiSnapshot``): a
    finished coup is written as its ranks run together («9KT3»), not a list of them."""
    for state in (data, data["coup_base"]):
        state["history"] = [[coup, None if ranks is None else "".join(ranks)] for coup, ranks in state["history"]]
        # Absent from the snapshots of version 3 written before Art. 9 §4 and the
        # commission tally were kept.
        state.setdefault("sabot_passed", [])
        state.setdefault("last_dealer", None)
        state.setdefault("commission_tally", {})
    return round_log_into_base(data)


def upgrade_v4(table: Any, data: Snapshot) -> Snapshot:
    """Version 4 as version 5: the last settlement's reasons as message codes, not words."""
    for state in (data, data["coup_base"]):
        state["last_settlement"] = [upcast_line(line) for line in state["last_settlement"]]
    return data


class MidiBase(TableEngine):
    game = "midi"
    PHASES = tuple(Phase)
    BETWEEN_ROUNDS = (Phase.NO_SHOE, Phase.BURN, Phase.BETS, Phase.SHOE_END)
    # 2: the undo keeps the open coup's base and log, not an inverse stack; 3: the log is the
    # base's round_log; 4: the state is MidiSnapshot, written by the codec.
    # 5: the settlement lines' reasons are message codes.
    snapshot_version = 5
    codec = MIDI_CODEC

    def __init__(
        self,
        journal: Journal,
        staff: StaffRegistry | None = None,
        *,
        config: MidiTableConfig = DEFAULT_MIDI_TABLE,
        training: bool = False,
        rng: random.Random | None = None,
        seed: int | None = None,
    ) -> None:
        self.config = config
        self.rng = rng if rng is not None else make_rng(seed)
        super().__init__(journal, staff, training=training)

    def initial_state(self) -> None:
        self.phase = Phase.NO_SHOE
        self.coup_no = 1
        self.shoe_no = 0
        # The shoe: composition left, cards taken out, virtual order (training) or None.
        self._decks = self.config.decks
        self._size = 0
        self._left: Counter[Rank] = Counter(dict.fromkeys(Rank, 0))
        self._dealt = 0
        self._order: str | None = None
        self._burn_card: KeyedCard | None = None
        self._burned: int | None = None
        self._cut_out = False
        self._cut_seen = False  # signalled by the croupier rather than reached by the count
        self._shoe_coups = 0
        # The coup.
        self.bets: dict[int, dict[BetKind, Decimal]] = {}
        self.cards: list[KeyedCard] = []
        # The open coup's base state; its entries since are the base's round_log (fold.py).
        # The sabot.
        self.sabot_holder: int | None = None
        self.supervisor_dealing = False
        self._sabot_passed: set[int] = set()  # boxes that passed it in this round (Art. 9 §4)
        self._last_dealer: int | None = None  # the box that held the sabot at the shoe's last «No va más»
        # Art. 5 §3: each box's commission tally, owed until the croupier collects it.
        self.commission_tally: dict[int, Decimal] = {}
        # History.
        self.history: list[CoupRecord] = []
        self.last_bets: dict[int, dict[BetKind, Decimal]] = {}
        self.last_settlement: list[SettlementLine] = []
        self.shoe_end_reason: str | None = None
        self._roads_cache: tuple[tuple[int, int], Roads] | None = None
        self.coup_base: MidiState = capture(MidiState, self)

    @property
    def round_id(self) -> int:
        return self.coup_no

    @property
    def round_open(self) -> bool:
        return self.phase in (Phase.CARDS, Phase.RESULT) or (self.phase is Phase.BETS and bool(self.bets))

    def round_id_for(self, type: str, payload: dict[str, Any]) -> int:
        return 0 if type in _SHOE_EVENTS else self.coup_no

    def snapshot_state(self) -> Snapshot:
        return encode(capture(MidiSnapshot, self, coup_base=self.coup_base))  # type: ignore[no-any-return]

    def restore_state(self, data: Snapshot) -> None:
        base = data["coup_base"]
        if {name: value for name, value in data.items() if name not in ("coup_base", BASE_KEY)} == base:
            # Between coups (where most snapshots are taken) the base is the state itself: read
            # once, and the base taken from it as a coup's start takes it (``fold``).
            restore(decode(MidiState, base), self)
            self.coup_base = capture(MidiState, self)
            return
        snapshot = decode(MidiSnapshot, data)
        restore(snapshot, self, skip=frozenset({"coup_base"}))
        self.coup_base = snapshot.coup_base

    snapshot_upgrades = {3: upgrade_v3, 4: upgrade_v4}

    @property
    def shoe(self) -> ShoeView | None:
        if self.shoe_no == 0:
            return None
        return ShoeView(self.shoe_no, self._decks, self._size, self._dealt, {r: self._left[r] for r in Rank},
                        self._order is not None, self._burn_card, self._burned, self._cut_out, self._shoe_coups)

    @property
    def punto_cards(self) -> list[KeyedCard]:
        return deal_order_partial(self.cards)[0]

    @property
    def banca_cards(self) -> list[KeyedCard]:
        return deal_order_partial(self.cards)[1]

    @property
    def totals(self) -> tuple[int | None, int | None]:
        """PUNTO's and BANCA's totals of the cards keyed so far (None before a hand's first card)."""
        punto, banca = deal_order_partial(self.cards)
        return (total([c.rank for c in punto]) if punto else None,
                total([c.rank for c in banca]) if banca else None)

    @property
    def card_called_for(self) -> str | None:
        """"burn", "punto" or "banca" when the engine expects a card now, else None."""
        if self.phase is Phase.BURN and self._burn_card is None:
            return "burn"
        if self.phase is Phase.CARDS:
            hand = next_hand(self.cards)
            return None if hand is None else hand.value
        return None

    @property
    def result(self) -> CoupResult | None:
        """The decided coup (phase RESULT), else None."""
        return resolve_keyed(self.cards) if self.phase is Phase.RESULT else None

    @property
    def settlement(self) -> list[SettlementLine] | None:
        """What to pay and collect for each bet of each box, once the coup is decided."""
        result = self.result
        return None if result is None else settle_bets(self.bets, result, self.config)

    @property
    def reveal_box(self) -> int | None:
        """Art. 8 §4: the seated box with the largest PUNTO bet turns PUNTO's cards (ties:
        the lowest box); None when nobody bet on PUNTO and the croupier turns them."""
        best: tuple[Decimal, int] | None = None
        for spot in sorted(self.bets):
            amount = self.bets[spot].get(BetKind.PUNTO, ZERO)
            # Art. 9 §2: only seated players may turn the PUNTO cards.
            if spot <= self.config.boxes and amount > 0 and (best is None or amount > best[0]):
                best = (amount, spot)
        return None if best is None else best[1]

    @property
    def spots(self) -> list[int]:
        """Seated boxes 1..boxes, then standing bettors (Art. 4 §1) numbered after them."""
        return list(range(1, self.config.boxes + self.config.standing_bettors + 1))

    def spot_label(self, spot: int) -> str:
        return str(spot) if spot <= self.config.boxes else f"S{spot - self.config.boxes}"

    @property
    def roads(self) -> Roads:
        """The scoreboard of the current shoe, computed from its coup history."""
        key = (self.shoe_no, len(self.history))
        if self._roads_cache is None or self._roads_cache[0] != key:
            self._roads_cache = (key, build_roads([h.result for h in self.history if h.result is not None]))
        return self._roads_cache[1]

    @property
    def sabot_passed(self) -> frozenset[int]:
        """The boxes that have passed the sabot in this round: none may receive it again until
        every box has had it (Art. 9 §4)."""
        return frozenset(self._sabot_passed)

    def _coup_voidable(self) -> bool:
        return self.phase in (Phase.CARDS, Phase.RESULT) or (self.phase is Phase.BETS and bool(self.bets))


# What the desks and the fold share of the table's rules: functions over its state, not members
# of the table (a class of about 60 members at most).


def verify_shoe_holds(t: MidiBase, rank: Rank) -> None:
    """The shoe may still hold a card of ``rank`` (Art. 2 §1: its composition)."""
    if t._left[rank] <= 0:
        raise RuleViolation("Art. 2 §1", Msg.of("midi.err_rank_exhausted", rank=rank.label, decks=t._decks))


def voided_coup(t: MidiBase, reason: str, cause: str, second: str | None = None) -> CoupVoided:
    """The coup NULO, every bet returned (Art. 9 §3)."""
    lines = settle_bets(t.bets, None, t.config)
    return CoupVoided(reason, cause, tuple(c.text for c in t.cards), tuple(lines), second)


def sabot_next(t: MidiBase, holder: int) -> int:
    """Art. 9 §4: the first box on ``holder``'s right that has not passed the sabot in this
    round; once every box has, a new round starts with the box on the right."""
    passed = t._sabot_passed | {holder}
    box = right_of(holder, t.config.boxes)
    if len(passed) >= t.config.boxes:
        return box
    while box in passed:
        box = right_of(box, t.config.boxes)
    return box
