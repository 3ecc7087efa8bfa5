"""The Madero table's state: the round, its boxes and cards, folded from the journal (Art. 7–9),
and what the screens read from it."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import field
from decimal import Decimal
from enum import StrEnum
from typing import Any, TypeVar, cast

from shared.cards import Card, PokerDeck
from shared.codec import ATTR
from shared.engine import TableEngine
from shared.errors import InputError, RuleViolation
from shared.madero.config import MaderoTableConfig
from shared.madero.settlement import (
    BoxBets,
    BoxInput,
    BoxStatus,
    MeterReading,
    RoundSettlement,
    SettlementRecord,
    settle_round,
    void_settlement,
)
from shared.madero.table.events import RoundStarted
from shared.messages import Msg
from shared.money import ZERO
from shared.record import record


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


@record(frozen=False)
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


@record(frozen=False)
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
    prize_claimed: bool = False
    """A meter prize was claimed from the store (``PrizeClaimed``): only its settlement may follow."""
    prize_answer: dict[str, Any] | None = None
    """The store's answer to that claim (``PrizeAnswered``): ``{"meter": reading}`` or
    ``{"fallback": reason}`` (§48); the settlement is shown and settled on it."""

    def seen(self) -> list[Card]:
        return [*self.board, *self.bank, *self.burns, *(c for b in self.boxes.values() for c in b.cards)]

    def deck_pool(self) -> PokerDeck:
        return PokerDeck(self.seen())



@record
class MaderoSnapshot:
    """What a snapshot keeps of the table (the base adds who is on duty and the round's log).

    ``round`` is the open round as folded: restoring refolds it from ``round_start`` and the
    log, and it is kept so that equal tables have equal snapshots."""

    round_no: int
    round_start: dict[str, Any] | None
    round: RoundState | None = field(metadata={ATTR: "r"})
    groups: dict[int, int]
    last_bets: dict[int, dict[str, Any]]
    books: dict[str, Decimal]
    last_settlement: SettlementRecord | None = field(metadata={ATTR: "last_record"})
    outbox: list[dict[str, Any]]
    carrusel_fallback: str | None


EnumT = TypeVar("EnumT", bound=StrEnum)


def enum_value(cls: type[EnumT], value: object) -> EnumT:
    """An enum member from UI input; an unknown value is an InputError, not a crash."""
    try:
        return cls(str(value))
    except ValueError:
        options = ", ".join(m.value for m in cls)
        raise InputError(Msg.of("madero.not_an_option", value=value, options=options)) from None


def parse_card(text: str) -> Card:
    return Card.parse(text)


def parse_cards(texts: Iterable[str]) -> list[Card]:
    return [Card.parse(t) for t in texts]


def need_phase(table: MaderoState, allowed: Iterable[Phase], article: str, refusal: Msg) -> None:
    """A command's refusal outside the phases it runs in."""
    if table.phase not in set(allowed):
        raise RuleViolation(article, refusal)


def need_box(table: MaderoState, box: int) -> BoxState:
    """The box, refused unless it has an Ante this round."""
    if table.r is None or box not in table.r.boxes or not table.r.boxes[box].in_play:
        raise RuleViolation("Art. 1 §2", Msg.of("madero.box_has_no_ante", box=box))
    return table.r.boxes[box]


class MaderoState(TableEngine):
    """The table's state and what the screens read from it (the fold is ``MaderoTable``'s)."""

    config: MaderoTableConfig
    last_settlement: RoundSettlement | None
    """The round that just closed, as settled (for the screen of the moment)."""

    game = "madero"
    PHASES = tuple(Phase)
    BETWEEN_ROUNDS = (Phase.IDLE,)

    # --- state -----------------------------------------------------------------------------

    def initial_state(self) -> None:
        self._worked_out = SinceLastEntry(lambda: self._applied_seq)
        self.round_no = 0
        self.r: RoundState | None = None
        self.round_start: dict[str, Any] | None = None
        self.round_log = []
        self.groups: dict[int, int] = {}
        """Box → the box whose cards that player looks at (§72); absent = on its own."""
        self.last_bets: dict[int, dict[str, Any]] = {}
        self.books = {k: ZERO for k in ("staked", "returned", "collected", "paid", "adjusted")}
        self.last_record: SettlementRecord | None = None
        """The last round's settlement as journaled (what the books added)."""
        self.last_settlement = None
        self.outbox: list[dict[str, Any]] = []
        """What the journal says the table owes the meter store, oldest first: the last round
        settled online (its movement may not have reached the store) and every round settled
        on §48 after it (their contributions). Each is applied once, by its ``ref``."""
        self.carrusel_fallback: str | None = None
        """Why the last round was settled on the fixed paytable of §48 (None: it was not)."""

    @property
    def round_id(self) -> int:
        return self.round_no

    @property
    def round_open(self) -> bool:
        return self.r is not None

    def round_id_for(self, type: str, payload: dict[str, Any]) -> int:
        if type == RoundStarted.type:
            return int(payload["round"])
        return self.round_no

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

    @property
    def to_act(self) -> int | None:
        """The box whose decision is due, clockwise from the first occupied box (§26)."""
        if self.r is None or self.r.phase not in BETTING_ROUND:
            return None
        k = BETTING_ROUND[self.r.phase] - 1
        for n in active_boxes(self.r):
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
            for n in active_boxes(r):
                if len(r.boxes[n].cards) < 2:
                    return ("box", n)
        return None


    def settlement(self, reading: MeterReading | None) -> RoundSettlement:
        """What the round's settlement is on ``reading`` (None: a fixed table): a calculation,
        made once per entry folded (the settlement screen asks twice at every key)."""
        r = self.r
        assert r is not None
        return cast(RoundSettlement, self._worked_out.get(("settlement", reading), lambda: settle_round(
            self.config, r.bank, r.board, box_inputs(r), meter=reading,
            carta_magica=r.carta_magica, jugador_afortunado=r.jugador_afortunado)))

    def fixed_settlement(self) -> RoundSettlement:
        """The round settled as if the table were fixed (§48: "surja un inconveniente que impida
        utilizar el progresivo electrónico"): no meter prize, no Carta Mágica nor Jugador
        Afortunado (§55–57 belong to the progressive). Worked out once per entry folded, as
        ``settlement``: under §48 the settlement screen asks at every key."""
        r = self.r
        assert r is not None
        return cast(RoundSettlement, self._worked_out.get("fixed settlement", lambda: settle_round(
            self._fixed_config, r.bank, r.board, box_inputs(r))))

    @functools.cached_property
    def _fixed_config(self) -> MaderoTableConfig:
        """This table as a fixed one (read once: the settlement screen asks at every key)."""
        return self.config.with_changes(jackpot_mode="fixed", contribution_percent=0, carrusel_id=None,
                                        progressive_seed=None)

    def betting_began(self) -> bool:
        """The first «voy» or «me retiro» is recorded: the deal is over (§38)."""
        r = self.r
        return r is not None and r.phase not in (Phase.IDLE, Phase.BETS) and (
            r.phase is not Phase.FIRST or any(b.decisions[0] is not None for b in r.boxes.values()))

    def round_adjustments(self) -> list[Decimal]:
        """The supervisor's adjustments (§73) recorded during the open round (positive: paid to
        the box, negative: collected), for its settlement's totals; read from the journal."""
        if not self.round_log:
            return []
        first = self.round_log[0].seq
        return list(cast(list[Decimal], self._worked_out.get("adjustments", lambda: [
            Decimal(e.payload["amount"]) for e in self.journal.events(after=first, types=["adjustment"])
            if e.payload["round"] == self.round_no])))


class SinceLastEntry:
    """What was worked out from a table's state as the last entry it folded left it (the open
    round's settlement, its §73 adjustments): every change of state is an entry folded, so
    each is worked out once per entry — the settlement screen asked for them two or three
    times a key (issue 32). Keyed by the entry folded (``folded``), not by the journal's last
    one: a replay folds many entries while the journal's last stays where it is."""

    def __init__(self, folded: Callable[[], int]) -> None:
        self.folded = folded
        self.seq = -1
        self.known: dict[object, object] = {}

    def get(self, key: object, work: Callable[[], object]) -> object:
        seq = self.folded()
        if self.seq != seq:
            self.seq, self.known = seq, {}
        if key not in self.known:
            self.known[key] = work()
        return self.known[key]


def active_boxes(r: RoundState | None) -> list[int]:
    """The open round's boxes still in play and not folded, in order."""
    assert r is not None
    return [n for n, b in sorted(r.boxes.items()) if b.in_play and b.status is BoxStatus.ACTIVE]


def box_inputs(r: RoundState | None) -> list[BoxInput]:
    """The round's boxes as the settlement reads them."""
    assert r is not None
    return [BoxInput(n, b.bets(), tuple(b.cards) if len(b.cards) == 2 else None, b.status)
            for n, b in sorted(r.boxes.items())]


def voided(table: MaderoState, article: str, reason: str) -> RoundSettlement:
    """The open round's settlement when it is void (every bet returned)."""
    return void_settlement(box_inputs(table.r), table.config, article=article,
                           reason=Msg.of("settlement.round_void", reason=reason))


def community_street(r: RoundState | None) -> str | None:
    """The last community street turned, while it can still be dealt again."""
    if r is None or r.phase in (Phase.SETTLEMENT,) or not r.board:
        return None
    if r.phase is Phase.SHOWDOWN and (r.bank or any(b.cards for b in r.boxes.values())):
        return None
    # A flop still being keyed (1–2 cards) can be dealt again too.
    return "flop" if len(r.board) <= 3 else STREET_OF_BOARD[len(r.board)]
