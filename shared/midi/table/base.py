"""The Midi table engine's core: its state, the views the screens read, and the fold.

Event-sourced (shared.engine): every command verifies, records one event (or a fixed few in
one transaction) and applies it with the same ``apply`` used on replay.
"""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal

from shared.baccarat import CoupResult, Winner, total
from shared.cards import Rank, make_rng
from shared.engine import TableEngine
from shared.errors import RuleViolation
from shared.journal import Event, Journal
from shared.midi.config import DEFAULT_MIDI_TABLE, MidiTableConfig
from shared.midi.payouts import BetKind, SettlementLine, settle_bets
from shared.midi.roads import Roads, build_roads
from shared.midi.table.state import (
    CARDS_BELOW_CUT,
    CoupRecord,
    KeyedCard,
    Phase,
    ShoeView,
    bets_from_json,
    bets_to_json,
    cards_of,
    deal_order_partial,
    keyed,
    next_hand,
    resolve_keyed,
    right_of,
    split_order,
)
from shared.money import ZERO
from shared.staff import StaffRegistry

_SHOE_EVENTS = frozenset({"shoe_opened", "burn_card", "burned", "shoe_ended", "sabot_assigned"})


class MidiBase(TableEngine):
    game = "midi"

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
        self._left: Counter[Rank] = Counter()
        self._dealt = 0
        self._order: list[str] | None = None
        self._burn_card: KeyedCard | None = None
        self._burned: int | None = None
        self._cut_out = False
        self._cut_seen = False  # signalled by the croupier rather than reached by the count
        self._shoe_coups = 0
        # The coup.
        self.bets: dict[int, dict[BetKind, Decimal]] = {}
        self.cards: list[KeyedCard] = []
        self._undo: list[dict] = []
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

    @property
    def round_id(self) -> int:
        return self.coup_no

    @property
    def round_open(self) -> bool:
        return self.phase in (Phase.CARDS, Phase.RESULT) or (self.phase is Phase.BETS and bool(self.bets))

    def round_id_for(self, type: str, payload: dict) -> int:
        return 0 if type in _SHOE_EVENTS else self.coup_no

    def snapshot_state(self) -> dict:
        return {
            "phase": self.phase.value,
            "coup_no": self.coup_no,
            "shoe_no": self.shoe_no,
            "decks": self._decks,
            "size": self._size,
            "left": {r.char: self._left[r] for r in Rank},
            "dealt": self._dealt,
            "order": None if self._order is None else "".join(self._order),
            "burn_card": None if self._burn_card is None else self._burn_card.text,
            "burned": self._burned,
            "cut_out": self._cut_out,
            "cut_seen": self._cut_seen,
            "shoe_coups": self._shoe_coups,
            "bets": bets_to_json(self.bets),
            "cards": [c.text for c in self.cards],
            "undo": self._undo,
            "sabot_holder": self.sabot_holder,
            "supervisor_dealing": self.supervisor_dealing,
            "sabot_passed": sorted(self._sabot_passed),
            "last_dealer": self._last_dealer,
            "commission_tally": {str(box): str(v) for box, v in sorted(self.commission_tally.items())},
            "history": [[h.coup, None if h.result is None else [c.text for c in cards_of(h.result)]]
                        for h in self.history],
            "last_bets": bets_to_json(self.last_bets),
            "last_settlement": [line.to_dict() for line in self.last_settlement],
            "shoe_end_reason": self.shoe_end_reason,
        }

    def restore_state(self, data: dict) -> None:
        self.initial_state()
        self.phase = Phase(data["phase"])
        self.coup_no = data["coup_no"]
        self.shoe_no = data["shoe_no"]
        self._decks = data["decks"]
        self._size = data["size"]
        self._left = Counter({Rank.parse(k): v for k, v in data["left"].items()})
        self._dealt = data["dealt"]
        order = data["order"]
        self._order = split_order(order)
        self._burn_card = None if data["burn_card"] is None else KeyedCard.parse(data["burn_card"])
        self._burned = data["burned"]
        self._cut_out = data["cut_out"]
        self._cut_seen = data["cut_seen"]
        self._shoe_coups = data["shoe_coups"]
        self.bets = bets_from_json(data["bets"])
        self.cards = [KeyedCard.parse(t) for t in data["cards"]]
        self._undo = data["undo"]
        self.sabot_holder = data["sabot_holder"]
        self.supervisor_dealing = data["supervisor_dealing"]
        self._sabot_passed = set(data.get("sabot_passed", ()))  # absent in snapshots before Art. 9 §4 was kept
        self._last_dealer = data.get("last_dealer")
        self.commission_tally = {int(box): Decimal(v) for box, v in data.get("commission_tally", {}).items()}
        self.history = [CoupRecord(coup, None if cards is None else resolve_keyed([KeyedCard.parse(t) for t in cards]))
                        for coup, cards in data["history"]]
        self.last_bets = bets_from_json(data["last_bets"])
        self.last_settlement = [SettlementLine.from_dict(d) for d in data["last_settlement"]]
        self.shoe_end_reason = data["shoe_end_reason"]

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

    @property
    def undo_entry_type(self) -> str | None:
        """The type of the entry ``undo()`` would take back, or None."""
        return self._undo[-1]["type"] if self._undo and self.phase is not Phase.SHOE_END else None

    def _on_duty(self) -> bool:
        return self.training or self.croupier is not None

    def _verify_card_called_for(self) -> None:
        if self.card_called_for is not None:
            if self._dealt >= self._size:
                raise RuleViolation("Art. 9 §3", "el sabot no tiene más cartas: el pase es NULO",
                                    "the shoe has no cards left: the coup is void (NULO)")
            return
        if self.phase is Phase.BETS:
            raise RuleViolation("Art. 8 §3", "las cartas se reparten después de «No va más»",
                                "cards are dealt after «No va más»")
        if self.phase in (Phase.CARDS, Phase.RESULT):
            raise RuleViolation("Art. 6 §2", "ninguna carta más corresponde en este pase",
                                "no further card is called for in this coup")
        if self.phase is Phase.BURN:
            raise RuleViolation("Art. 8 §2", "la carta de quema ya está descubierta: confirme la quema",
                                "the burn card is already exposed: confirm the burn")
        raise RuleViolation("Art. 8 §1", "no hay un sabot en juego", "no shoe is in play")

    def _verify_shoe_holds(self, rank: Rank) -> None:
        if self._left[rank] <= 0:
            raise RuleViolation(
                "Art. 2 §1",
                f"no quedan cartas de rango {rank.label} en este sabot de {self._decks} mazos",
                f"no {rank.label} is left in this {self._decks}-deck shoe",
            )

    def _spot_ok(self, spot: int) -> None:
        if not isinstance(spot, int) or isinstance(spot, bool) or spot not in self.spots:
            standing = self.config.standing_bettors
            raise RuleViolation(
                "Art. 2 §5" if not standing else "Art. 4 §1",
                f"casillero inexistente: {spot} (1–{self.config.boxes}"
                f"{f', de pie S1–S{standing}' if standing else ''})",
                f"no such box: {spot} (1–{self.config.boxes}{f', standing S1–S{standing}' if standing else ''})",
            )

    def _coup_needs_card(self) -> bool:
        return self.phase is Phase.CARDS and self.card_called_for is not None

    def _void_payload(self, reason: str, cause: str) -> dict:
        return {"reason": reason, "cause": cause, "cards": [c.text for c in self.cards],
                "lines": [line.to_dict() for line in settle_bets(self.bets, None, self.config)]}

    def _sabot_free_phase(self) -> bool:
        return self.phase in (Phase.NO_SHOE, Phase.SHOE_END, Phase.BURN, Phase.BETS)

    def _sabot_next(self, holder: int) -> int:
        """Art. 9 §4: the first box on ``holder``'s right that has not passed the sabot in this
        round; once every box has, a new round starts with the box on the right."""
        passed = self._sabot_passed | {holder}
        box = right_of(holder, self.config.boxes)
        if len(passed) >= self.config.boxes:
            return box
        while box in passed:
            box = right_of(box, self.config.boxes)
        return box

    def _coup_voidable(self) -> bool:
        return self.phase in (Phase.CARDS, Phase.RESULT) or (self.phase is Phase.BETS and bool(self.bets))

    def _supervisor_can_take_over(self) -> bool:
        return (self.phase in (Phase.BETS, Phase.CARDS) and self.sabot_holder is not None
                and not self.supervisor_dealing)

    def apply(self, event: Event) -> None:
        handler = getattr(self, "_on_" + event.type, None)
        if handler is None:
            raise ValueError(f"unknown Midi event {event.type!r}")
        handler(event)

    def _push_undo(self, event: Event, **extra) -> None:
        self._undo.append({"seq": event.seq, "type": event.type, **extra})

    def _on_shoe_opened(self, e: Event) -> None:
        p = e.payload
        self.shoe_no = p["shoe"]
        self._decks = p["decks"]
        self._size = p["size"]
        order = p["order"]
        self._order = split_order(order)
        self._left = Counter({r: 4 * self._decks for r in Rank})
        if self._order is not None and len(self._order) != self._size:
            raise ValueError("shoe order and size disagree")
        self._dealt = 0
        self._burn_card = None
        self._burned = None
        self._cut_out = False
        self._cut_seen = False
        self._shoe_coups = 0
        self.history = []
        self.shoe_end_reason = None
        self._undo = []
        self._last_dealer = None
        self.phase = Phase.BURN

    def _take(self, card: KeyedCard) -> None:
        self._left[card.rank] -= 1
        self._dealt += 1

    def _on_burn_card(self, e: Event) -> None:
        card = keyed(e.payload["rank"], e.payload["suit"])
        self._take(card)
        self._burn_card = card
        if e.payload["source"] == "keyed":
            self._push_undo(e)

    def _on_burned(self, e: Event) -> None:
        n = e.payload["count"]
        for text in e.payload["cards"] or ():
            self._left[Rank.parse(text[0])] -= 1
        self._dealt += n
        self._burned = n
        # A rigged drill shoe may be so short that the cut card comes out in the burn.
        self._cut_out = self._dealt > self._size - CARDS_BELOW_CUT
        self._undo = []
        self.phase = Phase.BETS

    def _on_bet_placed(self, e: Event) -> None:
        p = e.payload
        self.bets.setdefault(p["spot"], {})[BetKind(p["kind"])] = Decimal(p["amount"])
        self._push_undo(e, bets={str(p["spot"]): {p["kind"]: p["previous"]}})

    def _on_bet_removed(self, e: Event) -> None:
        p = e.payload
        spot_bets = self.bets[p["spot"]]
        del spot_bets[BetKind(p["kind"])]
        if not spot_bets:
            del self.bets[p["spot"]]
        self._push_undo(e, bets={str(p["spot"]): {p["kind"]: p["previous"]}})

    def _on_bets_repeated(self, e: Event) -> None:
        repeated = bets_from_json(e.payload["bets"])
        previous = {}
        for spot, bets in repeated.items():
            previous[str(spot)] = {k.value: "0" for k in bets}
            self.bets.setdefault(spot, {}).update(bets)
        self._push_undo(e, bets=previous)

    def _on_no_va_mas(self, e: Event) -> None:
        self._undo = []
        self._last_dealer = e.payload.get("sabot_holder")
        self.phase = Phase.CARDS

    def _on_card(self, e: Event) -> None:
        card = keyed(e.payload["rank"], e.payload["suit"])
        if self._dealt == self._size - CARDS_BELOW_CUT:
            self._cut_out = True  # the cut card came out before this card (Art. 8 §1)
        self._take(card)
        self.cards.append(card)
        if e.payload["source"] == "keyed":
            self._push_undo(e)
        if next_hand(self.cards) is None:
            self.phase = Phase.RESULT

    def _on_cut_card_seen(self, e: Event) -> None:
        self._cut_out = self._cut_seen = True

    def _on_entry_undone(self, e: Event) -> None:
        entry = self._undo.pop()
        kind = entry["type"]
        if kind in ("bet_placed", "bet_removed", "bets_repeated"):
            for spot_text, kinds in entry["bets"].items():
                spot = int(spot_text)
                for k, amount in kinds.items():
                    value = Decimal(amount)
                    spot_bets = self.bets.setdefault(spot, {})
                    if value:
                        spot_bets[BetKind(k)] = value
                    else:
                        spot_bets.pop(BetKind(k), None)
                if not self.bets[spot]:
                    del self.bets[spot]
        elif kind == "card":
            card = self.cards.pop()
            self._left[card.rank] += 1
            self._dealt -= 1
            if self._dealt == self._size - CARDS_BELOW_CUT and not self._cut_seen:
                self._cut_out = False  # the undone card was the one drawn after the cut card
            self.phase = Phase.CARDS
        elif kind == "burn_card":
            assert self._burn_card is not None
            self._left[self._burn_card.rank] += 1
            self._dealt -= 1
            self._burn_card = None

    def _on_card_corrected(self, e: Event) -> None:
        i = e.payload["index"]
        old, new = self.cards[i], KeyedCard.parse(e.payload["new"])
        self._left[old.rank] += 1
        self._left[new.rank] -= 1
        self.cards[i] = new
        self.phase = Phase.RESULT if next_hand(self.cards) is None else Phase.CARDS

    def _end_coup(self, result: CoupResult | None) -> None:
        self.history.append(CoupRecord(self.coup_no, result))
        if self.bets:
            self.last_bets = {s: dict(b) for s, b in self.bets.items()}
        self.bets = {}
        self.cards = []
        self._undo = []
        self._shoe_coups += 1
        self.coup_no += 1
        self.phase = Phase.BETS

    def _move_sabot(self, to: int | None) -> None:
        """The sabot leaves its holder: the holder has passed it in this round (Art. 9 §4)."""
        holder = self.sabot_holder
        if holder is not None and to != holder:
            self._sabot_passed.add(holder)
            if len(self._sabot_passed) >= self.config.boxes:
                self._sabot_passed = set()  # every box has had it: a new round
        self.sabot_holder = to

    def _pass_right(self) -> None:
        if self.sabot_holder is not None:
            self._move_sabot(self._sabot_next(self.sabot_holder))

    def _rotate_sabot(self, winner: Winner | None) -> None:
        """Art. 9 §4–6 and the customary decision, at the end of a coup."""
        if self.sabot_holder is None:
            return
        if self.supervisor_dealing:
            self._pass_right()  # §5
        elif self._cut_out:
            if winner is not Winner.BANCA:  # §6: the new shoe starts with the same box only after BANCA
                self._pass_right()
        elif self.config.sabot_rotation == "each-coup" or winner is Winner.PUNTO:
            self._pass_right()
        self.supervisor_dealing = False

    def _on_coup_settled(self, e: Event) -> None:
        result = resolve_keyed(self.cards)
        self.last_settlement = [SettlementLine.from_dict(d) for d in e.payload["lines"]]
        for line in self.last_settlement:
            if line.commission:
                self.commission_tally[line.spot] = self.commission_tally.get(line.spot, ZERO) + line.commission
        self._rotate_sabot(result.winner)
        self._end_coup(result)

    def _on_coup_voided(self, e: Event) -> None:
        self.last_settlement = [SettlementLine.from_dict(d) for d in e.payload["lines"]]
        if self.supervisor_dealing:
            self._pass_right()  # §5
        self.supervisor_dealing = False
        self._end_coup(None)

    def _on_shoe_ended(self, e: Event) -> None:
        self.shoe_end_reason = e.payload["reason"]
        self.bets = {}
        self.phase = Phase.SHOE_END
        # §6: a shoe ended without a BANCA win in its last coup (a NULO coup, the supervisor
        # ending it) passes the sabot right, unless the last coup already moved it on.
        last = self.history[-1].result if self.history else None
        if (e.payload["reason"] != "cut" and self.sabot_holder is not None
                and self.sabot_holder == self._last_dealer and (last is None or last.winner is not Winner.BANCA)):
            self._pass_right()

    def _on_sabot_assigned(self, e: Event) -> None:
        self.sabot_holder = e.payload["box"]

    def _on_sabot_passed(self, e: Event) -> None:
        self._move_sabot(e.payload["to"])

    def _on_commission_collected(self, e: Event) -> None:
        for box in e.payload["boxes"]:
            del self.commission_tally[int(box)]

    def _on_supervisor_deals(self, e: Event) -> None:
        self.supervisor_dealing = True
