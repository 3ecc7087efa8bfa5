"""The Midi Punto y Banca table engine: shoes, coups, bets, the sabot, settlement.

Event-sourced (shared.engine): every command verifies, records one event (or a fixed
few in one transaction) and applies it with the same ``apply`` used on replay. The
engine says what comes next (``prompt``), which commands are legal (``legal_actions``)
and what to pay (``settlement``); it never accepts a card the rules do not call for.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from shared.baccarat import (
    CoupResult,
    Hand,
    Winner,
    banca_draws,
    cards_needed,
    deal_order,
    is_natural,
    punto_draws,
    resolve_coup,
    total,
)
from shared.cards import FULL_DECK, BaccaratShoe, Card, Rank, Suit, make_rng, parse_baccarat_card
from shared.engine import TableEngine
from shared.errors import AuthError, ConsoleError, InputError, RuleViolation
from shared.journal import Event, Journal
from shared.midi.config import DEFAULT_MIDI_TABLE, MidiTableConfig
from shared.midi.payouts import BET_LABEL, BetKind, SettlementLine, exact_banca_unit, settle_bets
from shared.midi.roads import Roads, build_roads
from shared.money import ZERO, fmt_money, round_down_to_chip, to_money
from shared.staff import Actor, Credentials, Role, StaffRegistry
from shared.text import REASON

CARDS_BELOW_CUT = BaccaratShoe.CARDS_BELOW_CUT


class Phase(StrEnum):
    NO_SHOE = "no_shoe"
    """No shoe in play yet: a new shoe is needed."""
    BURN = "burn"
    """Art. 8 §2: the first card is exposed, then as many cards as it is worth are burned."""
    BETS = "bets"
    """Bets open, until "No va más" (Art. 9 §1)."""
    CARDS = "cards"
    """"Cartas": the cards of the coup, one by one as the rules call for them (Art. 8 §3–5)."""
    RESULT = "result"
    """The coup is decided: settle (Art. 8 §6)."""
    SHOE_END = "shoe_end"
    """The cut card appeared and its coup is over, or the supervisor ended the shoe."""


class Action(StrEnum):
    """Commands the UI may offer; ``legal_actions()`` says which are legal now."""

    NEW_SHOE = "new_shoe"
    CARD = "card"  # live: key_card(token); training: deal()
    BURN = "burn"  # confirm_burn()
    BET = "bet"  # place_bet(), remove_bet()
    REPEAT_BETS = "repeat_bets"
    NO_VA_MAS = "no_va_mas"
    SETTLE = "settle"
    UNDO = "undo"
    SHOE_EXHAUSTED = "shoe_exhausted"
    CUT_CARD = "cut_card"  # cut_card_seen(): live, the cut card came out before the count says
    ASSIGN_SABOT = "assign_sabot"
    PASS_SABOT = "pass_sabot"
    COLLECT_COMMISSION = "collect_commission"
    # Supervisor commands (credentials and a reason):
    VOID_COUP = "void_coup"
    CORRECT_CARD = "correct_card"
    END_SHOE = "end_shoe"
    SUPERVISOR_DEALS = "supervisor_deals"
    DECLARE_EXHAUSTED = "declare_exhausted"  # shoe_exhausted() with credentials: the count shows cards left


SUPERVISOR_ACTIONS = frozenset({Action.VOID_COUP, Action.CORRECT_CARD, Action.END_SHOE, Action.SUPERVISOR_DEALS,
                                Action.DECLARE_EXHAUSTED})
# Croupier entries the croupier may undo (journaled as "entry_undone") before settlement.
_UNDOABLE = frozenset({"bet_placed", "bet_removed", "bets_repeated", "card", "burn_card"})
_SHOE_EVENTS = frozenset({"shoe_opened", "burn_card", "burned", "shoe_ended", "sabot_assigned"})


@dataclass(frozen=True, slots=True)
class Announcement:
    es: str
    en: str


@dataclass(frozen=True, slots=True)
class Prompt:
    """What happens next: the croupier's announcement(s) and the legal commands."""

    phase: Phase
    es: str
    en: str
    actions: frozenset[Action]
    card_for: str | None
    """"burn", "punto" or "banca" when a card is called for, else None."""
    announcements: tuple[Announcement, ...]

    def text(self, lang: str = "es") -> str:
        return self.en if lang == "en" else self.es


@dataclass(frozen=True, slots=True)
class KeyedCard:
    rank: Rank
    suit: Suit | None

    @property
    def text(self) -> str:
        return self.rank.char + (self.suit.value if self.suit else "")

    @property
    def display(self) -> str:
        return self.rank.label + (self.suit.symbol if self.suit else "")

    @classmethod
    def parse(cls, text: str) -> KeyedCard:
        rank, suit = parse_baccarat_card(text)
        return cls(rank, suit)


@dataclass(frozen=True, slots=True)
class ShoeView:
    number: int
    decks: int
    size: int
    dealt: int
    left: dict[Rank, int]
    """Cards of each rank the shoe may still hold (live: an upper bound, burned cards unseen)."""
    virtual: bool
    burn_card: KeyedCard | None
    burned: int | None
    cut_card_out: bool
    coups: int

    @property
    def cards_left(self) -> int:
        return self.size - self.dealt

    @property
    def cut_position(self) -> int:
        """Cards dealt when the cut card comes out (Art. 8 §1)."""
        return self.size - CARDS_BELOW_CUT


@dataclass(frozen=True, slots=True)
class CoupRecord:
    """One finished coup of the shoe (NULO coups have ``result=None``)."""

    coup: int
    result: CoupResult | None


def _right_of(box: int, boxes: int) -> int:
    """The box on the holder's right: the next box number, wrapping (decision: boxes are
    numbered in the order the sabot travels)."""
    return box % boxes + 1


class MidiTable(TableEngine):
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

    # ------------------------------------------------------------------ state

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
            "bets": _bets_to_json(self.bets),
            "cards": [c.text for c in self.cards],
            "undo": self._undo,
            "sabot_holder": self.sabot_holder,
            "supervisor_dealing": self.supervisor_dealing,
            "sabot_passed": sorted(self._sabot_passed),
            "last_dealer": self._last_dealer,
            "commission_tally": {str(box): str(v) for box, v in sorted(self.commission_tally.items())},
            "history": [[h.coup, None if h.result is None else [c.text for c in _cards_of(h.result)]]
                        for h in self.history],
            "last_bets": _bets_to_json(self.last_bets),
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
        self._order = None if order is None else [order[i:i + 2] for i in range(0, len(order), 2)]
        self._burn_card = None if data["burn_card"] is None else KeyedCard.parse(data["burn_card"])
        self._burned = data["burned"]
        self._cut_out = data["cut_out"]
        self._cut_seen = data["cut_seen"]
        self._shoe_coups = data["shoe_coups"]
        self.bets = _bets_from_json(data["bets"])
        self.cards = [KeyedCard.parse(t) for t in data["cards"]]
        self._undo = data["undo"]
        self.sabot_holder = data["sabot_holder"]
        self.supervisor_dealing = data["supervisor_dealing"]
        self._sabot_passed = set(data.get("sabot_passed", ()))  # absent in snapshots before Art. 9 §4 was kept
        self._last_dealer = data.get("last_dealer")
        self.commission_tally = {int(box): Decimal(v) for box, v in data.get("commission_tally", {}).items()}
        self.history = [CoupRecord(coup, None if cards is None else _resolve_keyed([KeyedCard.parse(t) for t in cards]))
                        for coup, cards in data["history"]]
        self.last_bets = _bets_from_json(data["last_bets"])
        self.last_settlement = [SettlementLine.from_dict(d) for d in data["last_settlement"]]
        self.shoe_end_reason = data["shoe_end_reason"]

    # ------------------------------------------------------------------ views

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
            hand = _next_hand(self.cards)
            return None if hand is None else hand.value
        return None

    @property
    def result(self) -> CoupResult | None:
        """The decided coup (phase RESULT), else None."""
        return _resolve_keyed(self.cards) if self.phase is Phase.RESULT else None

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

    # ------------------------------------------------------------------ prompt

    @property
    def prompt(self) -> Prompt:
        actions = self.legal_actions()
        anns = self._announcements()
        es = " · ".join(a.es for a in anns)
        en = " · ".join(a.en for a in anns)
        return Prompt(self.phase, es, en, actions, self.card_called_for, tuple(anns))

    def _announcements(self) -> list[Announcement]:
        A = Announcement
        if self.phase is Phase.NO_SHOE:
            return [A("Sabot nuevo: contar, mezclar y cortar; carta de corte con 7 cartas debajo (Art. 8 §1)",
                      "New shoe: count, shuffle and cut; cut card with 7 cards below it (Art. 8 §1)")]
        if self.phase is Phase.SHOE_END:
            if self.shoe_end_reason == "cut":
                first = A("Fin del sabot: salió la carta de corte (Art. 8 §1)",
                          "End of the shoe: the cut card has come out (Art. 8 §1)")
            else:
                first = A("Fin del sabot", "End of the shoe")
            return [first] + self._commission_announcement() + self._sabot_announcement()
        if self.phase is Phase.BURN:
            if self._burn_card is None:
                return [A("Quema: descubrir la primera carta (Art. 8 §2)",
                          "Burn: expose the first card (Art. 8 §2)")]
            n = self._burn_card.rank.burn_count
            return [A(f"Quemar {n} {'carta' if n == 1 else 'cartas'} ({self._burn_card.display}) al descartero",
                      f"Burn {n} card{'' if n == 1 else 's'} ({self._burn_card.display}) to the discard")]
        if self.phase is Phase.BETS:
            anns = [A("Hagan sus apuestas", "Place your bets")]
            if self._cut_out or self._dealt >= self._size - CARDS_BELOW_CUT:
                # The cut card is out or is the next card: this coup is the shoe's last.
                anns.append(A("Último pase del sabot", "Last coup of the shoe"))
            return anns + self._sabot_announcement()
        if self.card_called_for is not None and self._dealt >= self._size:
            return [A("El sabot no tiene más cartas: pase NULO (Art. 9 §3)",
                      "The shoe has no cards left: the coup is void, NULO (Art. 9 §3)")]
        return _coup_announcements(self.cards, self.reveal_box, self.config, self.spot_label)

    def _commission_announcement(self) -> list[Announcement]:
        if not self.commission_tally:
            return []
        owed = ", ".join(f"{self.spot_label(b)}: {fmt_money(v)}" for b, v in sorted(self.commission_tally.items()))
        return [Announcement(f"Cobrar las comisiones (Art. 5 §3) — casillero {owed}",
                             f"Collect the commissions (Art. 5 §3) — box {owed}")]

    def _sabot_announcement(self) -> list[Announcement]:
        if self.sabot_holder is None:
            return [Announcement("Sabot: reparte el croupier", "Sabot: the croupier deals")]
        label = self.spot_label(self.sabot_holder)
        if self.supervisor_dealing:
            return [Announcement(f"Sabot: reparte el supervisor (casillero {label})",
                                 f"Sabot: the supervisor deals (box {label})")]
        return [Announcement(f"Sabot: casillero {label}", f"Sabot: box {label}")]

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> frozenset[Action]:
        """Every command legal now (supervisor ones included: they still need credentials)."""
        checks = {
            Action.NEW_SHOE: self.can_new_shoe,
            Action.CARD: self.can_card,
            Action.BURN: self.can_confirm_burn,
            Action.BET: lambda: self._on_duty() and self.phase is Phase.BETS,
            Action.REPEAT_BETS: self.can_repeat_last_bets,
            Action.NO_VA_MAS: self.can_no_va_mas,
            Action.SETTLE: self.can_settle,
            Action.UNDO: self.can_undo,
            Action.SHOE_EXHAUSTED: self.can_shoe_exhausted,
            Action.CUT_CARD: self.can_cut_card_seen,
            Action.ASSIGN_SABOT: lambda: self._on_duty() and self._sabot_free_phase() and self.sabot_holder is None,
            Action.PASS_SABOT: self.can_pass_sabot,
            Action.COLLECT_COMMISSION: self.can_collect_commission,
            Action.VOID_COUP: lambda: self._coup_voidable(),
            Action.CORRECT_CARD: lambda: not self.training and self.phase in (Phase.CARDS, Phase.RESULT) and bool(self.cards),
            Action.END_SHOE: lambda: self.phase not in (Phase.NO_SHOE, Phase.SHOE_END),
            Action.SUPERVISOR_DEALS: lambda: self._supervisor_can_take_over(),
            Action.DECLARE_EXHAUSTED: lambda: self._coup_needs_card() and self._cut_out and self._dealt < self._size,
        }
        return frozenset(a for a, ok in checks.items() if ok())

    def _guard(self, verify, *args) -> bool:
        try:
            verify(*args)
        except ConsoleError:
            return False
        return True

    def _actor(self) -> Actor:
        """Who a croupier command is journaled as; a live table needs a croupier on duty
        (the shift opened with ``open_shift``), a training table journals the trainee."""
        if self.training:
            return self.croupier or Actor("trainee", Role.TRAINEE)
        if self.croupier is None:
            raise AuthError("no hay croupier de turno: abra el turno", "no croupier on duty: open the shift")
        return self.croupier

    def _on_duty(self) -> bool:
        return self.training or self.croupier is not None

    # ------------------------------------------------------------------ new shoe and burn

    def verify_new_shoe(self, order: list[str] | None = None) -> list[str] | None:
        self._actor()
        if self.phase not in (Phase.NO_SHOE, Phase.SHOE_END):
            raise RuleViolation("Art. 8 §1", "el sabot en juego no terminó", "the shoe in play is not finished")
        if self.commission_tally:
            boxes = ", ".join(self.spot_label(box) for box in sorted(self.commission_tally))
            raise RuleViolation("Art. 5 §3", f"cobre antes las comisiones pendientes (casilleros {boxes})",
                                f"collect the commissions owed first (boxes {boxes})")
        if order is None:
            return None
        if not self.training:
            raise InputError("un orden de cartas solo existe en entrenamiento",
                             "a card order only exists in training")
        cards = [Card.parse(t).__str__() for t in order]
        counts = Counter(cards)
        too_many = [c for c, n in counts.items() if n > self.config.decks]
        if too_many:
            raise RuleViolation("Art. 2 §1", f"{too_many[0]}: más cartas de las que tienen {self.config.decks} mazos",
                                f"{too_many[0]}: more cards than {self.config.decks} decks hold")
        if len(cards) <= CARDS_BELOW_CUT:
            raise InputError("el sabot necesita más de 7 cartas", "the shoe needs more than 7 cards")
        return cards

    def can_new_shoe(self) -> bool:
        return self._guard(self.verify_new_shoe)

    def new_shoe(self, order: list[str] | None = None) -> Event:
        """Art. 8 §1: a new shoe of the table's decks. Training: shuffled by the console (or
        ``order``: a rigged sequence of card texts for drills); live: composition only."""
        cards = self.verify_new_shoe(order)
        if self.training and cards is None:
            deck = [str(c) for c in FULL_DECK] * self.config.decks
            self.rng.shuffle(deck)
            cards = deck
        payload = {
            "shoe": self.shoe_no + 1,
            "decks": self.config.decks,
            "size": len(cards) if cards is not None else 52 * self.config.decks,
            "order": None if cards is None else "".join(cards),
        }
        return self.record("shoe_opened", payload, self._actor())

    def verify_key_card(self, token: str) -> KeyedCard:
        """A live card keyed by the croupier: called for by the rules and held by the shoe."""
        if self.training:
            raise InputError("en entrenamiento reparte la consola (deal)", "in training the console deals (deal)")
        self._actor()
        card = KeyedCard.parse(token)
        self._verify_card_called_for()
        self._verify_shoe_holds(card.rank)
        return card

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

    def can_card(self) -> bool:
        try:
            self._actor()
            self._verify_card_called_for()
        except (AuthError, RuleViolation):
            return False
        return True

    def key_card(self, token: str) -> Event:
        """Live: the croupier keys the card the prompt calls for (rank alone, suit optional)."""
        card = self.verify_key_card(token)
        return self._record_card(card, "keyed")

    def verify_deal(self) -> None:
        if not self.training:
            raise InputError("en una mesa en vivo se teclea la carta", "at a live table the card is keyed in")
        self._verify_card_called_for()

    def deal(self) -> Event:
        """Training: the console deals the next card of its shuffled shoe."""
        self.verify_deal()
        assert self._order is not None
        return self._record_card(KeyedCard.parse(self._order[self._dealt]), "dealt")

    def _record_card(self, card: KeyedCard, source: str) -> Event:
        called = self.card_called_for
        payload = {"to": called, "rank": card.rank.char, "suit": card.suit.value if card.suit else None,
                   "source": source}
        return self.record("burn_card" if called == "burn" else "card", payload, self._actor())

    def enter_card(self, token: str | None = None) -> Event:
        """The card the prompt calls for: keyed (live) or dealt by the console (training)."""
        return self.deal() if self.training else self.key_card(token if token is not None else "")

    def verify_confirm_burn(self) -> None:
        self._actor()
        if self.phase is not Phase.BURN or self._burn_card is None:
            raise RuleViolation("Art. 8 §2", "primero se descubre la carta de quema",
                                "the burn card is exposed first")
        if self._dealt + self._burn_card.rank.burn_count > self._size:
            raise RuleViolation("Art. 9 §3", "el sabot no tiene cartas para la quema",
                                "the shoe has not enough cards for the burn")

    def can_confirm_burn(self) -> bool:
        return self._guard(self.verify_confirm_burn)

    def confirm_burn(self) -> Event:
        """Art. 8 §2: the cards the burn card is worth go to the discard (unseen when live)."""
        self.verify_confirm_burn()
        assert self._burn_card is not None
        n = self._burn_card.rank.burn_count
        burned = None if self._order is None else self._order[self._dealt:self._dealt + n]
        return self.record("burned", {"count": n, "cards": burned}, self._actor())

    # ------------------------------------------------------------------ bets

    def _spot_ok(self, spot: int) -> None:
        if not isinstance(spot, int) or isinstance(spot, bool) or spot not in self.spots:
            standing = self.config.standing_bettors
            raise RuleViolation(
                "Art. 2 §5" if not standing else "Art. 4 §1",
                f"casillero inexistente: {spot} (1–{self.config.boxes}"
                f"{f', de pie S1–S{standing}' if standing else ''})",
                f"no such box: {spot} (1–{self.config.boxes}{f', standing S1–S{standing}' if standing else ''})",
            )

    def _check_bet(self, spot: int, kind: BetKind, amount: Decimal, bets: dict[BetKind, Decimal]) -> None:
        """The limits of one bet, given the spot's other bets (amount > 0)."""
        cfg = self.config
        cur = cfg.currency
        if amount % cfg.chip:
            raise InputError(f"{fmt_money(amount)} no es múltiplo de la ficha mínima ({fmt_money(cfg.chip)})",
                             f"{fmt_money(amount)} is not a multiple of the smallest chip ({fmt_money(cfg.chip)})")
        if amount < cfg.minimum:
            raise RuleViolation("Art. 7 §1", f"apuesta menor que el mínimo de la mesa ({fmt_money(cfg.minimum, cur)})",
                                f"bet below the table minimum ({fmt_money(cfg.minimum, cur)})")
        if kind is BetKind.TIE:
            if amount > cfg.tie_maximum:
                raise RuleViolation("Art. 5 §5", f"el máximo de TIE es {fmt_money(cfg.tie_maximum, cur)}",
                                    f"the TIE maximum is {fmt_money(cfg.tie_maximum, cur)}")
        elif amount > cfg.maximum:
            raise RuleViolation("Art. 7 §1", f"apuesta mayor que el máximo de la mesa ({fmt_money(cfg.maximum, cur)})",
                                f"bet above the table maximum ({fmt_money(cfg.maximum, cur)})")
        if kind is BetKind.BANCA and cfg.exact_banca_bets and amount % exact_banca_unit(cfg):
            unit = exact_banca_unit(cfg)
            if cfg.banca_mode == "commission":
                raise RuleViolation("Art. 5 §3", f"la BANCA se apuesta en múltiplos de {fmt_money(unit)} para que el "
                                    "5 % sea exacto", f"BANCA is bet in multiples of {fmt_money(unit)} so that the "
                                    "5 % is exact")
            raise RuleViolation("Art. 5 §2", f"la BANCA se apuesta en múltiplos de {fmt_money(unit)} para que el "
                                "50 % sea exacto", f"BANCA is bet in multiples of {fmt_money(unit)} so that the "
                                "50 % is exact")
        if cfg.multiples_of_minimum and amount % cfg.minimum:
            raise RuleViolation("Art. 5 §4", f"las apuestas deben ser múltiplos del mínimo ({fmt_money(cfg.minimum)})",
                                f"bets must be multiples of the minimum ({fmt_money(cfg.minimum)})")
        other = {BetKind.PUNTO: BetKind.BANCA, BetKind.BANCA: BetKind.PUNTO}.get(kind)
        if other is not None:
            other_amount = bets.get(other, ZERO)
            if other_amount > 0 and abs(other_amount - amount) < cfg.minimum:
                raise RuleViolation(
                    "Art. 9 §7",
                    f"PUNTO y BANCA a la vez deben diferir en al menos el mínimo ({fmt_money(cfg.minimum)})",
                    f"PUNTO and BANCA together must differ by at least the minimum ({fmt_money(cfg.minimum)})",
                )

    def _verify_bets_open(self) -> None:
        if self.phase in (Phase.CARDS, Phase.RESULT):
            raise RuleViolation("Art. 9 §1", "no se aceptan ni modifican apuestas después de «No va más»",
                                "no bet may be placed or changed after «No va más»")
        if self.phase is not Phase.BETS:
            raise RuleViolation("Art. 8 §2", "las apuestas abren después de la quema",
                                "bets open after the burn")

    def verify_place_bet(self, spot: int, kind: BetKind | str, amount: object) -> tuple[BetKind, Decimal]:
        self._actor()
        self._verify_bets_open()
        self._spot_ok(spot)
        kind = _kind(kind)
        value = to_money(amount)
        if value == 0:
            raise InputError("importe cero: use quitar apuesta", "zero amount: remove the bet instead")
        self._check_bet(spot, kind, value, self.bets.get(spot, {}))
        return kind, value

    def can_place_bet(self, spot: int, kind: BetKind | str, amount: object) -> bool:
        return self._guard(self.verify_place_bet, spot, kind, amount)

    def place_bet(self, spot: int, kind: BetKind | str, amount: object) -> Event:
        """Set the bet of ``spot`` on ``kind`` to ``amount`` (replacing what was there)."""
        kind, value = self.verify_place_bet(spot, kind, amount)
        previous = self.bets.get(spot, {}).get(kind, ZERO)
        return self.record("bet_placed", {"spot": spot, "kind": kind.value, "amount": str(value),
                                          "previous": str(previous)}, self._actor())

    def verify_remove_bet(self, spot: int, kind: BetKind | str) -> BetKind:
        self._actor()
        self._verify_bets_open()
        self._spot_ok(spot)
        kind = _kind(kind)
        if self.bets.get(spot, {}).get(kind, ZERO) == 0:
            raise InputError(f"no hay apuesta a {BET_LABEL[kind]} en el casillero {self.spot_label(spot)}",
                             f"no {BET_LABEL[kind]} bet on box {self.spot_label(spot)}")
        return kind

    def can_remove_bet(self, spot: int, kind: BetKind | str) -> bool:
        return self._guard(self.verify_remove_bet, spot, kind)

    def remove_bet(self, spot: int, kind: BetKind | str) -> Event:
        kind = self.verify_remove_bet(spot, kind)
        return self.record("bet_removed", {"spot": spot, "kind": kind.value,
                                           "previous": str(self.bets[spot][kind])}, self._actor())

    def verify_repeat_last_bets(self, spot: int | None = None) -> dict[int, dict[BetKind, Decimal]]:
        """The previous coup's bets (of one spot, or all) placed again, where nothing is bet yet."""
        self._actor()
        self._verify_bets_open()
        if spot is not None:
            self._spot_ok(spot)
        source = {s: b for s, b in self.last_bets.items() if spot is None or s == spot}
        repeat = {s: dict(b) for s, b in source.items() if not self.bets.get(s)}
        if not repeat:
            raise InputError("no hay apuestas anteriores que repetir en casilleros libres",
                             "no previous bets to repeat on empty boxes")
        for s, bets in repeat.items():
            for kind, amount in bets.items():
                self._check_bet(s, kind, amount, {k: v for k, v in bets.items() if k is not kind})
        return repeat

    def can_repeat_last_bets(self, spot: int | None = None) -> bool:
        return self._guard(self.verify_repeat_last_bets, spot)

    def repeat_last_bets(self, spot: int | None = None) -> Event:
        repeat = self.verify_repeat_last_bets(spot)
        return self.record("bets_repeated", {"bets": _bets_to_json(repeat)}, self._actor())

    def verify_no_va_mas(self) -> None:
        self._actor()
        if self.phase is not Phase.BETS:
            raise RuleViolation("Art. 8 §3", "«No va más» se anuncia con las apuestas abiertas",
                                "«No va más» is called while bets are open")

    def can_no_va_mas(self) -> bool:
        return self._guard(self.verify_no_va_mas)

    def no_va_mas(self) -> Event:
        """Art. 8 §3, Art. 9 §1: bets close; then «Cartas»."""
        self.verify_no_va_mas()
        return self.record("no_va_mas", {"bets": _bets_to_json(self.bets), "sabot_holder": self.sabot_holder,
                                         "reveal_box": self.reveal_box}, self._actor())

    # ------------------------------------------------------------------ settlement

    def verify_settle(self) -> None:
        self._actor()
        if self.phase is not Phase.RESULT:
            raise RuleViolation("Art. 8 §6", "el pase no está terminado", "the coup is not finished")

    def can_settle(self) -> bool:
        return self._on_duty() and self.phase is Phase.RESULT

    def settle(self) -> list[Event]:
        """Art. 8 §6: the croupier pays and collects as ``settlement`` says; ends the shoe after
        the coup during which the cut card appeared (Art. 8 §1)."""
        self.verify_settle()
        result = self.result
        assert result is not None
        lines = settle_bets(self.bets, result, self.config)
        items = [("coup_settled", {"result": result.to_dict(), "cards": [c.text for c in self.cards],
                                   "lines": [line.to_dict() for line in lines]})]
        if self._cut_out:
            items.append(("shoe_ended", {"reason": "cut"}))
        return self.record_many(items, self._actor())

    def _coup_needs_card(self) -> bool:
        return self.phase is Phase.CARDS and self.card_called_for is not None

    def verify_shoe_exhausted(self, creds: Credentials | None = None, reason: str = "") -> Actor:
        """The croupier declares it when the count is at zero; while the count shows cards
        left, only a supervisor may, with a reason (a correctly cut shoe cannot run out)."""
        if not self._coup_needs_card():
            raise RuleViolation("Art. 9 §3", "solo cuando falta una carta para terminar el pase",
                                "only while the coup still needs a card")
        left = self._size - self._dealt
        if left <= 0:
            return self._actor()
        if not self._cut_out:
            raise RuleViolation("Art. 8 §1", "la carta de corte no salió: quedan al menos 7 cartas en el sabot",
                                "the cut card has not come out: at least 7 cards are left in the shoe")
        if creds is None:
            raise RuleViolation("Art. 9 §3", f"la cuenta indica {left} cartas en el sabot: lo declara el supervisor "
                                "con un motivo (F2)", f"the count shows {left} cards in the shoe: the supervisor "
                                "declares it, with a reason (F2)")
        return self._supervisor(creds, reason)

    def can_shoe_exhausted(self) -> bool:
        return self._guard(self.verify_shoe_exhausted)

    def shoe_exhausted(self, creds: Credentials | None = None, reason: str = "") -> list[Event]:
        """Art. 9 §3: the sabot ran out before the coup was finished: NULO, every bet returned,
        and the shoe ends. ``creds`` and ``reason``: the supervisor's, needed while the count
        shows cards left."""
        actor = self.verify_shoe_exhausted(creds, reason)
        note = reason.strip() if creds is not None else "sabot vacío / shoe empty"
        return self.record_many([("coup_voided", self._void_payload(note, "shoe_exhausted")),
                                 ("shoe_ended", {"reason": "exhausted"})], actor)

    def verify_cut_card_seen(self) -> None:
        if self.training:
            raise InputError("en entrenamiento la consola sabe dónde está la carta de corte",
                             "in training the console knows where the cut card is")
        self._actor()
        if self.phase is not Phase.CARDS or self._cut_out:
            raise RuleViolation("Art. 8 §1", "la carta de corte se señala cuando sale durante un pase",
                                "the cut card is signalled when it comes out during a coup")

    def can_cut_card_seen(self) -> bool:
        return self._guard(self.verify_cut_card_seen)

    def cut_card_seen(self) -> Event:
        """Live: the cut card came out of the sabot during this coup although the count had not
        reached it (a miscounted shoe): this coup is the last (Art. 8 §1)."""
        self.verify_cut_card_seen()
        return self.record("cut_card_seen", {"dealt": self._dealt, "size": self._size}, self._actor())

    def _void_payload(self, reason: str, cause: str) -> dict:
        return {"reason": reason, "cause": cause, "cards": [c.text for c in self.cards],
                "lines": [line.to_dict() for line in settle_bets(self.bets, None, self.config)]}

    # ------------------------------------------------------------------ undo

    def verify_undo(self) -> dict:
        self._actor()
        if not self._undo or self.phase is Phase.SHOE_END:
            if self.phase in (Phase.CARDS, Phase.RESULT) and not self.cards:
                raise RuleViolation("Art. 9 §1", "«No va más» ya se anunció: las apuestas no cambian",
                                    "«No va más» was called: bets cannot change")
            raise InputError("no hay nada que deshacer", "nothing to undo")
        return self._undo[-1]

    def can_undo(self) -> bool:
        return self._guard(self.verify_undo)

    def undo(self) -> Event:
        """Take back the croupier's last entry of this coup (a bet or a keyed card), before
        settlement; journaled as its own event. «No va más» cannot be undone (Art. 9 §1)."""
        entry = self.verify_undo()
        return self.record("entry_undone", {"seq": entry["seq"], "type": entry["type"]}, self._actor())

    # ------------------------------------------------------------------ the sabot

    def _sabot_free_phase(self) -> bool:
        return self.phase in (Phase.NO_SHOE, Phase.SHOE_END, Phase.BURN, Phase.BETS)

    def verify_assign_sabot(self, box: int) -> None:
        self._actor()
        if not self._sabot_free_phase():
            raise RuleViolation("Art. 9 §4", "el sabot cambia de mano entre pases", "the sabot changes hands between coups")
        if self.sabot_holder is not None:
            raise RuleViolation("Art. 9 §4", "el sabot ya tiene titular: pasa por rotación",
                                "the sabot already has a holder: it moves by rotation")
        if not isinstance(box, int) or isinstance(box, bool) or not 1 <= box <= self.config.boxes:
            raise RuleViolation("Art. 9 §2", f"solo un jugador sentado (casilleros 1–{self.config.boxes}) toma el sabot",
                                f"only a seated player (boxes 1–{self.config.boxes}) takes the sabot")
        if box in self._sabot_passed:
            waiting = ", ".join(str(b) for b in range(1, self.config.boxes + 1) if b not in self._sabot_passed)
            raise RuleViolation("Art. 9 §4", f"el casillero {box} ya repartió en esta ronda: el sabot pasa antes por "
                                f"los casilleros {waiting}", f"box {box} has already dealt in this round: the sabot "
                                f"goes to boxes {waiting} first")

    def can_assign_sabot(self, box: int) -> bool:
        return self._guard(self.verify_assign_sabot, box)

    def assign_sabot(self, box: int) -> Event:
        """Give the sabot to a seated box when nobody holds it (the croupier was dealing)."""
        self.verify_assign_sabot(box)
        return self.record("sabot_assigned", {"box": box}, self._actor())

    def verify_pass_sabot(self) -> int:
        self._actor()
        if not self._sabot_free_phase():
            raise RuleViolation("Art. 9 §4", "el sabot cambia de mano entre pases", "the sabot changes hands between coups")
        if self.sabot_holder is None:
            raise InputError("nadie tiene el sabot", "nobody holds the sabot")
        if self.supervisor_dealing:
            raise RuleViolation("Art. 9 §5", "reparte el supervisor: el sabot pasa a la derecha al terminar el pase",
                                "the supervisor deals: the sabot passes right at the end of the coup")
        return self._sabot_next(self.sabot_holder)

    def can_pass_sabot(self) -> bool:
        return self._guard(self.verify_pass_sabot)

    def pass_sabot(self, *, release: bool = False) -> Event:
        """The holder declines or leaves: the sabot goes to the next box on the right that has
        not had it in this round (Art. 9 §4); ``release=True``: no seated player takes it, the
        croupier deals."""
        to = self.verify_pass_sabot()
        return self.record("sabot_passed", {"from": self.sabot_holder, "to": None if release else to}, self._actor())

    def _sabot_next(self, holder: int) -> int:
        """Art. 9 §4: the first box on ``holder``'s right that has not passed the sabot in this
        round; once every box has, a new round starts with the box on the right."""
        passed = self._sabot_passed | {holder}
        box = _right_of(holder, self.config.boxes)
        if len(passed) >= self.config.boxes:
            return box
        while box in passed:
            box = _right_of(box, self.config.boxes)
        return box

    # ------------------------------------------------------------------ commission tally

    def verify_collect_commission(self, box: int | None = None) -> dict[int, Decimal]:
        """The tallies to collect: one box's (the player leaves) or every box's (end of shoe)."""
        self._actor()
        if box is not None:
            self._spot_ok(box)
        owed = {b: v for b, v in self.commission_tally.items() if box is None or b == box}
        if not owed:
            where = "" if box is None else f" en el casillero {self.spot_label(box)}"
            where_en = "" if box is None else f" on box {self.spot_label(box)}"
            raise InputError(f"no hay comisión pendiente{where}", f"no commission owed{where_en}")
        return owed

    def can_collect_commission(self, box: int | None = None) -> bool:
        return self._guard(self.verify_collect_commission, box)

    def collect_commission(self, box: int | None = None) -> Event:
        """Art. 3 §2, Art. 5 §3: the croupier collects the commission tally of ``box`` (or of
        every box), rounded down to the chip: the only rounding of the 5 %, in the player's favour."""
        owed = self.verify_collect_commission(box)
        boxes = {str(b): {"tally": str(v), "collected": str(round_down_to_chip(v, self.config.chip))}
                 for b, v in sorted(owed.items())}
        return self.record("commission_collected", {"boxes": boxes}, self._actor())

    # ------------------------------------------------------------------ supervisor commands

    def _supervisor(self, creds: Credentials | None, reason: str) -> Actor:
        if not isinstance(reason, str) or not reason.strip():
            raise InputError("el supervisor debe indicar un motivo", "the supervisor must give a reason")
        REASON.check(reason.strip())
        return self.authorize(creds, Role.SUPERVISOR)

    def _coup_voidable(self) -> bool:
        return self.phase in (Phase.CARDS, Phase.RESULT) or (self.phase is Phase.BETS and bool(self.bets))

    def verify_void_coup(self, creds: Credentials | None, reason: str) -> Actor:
        if not self._coup_voidable():
            raise InputError("no hay un pase en curso que anular", "no coup in progress to void")
        return self._supervisor(creds, reason)

    def void_coup(self, creds: Credentials | None, reason: str) -> Event:
        """Supervisor: declare the coup NULO before settlement; every bet returned (Art. 9 §3)."""
        actor = self.verify_void_coup(creds, reason)
        return self.record("coup_voided", self._void_payload(reason.strip(), "supervisor"), actor)

    def verify_correct_card(self, creds: Credentials | None, reason: str, index: int, token: str) -> tuple[Actor, KeyedCard]:
        if self.training:
            raise InputError("en entrenamiento reparte la consola", "in training the console deals")
        if self.phase not in (Phase.CARDS, Phase.RESULT):
            raise RuleViolation("Art. 8 §6", "solo se corrige una carta antes de liquidar",
                                "a card is corrected only before settlement")
        if not isinstance(index, int) or not 0 <= index < len(self.cards):
            raise InputError(f"no hay carta n.º {index + 1 if isinstance(index, int) else index} en este pase",
                             f"there is no card #{index + 1 if isinstance(index, int) else index} in this coup")
        card = KeyedCard.parse(token)
        if card.rank is not self.cards[index].rank:
            self._verify_shoe_holds(card.rank)
        corrected = self.cards[:index] + [card] + self.cards[index + 1:]
        if cards_needed([c.rank for c in corrected]) < len(corrected):
            raise RuleViolation(
                "Art. 6 §2",
                "con esa carta las reglas no habrían pedido las cartas que siguen: anule el pase",
                "with that card the rules would not have called for the cards after it: void the coup",
            )
        actor = self._supervisor(creds, reason)
        return actor, card

    def correct_card(self, creds: Credentials | None, reason: str, index: int, token: str) -> Event:
        """Supervisor: replace the coup's card number ``index`` (0 = first) keyed wrongly."""
        actor, card = self.verify_correct_card(creds, reason, index, token)
        return self.record("card_corrected", {"index": index, "old": self.cards[index].text, "new": card.text,
                                              "reason": reason.strip()}, actor)

    def verify_end_shoe(self, creds: Credentials | None, reason: str) -> Actor:
        if self.phase in (Phase.NO_SHOE, Phase.SHOE_END):
            raise InputError("no hay un sabot en juego", "no shoe is in play")
        return self._supervisor(creds, reason)

    def end_shoe(self, creds: Credentials | None, reason: str) -> list[Event]:
        """Supervisor: end the shoe now; a coup in progress is NULO with its bets returned."""
        actor = self.verify_end_shoe(creds, reason)
        items = []
        if self._coup_voidable():
            items.append(("coup_voided", self._void_payload(reason.strip(), "end_shoe")))
        items.append(("shoe_ended", {"reason": "supervisor", "note": reason.strip()}))
        return self.record_many(items, actor)

    def _supervisor_can_take_over(self) -> bool:
        return (self.phase in (Phase.BETS, Phase.CARDS) and self.sabot_holder is not None
                and not self.supervisor_dealing)

    def verify_supervisor_deals(self, creds: Credentials | None, reason: str) -> Actor:
        if not self._supervisor_can_take_over():
            raise InputError("el supervisor toma el sabot de un jugador durante un pase",
                             "the supervisor takes over from a player during a coup")
        return self._supervisor(creds, reason)

    def supervisor_deals(self, creds: Credentials | None, reason: str) -> Event:
        """Art. 9 §5: the holder cannot go on; the supervisor deals, and at the end of the coup
        the sabot goes to the player on the holder's right."""
        actor = self.verify_supervisor_deals(creds, reason)
        return self.record("supervisor_deals", {"holder": self.sabot_holder, "reason": reason.strip()}, actor)

    # ------------------------------------------------------------------ apply

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
        self._order = None if order is None else [order[i:i + 2] for i in range(0, len(order), 2)]
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
        card = _keyed(e.payload)
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
        repeated = _bets_from_json(e.payload["bets"])
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
        card = _keyed(e.payload)
        if self._dealt == self._size - CARDS_BELOW_CUT:
            self._cut_out = True  # the cut card came out before this card (Art. 8 §1)
        self._take(card)
        self.cards.append(card)
        if e.payload["source"] == "keyed":
            self._push_undo(e)
        if _next_hand(self.cards) is None:
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
        self.phase = Phase.RESULT if _next_hand(self.cards) is None else Phase.CARDS

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
        result = _resolve_keyed(self.cards)
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


# ---------------------------------------------------------------------- helpers


def _kind(kind: BetKind | str) -> BetKind:
    try:
        return BetKind(kind)
    except ValueError:
        raise InputError(f"apuesta desconocida: {kind!r} (punto, banca, tie)",
                         f"unknown bet: {kind!r} (punto, banca, tie)") from None


def _keyed(payload: dict) -> KeyedCard:
    return KeyedCard(Rank.parse(payload["rank"]), None if payload["suit"] is None else Suit(payload["suit"]))


def _bets_to_json(bets: dict[int, dict[BetKind, Decimal]]) -> dict[str, dict[str, str]]:
    return {str(s): {k.value: str(v) for k, v in sorted(b.items())} for s, b in sorted(bets.items())}


def _bets_from_json(data: dict[str, dict[str, str]]) -> dict[int, dict[BetKind, Decimal]]:
    return {int(s): {BetKind(k): Decimal(v) for k, v in b.items()} for s, b in data.items()}


def _next_hand(cards: list[KeyedCard]) -> Hand | None:
    need = cards_needed([c.rank for c in cards])
    n = len(cards)
    if n >= need:
        return None
    if n < 4:
        return Hand.PUNTO if n % 2 == 0 else Hand.BANCA
    if n == 4:
        pt = total([cards[0].rank, cards[2].rank])
        return Hand.PUNTO if punto_draws(pt) else Hand.BANCA
    return Hand.BANCA


def deal_order_partial(cards: list[KeyedCard]) -> tuple[list[KeyedCard], list[KeyedCard]]:
    """The PUNTO and BANCA hands of a coup in progress."""
    punto, banca = [], []
    for i, card in enumerate(cards):
        hand = _next_hand(cards[:i])
        (punto if hand is Hand.PUNTO else banca).append(card)
    return punto, banca


def _resolve_keyed(cards: list[KeyedCard]) -> CoupResult:
    return resolve_coup([c.rank for c in cards])


def _cards_of(result: CoupResult) -> tuple:
    return tuple(KeyedCard(r, None) for r in result.cards_in_dealing_order)


def _coup_announcements(cards: list[KeyedCard], reveal_box: int | None, config: MidiTableConfig,
                        label) -> list[Announcement]:
    """What the croupier announces now, from the coup's cards (Art. 8 §3–6)."""
    A = Announcement
    n = len(cards)
    if n < 4:
        anns = []
        if n == 0:
            anns.append(A("Cartas", "Cards"))
            if reveal_box is None:
                anns.append(A("las cartas del PUNTO las descubre el croupier", "the croupier turns PUNTO's cards"))
            else:
                anns.append(A(f"Cartas del PUNTO al casillero {label(reveal_box)}",
                              f"PUNTO's cards to box {label(reveal_box)}"))
        hand = "PUNTO" if n % 2 == 0 else "BANCA"
        anns.append(A(f"carta {n + 1}: {hand}", f"card {n + 1}: {hand}"))
        return anns
    ranks = [c.rank for c in cards]
    pt2, bt2 = total(ranks[0:4:2]), total(ranks[1:4:2])
    anns = []
    p_drew = not is_natural(pt2) and not is_natural(bt2) and punto_draws(pt2)
    if n == 4:
        anns += [A(f"PUNTO {pt2}", f"PUNTO {pt2}"), A(f"BANCA {bt2}", f"BANCA {bt2}")]
        if is_natural(pt2) or is_natural(bt2):
            nat = [h for h, t in (("PUNTO", pt2), ("BANCA", bt2)) if is_natural(t)]
            anns.append(A(f"Natural ({' y '.join(nat)})", f"Natural ({' and '.join(nat)})"))
        elif p_drew:
            return anns + [A("Carta para el PUNTO", "Card for PUNTO")]
        else:
            anns.append(A(f"El PUNTO se planta con {pt2}", f"PUNTO stands on {pt2}"))
            if banca_draws(bt2, None):
                return anns + [A("Carta para la BANCA", "Card for BANCA")]
            anns.append(A(f"La BANCA se planta con {bt2}", f"BANCA stands on {bt2}"))
    elif n == 5 and p_drew:
        pt3 = total(ranks[0:4:2] + [ranks[4]])
        anns.append(A(f"PUNTO {pt3}", f"PUNTO {pt3}"))
        if cards_needed(ranks) == 6:
            return anns + [A("Carta para la BANCA", "Card for BANCA")]
        anns.append(A(f"La BANCA se planta con {bt2}", f"BANCA stands on {bt2}"))
    else:
        bt3 = total(deal_order(ranks)[1])
        anns.append(A(f"BANCA {bt3}", f"BANCA {bt3}"))
    result = resolve_coup(ranks)
    return anns + result_announcements(result, config)


def result_announcements(result: CoupResult, config: MidiTableConfig) -> list[Announcement]:
    """Art. 8 §6: the winning hand, and how it is paid."""
    A = Announcement
    if result.winner is Winner.TIE:
        return [A(f"Empate con {result.punto_total}: TIE paga 8 a 1, PUNTO y BANCA se devuelven",
                  f"Tie on {result.punto_total}: TIE pays 8 to 1, PUNTO and BANCA returned")]
    if result.winner is Winner.PUNTO:
        return [A(f"Gana el PUNTO con {result.punto_total}", f"PUNTO wins with {result.punto_total}")]
    if result.banca_six and config.banca_mode == "half-six":
        return [A("Gana la BANCA con 6: se paga el 50 %", "BANCA wins with 6: pays 50 %")]
    if config.banca_mode == "commission" and config.commission_handling == "tally":
        return [A(f"Gana la BANCA con {result.banca_total}: 1 a 1, el 5 % a la cuenta de comisión",
                  f"BANCA wins with {result.banca_total}: 1 to 1, the 5 % to the commission tally")]
    if config.banca_mode == "commission":
        return [A(f"Gana la BANCA con {result.banca_total}: 1 a 1 menos 5 % de comisión",
                  f"BANCA wins with {result.banca_total}: 1 to 1 less 5 % commission")]
    return [A(f"Gana la BANCA con {result.banca_total}", f"BANCA wins with {result.banca_total}")]
