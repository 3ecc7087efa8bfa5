"""The Madero Poker Bonus table: the whole regulated round as an event-sourced engine.

Round (Resolución 132/2015, Anexo I, Art. 7–9): bets (Ante, Jackpot credits, Bonus) →
"No va más" → deal → first round (voy / me retiro) → flop → second round (Turn or paso)
→ turn card → third round (River or paso) → river card → showdown → settlement →
next round. Each command has ``verify_X`` (raises, changes nothing), ``can_X`` and
``X`` (verifies, journals one event — or a fixed few in one transaction — and applies
it with the same ``apply`` used on replay).

The round's state is rebuilt from its own entries (``round_log``): that is how "undo
the last entry" works without ever editing the journal — the undo is an entry too.

Live tables learn the cards as the croupier keys them in (community cards as turned,
the bank's and the active boxes' cards at showdown); a training table deals from its
own shuffled deck, burning where the regulation burns.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from pathlib import Path

import platformdirs

from shared.cards import FULL_DECK, Card, PokerDeck, make_rng
from shared.engine import TableEngine
from shared.errors import AuthError, ConsoleError, InputError, RuleViolation
from shared.journal import APP_NAME, Event, Journal
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.madero.meter import (
    MeterStore,
    MeterUnavailable,
    SqliteMeterStore,
    movement_from_dict,
    reading_from_dict,
    reading_to_dict,
)
from shared.madero.paytables import JACKPOT_CREDITS_MAX, JACKPOT_CREDITS_MIN
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
from shared.money import ZERO, fmt_money, to_money
from shared.staff import Actor, Credentials, Role, StaffRegistry
from shared.text import REASON


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


class Action(StrEnum):
    PLACE_BET = "place_bet"
    REPEAT_BETS = "repeat_bets"
    GROUP_BOXES = "group_boxes"
    NO_VA_MAS = "no_va_mas"
    FOLD = "fold"
    VOY = "voy"
    CHECK = "check"
    BET = "bet"
    KEY_CARD = "key_card"
    DEAL = "deal"
    CONFIRM_SETTLEMENT = "confirm_settlement"
    UNDO = "undo"
    # supervisor
    VOID_ROUND = "void_round"
    ARBITRATE_VOID = "arbitrate_void"
    DEAD_HAND = "dead_hand"
    COLLUSION = "collusion"
    COMMUNITY_ERROR = "community_error"
    FIX_FLOP_ORDER = "fix_flop_order"
    CORRECT_CARD = "correct_card"
    ADJUST = "adjust"


SUPERVISOR_ACTIONS = frozenset({Action.VOID_ROUND, Action.ARBITRATE_VOID, Action.DEAD_HAND, Action.COLLUSION,
                                Action.COMMUNITY_ERROR, Action.FIX_FLOP_ORDER, Action.CORRECT_CARD,
                                Action.ADJUST})


class VoidKind(StrEnum):
    MISDEAL = "misdeal"
    """Wrong number of cards, cards to a box without Ante, a card exposed in the deal (§37)."""
    BANK_CARD_EXPOSED = "bank_card_exposed"
    """A bank card exposed during the deal (§70)."""
    ARBITRATION = "arbitration"
    """After betting began the annex allows no void (§38): only management's arbitration
    (§73), by two supervisors, flagged in recall and the shift report."""


VOID_ARTICLES = {VoidKind.MISDEAL: "Art. 10 §37", VoidKind.BANK_CARD_EXPOSED: "Art. 14 §70",
                 VoidKind.ARBITRATION: "Art. 14 §73"}


class CommunityCase(StrEnum):
    """The community-card errors of Art. 10 §39."""

    EXTRA_EXPOSED = "39.1"
    """Extra community cards exposed: that street is dealt again."""
    FLOP_BURN = "39.2"
    """Flop without a burn or with two: corrected; dealt again if a card was exposed."""
    LATER_BURN = "39.3"
    """Missing or extra burn on a later street: dealt again, that street's bets returned."""
    EXPOSED_EARLY = "39.4"
    """A community card exposed before its betting round closed: not used."""


FLOP_ORDER = {
    0: ("Flop sin quemar: la primera carta pasa a quemada y la siguiente completa el flop; no se mezcla",
        "Flop without a burn: the first card becomes the burn, the next one completes the flop; no reshuffle"),
    2: ("Flop con dos quemadas: la segunda quemada pasa al flop y la última del flop vuelve al mazo; no se mezcla",
        "Flop with two burns: the second burn joins the flop, the last flop card goes back on the deck; no reshuffle"),
}
"""§39.2 caught before the flop is turned: the cards put in the order they should have had
(madero-rules.md), by the number of burns the croupier made."""

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


@dataclass(frozen=True)
class Prompt:
    """What the croupier does or announces now, in the regulation's words."""

    es: str
    en: str
    box: int | None = None
    """The box whose turn it is, if any."""
    article: str = ""

    def text(self, lang: str = "es") -> str:
        return self.en if lang == "en" else self.es


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


def _enum(cls, value):
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


class MaderoTable(TableEngine):
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
        """``seed`` makes a training session's deals and special-prize draws repeatable.
        ``draw_rng`` is for tests only: a live table draws Carta Mágica and Jugador
        Afortunado with ``secrets.SystemRandom()``."""
        self.config = config
        self._deal_rng = make_rng(seed)
        self._draw_rng = draw_rng if draw_rng is not None or training else secrets.SystemRandom()
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
        self._meter_behind = False  # a settled round's movement could not be applied yet
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

    @property
    def prompt(self) -> Prompt:
        r = self.r
        if r is None or r.phase is Phase.BETS:
            if r is not None and any(b.ante > 0 for b in r.boxes.values()):
                return Prompt("Hagan sus apuestas… «No va más» para cerrarlas",
                              "Place your bets… «No va más» closes them", article="Art. 7 §23–24")
            return Prompt("Hagan sus apuestas", "Place your bets", article="Art. 7 §23")
        box = self.to_act
        if r.phase is Phase.FIRST:
            return Prompt(f"Casilla {box}: ¿Voy o me retiro?", f"Box {box}: play (voy) or fold?",
                          box, "Art. 8 §26")
        if r.phase in (Phase.SECOND, Phase.THIRD):
            name = "Turn" if r.phase is Phase.SECOND else "River"
            return Prompt(f"Casilla {box}: ¿Apuesta {name} o paso?", f"Box {box}: bet {name} or check (paso)?",
                          box, ROUND_ARTICLE[BETTING_ROUND[r.phase]])
        last = self.round_log[-1] if self.round_log else None
        if r.phase is Phase.FLOP and last and last["type"] == "community_error" and "reordered" in last["payload"]:
            # §39.2 put right before the flop is turned: how to, until the flop is turned.
            return Prompt(*FLOP_ORDER[last["payload"]["reordered"]], article="Art. 10 §39.2")
        if r.phase in (Phase.FLOP, Phase.TURN, Phase.RIVER):
            what_es = {"flop": "las tres cartas del flop", "turn": "la cuarta carta comunitaria",
                       "river": "la quinta carta comunitaria"}[r.phase.value]
            what_en = {"flop": "the three flop cards", "turn": "the fourth community card",
                       "river": "the fifth community card"}[r.phase.value]
            article = {"flop": "Art. 8 §27", "turn": "Art. 8 §28", "river": "Art. 8 §29"}[r.phase.value]
            if r.no_burn_next:
                return Prompt(f"Mezcle, corte y reparta de nuevo {what_es}, sin quemar",
                              f"Shuffle, cut and deal {what_en} again, without a burn", article="Art. 10 §39.5")
            return Prompt(f"Queme una carta y descubra {what_es}", f"Burn one card and turn {what_en}",
                          article=article)
        if r.phase is Phase.SHOWDOWN:
            target, n = self.expected_card()
            if target == "bank":
                return Prompt("Descubra las dos cartas de la banca", "Turn the bank's two cards", article="Art. 9 §30")
            return Prompt(f"Casilla {n}: descubra sus dos cartas", f"Box {n}: turn the two cards", n, "Art. 9 §30")
        s = self.pending_settlement()
        if s.bank is not None:
            return Prompt(s.bank_es, s.bank_en, article="Art. 9 §32")
        return Prompt("Retire las apuestas perdidas y confirme", "Collect the lost bets and confirm",
                      article="Art. 9 §36")

    @property
    def announcement(self) -> Prompt | None:
        """What the croupier says for the last entry of the round ("No va más", "Paso"…)."""
        r = self.r
        if r is None or not self.round_log:
            return None
        t, p = self.round_log[-1]["type"], self.round_log[-1]["payload"]
        if t == "bets_closed":
            return Prompt("No va más", "No more bets", article="Art. 7 §24")
        if t == "decision":
            n = p["box"]
            amount = fmt_money(Decimal(p["amount"]))
            name = {1: "Flop", 2: "Turn", 3: "River"}[p["round"]]
            es, en = {
                "fold": ("me retiro", "folds"),
                "voy": (f"voy — Flop {amount}", f"plays — Flop {amount}"),
                "check": ("paso", "checks (paso)"),
                "bet": (f"{name} {amount}", f"{name} {amount}"),
            }[p["action"]]
            return Prompt(f"Casilla {n}: {es}", f"Box {n}: {en}", n, ROUND_ARTICLE[p["round"]])
        if t in ("card_keyed", "community_dealt") and r.board and r.phase not in (Phase.SHOWDOWN, Phase.SETTLEMENT):
            shown = " ".join(c.display for c in r.board)
            return Prompt(f"Mesa: {shown}", f"Board: {shown}", article="Art. 8 §27–29")
        return None

    def legal_actions(self) -> frozenset[Action]:
        """The commands allowed now (supervisor ones included when their phase allows)."""
        acts = set()
        phase = self.phase
        if phase in (Phase.IDLE, Phase.BETS):
            acts |= {Action.PLACE_BET, Action.GROUP_BOXES}
            if self.can_repeat_bets():
                acts.add(Action.REPEAT_BETS)
            if self.can_no_va_mas():
                acts.add(Action.NO_VA_MAS)
        if phase is Phase.FIRST:
            acts |= {Action.FOLD, Action.VOY}
        if phase in (Phase.SECOND, Phase.THIRD):
            acts |= {Action.CHECK, Action.BET}
        if phase in (Phase.FLOP, Phase.TURN, Phase.RIVER, Phase.SHOWDOWN):
            acts.add(Action.DEAL if self.training else Action.KEY_CARD)
        if phase is Phase.SETTLEMENT:
            acts.add(Action.CONFIRM_SETTLEMENT)
        if self.can_undo():
            acts.add(Action.UNDO)
        if phase not in (Phase.IDLE, Phase.BETS):
            acts |= {Action.ARBITRATE_VOID if self.betting_began() else Action.VOID_ROUND,
                     Action.DEAD_HAND, Action.COLLUSION, Action.CORRECT_CARD}
            if self._community_street() is not None or phase in BETTING_ROUND or phase is Phase.FLOP:
                acts.add(Action.COMMUNITY_ERROR)
            if phase is Phase.FLOP and not self.board:
                acts.add(Action.FIX_FLOP_ORDER)
        acts.add(Action.ADJUST)
        return frozenset(acts)

    def can(self, action: Action) -> bool:
        return action in self.legal_actions()

    # --- helpers ----------------------------------------------------------------------------------

    def _actor(self) -> Actor | None:
        """Who a croupier command is journaled as; a live table needs a croupier on duty."""
        if self.training:
            return self.croupier or Actor("trainee", Role.TRAINEE)
        if self.croupier is None:
            raise AuthError("no hay croupier de turno: abra el turno", "no croupier on duty: open the shift")
        return self.croupier

    def _need_phase(self, allowed: Iterable[Phase], article: str, es: str, en: str) -> None:
        if self.phase not in set(allowed):
            raise RuleViolation(article, es, en)

    def _need_box(self, box: int) -> BoxState:
        if self.r is None or box not in self.r.boxes or not self.r.boxes[box].in_play:
            raise RuleViolation("Art. 1 §2", f"la casilla {box} no tiene Ante en este pase",
                                f"box {box} has no Ante this round")
        return self.r.boxes[box]

    def _supervisor(self, creds: Credentials | None, reason: str) -> Actor:
        if not reason or not reason.strip():
            raise InputError("indique el motivo", "a reason is required")
        REASON.check(reason.strip())
        return self.authorize(creds, Role.SUPERVISOR)

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
        """The progressive meter now (the royal prize to display is ``linked_total``), with the
        last settled round's movement applied first if it could not be at its settlement."""
        if self._meter_behind:
            try:
                self._apply_journaled_movement()
                self._meter_behind = False
            except MeterUnavailable:
                pass  # still unwritable: the store's value is shown and the next read tries again
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

    # --- bets (Art. 6–7, §42, §45, §61, §64) ------------------------------------------------------

    def verify_place_bet(self, box: int, bet: Bet | str, amount: object) -> tuple[Bet, Decimal | int]:
        bet = _enum(Bet, bet)
        self._need_phase((Phase.IDLE, Phase.BETS), "Art. 7 §24",
                         "«No va más»: las apuestas están cerradas", "«No va más»: bets are closed")
        if not 1 <= box <= self.config.boxes:
            raise RuleViolation("Art. 2 §8", f"la mesa tiene casillas 1 a {self.config.boxes}",
                                f"the table has boxes 1 to {self.config.boxes}")
        current = self.r.boxes.get(box) if self.r else None
        cfg = self.config
        if not to_money(amount) and (current is None or not current.bets().stake(bet, cfg.jackpot_credit_value)):
            raise InputError("no hay apuesta que retirar", "there is no bet to remove")
        if bet is Bet.JACKPOT:
            credits = int(to_money(amount))
            if Decimal(credits) != to_money(amount):
                raise InputError("los créditos son un número entero", "credits are a whole number")
            if credits and not JACKPOT_CREDITS_MIN <= credits <= JACKPOT_CREDITS_MAX:
                raise RuleViolation("Art. 11 §42", "el Jackpot se juega con 1 a 5 créditos",
                                    "the Jackpot takes 1 to 5 credits")
            if credits and (current is None or not current.ante):
                raise RuleViolation("Art. 11 §45", "el Jackpot exige haber apostado el Ante",
                                    "the Jackpot needs an Ante first")
            return bet, credits
        value = to_money(amount)
        if value % cfg.chip:
            raise RuleViolation("Art. 6 §20", f"las apuestas son en fichas de {fmt_money(cfg.chip)}",
                                f"bets are in chips of {fmt_money(cfg.chip)}")
        if bet is Bet.ANTE:
            if value:
                self._verify_ante(value)
            if not value and current is not None and (current.bonus or current.jackpot_credits):
                raise RuleViolation("Art. 11 §45", "retire antes el Jackpot y el Bonus: exigen el Ante",
                                    "remove the Jackpot and the Bonus first: they need the Ante")
            return bet, value
        if bet is Bet.BONUS:
            if not cfg.bonus_enabled and value:
                raise RuleViolation("Art. 2 §11", "esta mesa no ofrece la apuesta Bonus",
                                    "this table does not offer the Bonus bet")
            if value and (current is None or not current.ante):
                raise RuleViolation("Art. 13 §64", "el Bonus exige haber apostado el Ante",
                                    "the Bonus needs an Ante first")
            if value and not cfg.bonus_minimum <= value <= cfg.bonus_maximum:
                raise RuleViolation("Art. 13 §61",
                                    f"el Bonus va de {fmt_money(cfg.bonus_minimum)} a {fmt_money(cfg.bonus_maximum)}",
                                    f"the Bonus ranges from {fmt_money(cfg.bonus_minimum)} to {fmt_money(cfg.bonus_maximum)}")
            return bet, value
        raise RuleViolation("Art. 8 §26", f"la apuesta {bet.value} se hace en su ronda, no antes del reparto",
                            f"the {bet.value} bet is made in its betting round, not before the deal")

    def _verify_ante(self, value: Decimal) -> None:
        cfg = self.config
        if not cfg.minimum <= value <= cfg.maximum:
            raise RuleViolation("Art. 6 §20", f"el Ante va de {fmt_money(cfg.minimum)} a {fmt_money(cfg.maximum)}",
                                f"the Ante ranges from {fmt_money(cfg.minimum)} to {fmt_money(cfg.maximum)}")
        if value > cfg.ante_maximum:
            # §20: the Flop, exactly 2 × Ante (§26.2), must lie within the maximum too.
            raise RuleViolation(
                "Art. 6 §20",
                f"Ante máx. {fmt_money(cfg.ante_maximum)}: su Flop (2 × Ante, §26.2) pasaría {fmt_money(cfg.maximum)}",
                f"Ante max. {fmt_money(cfg.ante_maximum)}: its Flop (2 × Ante, §26.2) would exceed "
                f"{fmt_money(cfg.maximum)}")

    def can_place_bet(self, box: int, bet: Bet | str, amount: object) -> bool:
        return self._can(self.verify_place_bet, box, bet, amount)

    def _start_items(self) -> list[tuple[str, dict]]:
        if self.r is not None:
            return []
        number = self.round_no + 1
        deck = ("A" if number % 2 else "B") if self.config.alternate_decks else "A"
        return [("round_started", {"round": number, "deck": deck})]

    def place_bet(self, box: int, bet: Bet | str, amount: object) -> None:
        """Set (replace) one bet of a box; 0 removes it. Jackpot ``amount`` is in credits."""
        bet, value = self.verify_place_bet(box, bet, amount)
        actor = self._actor()
        self.record_many([*self._start_items(), ("bet_placed", {"box": box, "bet": bet.value, "amount": str(value)})],
                         actor)

    def last_stake(self, box: int, bet: Bet) -> Decimal | None:
        """The box's ``bet`` in the last settled round (Jackpot in credits), None if it had none:
        what the croupier repeats for that box with ``enter`` and nothing typed (``place_bet``
        checks it against today's limits like any amount)."""
        value = self.last_bets.get(box, {}).get("jackpot_credits" if bet is Bet.JACKPOT else bet.value)
        return Decimal(value) if value and Decimal(value) else None

    def _repeat_items(self) -> list[tuple[str, dict]]:
        items = []
        for n, bets in sorted(self.last_bets.items()):
            if n > self.config.boxes:
                continue
            for bet in (Bet.ANTE, Bet.BONUS, Bet.JACKPOT):
                key = "jackpot_credits" if bet is Bet.JACKPOT else bet.value
                value = bets[key]
                if value and Decimal(value):
                    items.append(("bet_placed", {"box": n, "bet": bet.value, "amount": str(value)}))
        return items

    def verify_repeat_bets(self) -> None:
        self._need_phase((Phase.IDLE, Phase.BETS), "Art. 7 §24",
                         "«No va más»: las apuestas están cerradas", "«No va más»: bets are closed")
        if not self._repeat_items():
            raise InputError("no hay apuestas anteriores para repetir", "no previous bets to repeat")
        if self.r is not None and any(b.in_play or b.bonus or b.jackpot_credits for b in self.r.boxes.values()
                                      if b.number in self.last_bets):
            raise InputError("esas casillas ya tienen apuestas", "those boxes already have bets")
        cfg = self.config
        for _, p in self._repeat_items():
            value = Decimal(p["amount"])
            if p["bet"] == "ante":
                self._verify_ante(value)
            if p["bet"] == "bonus" and not (cfg.bonus_enabled and cfg.bonus_minimum <= value <= cfg.bonus_maximum):
                raise RuleViolation("Art. 13 §61", "el Bonus anterior no es válido hoy",
                                    "the previous Bonus is not valid now")

    def can_repeat_bets(self) -> bool:
        return self._can(self.verify_repeat_bets)

    def repeat_bets(self) -> None:
        """Place again the Ante, Bonus and Jackpot of every box of the last settled round."""
        self.verify_repeat_bets()
        actor = self._actor()
        self.record_many([*self._start_items(), *self._repeat_items()], actor)

    def verify_group_boxes(self, boxes: list[int], seeing: int) -> None:
        self._need_phase((Phase.IDLE, Phase.BETS), "Art. 14 §72",
                         "los casilleros se agrupan antes del reparto", "boxes are grouped before the deal")
        if seeing not in boxes or any(not 1 <= b <= self.config.boxes for b in boxes) or len(set(boxes)) != len(boxes):
            raise InputError("indique casillas válidas y la que el jugador mira",
                             "give valid boxes and the one whose cards the player sees")

    def can_group_boxes(self, boxes: list[int], seeing: int) -> bool:
        return self._can(self.verify_group_boxes, boxes, seeing)

    def group_boxes(self, boxes: list[int], seeing: int) -> None:
        """One player plays ``boxes`` and may look only at ``seeing``'s cards; the rest are
        blind (§72). A single box ungroups it."""
        self.verify_group_boxes(boxes, seeing)
        self.record("boxes_grouped", {"boxes": sorted(boxes), "seeing": seeing}, self._actor())

    # --- no va más and the deal (§24) ----------------------------------------------------------------

    def verify_no_va_mas(self) -> None:
        self._need_phase((Phase.BETS,), "Art. 7 §23", "no hay apuestas que cerrar", "there are no bets to close")
        assert self.r is not None
        if not any(b.ante > 0 for b in self.r.boxes.values()):
            raise RuleViolation("Art. 1 §2", "hace falta al menos un Ante para repartir",
                                "at least one Ante is needed to deal")

    def can_no_va_mas(self) -> bool:
        return self._can(self.verify_no_va_mas)

    def reseed_training_deal(self, seed: int) -> None:
        """Training: the virtual cards from now on come from ``make_rng(seed)`` (a graded
        session without a seed picks the deal that trains its trainee most). Every card
        dealt is journaled, so a replay never needs the generator."""
        if not self.training:
            raise RuleViolation("Art. 7 §24", "en mesa real las cartas se teclean al descubrirse",
                                "at a live table cards are keyed in as they are turned")
        self._deal_rng = make_rng(seed)

    def no_va_mas(self) -> None:
        """Close the bets; draw Carta Mágica and Jugador Afortunado on a progressive table
        (§55–57); in training, deal two cards to each box with an Ante, the bank last."""
        self.verify_no_va_mas()
        actor = self._actor()
        r = self.r
        assert r is not None
        payload: dict = {}
        if self.config.progressive:
            draws = self._draw_rng or self._deal_rng  # training: the session's generator
            payload["carta_magica"] = str(draws.choice(FULL_DECK))
            payload["jugador_afortunado"] = draws.randint(1, self.config.boxes)
        if self.training:
            cards = r.deck_pool().shuffled_unseen(self._deal_rng)
            order = [n for n, b in sorted(r.boxes.items()) if b.in_play]
            # Two rounds of one card each, clockwise, the bank last (§24).
            hole: dict[str, list[str]] = {str(n): [] for n in order}
            bank: list[str] = []
            for _ in range(2):
                for n in order:
                    hole[str(n)].append(str(cards.pop()))
                bank.append(str(cards.pop()))
            payload["hole_cards"] = hole
            payload["bank"] = bank
        self.record("bets_closed", payload, actor)

    # --- decisions (§26–28) ---------------------------------------------------------------------------

    def _verify_turn(self, box: int, rounds: tuple[int, ...], what_es: str, what_en: str) -> BoxState:
        phase = self.phase
        if phase not in BETTING_ROUND or BETTING_ROUND[phase] not in rounds:
            article = ROUND_ARTICLE[rounds[0]]
            raise RuleViolation(article, f"ahora no corresponde {what_es}", f"{what_en} is not due now")
        b = self._need_box(box)
        if b.status is not BoxStatus.ACTIVE:
            raise RuleViolation("Art. 8 §26.1", f"la casilla {box} ya no está en juego", f"box {box} is out of the round")
        if self.to_act != box:
            raise RuleViolation(ROUND_ARTICLE[BETTING_ROUND[phase]],
                                f"es el turno de la casilla {self.to_act} (sentido de las agujas del reloj)",
                                f"it is box {self.to_act}'s turn (clockwise)")
        return b

    def verify_fold(self, box: int) -> None:
        self._verify_turn(box, (1,), "retirarse", "folding")

    def can_fold(self, box: int) -> bool:
        return self._can(self.verify_fold, box)

    def fold(self, box: int) -> None:
        """«Me retiro»: the Ante goes to the bank, Jackpot and Bonus rights are lost (§26.1, §46, §65)."""
        self.verify_fold(box)
        self.record("decision", {"box": box, "round": 1, "action": "fold", "amount": "0"}, self._actor())

    def verify_voy(self, box: int, amount: object = None) -> Decimal:
        b = self._verify_turn(box, (1,), "«voy»", "«voy»")
        need = 2 * b.ante
        if amount is not None and to_money(amount) != need:
            raise RuleViolation("Art. 8 §26.2", f"la apuesta Flop debe ser exactamente el doble del Ante ({fmt_money(need)})",
                                f"the Flop bet must be exactly twice the Ante ({fmt_money(need)})")
        return need

    def can_voy(self, box: int, amount: object = None) -> bool:
        return self._can(self.verify_voy, box, amount)

    def voy(self, box: int, amount: object = None) -> None:
        """«Voy»: the Flop bet, exactly 2 × Ante (§26.2)."""
        need = self.verify_voy(box, amount)
        self.record("decision", {"box": box, "round": 1, "action": "voy", "amount": str(need)}, self._actor())

    def verify_check(self, box: int) -> None:
        self._verify_turn(box, (2, 3), "pasar", "checking")

    def can_check(self, box: int) -> bool:
        return self._can(self.verify_check, box)

    def check(self, box: int) -> None:
        """«Paso»: no Turn/River bet; the croupier puts a marker on the box (§27.1, §28.1)."""
        self.verify_check(box)
        self.record("decision", {"box": box, "round": BETTING_ROUND[self.phase], "action": "check", "amount": "0"},
                    self._actor())

    def verify_bet(self, box: int, amount: object = None) -> Decimal:
        b = self._verify_turn(box, (2, 3), "apostar Turn/River", "a Turn/River bet")
        name = "Turn" if self.phase is Phase.SECOND else "River"
        article = "Art. 8 §27.2" if self.phase is Phase.SECOND else "Art. 8 §28.2"
        if amount is not None and to_money(amount) != b.ante:
            raise RuleViolation(article, f"la apuesta {name} es igual al Ante ({fmt_money(b.ante)})",
                                f"the {name} bet equals the Ante ({fmt_money(b.ante)})")
        return b.ante

    def can_bet(self, box: int, amount: object = None) -> bool:
        return self._can(self.verify_bet, box, amount)

    def bet(self, box: int, amount: object = None) -> None:
        """The Turn (second round) or River (third round) bet: exactly the Ante (§27.2, §28.2)."""
        need = self.verify_bet(box, amount)
        self.record("decision", {"box": box, "round": BETTING_ROUND[self.phase], "action": "bet",
                                 "amount": str(need)}, self._actor())

    # --- cards ----------------------------------------------------------------------------------------

    def verify_key_card(self, card: Card | str) -> Card:
        if self.training:
            raise RuleViolation("Art. 7 §24", "en entrenamiento la consola reparte: use «repartir»",
                                "in training the console deals: use «deal»")
        card = Card.parse(card) if isinstance(card, str) else card
        target = self.expected_card()
        if target is None:
            article = {Phase.FIRST: "Art. 8 §27", Phase.SECOND: "Art. 8 §28", Phase.THIRD: "Art. 8 §29"}.get(
                self.phase, "Art. 7 §24")
            raise RuleViolation(article, "ahora no se descubre ninguna carta: termine la ronda de apuestas",
                                "no card is turned now: finish the betting round")
        assert self.r is not None
        self.r.deck_pool().verify_take(card)
        return card

    def can_key_card(self, card: Card | str) -> bool:
        return self._can(self.verify_key_card, card)

    def key_card(self, card: Card | str) -> None:
        """A live card as it is turned: the next community card, or at the showdown the
        bank's two cards then each active box's two (§27–30)."""
        card = self.verify_key_card(card)
        target, box = self.expected_card()
        self.record("card_keyed", {"card": str(card), "target": target, "box": box}, self._actor())

    def verify_deal(self) -> None:
        if not self.training:
            raise RuleViolation("Art. 7 §24", "en mesa real las cartas se teclean al descubrirse",
                                "at a live table cards are keyed in as they are turned")
        self._need_phase((Phase.FLOP, Phase.TURN, Phase.RIVER), "Art. 8 §27",
                         "ahora no se reparten cartas comunitarias", "no community card is dealt now")

    def can_deal(self) -> bool:
        return self._can(self.verify_deal)

    def deal(self) -> None:
        """Training: burn one card (unless §39.5 says not to) and turn the street's cards."""
        self.verify_deal()
        r = self.r
        assert r is not None
        cards = r.deck_pool().shuffled_unseen(self._deal_rng)
        burn = [] if r.no_burn_next else [str(cards.pop())]
        n = 3 if r.phase is Phase.FLOP else 1
        dealt = [str(cards.pop()) for _ in range(n)]
        self.record("community_dealt", {"street": r.phase.value, "burn": burn, "cards": dealt}, self._actor())

    # --- settlement (§33–36) ------------------------------------------------------------------------

    def verify_confirm_settlement(self) -> None:
        self._need_phase((Phase.SETTLEMENT,), "Art. 9 §30",
                         "faltan cartas o decisiones antes del pago", "cards or decisions are still missing before settlement")

    def can_confirm_settlement(self) -> bool:
        return self._can(self.verify_confirm_settlement)

    def confirm_settlement(self) -> RoundSettlement:
        """The croupier has paid, collected and returned as shown: the round ends (§36).

        On a progressive table the settlement is journaled first, with the meter reading it
        was computed from and its meter movement, then the movement is applied to the meter
        (once, by round), all while the meter store is held: the meter only ever holds what
        the journal says (see ``shared.madero.meter``). A meter that cannot be written
        refuses the settlement (MeterUnavailable) unless the round is already journaled: then
        the round is settled, and its movement is applied at the next read of the meter (the
        header's), before the next settlement, or at the next start."""
        self.verify_confirm_settlement()
        actor = self._actor()
        if self.meter_store is None:
            self._record_settlement(None, actor)
        else:
            self._apply_journaled_movement()
            journaled = False
            try:
                with self.meter_store.hold():
                    reading = self._round_reading()
                    assert reading is not None
                    ref = self._ref()
                    settlement = self._record_settlement(reading, actor, ref)
                    journaled = True
                    assert settlement.meter is not None
                    self.meter_store.apply_settlement(self.config.table_id, ref, reading, settlement.meter)
            except MeterUnavailable:
                if not journaled:
                    raise
                self._meter_behind = True
        assert self.last_settlement is not None
        return self.last_settlement

    def _record_settlement(self, reading: MeterReading | None, actor: Actor | None,
                           ref: str | None = None) -> RoundSettlement:
        settlement = self._settle(reading)
        # The full settlement is journaled for recall and audit; replay recomputes it
        # from the round's cards and bets and the meter reading.
        payload: dict = {"meter": reading_to_dict(reading) if reading else None, "settlement": settlement.to_dict()}
        if ref is not None:
            payload["meter_ref"] = ref
        self.record("round_settled", payload, actor)
        return settlement

    # --- undo --------------------------------------------------------------------------------------

    def verify_undo(self) -> dict:
        if self.r is None or not self.round_log:
            raise InputError("no hay nada que deshacer en este pase", "nothing to undo in this round")
        last = self.round_log[-1]
        if last["type"] not in UNDOABLE:
            raise InputError(
                "la última entrada no se deshace (cierre de apuestas, reparto o acción de supervisor)",
                "the last entry cannot be undone (bets closed, a deal or a supervisor action)",
            )
        return last

    def can_undo(self) -> bool:
        return self._can(self.verify_undo)

    def undo(self) -> None:
        """Withdraw the last bet, decision or keyed card of this round (a new entry; history stays)."""
        last = self.verify_undo()
        self.record("entry_undone", {"seq": last["seq"], "type": last["type"]}, self._actor())

    # --- supervisor: irregularities (Art. 10, Art. 14) ------------------------------------------------

    def _verify_after_deal(self) -> None:
        self._need_phase(tuple(p for p in Phase if p not in (Phase.IDLE, Phase.BETS)), "Art. 10 §38",
                         "no hay reparto en curso", "no deal in progress")

    def betting_began(self) -> bool:
        """The first «voy» or «me retiro» is recorded: the deal is over (§38)."""
        r = self.r
        return r is not None and r.phase not in (Phase.IDLE, Phase.BETS) and (
            r.phase is not Phase.FIRST or any(b.decisions[0] is not None for b in r.boxes.values()))

    def verify_void_round(self, creds: Credentials | None, kind: VoidKind | str, reason: str,
                          second: Credentials | None = None) -> tuple[Actor, Actor | None]:
        kind = _enum(VoidKind, kind)
        self._verify_after_deal()
        if kind is not VoidKind.ARBITRATION:
            if self.betting_began():
                raise RuleViolation(
                    "Art. 10 §38",
                    "las apuestas ya empezaron: no hay nuevo reparto y una mano irregular es mano muerta; "
                    "anular el pase es un arbitraje de la gerencia (§73) con dos supervisores",
                    "betting has begun: no new deal, an irregular hand is a dead hand; voiding the round "
                    "is an arbitration of management (§73) by two supervisors")
            return self._supervisor(creds, reason), None
        if not self.betting_began():
            raise RuleViolation("Art. 14 §73", "durante el reparto el pase se anula por §37 o §70",
                                "during the deal the round is voided under §37 or §70")
        actor = self._supervisor(creds, reason)
        if second is None:
            raise AuthError("el arbitraje exige un segundo supervisor (ID y PIN)",
                            "the arbitration needs a second supervisor (ID and PIN)")
        other = self.authorize(second, Role.SUPERVISOR)
        if other.staff_id == actor.staff_id:
            raise AuthError("el segundo supervisor debe ser otra persona",
                            "the second supervisor must be another person")
        return actor, other

    def can_void_round(self, creds: Credentials | None, kind: VoidKind | str, reason: str,
                       second: Credentials | None = None) -> bool:
        return self._can(self.verify_void_round, creds, kind, reason, second)

    def void_round(self, creds: Credentials | None, kind: VoidKind | str, reason: str,
                   second: Credentials | None = None) -> RoundSettlement:
        """Misdeal (§37) or a bank card exposed in the deal (§70), until the first «voy» or
        «me retiro»; after that only as management's arbitration (§73) with ``second``, a
        second supervisor. The round is void, every bet returned."""
        actor, other = self.verify_void_round(creds, kind, reason, second)
        kind = VoidKind(kind)
        article, reason = VOID_ARTICLES[kind], reason.strip()
        settlement = self._void_settlement(article, reason)
        payload = {"kind": kind.value, "article": article, "reason": reason, "settlement": settlement.to_dict()}
        if other is not None:
            payload |= {"arbitration": True, "second_supervisor": other.staff_id}
        self.record("round_voided", payload, actor)
        assert self.last_settlement is not None
        return self.last_settlement

    def _verify_box_out(self, creds, box: int, reason: str) -> Actor:
        self._verify_after_deal()
        b = self._need_box(box)
        if b.status is not BoxStatus.ACTIVE:
            raise RuleViolation("Art. 10 §38", f"la casilla {box} ya no está en juego", f"box {box} is already out")
        return self._supervisor(creds, reason)

    def verify_dead_hand(self, creds: Credentials | None, box: int, reason: str) -> Actor:
        return self._verify_box_out(creds, box, reason)

    def can_dead_hand(self, creds: Credentials | None, box: int, reason: str) -> bool:
        return self._can(self.verify_dead_hand, creds, box, reason)

    def dead_hand(self, creds: Credentials | None, box: int, reason: str) -> None:
        """Irregular hand once betting began: no redeal, the box is out and its bets lost (§38)."""
        actor = self.verify_dead_hand(creds, box, reason)
        self.record("dead_hand", {"box": box, "article": "Art. 10 §38", "reason": reason.strip()}, actor)

    def verify_collusion(self, creds: Credentials | None, box: int, reason: str) -> Actor:
        return self._verify_box_out(creds, box, reason)

    def can_collusion(self, creds: Credentials | None, box: int, reason: str) -> bool:
        return self._can(self.verify_collusion, creds, box, reason)

    def collusion(self, creds: Credentials | None, box: int, reason: str) -> None:
        """Players exchanged information: the hand is void, its bets returned (§69, Decision)."""
        actor = self.verify_collusion(creds, box, reason)
        self.record("collusion", {"box": box, "article": "Art. 14 §69", "reason": reason.strip()}, actor)

    def _community_street(self) -> str | None:
        """The last community street turned, while it can still be dealt again."""
        r = self.r
        if r is None or r.phase in (Phase.SETTLEMENT,) or not r.board:
            return None
        if r.phase is Phase.SHOWDOWN and (r.bank or any(b.cards for b in r.boxes.values())):
            return None
        # A flop still being keyed (1–2 cards) can be dealt again too.
        return "flop" if len(r.board) <= 3 else STREET_OF_BOARD[len(r.board)]

    def verify_community_error(self, creds: Credentials | None, case: CommunityCase | str, reason: str,
                               exposed: Iterable[Card | str] = ()) -> tuple[Actor, dict]:
        case = _enum(CommunityCase, case)
        self._verify_after_deal()
        r = self.r
        assert r is not None
        exposed_cards = [Card.parse(c) if isinstance(c, str) else c for c in exposed]
        pool = r.deck_pool()
        for c in exposed_cards:
            pool.verify_take(c)
        article = f"Art. 10 §{case.value}"
        if case is CommunityCase.EXPOSED_EARLY:
            if r.phase not in BETTING_ROUND:
                raise RuleViolation(article, "sólo aplica durante una ronda de apuestas",
                                    "applies only during a betting round")
            if not exposed_cards:
                raise InputError("indique la carta expuesta", "name the exposed card")
            payload = {"case": case.value, "article": article, "street": None, "removed": [],
                       "exposed": [str(c) for c in exposed_cards], "reopened_round": None, "returned": {}}
        elif case is CommunityCase.FLOP_BURN and r.phase is Phase.FLOP and not r.board:
            # Caught before the flop was turned: only an exposed card makes it be dealt again.
            if not exposed_cards:
                raise InputError("sin carta expuesta el flop se ordena sin mezclar (§39.2): use «ordenar el flop»",
                                 "with no card exposed the flop is put in order without reshuffling (§39.2): "
                                 "use «put the flop in order»")
            payload = {"case": case.value, "article": article, "street": None, "removed": [],
                       "exposed": [str(c) for c in exposed_cards], "reopened_round": None, "returned": {}}
        else:
            street = self._community_street()
            if street is None:
                raise RuleViolation(article, "no hay cartas comunitarias que repartir de nuevo",
                                    "there are no community cards to deal again")
            if case is CommunityCase.FLOP_BURN and street != "flop":
                raise RuleViolation(article, "el caso §39.2 es del flop; use §39.3 para turn y river",
                                    "case §39.2 is the flop's; use §39.3 for turn and river")
            if case is CommunityCase.LATER_BURN and street == "flop":
                raise RuleViolation(article, "para el flop use §39.2", "for the flop use §39.2")
            removed = {"flop": r.board[:3], "turn": r.board[3:4], "river": r.board[4:5]}[street]
            # Bets made after the faulty street was turned are returned and asked again (§39.3).
            reopened = {"flop": 2, "turn": 3, "river": None}[street]
            returned = {}
            if reopened:
                for n, b in sorted(r.boxes.items()):
                    amount = b.turn if reopened == 2 else b.river
                    if amount:
                        returned[str(n)] = str(amount)
            payload = {"case": case.value, "article": article, "street": street,
                       "removed": [str(c) for c in removed], "exposed": [str(c) for c in exposed_cards],
                       "reopened_round": reopened, "returned": returned}
        return self._supervisor(creds, reason), payload

    def can_community_error(self, creds: Credentials | None, case: CommunityCase | str, reason: str,
                            exposed: Iterable[Card | str] = ()) -> bool:
        return self._can(self.verify_community_error, creds, case, reason, list(exposed))

    def community_error(self, creds: Credentials | None, case: CommunityCase | str, reason: str,
                        exposed: Iterable[Card | str] = ()) -> None:
        """A community-card error of §39.1–39.4. For 39.1–39.3 the last street's cards go back
        into the deck and are dealt again without a burn (§39.5); the bets made since are
        returned and those boxes asked again. For 39.4 the early card is not used."""
        exposed = list(exposed)
        actor, payload = self.verify_community_error(creds, case, reason, exposed)
        self.record("community_error", payload | {"reason": reason.strip()}, actor)

    def verify_fix_flop_order(self, creds: Credentials | None, burns_made: int, reason: str) -> Actor:
        self._verify_after_deal()
        if self.phase is not Phase.FLOP or self.board:
            raise RuleViolation("Art. 10 §39.2", "sólo antes de descubrir el flop; con una carta expuesta "
                                "el flop se reparte de nuevo", "only before the flop is turned; once a card "
                                "is exposed the flop is dealt again")
        if burns_made not in FLOP_ORDER:
            raise InputError("indique las quemadas hechas: 0 o 2", "give the burns made: 0 or 2")
        return self._supervisor(creds, reason)

    def can_fix_flop_order(self, creds: Credentials | None, burns_made: int, reason: str) -> bool:
        return self._can(self.verify_fix_flop_order, creds, burns_made, reason)

    def fix_flop_order(self, creds: Credentials | None, burns_made: int, reason: str) -> None:
        """§39.2: a flop dealt without a burn (0) or with two (2), caught before it is turned
        face up, is put in the order it should have had, without reshuffling; the croupier is
        told how, and the flop is then turned as usual."""
        actor = self.verify_fix_flop_order(creds, burns_made, reason)
        self.record("community_error", {"case": CommunityCase.FLOP_BURN.value, "article": "Art. 10 §39.2",
                                         "reordered": burns_made, "reason": reason.strip()}, actor)

    def verify_correct_card(self, creds: Credentials | None, old: Card | str, new: Card | str, reason: str) -> Actor:
        self._verify_after_deal()
        old = Card.parse(old) if isinstance(old, str) else old
        new = Card.parse(new) if isinstance(new, str) else new
        r = self.r
        assert r is not None
        if old not in [*r.board, *r.bank, *(c for b in r.boxes.values() for c in b.cards)]:
            raise InputError(f"{old.display} no figura en este pase", f"{old.display} is not in this round")
        r.deck_pool().verify_take(new)
        return self._supervisor(creds, reason)

    def can_correct_card(self, creds: Credentials | None, old: Card | str, new: Card | str, reason: str) -> bool:
        return self._can(self.verify_correct_card, creds, old, new, reason)

    def correct_card(self, creds: Credentials | None, old: Card | str, new: Card | str, reason: str) -> None:
        """Replace a mis-keyed card by the right one (a correcting entry)."""
        actor = self.verify_correct_card(creds, old, new, reason)
        old = Card.parse(old) if isinstance(old, str) else old
        new = Card.parse(new) if isinstance(new, str) else new
        self.record("card_corrected", {"old": str(old), "new": str(new), "reason": reason.strip()}, actor)

    def verify_adjust(self, creds: Credentials | None, box: int, amount: object, reason: str) -> tuple[Actor, Decimal]:
        text = str(amount).strip()
        negative = text.startswith("-")
        value = to_money(text[1:] if negative else amount)
        if not value:
            raise InputError("el ajuste no puede ser cero", "the adjustment cannot be zero")
        if not 1 <= box <= self.config.boxes:
            raise InputError(f"la mesa tiene casillas 1 a {self.config.boxes}",
                             f"the table has boxes 1 to {self.config.boxes}")
        return self._supervisor(creds, reason), -value if negative else value

    def can_adjust(self, creds: Credentials | None, box: int, amount: object, reason: str) -> bool:
        return self._can(self.verify_adjust, creds, box, amount, reason)

    def round_adjustments(self) -> list[Decimal]:
        """The supervisor's adjustments (§73) recorded during the open round (positive: paid to
        the box, negative: collected), for its settlement's totals; read from the journal."""
        if not self.round_log:
            return []
        return [Decimal(e.payload["amount"]) for e in self.journal.events(after=self.round_log[0]["seq"])
                if e.type == "adjustment" and e.payload["round"] == self.round_no]

    def adjust(self, creds: Credentials | None, box: int, amount: object, reason: str) -> None:
        """A correcting payment (positive: paid to the box; negative: collected) that never
        edits history (§73: management arbitrates what the regulation does not cover)."""
        actor, value = self.verify_adjust(creds, box, amount, reason)
        self.record("adjustment", {"box": box, "amount": str(value), "article": "Art. 14 §73",
                                   "round": self.round_no, "reason": reason.strip()}, actor)

    # --- misc ----------------------------------------------------------------------------------------

    @staticmethod
    def _can(verify, *args) -> bool:
        try:
            verify(*args)
        except ConsoleError:
            return False
        return True
