"""Midi Punto y Banca drills: the BANCA tableau, payouts, the full coup.

Draw or stand, the totals and the winner come from ``shared.baccarat`` (the rules as
data); payouts from the Midi engine's payout function. The drill deals, asks and
explains; it never decides a rule itself.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Mapping
from decimal import Decimal

from shared.baccarat import (
    BANCA_DRAWS_WHEN_PUNTO_STOOD,
    BANCA_TABLEAU,
    PUNTO_DRAWS_ON,
    CoupResult,
    Hand,
    Winner,
    is_natural,
    next_draw,
    points,
    resolve_hands,
    total,
)
from shared.cards import BaccaratShoe, Card, Rank, Suit
from shared.journal import Journal
from shared.midi.config import DEFAULT_MIDI_TABLE, MidiTableConfig
from shared.midi.payouts import BET_LABEL, BetKind, Outcome, SettlementLine, exact_banca_unit, settle_bets
from shared.midi.table import KeyedCard, MidiTable, Phase
from shared.messages import Joined, Localized, Money, Msg, Plain
from shared.training.cards_text import show
from shared.training.core import (
    COLLECT,
    RETURN,
    AnswerKind,
    Exercise,
    Option,
    Question,
    payout_answer,
    payout_question,
)
from shared.commands import can

DRAW, STAND = "c", "p"
DRAW_OPTIONS = (
    Option(DRAW, Msg.of("drill.option_draw"), aliases=("d",)),
    Option(STAND, Msg.of("drill.option_stand"), aliases=("s",)),
)
WINNER_OPTIONS = (
    Option("p", Plain("PUNTO")),
    Option("b", Plain("BANCA")),
    Option("e", Msg.of("drill.option_tie_midi"), aliases=("t",)),
)
_WINNER_KEY = {Winner.PUNTO: "p", Winner.BANCA: "b", Winner.TIE: "e"}
_WINNER_SAY = {
    Winner.PUNTO: "drill.punto_wins",
    Winner.BANCA: "drill.banca_wins",
    Winner.TIE: "drill.tie",
}

ART_NATURAL = "Art. 6 §2"
ART_PUNTO = "Art. 6, tercera carta §1"
ART_BANCA = "Art. 6, tercera carta §2"
ART_WINNER = "Art. 6 §1"
NATURAL_HINT = Msg.of("drill.natural_hint")


def _values(values: frozenset[int]) -> str:
    """``{4,5,6,7}`` → ``4–7``; ``{0,…,9}-{8}`` → ``0–7, 9``."""
    runs: list[str] = []
    ordered = sorted(values)
    start = prev = None
    for v in ordered + [None]:
        if v is not None and prev is not None and v == prev + 1:
            prev = v
            continue
        if start is not None:
            runs.append(str(start) if start == prev else f"{start}–{prev}")
        start = prev = v
    return ", ".join(runs)


def _hand_text(name: str, cards: list[Card]) -> Plain:
    return Plain(f"{name}: {show(cards)} = {total([c.rank for c in cards])}")


def punto_question(punto: list[Card], banca: list[Card], situation: tuple[Localized, ...]) -> Question:
    """PUNTO on its first two cards: carta or se planta (naturals end the coup)."""
    pr, br = [c.rank for c in punto], [c.rank for c in banca]
    pt, bt = total(pr), total(br)
    draws = next_draw(pr, br) is Hand.PUNTO
    if is_natural(pt) or is_natural(bt):
        article = ART_NATURAL
        why = Msg.of("drill.punto_natural", punto=pt, banca=bt)
        hint = NATURAL_HINT
    else:
        article = ART_PUNTO
        why = Msg.of("drill.punto_rule", values=_values(PUNTO_DRAWS_ON))
        hint = why
    correct = Msg.of("drill.card_for_punto") if draws else Msg.of("drill.punto_stands", total=pt)
    return Question(
        kind="punto_draw",
        prompt=Msg.of("drill.punto_prompt"),
        situation=situation,
        answer_kind=AnswerKind.CHOICE,
        correct=DRAW if draws else STAND,
        correct_text=correct,
        article=article,
        why=why,
        options=DRAW_OPTIONS,
        case=f"P{pt}",
        hint=hint,
    )


def banca_question(punto: list[Card], banca: list[Card], situation: tuple[Localized, ...],
                   kind: str = "banca_draw") -> Question:
    """BANCA on its first two cards, PUNTO's hand complete: carta or se planta."""
    pr, br = [c.rank for c in punto], [c.rank for c in banca]
    bt = total(br)
    draws = next_draw(pr, br) is Hand.BANCA
    p3 = points(pr[2]) if len(pr) == 3 else None
    why: Localized
    if is_natural(total(pr[:2])) or is_natural(bt):
        article, why = ART_NATURAL, Msg.of("drill.banca_natural")
        cell = "natural"
        hint = NATURAL_HINT
    elif p3 is None:
        article = ART_BANCA
        why = Msg.of("drill.banca_punto_stood", values=_values(BANCA_DRAWS_WHEN_PUNTO_STOOD))
        cell = f"B{bt}-stood"
        hint = why
    else:
        article = ART_BANCA
        on = BANCA_TABLEAU[bt]
        if on == frozenset(range(10)):
            why = Msg.of("drill.banca_always_draws", total=bt)
        elif not on:
            why = Msg.of("drill.banca_always_stands", total=bt)
        else:
            why = Msg.of("drill.banca_draws_when", total=bt, values=_values(on))
        cell = f"B{bt}-P{p3}"
        hint = why
    correct = Msg.of("drill.card_for_banca") if draws else Msg.of("drill.banca_stands", total=bt)
    return Question(
        kind=kind,
        prompt=Msg.of("drill.banca_prompt"),
        situation=situation,
        answer_kind=AnswerKind.CHOICE,
        correct=DRAW if draws else STAND,
        correct_text=correct,
        article=article,
        why=why,
        options=DRAW_OPTIONS,
        case=cell,
        hint=hint,
    )


# --- the BANCA tableau alone ---------------------------------------------------------

TABLEAU_CELLS: tuple[str, ...] = tuple(
    f"B{bt}-{'stood' if p is None else f'P{p}'}" for bt in range(8) for p in (None, *range(10))
)
"""Every case of the tableau: BANCA total 0–7 × (PUNTO stood, or its third card 0–9)."""


def _cell_base_weight(cell: str) -> float:
    # BANCA 3–6 against a third card is where the tableau has exceptions worth drilling.
    bt, p = cell[1], cell.split("-")[1]
    return 3.0 if bt in "3456" and p != "stood" else 1.0


def tableau_weights(record: Mapping[str, tuple[int, int]] | None = None) -> dict[str, float]:
    """Weight of each cell: hard cells first, raised by how often this trainee missed it.

    ``record`` maps a cell to (times asked, times missed), from the trainee's history.
    """
    weights: dict[str, float] = {}
    for cell in TABLEAU_CELLS:
        asked, missed = (record or {}).get(cell, (0, 0))
        weights[cell] = _cell_base_weight(cell) * (1 + 8 * missed / (asked + 1))
    return weights


def _card_worth(rng: random.Random, value: int) -> Card:
    ranks = [r for r in Rank if r.baccarat_points == value]
    return Card(rng.choice(ranks), rng.choice(list(Suit)))


def _two_cards_totalling(rng: random.Random, value: int) -> list[Card]:
    first = rng.randrange(10)
    return [_card_worth(rng, first), _card_worth(rng, (value - first) % 10)]


class BancaTableauDrill:
    """Flash drill over the tableau's cases, weighted towards the ones missed most."""

    game = "midi"
    name = "tableau"
    title = Msg.of("drill.title_tableau")
    default_length = 20

    def __init__(self, weights: Mapping[str, float] | None = None) -> None:
        self.weights = dict(weights) if weights is not None else tableau_weights()

    def exercises(self, rng: random.Random, count: int | None = None) -> Iterator[Exercise]:
        cells = list(self.weights)
        weights = [self.weights[c] for c in cells]
        for n in range(1, (count or self.default_length) + 1):
            cell = rng.choices(cells, weights)[0]
            yield self._exercise(rng, n, cell)

    def _exercise(self, rng: random.Random, n: int, cell: str) -> Exercise:
        bt, p = int(cell[1]), cell.split("-")[1]
        banca = _two_cards_totalling(rng, bt)
        if p == "stood":
            punto = _two_cards_totalling(rng, rng.choice((6, 7)))
            note = Msg.of("drill.punto_stood", hand=_hand_text("PUNTO", punto))
        else:
            punto = _two_cards_totalling(rng, rng.randrange(6)) + [_card_worth(rng, int(p[1]))]
            note = Msg.of("drill.third_card", hand=_hand_text("PUNTO", punto), card=punto[2].display, value=p[1])
        situation = (note, _hand_text("BANCA", banca))
        return Exercise(Msg.of("drill.case_n", n=n), (banca_question(punto, banca, situation, "tableau"),))


# --- payouts --------------------------------------------------------------------------

_ARTICLE_IN_TEXT = re.compile(r"\((Art\. [^)]*)\)")
_COLLECT_ARTICLE = "Art. 8 §6"
"""The croupier collects the losing bets after announcing the winner."""


def line_answer(line: SettlementLine) -> str:
    """The payout engine's verdict on one bet as a canonical payout answer."""
    if line.outcome is Outcome.WIN:
        return payout_answer("pay", line.paid)
    return COLLECT if line.outcome is Outcome.LOSE else RETURN


def line_kind(line: SettlementLine, result: CoupResult, config: MidiTableConfig) -> str:
    """The kind of payout decision, so mistakes are counted where they happen."""
    if line.kind is BetKind.TIE:
        return "payout_tie"
    if result.winner is Winner.TIE:
        return "payout_tie_return"
    if line.kind is BetKind.BANCA and result.winner is Winner.BANCA:
        if config.banca_mode == "commission":
            return "payout_commission"
        return "payout_banca_six" if result.banca_six else "payout_banca"
    return f"payout_{line.kind.value}"


def line_question(line: SettlementLine, result: CoupResult, config: MidiTableConfig,
                  situation: tuple[Localized, ...]) -> Question:
    found = _ARTICLE_IN_TEXT.search(line.reason.render("es"))
    code = "drill.midi_bet_tie" if line.kind is BetKind.TIE else "drill.midi_bet"
    return payout_question(
        kind=line_kind(line, result, config),
        prompt=Msg.of(code, spot=line.spot, bet=BET_LABEL[line.kind], stake=Money(line.stake)),
        situation=situation,
        answer=line_answer(line),
        why=line.reason,
        article=found.group(1) if found else _COLLECT_ARTICLE,
        currency=config.currency,
        hint=_mode_text(config),
    )


def _coup_text(punto: list[Card], banca: list[Card], result: CoupResult) -> Msg:
    return Msg.of("drill.coup", punto=show(punto), punto_total=result.punto_total, banca=show(banca),
                  banca_total=result.banca_total, winner=Msg.of(_WINNER_SAY[result.winner]))


def _mode_text(config: MidiTableConfig) -> Msg:
    chip = Money(config.chip)
    if config.banca_mode == "commission" and config.commission_handling == "tally":
        return Msg.of("drill.mode_tally", chip=chip)
    if config.banca_mode == "commission":
        return Msg.of("drill.mode_commission", chip=chip)
    return Msg.of("drill.mode_half_six", chip=chip)


def _bets_lines(bets: dict[int, dict[BetKind, Decimal]]) -> tuple[Msg, ...]:
    return tuple(
        Msg.of("drill.midi_box_bets", box=spot, bets=Joined(tuple(
            Msg.of("drill.bet_stake", bet=BET_LABEL[k], stake=Money(v)) for k, v in bets[spot].items() if v > 0), " · "))
        for spot in sorted(bets))


STAKES = (10, 15, 20, 25, 30, 35, 45, 50, 55, 75, 100, 150)
"""Stakes chosen so that halves and 5 % are often not whole tens (the PUNTO and TIE bets take
every one; BANCA only those the table pays exactly)."""


def _random_bets(rng: random.Random, config: MidiTableConfig, boxes: int) -> dict[int, dict[BetKind, Decimal]]:
    bets: dict[int, dict[BetKind, Decimal]] = {}
    for spot in sorted(rng.sample(range(1, config.boxes + 1), boxes)):
        side = rng.choice((BetKind.PUNTO, BetKind.BANCA, BetKind.BANCA))
        # Only the BANCA bets the table takes: those its chip pays exactly (Art. 5 §2–3).
        unit = exact_banca_unit(config) if side is BetKind.BANCA else config.chip
        box = {side: Decimal(rng.choice([s for s in STAKES if config.minimum <= s <= config.maximum and not s % unit]))}
        if rng.random() < 0.35:
            box[BetKind.TIE] = Decimal(rng.choice([s for s in STAKES if config.minimum <= s <= config.tie_maximum]))
        bets[spot] = box
    return bets


class CoupDealer:
    """Coups dealt from a virtual shoe as at the table: shuffle, burn, deal to the cut card.

    Every card goes where ``next_draw`` sends it; a new shoe starts once the cut card is out.
    """

    def __init__(self, rng: random.Random, decks: int) -> None:
        self.rng = rng
        self.decks = decks
        self._new_shoe()

    def _new_shoe(self) -> None:
        self.shoe = BaccaratShoe.shuffled(self.decks, self.rng)
        self.shoe.burn()

    def next_coup(self) -> tuple[list[Card], list[Card]]:
        if self.shoe.cut_card_out or self.shoe.cards_left < 6:
            self._new_shoe()
        punto: list[Card] = []
        banca: list[Card] = []
        while (hand := next_draw([c.rank for c in punto], [c.rank for c in banca])) is not None:
            (punto if hand is Hand.PUNTO else banca).append(self.shoe.deal())
        return punto, banca


def _result(punto: list[Card], banca: list[Card]) -> CoupResult:
    return resolve_hands([c.rank for c in punto], [c.rank for c in banca])


class MidiPayoutDrill:
    """Payouts alone, several boxes at once: the coup is shown decided; pay each bet.

    Exercises rotate through the cases that cost money when missed: BANCA winning with 6
    (half pay), the 5 % commission (a commission table),
    a TIE (8 a 1, PUNTO and BANCA returned), and an ordinary coup.
    """

    game = "midi"
    name = "payouts"
    title = Msg.of("drill.title_payouts")
    default_length = 8
    FOCUS = ("banca_six", "commission", "tie", "any")
    _MAX_COUPS = 5000

    def __init__(self, config: MidiTableConfig = DEFAULT_MIDI_TABLE) -> None:
        self.config = config

    def exercises(self, rng: random.Random, count: int | None = None) -> Iterator[Exercise]:
        dealer = CoupDealer(rng, self.config.decks)
        for n in range(1, (count or self.default_length) + 1):
            yield self._exercise(rng, dealer, n, self.FOCUS[(n - 1) % len(self.FOCUS)])

    def _exercise(self, rng: random.Random, dealer: CoupDealer, n: int, focus: str) -> Exercise:
        config = self.config
        if focus == "commission":
            config = config.with_changes(banca_mode="commission")
        elif focus == "banca_six":
            config = config.with_changes(banca_mode="half-six")
        for _ in range(self._MAX_COUPS):
            punto, banca = dealer.next_coup()
            result = _result(punto, banca)
            if (focus == "any" or (focus == "banca_six" and result.banca_six)
                    or (focus == "commission" and result.winner is Winner.BANCA)
                    or (focus == "tie" and result.winner is Winner.TIE)):
                break
        bets = _random_bets(rng, config, rng.randint(2, 4))
        lines = settle_bets(bets, result, config)
        situation = (_mode_text(config), _coup_text(punto, banca, result), *_bets_lines(bets))
        return Exercise(Msg.of("drill.payout_n", n=n),
                        tuple(line_question(line, result, config, situation) for line in lines))


# --- the full coup --------------------------------------------------------------------

def winner_question(punto: list[Card], banca: list[Card], result: CoupResult,
                    situation: tuple[Localized, ...]) -> Question:
    if result.winner is Winner.TIE:
        correct = Msg.of("drill.tie_at", total=result.punto_total)
    else:
        total_ = result.punto_total if result.winner is Winner.PUNTO else result.banca_total
        correct = Msg.of("drill.hand_wins_with", hand=result.winner.value.upper(), total=total_)
    return Question(
        kind="winner",
        prompt=Msg.of("drill.midi_winner_prompt"),
        situation=situation,
        answer_kind=AnswerKind.CHOICE,
        correct=_WINNER_KEY[result.winner],
        correct_text=correct,
        article=ART_WINNER,
        why=Msg.of("drill.midi_winner_tie" if result.winner is Winner.TIE else "drill.midi_winner_nearer",
                   punto=result.punto_total, banca=result.banca_total),
        options=WINNER_OPTIONS,
        case=result.winner.value,
        hint=Plain(f"PUNTO {result.punto_total} · BANCA {result.banca_total}"),
    )


REVEAL_CROUPIER = "0"


def reveal_question(table: MidiTable, situation: tuple[Localized, ...]) -> Question:
    """After «No va más»: who turns PUNTO's cards (the engine's ``reveal_box``)."""
    box = table.reveal_box
    options = tuple(Option(str(spot), Msg.of("drill.option_box", box=spot)) for spot in sorted(table.bets)
                    if spot <= table.config.boxes) + (Option(REVEAL_CROUPIER, Msg.of("drill.option_croupier")),)
    correct = (Msg.of("drill.reveal_croupier") if box is None else Msg.of("drill.reveal_box", box=box))
    # The hint is the facts the rule reads (each box's bet on PUNTO), never the box it picks.
    punto = [(spot, bets[BetKind.PUNTO]) for spot, bets in sorted(table.bets.items()) if BetKind.PUNTO in bets]
    hint: Localized = (Msg.of("drill.reveal_hint", bets=Joined(tuple(
        Msg.of("drill.option_box_bet", box=spot, amount=Money(amount, table.config.currency)) for spot, amount in punto), " · "))
        if punto else Msg.of("drill.reveal_hint_none"))
    return Question(
        kind="punto_cards",
        prompt=Msg.of("drill.reveal_prompt"),
        situation=situation,
        answer_kind=AnswerKind.CHOICE,
        correct=REVEAL_CROUPIER if box is None else str(box),
        correct_text=correct,
        article="Art. 8 §4",
        why=Msg.of("drill.reveal_why"),
        options=options,
        hint=hint,
    )


def _plain_card(card: KeyedCard) -> Card:
    assert card.suit is not None  # a training shoe knows every suit
    return Card(card.rank, card.suit)


class MidiCoupDrill:
    """The whole coup on the Midi engine in training mode (its own in-memory journal):
    who gets PUNTO's cards, draw or stand for PUNTO and for BANCA, the winner, every payout.

    The engine shuffles its shoe, burns, validates the bets, deals the cards the rules
    call for and settles; the drill asks each of those decisions in turn, showing the
    table as it stands at that moment.
    """

    game = "midi"
    name = "coup"
    title = Msg.of("drill.title_round")
    default_length = 6

    def __init__(self, config: MidiTableConfig = DEFAULT_MIDI_TABLE) -> None:
        self.config = config

    def exercises(self, rng: random.Random, count: int | None = None) -> Iterator[Exercise]:
        journal = Journal(":memory:", self.config.table_id, "midi", training=True)
        try:
            table = MidiTable(journal, config=self.config, training=True, rng=rng)
            for n in range(1, (count or self.default_length) + 1):
                yield self._exercise(rng, table, n)
        finally:
            journal.close()

    def _exercise(self, rng: random.Random, table: MidiTable, n: int) -> Exercise:
        if table.phase in (Phase.NO_SHOE, Phase.SHOE_END):
            table.play.new_shoe()
        if table.phase is Phase.BURN:
            table.play.deal()
            table.play.confirm_burn()
        place_players_bets(rng, table)
        bets = {spot: dict(b) for spot, b in table.bets.items()}
        head = (_mode_text(self.config), *_bets_lines(bets))
        table.play.no_va_mas()
        questions = [reveal_question(table, head)]
        while len(table.cards) < 4:
            table.play.deal()
        while table.card_called_for is not None:
            table.play.deal()
        cards = [_plain_card(c) for c in table.cards]
        punto = [_plain_card(c) for c in table.punto_cards]
        banca = [_plain_card(c) for c in table.banca_cards]
        result, lines = table.result, table.settlement
        assert result is not None and lines is not None
        first = (_hand_text("PUNTO", cards[0:4:2]), _hand_text("BANCA", cards[1:4:2]))
        punto_line: Localized = _hand_text("PUNTO", punto)
        if len(punto) == 3:
            punto_line = Msg.of("drill.third_card", hand=punto_line, card=punto[2].display,
                                value=punto[2].rank.baccarat_points)
        final = (punto_line, _hand_text("BANCA", banca))
        questions += [
            punto_question(punto[:2], banca[:2], head + first),
            banca_question(punto, banca[:2], head + (punto_line, first[1])),
            winner_question(punto, banca, result, head + final),
        ]
        situation = head + (_coup_text(punto, banca, result),)
        questions += [line_question(line, result, self.config, situation) for line in lines]
        table.play.settle()
        return Exercise(Msg.of("drill.round_n", n=n), tuple(questions))


def place_players_bets(rng: random.Random, table: MidiTable) -> None:
    """Bets as a table sees them: PUNTO on several boxes (equal stakes now and then, so the
    lowest box gets the cards), BANCA, some TIE; the engine refuses what breaks a limit."""
    config = table.config
    spots = sorted(rng.sample(range(1, config.boxes + 1), rng.randint(1, 4)))
    shared_stake = Decimal(rng.choice(STAKES))
    for spot in spots:
        kind = rng.choice((BetKind.PUNTO, BetKind.PUNTO, BetKind.BANCA))
        stake = shared_stake if rng.random() < 0.4 else Decimal(rng.choice(STAKES))
        if can(table.play.verify_place_bet, spot, kind, stake):
            table.play.place_bet(spot, kind, stake)
        if rng.random() < 0.3:
            tie = Decimal(rng.choice([s for s in STAKES if s <= config.tie_maximum]))
            if can(table.play.verify_place_bet, spot, BetKind.TIE, tie):
                table.play.place_bet(spot, BetKind.TIE, tie)
    if not table.bets:
        table.play.place_bet(spots[0], BetKind.PUNTO, config.minimum)  # the minimum: always a bet the table takes
