"""Madero Poker Bonus drills: reading the board, payouts, the full round.

Every correct answer comes from the engine: the evaluator names and compares hands,
the settlement says what each bet pays. The drill only deals virtual cards from a
seeded deck and turns the engine's verdicts into questions.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from decimal import Decimal

from shared.cards import Card, PokerDeck
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.madero.paytables import bonus_line
from shared.madero.settlement import (
    Bet,
    BetResult,
    BoxBets,
    BoxInput,
    BoxSettlement,
    BoxStatus,
    Outcome,
    settle_round,
)
from shared.money import ZERO, fmt_money
from shared.poker.evaluator import Category, describe, evaluate, strength
from shared.training.cards_text import numbered, show
from shared.training.core import (
    COLLECT,
    RETURN,
    AnswerKind,
    Exercise,
    Option,
    Question,
    Say,
    payout_answer,
    payout_question,
)

CATEGORY_OPTIONS = tuple(Option(str(c.value), Say(c.es, c.en)) for c in reversed(Category))
"""Keys 9 … 0: the combinations of Art. 5 §17, highest first (9 escalera real … 0 carta mayor)."""

WINNER_OPTIONS = (
    Option("j", Say("jugador", "player"), aliases=("p",)),
    Option("b", Say("banca", "bank")),
    Option("e", Say("empate", "tie"), aliases=("t",)),
)


def deal(rng: random.Random, n: int) -> list[Card]:
    """``n`` cards from the console's own freshly shuffled 52-card deck (Art. 2 §5)."""
    return PokerDeck().shuffled_unseen(rng)[:n]


def best_five_question(label: Say, hole: tuple[Card, ...], board: tuple[Card, ...], situation: tuple[Say, ...],
                       kind: str = "best_five") -> Question:
    seven = hole + board
    value = evaluate(seven)
    target = value.strength
    return Question(
        kind=kind,
        prompt=Say(f"Mejores cinco cartas de {label.es}: teclee 5 posiciones (1–7) y Enter",
                   f"Best five cards of {label.en}: type 5 positions (1–7) and Enter"),
        situation=situation + (Say(numbered(seven), numbered(seven)),),
        answer_kind=AnswerKind.CARDS,
        correct=" ".join(str(c) for c in value.best),
        correct_text=Say(f"{show(value.best)} ({describe(value, 'es')})", f"{show(value.best)} ({describe(value, 'en')})"),
        article="Art. 9 §31",
        why=Say("la mejor combinación de 5 entre sus 2 cartas y las 5 comunitarias",
                "the best five of its 2 cards and the 5 community cards"),
        cards=seven,
        # Equal kickers of different suits make several right choices: any five worth the best.
        accept=lambda chosen: len(chosen) == 5 and strength(chosen) == target,
    )


def combination_question(label: Say, hole: tuple[Card, ...], board: tuple[Card, ...],
                         situation: tuple[Say, ...]) -> Question:
    value = evaluate(hole + board)
    return Question(
        kind="combination",
        prompt=Say(f"¿Qué combinación tiene {label.es}?", f"Which combination does {label.en} hold?"),
        situation=situation,
        answer_kind=AnswerKind.CHOICE,
        correct=str(value.category.value),
        correct_text=Say(f"{value.category.es}: «{describe(value, 'es')}»", f"{value.category.en}: “{describe(value, 'en')}”"),
        article="Art. 5 §17",
        why=Say(f"{show(value.best)} es {value.category.es}", f"{show(value.best)} is a {value.category.en.lower()}"),
        options=CATEGORY_OPTIONS,
        case=value.category.name,
    )


def winner_question(player: tuple[Card, ...], bank: tuple[Card, ...], board: tuple[Card, ...],
                    situation: tuple[Say, ...], prompt: Say | None = None) -> Question:
    pv, bv = evaluate(player + board), evaluate(bank + board)
    if pv.strength > bv.strength:
        key, es, en = "j", "gana el jugador", "the player wins"
    elif pv.strength < bv.strength:
        key, es, en = "b", "gana la banca", "the bank wins"
    else:
        key, es, en = "e", "empate", "a tie"
    same = pv.category is bv.category
    return Question(
        kind="winner",
        prompt=prompt or Say("¿Quién gana, el jugador o la banca?", "Who wins, the player or the bank?"),
        situation=situation,
        answer_kind=AnswerKind.CHOICE,
        correct=key,
        correct_text=Say(f"{es}: {describe(pv, 'es')} contra {describe(bv, 'es')}",
                         f"{en}: {describe(pv, 'en')} against {describe(bv, 'en')}"),
        article="Art. 5 §19" if same else "Art. 5 §18",
        why=Say(
            f"jugador {show(pv.best)} · banca {show(bv.best)}"
            + (": misma combinación, deciden las cartas de mayor valor" if same else ": la combinación superior gana"),
            f"player {show(pv.best)} · bank {show(bv.best)}"
            + (": same combination, the higher cards decide" if same else ": the higher combination wins"),
        ),
        options=WINNER_OPTIONS,
        case="tie" if key == "e" else ("same_category" if same else "category"),
    )


class BoardReadingDrill:
    """From 7 cards: the bank's best five and its name, then player against bank.

    Ties are dealt on purpose (a third of the boards) because they are what a new
    croupier gets wrong: the board plays, or equal combinations split on kickers.
    """

    game = "madero"
    name = "board"
    title = Say("Lectura de la mesa", "Reading the board")
    default_length = 10
    TIE_SHARE = 1 / 3
    _MAX_TRIES = 20000

    def exercises(self, rng: random.Random, count: int | None = None) -> Iterator[Exercise]:
        for n in range(1, (count or self.default_length) + 1):
            yield self._exercise(rng, n)

    def _exercise(self, rng: random.Random, n: int) -> Exercise:
        want_tie = rng.random() < self.TIE_SHARE
        for _ in range(self._MAX_TRIES):
            cards = deal(rng, 9)
            bank, player, board = tuple(cards[:2]), tuple(cards[2:4]), tuple(cards[4:])
            tie = strength(player + board) == strength(bank + board)
            if tie == want_tie:
                break
        situation = (
            Say(f"Mesa: {show(board)}", f"Board: {show(board)}"),
            Say(f"Banca: {show(bank)}   Jugador: {show(player)}", f"Bank: {show(bank)}   Player: {show(player)}"),
        )
        bank_label = Say("la banca", "the bank")
        return Exercise(
            Say(f"Mesa {n}", f"Board {n}"),
            (
                best_five_question(bank_label, bank, board, situation),
                combination_question(bank_label, bank, board, situation),
                winner_question(player, bank, board, situation),
            ),
        )


# --- payouts ---------------------------------------------------------------------------

_BET_SAY = {
    Bet.ANTE: Say("Ante", "Ante"),
    Bet.FLOP: Say("Flop", "Flop"),
    Bet.TURN: Say("Turn", "Turn"),
    Bet.RIVER: Say("River", "River"),
    Bet.BONUS: Say("Bonus", "Bonus"),
    Bet.JACKPOT: Say("Jackpot", "Jackpot"),
}


def settlement_answer(result: BetResult) -> str:
    """The settlement's verdict on one bet as a canonical payout answer."""
    if result.outcome is Outcome.WIN:
        return payout_answer("pay", result.paid)
    return RETURN if result.outcome is Outcome.PUSH else COLLECT


def _stake_text(result: BetResult, credits: int) -> str:
    if result.bet is Bet.JACKPOT:
        return f"{credits} cr"
    return fmt_money(result.stake)


def bet_questions(box: BoxSettlement, bets: BoxBets, situation: tuple[Say, ...], config: MaderoTableConfig,
                  only: set[Bet] | None = None) -> list[Question]:
    """One payout question per bet of the box, in the settlement's order."""
    out = []
    for r in box.bets:
        if only is not None and r.bet not in only:
            continue
        stake = _stake_text(r, bets.jackpot_credits)
        name = _BET_SAY[r.bet]
        out.append(payout_question(
            kind=f"payout_{r.bet.value}",
            prompt=Say(f"Casilla {box.box}: {name.es} {stake}", f"Box {box.box}: {name.en} {stake}"),
            situation=situation,
            answer=settlement_answer(r),
            why=Say(r.reason.render("es"), r.reason.render("en")),
            article=r.article,
            exact=r.exact,
            currency=config.currency,
            case=r.line,
        ))
    return out


def _bets_text(bets: BoxBets) -> Say:
    parts = [f"{_BET_SAY[b].es} {fmt_money(bets.stake(b, Decimal(1)))}" for b in (Bet.ANTE, Bet.FLOP, Bet.TURN, Bet.RIVER, Bet.BONUS)
             if bets.stake(b, Decimal(1)) > 0]
    parts_en = list(parts)
    if bets.jackpot_credits:
        parts.append(f"Jackpot {bets.jackpot_credits} cr")
        parts_en.append(f"Jackpot {bets.jackpot_credits} cr")
    return Say(" · ".join(parts) or "sin apuestas", " · ".join(parts_en) or "no bets")


def _random_bets(rng: random.Random, config: MaderoTableConfig, *, bonus: bool, jackpot: bool) -> BoxBets:
    ante = rng.choice([a for a in (10, 15, 20, 25, 30, 50, 100) if config.minimum <= a <= config.maximum / 2])
    ante_d = Decimal(ante)
    return BoxBets(
        ante=ante_d,
        flop=2 * ante_d,
        turn=ante_d if rng.random() < 0.6 else ZERO,
        river=ante_d if rng.random() < 0.5 else ZERO,
        bonus=Decimal(rng.choice((5, 10, 15, 25))) if bonus else ZERO,
        jackpot_credits=rng.randint(1, 5) if jackpot else 0,
    )


class MaderoPayoutDrill:
    """Payouts alone: the hands are shown already named; the trainee pays each bet.

    Deals are filtered so each exercise trains one thing: the Ante of a winner (pays
    only on Color or better), a Bonus line, or a Jackpot line per credit.
    """

    game = "madero"
    name = "payouts"
    title = Say("Pagos", "Payouts")
    default_length = 12
    FOCUS = ("ante", "bonus", "jackpot")
    _MAX_TRIES = 20000

    def __init__(self, config: MaderoTableConfig = DEFAULT_MADERO_TABLE) -> None:
        self.config = config

    def exercises(self, rng: random.Random, count: int | None = None) -> Iterator[Exercise]:
        for n in range(1, (count or self.default_length) + 1):
            yield self._exercise(rng, n, self.FOCUS[(n - 1) % len(self.FOCUS)])

    def _exercise(self, rng: random.Random, n: int, focus: str) -> Exercise:
        config = self.config
        for _ in range(self._MAX_TRIES):
            cards = deal(rng, 9)
            bank, hole, board = tuple(cards[:2]), tuple(cards[2:4]), tuple(cards[4:])
            if _fits(focus, hole, bank, board, rng):
                break
        bets = _random_bets(rng, config, bonus=focus == "bonus", jackpot=focus == "jackpot")
        settlement = settle_round(config, bank, board, [BoxInput(1, bets, hole)])
        box = settlement.box(1)
        assert settlement.bank is not None  # box 1 is in play: the bank's hand was valued
        only = {"ante": {Bet.ANTE, Bet.FLOP, Bet.TURN, Bet.RIVER}, "bonus": {Bet.BONUS}, "jackpot": {Bet.JACKPOT}}[focus]
        situation = (
            Say(f"Mesa: {show(board)}   Banca: {show(bank)} → {describe(settlement.bank, 'es')}",
                f"Board: {show(board)}   Bank: {show(bank)} → {describe(settlement.bank, 'en')}"),
            Say(f"Casilla 1: {show(hole)} → {box.hand_text('es')} ({_MAIN_SAY[box.main].es})",
                f"Box 1: {show(hole)} → {box.hand_text('en')} ({_MAIN_SAY[box.main].en})"),
            _bets_text(bets),
        )
        return Exercise(Say(f"Pago {n}", f"Payout {n}"), tuple(bet_questions(box, bets, situation, config, only)))


_MAIN_SAY = {
    Outcome.WIN: Say("gana a la banca", "beats the bank"),
    Outcome.LOSE: Say("pierde con la banca", "loses to the bank"),
    Outcome.PUSH: Say("empata con la banca", "ties with the bank"),
    None: Say("fuera de juego", "out of the round"),
}


def _fits(focus: str, hole: tuple[Card, ...], bank: tuple[Card, ...], board: tuple[Card, ...],
          rng: random.Random) -> bool:
    """Whether a deal trains the focus; 30 % of deals are taken as they come, so losing
    hands and lines that pay nothing are practised too."""
    if rng.random() < 0.3:
        return True
    if focus == "ante":
        return evaluate(hole + board).strength > evaluate(bank + board).strength
    if focus == "bonus":
        (a, b), bank_ranks = hole, (bank[0].rank.value, bank[1].rank.value)
        return bonus_line((a.rank.value, b.rank.value), a.suit is b.suit, bank_ranks, True) is not None
    return evaluate(hole + board[:3]).category >= Category.ESCALERA


# --- the full round -------------------------------------------------------------------

class MaderoRoundDrill:
    """A whole round at the showdown: announce the bank, pick the winners, pay every bet.

    Cards come from one shuffled deck per round; bets are varied (checks on Turn and
    River, side bets, now and then a box that folded).
    """

    game = "madero"
    name = "round"
    title = Say("Pase completo", "Full round")
    default_length = 5
    FOLD_SHARE = 0.15

    def __init__(self, config: MaderoTableConfig = DEFAULT_MADERO_TABLE) -> None:
        self.config = config

    def exercises(self, rng: random.Random, count: int | None = None) -> Iterator[Exercise]:
        for n in range(1, (count or self.default_length) + 1):
            yield self._exercise(rng, n)

    def _exercise(self, rng: random.Random, n: int) -> Exercise:
        config = self.config
        box_numbers = sorted(rng.sample(range(1, config.boxes + 1), rng.randint(2, min(4, config.boxes))))
        cards = deal(rng, 7 + 2 * len(box_numbers))
        bank, board = tuple(cards[:2]), tuple(cards[2:7])
        boxes = []
        for i, number in enumerate(box_numbers):
            hole = tuple(cards[7 + 2 * i: 9 + 2 * i])
            folded = rng.random() < self.FOLD_SHARE
            bets = _random_bets(rng, config, bonus=rng.random() < 0.5, jackpot=rng.random() < 0.4)
            if folded:
                bets = BoxBets(ante=bets.ante, bonus=bets.bonus, jackpot_credits=bets.jackpot_credits)
            boxes.append(BoxInput(number, bets, None if folded else hole,
                                  BoxStatus.FOLDED if folded else BoxStatus.ACTIVE))
        settlement = settle_round(config, bank, board, boxes)
        table = [Say(f"Mesa: {show(board)}   Banca: {show(bank)}", f"Board: {show(board)}   Bank: {show(bank)}")]
        for b in boxes:
            hand = show(b.cards) if b.cards else "—"
            status = Say("  (se retiró)", "  (folded)") if b.status is BoxStatus.FOLDED else Say("", "")
            bets_text = _bets_text(b.bets)
            table.append(Say(f"C{b.box}: {hand:<8} {bets_text.es}{status.es}", f"B{b.box}: {hand:<8} {bets_text.en}{status.en}"))
        situation = tuple(table)
        bank_label = Say("la banca", "the bank")
        questions = [combination_question(bank_label, bank, board, situation)]
        for b in boxes:
            if b.status is BoxStatus.ACTIVE and b.cards is not None:
                questions.append(winner_question(
                    b.cards, bank, board, situation,
                    prompt=Say(f"Casilla {b.box}: ¿quién gana?", f"Box {b.box}: who wins?"),
                ))
        for b in boxes:
            questions += bet_questions(settlement.box(b.box), b.bets, situation, config)
        return Exercise(Say(f"Pase {n}", f"Round {n}"), tuple(questions))
