"""The Madero table's state: the round, its boxes and cards, folded from the journal (Art. 7–9),
and what the screens read from it."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from pathlib import Path

import platformdirs

from shared.cards import Card, PokerDeck, make_rng
from shared.engine import TableEngine
from shared.errors import InputError, RuleViolation
from shared.journal import APP_NAME, Event, Journal
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.madero.meter import (
    MeterStore,
    SqliteMeterStore,
    movement_from_dict,
    reading_from_dict,
)
from shared.madero.settlement import (
    Bet,
    BoxBets,
    BoxInput,
    BoxStatus,
    MeterReading,
    RoundSettlement,
    settle_round,
    void_settlement,
)
from shared.money import ZERO
from shared.staff import StaffRegistry


class Phase(StrEnum):
    IDLE = "idle"
    """Between rounds: the first bet opens the next round."""
    BETS = "bets"
    """Bets open (Art. 7 §23)."""
    FIRST = "first"
    """Cards dealt; first round: voy (Flop = 2 × Ante) or me retiro (Art. 8 §26)."""
    FLOP = "flop"
    """Waiting for the burn and the three flop cards (Art. 8 §27)."""
    SECOND = "second"
    """Second round: Turn = Ante or paso (Art. 8 §27)."""
    TURN = "turn"
    """Waiting for the burn and the fourth community card (Art. 8 §28)."""
    THIRD = "third"
    """Third round: River = Ante or paso (Art. 8 §28)."""
    RIVER = "river"
    """Waiting for the burn and the fifth community card (Art. 8 §29)."""
    SHOWDOWN = "showdown"
    """The bank's two cards, then each active box's two (Art. 9 §30)."""
    SETTLEMENT = "settlement"
    """Everything known: the croupier pays, collects and confirms (Art. 9 §33–36)."""



BETTING_ROUND = {Phase.FIRST: 1, Phase.SECOND: 2, Phase.THIRD: 3}
ROUND_ARTICLE = {1: "Art. 8 §26", 2: "Art. 8 §27", 3: "Art. 8 §28"}
STREET_OF_BOARD = {3: "flop", 4: "turn", 5: "river"}
WAITING_PHASE = {"flop": Phase.FLOP, "turn": Phase.TURN, "river": Phase.RIVER}
# Event types that belong to the open round and are refolded after an undo.
ROUND_EVENTS = frozenset({
    "bet_placed", "bets_closed", "decision", "card_keyed", "community_dealt",
    "dead_hand", "collusion", "community_error", "card_corrected",
})
UNDOABLE = frozenset({"bet_placed", "decision", "card_keyed"})


@dataclass
class BoxState:
    number: int
    ante: Decimal = ZERO
    flop: Decimal = ZERO
    turn: Decimal = ZERO
    river: Decimal = ZERO
    bonus: Decimal = ZERO
    jackpot_credits: int = 0
    status: BoxStatus = BoxStatus.ACTIVE
    decisions: list[str | None] = field(default_factory=lambda: [None, None, None])
    """First, second, third round: "voy"/"fold", "bet"/"check", "bet"/"check"."""
    cards: list[Card] = field(default_factory=list)

    @property
    def in_play(self) -> bool:
        return self.ante > 0

    def bets(self) -> BoxBets:
        return BoxBets(self.ante, self.flop, self.turn, self.river, self.bonus, self.jackpot_credits)

    def staked(self, credit_value: Decimal) -> Decimal:
        return self.bets().total(credit_value)

    def to_dict(self) -> dict:
        return {
            "ante": str(self.ante), "flop": str(self.flop), "turn": str(self.turn),
            "river": str(self.river), "bonus": str(self.bonus), "jackpot_credits": self.jackpot_credits,
            "status": self.status.value, "decisions": list(self.decisions),
            "cards": [str(c) for c in self.cards],
        }


@dataclass
class RoundState:
    number: int
    deck: str
    phase: Phase = Phase.BETS
    boxes: dict[int, BoxState] = field(default_factory=dict)
    board: list[Card] = field(default_factory=list)
    bank: list[Card] = field(default_factory=list)
    burns: list[Card] = field(default_factory=list)
    carta_magica: Card | None = None
    jugador_afortunado: int | None = None
    no_burn_next: bool = False
    """After a community redeal the street is dealt without a burn (§39.5)."""
    exposed: list[Card] = field(default_factory=list)
    """Community cards exposed by error and put back into the deck (§39.4–39.5), for the record."""

    def seen(self) -> list[Card]:
        return [*self.board, *self.bank, *self.burns, *(c for b in self.boxes.values() for c in b.cards)]

    def deck_pool(self) -> PokerDeck:
        return PokerDeck(self.seen())

    def to_dict(self) -> dict:
        return {
            "number": self.number, "deck": self.deck, "phase": self.phase.value,
            "boxes": {str(n): b.to_dict() for n, b in sorted(self.boxes.items())},
            "board": [str(c) for c in self.board], "bank": [str(c) for c in self.bank],
            "burns": [str(c) for c in self.burns],
            "carta_magica": str(self.carta_magica) if self.carta_magica else None,
            "jugador_afortunado": self.jugador_afortunado, "no_burn_next": self.no_burn_next,
            "exposed": [str(c) for c in self.exposed],
        }


def default_meter_path() -> Path:
    """The machine's shared meter store: every Madero table process on it opens this file."""
    return Path(platformdirs.user_data_dir(APP_NAME)) / "madero-meters.sqlite"


def enum_value(cls, value):
    """An enum member from UI input; an unknown value is an InputError, not a crash."""
    try:
        return cls(value)
    except ValueError:
        options = ", ".join(m.value for m in cls)
        raise InputError(f"«{value}» no es válido ({options})", f"«{value}» is not valid ({options})") from None


def _card(text: str) -> Card:
    return Card.parse(text)


def _cards(texts: Iterable[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


class MaderoState(TableEngine):
    """The table's state: the fold of its journal, and what the screens read from it."""

    game = "madero"


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
    ) -> None:
        """``seed`` makes a training session's deals repeatable. ``draw_rng`` is for tests
        only: Carta Mágica and Jugador Afortunado are drawn with ``secrets.SystemRandom()``."""
        self.config = config
        self._deal_rng = make_rng(seed)
        self._draw_rng = draw_rng or secrets.SystemRandom()
        self.meter_store: MeterStore | None = None
        if config.progressive:
            if training:
                if meter_store is not None:
                    raise ValueError("training uses its own meter store, never a live one")
                self.meter_store = SqliteMeterStore(":memory:")
            else:
                self.meter_store = meter_store or SqliteMeterStore(default_meter_path())
            self.meter_store.register(config.table_id, config.seed, config.carrusel_id)
        self.last_settlement: RoundSettlement | None = None
        super().__init__(journal, staff, training=training)
        if self.meter_store is not None:
            # A stop between the journal entry and the meter leaves the last settled round's
            # movement to apply.
            self._apply_journaled_movement()

    # --- state -----------------------------------------------------------------------------

    def initial_state(self) -> None:
        self.round_no = 0
        self.r: RoundState | None = None
        self.round_start: dict | None = None
        self.round_log: list[dict] = []
        self.groups: dict[int, int] = {}
        """Box → the box whose cards that player looks at (§72); absent = on its own."""
        self.last_bets: dict[int, dict] = {}
        self.books = {k: ZERO for k in ("staked", "returned", "collected", "paid", "adjusted")}
        self.last_settlement_dict: dict | None = None
        self.last_settlement = None

    @property
    def round_id(self) -> int:
        return self.round_no

    @property
    def round_open(self) -> bool:
        return self.r is not None

    def round_id_for(self, type: str, payload: dict) -> int:
        if type == "round_started":
            return payload["round"]
        return self.round_no

    def snapshot_state(self) -> dict:
        return {
            "round_no": self.round_no,
            "round_start": self.round_start,
            "round_log": self.round_log,
            "round": self.r.to_dict() if self.r else None,
            "groups": {str(k): v for k, v in sorted(self.groups.items())},
            "last_bets": {str(k): v for k, v in sorted(self.last_bets.items())},
            "books": {k: str(v) for k, v in self.books.items()},
            "last_settlement": self.last_settlement_dict,
        }

    def restore_state(self, data: dict) -> None:
        self.round_no = data["round_no"]
        self.round_start = data["round_start"]
        self.round_log = list(data["round_log"])
        self.groups = {int(k): v for k, v in data["groups"].items()}
        self.last_bets = {int(k): v for k, v in data["last_bets"].items()}
        self.books = {k: Decimal(v) for k, v in data["books"].items()}
        self.last_settlement_dict = data["last_settlement"]
        self._rebuild_round()

    def _rebuild_round(self) -> None:
        self.r = None
        if self.round_start is None:
            return
        self.r = RoundState(self.round_start["round"], self.round_start["deck"])
        for entry in self.round_log:
            self._apply_round(entry["type"], entry["payload"])

    def apply(self, event: Event) -> None:
        t, p = event.type, event.payload
        if t == "round_started":
            self.round_no = p["round"]
            # The opening event's hash names the round uniquely, even across journals.
            self.round_start = dict(p) | {"hash": event.hash}
            self.round_log = []
            self.r = RoundState(p["round"], p["deck"])
        elif t in ROUND_EVENTS:
            self.round_log.append({"seq": event.seq, "type": t, "payload": p})
            self._apply_round(t, p)
        elif t == "entry_undone":
            self.round_log = [e for e in self.round_log if e["seq"] != p["seq"]]
            self._rebuild_round()
        elif t == "round_settled":
            settlement = self._settle(reading_from_dict(p["meter"]) if p["meter"] else None)
            self._close_round(settlement, p["settlement"])
        elif t == "round_voided":
            self._close_round(self._void_settlement(p["article"], p["reason"]), p["settlement"])
        elif t == "boxes_grouped":
            for b in p["boxes"]:
                self.groups.pop(b, None)
                if len(p["boxes"]) > 1:
                    self.groups[b] = p["seeing"]
        elif t == "adjustment":
            self.books["adjusted"] += Decimal(p["amount"])

    def _close_round(self, settlement: RoundSettlement, journaled: dict) -> None:
        """``journaled`` is the settlement as recorded: the books add what was actually
        settled, even if a later table setting would settle the same cards differently."""
        assert self.r is not None
        for key in ("staked", "returned", "collected", "paid"):
            self.books[key] += Decimal(journaled["totals"][key])
        if not settlement.void:
            self.last_bets = {
                n: {"ante": str(b.ante), "bonus": str(b.bonus), "jackpot_credits": b.jackpot_credits}
                for n, b in sorted(self.r.boxes.items()) if b.in_play
            }
        self.last_settlement = settlement
        self.last_settlement_dict = journaled
        self.r = None
        self.round_start = None
        self.round_log = []

    def _apply_round(self, t: str, p: dict) -> None:
        r = self.r
        assert r is not None
        if t == "bet_placed":
            box = r.boxes.setdefault(p["box"], BoxState(p["box"]))
            if p["bet"] == Bet.JACKPOT:
                box.jackpot_credits = int(p["amount"])
            else:
                setattr(box, p["bet"], Decimal(p["amount"]))
            if not box.ante and not box.bonus and not box.jackpot_credits:
                del r.boxes[p["box"]]
        elif t == "bets_closed":
            r.phase = Phase.FIRST
            r.carta_magica = _card(p["carta_magica"]) if p.get("carta_magica") else None
            r.jugador_afortunado = p.get("jugador_afortunado")
            for n, cards in (p.get("hole_cards") or {}).items():
                r.boxes[int(n)].cards = _cards(cards)
            r.bank = _cards(p.get("bank") or [])
        elif t == "decision":
            box = r.boxes[p["box"]]
            box.decisions[p["round"] - 1] = p["action"]
            amount = Decimal(p["amount"])
            if p["action"] == "fold":
                box.status = BoxStatus.FOLDED
            elif p["round"] == 1:
                box.flop = amount
            elif p["round"] == 2:
                box.turn = amount
            else:
                box.river = amount
        elif t == "card_keyed":
            card = _card(p["card"])
            if p["target"] == "board":
                r.board.append(card)
                if len(r.board) in STREET_OF_BOARD:  # the street is complete
                    r.no_burn_next = False
            elif p["target"] == "bank":
                r.bank.append(card)
            else:
                r.boxes[p["box"]].cards.append(card)
        elif t == "community_dealt":
            r.burns.extend(_cards(p["burn"]))
            r.board.extend(_cards(p["cards"]))
            r.no_burn_next = False
        elif t == "dead_hand":
            r.boxes[p["box"]].status = BoxStatus.DEAD
        elif t == "collusion":
            r.boxes[p["box"]].status = BoxStatus.VOIDED
        elif t == "community_error" and "reordered" in p:
            pass  # §39.2 put right before the flop was turned: no card and no bet changes
        elif t == "community_error":
            removed = set(_cards(p["removed"]))
            r.board = [c for c in r.board if c not in removed]
            r.exposed.extend(_cards(p["removed"]) + _cards(p["exposed"]))
            r.no_burn_next = True
            reopened = p.get("reopened_round")
            if reopened:
                for b in r.boxes.values():
                    b.decisions[reopened - 1] = None
                    if reopened == 2:
                        b.turn = ZERO
                    elif reopened == 3:
                        b.river = ZERO
            if p["street"]:
                r.phase = WAITING_PHASE[p["street"]]
        elif t == "card_corrected":
            old, new = _card(p["old"]), _card(p["new"])
            for seq in (r.board, r.bank, *(b.cards for b in r.boxes.values())):
                if old in seq:
                    seq[seq.index(old)] = new
        self._advance()

    def _advance(self) -> None:
        """Move to the next step once the current one is complete."""
        r = self.r
        assert r is not None
        while True:
            if r.phase in (Phase.IDLE, Phase.BETS, Phase.SETTLEMENT):
                return
            if not self._active_boxes():
                # Everyone folded or was put out: nothing more to deal (no card is needed to settle).
                r.phase = Phase.SETTLEMENT
                return
            nxt = {
                Phase.FIRST: Phase.FLOP if self.to_act is None else None,
                Phase.FLOP: Phase.SECOND if len(r.board) >= 3 else None,
                Phase.SECOND: Phase.TURN if self.to_act is None else None,
                Phase.TURN: Phase.THIRD if len(r.board) >= 4 else None,
                Phase.THIRD: Phase.RIVER if self.to_act is None else None,
                Phase.RIVER: Phase.SHOWDOWN if len(r.board) >= 5 else None,
                Phase.SHOWDOWN: Phase.SETTLEMENT if self.expected_card() is None else None,
            }[r.phase]
            if nxt is None:
                return
            r.phase = nxt

    # --- what the UI reads ----------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.r.phase if self.r else Phase.IDLE

    @property
    def boxes(self) -> dict[int, BoxState]:
        """The boxes with bets this round, by number (read only)."""
        return self.r.boxes if self.r else {}

    @property
    def board(self) -> list[Card]:
        return list(self.r.board) if self.r else []

    @property
    def bank_cards(self) -> list[Card]:
        return list(self.r.bank) if self.r else []

    @property
    def deck(self) -> str | None:
        """Which deck (A/B, Art. 2 §7) this round uses."""
        return self.r.deck if self.r else None

    @property
    def burns(self) -> list[Card]:
        """Burnt cards known to the console (training deals only; live burns are never keyed)."""
        return list(self.r.burns) if self.r else []

    @property
    def redeal_without_burn(self) -> bool:
        """The next street is dealt again without a burn (§39.5)."""
        return bool(self.r and self.r.no_burn_next)

    @property
    def carta_magica(self) -> Card | None:
        return self.r.carta_magica if self.r else None

    @property
    def jugador_afortunado(self) -> int | None:
        return self.r.jugador_afortunado if self.r else None

    def _active_boxes(self) -> list[int]:
        assert self.r is not None
        return [n for n, b in sorted(self.r.boxes.items()) if b.in_play and b.status is BoxStatus.ACTIVE]

    @property
    def to_act(self) -> int | None:
        """The box whose decision is due, clockwise from the first occupied box (§26)."""
        if self.r is None or self.r.phase not in BETTING_ROUND:
            return None
        k = BETTING_ROUND[self.r.phase] - 1
        for n in self._active_boxes():
            if self.r.boxes[n].decisions[k] is None:
                return n
        return None

    def blind(self, box: int) -> bool:
        """True when the box's player plays it without seeing its cards (§72)."""
        return box in self.groups and self.groups[box] != box

    def expected_card(self) -> tuple[str, int | None] | None:
        """Which card the croupier keys next at a live table: ("board"|"bank"|"box", box)."""
        r = self.r
        if r is None:
            return None
        if r.phase in (Phase.FLOP, Phase.TURN, Phase.RIVER):
            return ("board", None)
        if r.phase is Phase.SHOWDOWN:
            if len(r.bank) < 2:
                return ("bank", None)
            for n in self._active_boxes():
                if len(r.boxes[n].cards) < 2:
                    return ("box", n)
        return None


    def _box_inputs(self) -> list[BoxInput]:
        assert self.r is not None
        return [
            BoxInput(n, b.bets(), tuple(b.cards) if len(b.cards) == 2 else None, b.status)
            for n, b in sorted(self.r.boxes.items())
        ]

    def _settle(self, reading: MeterReading | None) -> RoundSettlement:
        r = self.r
        assert r is not None
        return settle_round(self.config, r.bank, r.board, self._box_inputs(), meter=reading,
                            carta_magica=r.carta_magica, jugador_afortunado=r.jugador_afortunado)

    def _void_settlement(self, article: str, reason: str) -> RoundSettlement:
        return void_settlement(self._box_inputs(), self.config, article=article,
                               reason_es=f"pase anulado: {reason}", reason_en=f"round void: {reason}")

    def _ref(self) -> str:
        """The round's key in the meter store (applying its settlement is idempotent)."""
        assert self.round_start is not None
        return f"{self.config.table_id}:{self.round_no}:{self.round_start['hash'][:16]}"

    def meter_reading(self) -> MeterReading | None:
        """The progressive meter now (the royal prize to display is ``linked_total``)."""
        return self.meter_store.read(self.config.table_id) if self.meter_store else None

    def pending_settlement(self) -> RoundSettlement:
        """What the settlement will be (phase SETTLEMENT), with the meter as it reads now."""
        if self.phase is not Phase.SETTLEMENT:
            raise RuleViolation("Art. 9 §33", "el pase aún no llegó al pago", "the round has not reached settlement")
        return self._settle(self._round_reading())

    def _round_reading(self) -> MeterReading | None:
        """The reading this round settles on: the meter now, unless a store written by an
        earlier version (meter first, journal second) already holds this round's movement —
        then the reading it was applied with, so the prize is the one the meter paid out."""
        if self.meter_store is None:
            return None
        return self.meter_store.settled_reading(self._ref()) or self.meter_reading()

    def _apply_journaled_movement(self) -> None:
        """Apply the last settled round's meter movement if the store lacks it (idempotent).

        Each settlement applies the one before it first, so only the last can be missing;
        one journaled without ``meter_ref`` was applied before it was journaled (the order
        of earlier versions). A training meter lives only as long as its session: a movement
        journaled in an earlier session is not applied."""
        assert self.meter_store is not None
        if self.training:
            return
        event = self.journal.last_event_of("round_settled")
        if event is None or "meter_ref" not in event.payload:
            return
        p = event.payload
        self.meter_store.apply_settlement(self.config.table_id, p["meter_ref"], reading_from_dict(p["meter"]),
                                          movement_from_dict(p["settlement"]["meter"]))

    def betting_began(self) -> bool:
        """The first «voy» or «me retiro» is recorded: the deal is over (§38)."""
        r = self.r
        return r is not None and r.phase not in (Phase.IDLE, Phase.BETS) and (
            r.phase is not Phase.FIRST or any(b.decisions[0] is not None for b in r.boxes.values()))

    def _community_street(self) -> str | None:
        """The last community street turned, while it can still be dealt again."""
        r = self.r
        if r is None or r.phase in (Phase.SETTLEMENT,) or not r.board:
            return None
        if r.phase is Phase.SHOWDOWN and (r.bank or any(b.cards for b in r.boxes.values())):
            return None
        # A flop still being keyed (1–2 cards) can be dealt again too.
        return "flop" if len(r.board) <= 3 else STREET_OF_BOARD[len(r.board)]

    def round_adjustments(self) -> list[Decimal]:
        """The supervisor's adjustments (§73) recorded during the open round (positive: paid to
        the box, negative: collected), for its settlement's totals; read from the journal."""
        if not self.round_log:
            return []
        return [Decimal(e.payload["amount"]) for e in self.journal.events(after=self.round_log[0]["seq"])
                if e.type == "adjustment" and e.payload["round"] == self.round_no]
