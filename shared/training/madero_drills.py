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
from shared.madero.table.events import bet_name
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
from shared.messages import Joined, Localized, Money, Msg, Plain
from shared.money import ZERO
from shared.poker.evaluator import Category, evaluate, strength
from shared.training.cards_text import numbered, show
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

CATEGORY_OPTIONS = tuple(Option(str(c.value), c) for c in reversed(Category))
"""Keys 9 … 0: the combinations of Art. 5 §17, highest first (9 escalera real … 0 carta mayor)."""

WINNER_OPTIONS = (
    Option("j", Msg.of("drill.option_player"), aliases=("p",)),
    Option("b", Msg.of("drill.option_bank")),
    Option("e", Msg.of("drill.option_tie"), aliases=("t",)),
)


def deal(rng: random.Random, n: int) -> list[Card]:
    """``n`` cards from the console's own freshly shuffled 52-card deck (Art. 2 §5)."""
    return PokerDeck().shuffled_unseen(rng)[:n]


def best_five_question(label: Localized, hole: tuple[Card, ...], board: tuple[Card, ...],
                       situation: tuple[Localized, ...],
                       kind: str = "best_five") -> Question:
    seven = hole + board
    value = evaluate(seven)
    target = value.strength
    return Question(
        kind=kind,
        prompt=Msg.of("drill.best_five_prompt", hand=label),
        situation=situation + (Plain(numbered(seven)),),
        answer_kind=AnswerKind.CARDS,
        correct=" ".join(str(c) for c in value.best),
        correct_text=Msg.of("drill.best_five_answer", cards=show(value.best), hand=value.name),
        article="Art. 9 §31",
        why=Msg.of("drill.best_five_why"),
        cards=seven,
        # Equal kickers of different suits make several right choices: any five worth the best.
        accept=lambda chosen: len(chosen) == 5 and strength(chosen) == target,
    )


def combination_question(label: Localized, hole: tuple[Card, ...], board: tuple[Card, ...],
                         situation: tuple[Localized, ...]) -> Question:
    value = evaluate(hole + board)
    return Question(
        kind="combination",
        prompt=Msg.of("drill.combination_prompt", hand=label),
        situation=situation,
        answer_kind=AnswerKind.CHOICE,
        correct=str(value.category.value),
        correct_text=Msg.of("drill.combination_answer", category=value.category, hand=value.name),
        article="Art. 5 §17",
        # One sentence per combination: a language inflects the name in it (English «is a pair»).
        why=Msg.of(f"drill.combination_is_{value.category.name.lower()}", cards=show(value.best)),
        options=CATEGORY_OPTIONS,
        case=value.category.name,
    )


def winner_question(player: tuple[Card, ...], bank: tuple[Card, ...], board: tuple[Card, ...],
                    situation: tuple[Localized, ...], prompt: Localized | None = None) -> Question:
    pv, bv = evaluate(player + board), evaluate(bank + board)
    if pv.strength > bv.strength:
        key, outcome = "j", "drill.player_wins"
    elif pv.strength < bv.strength:
        key, outcome = "b", "drill.bank_wins"
    else:
        key, outcome = "e", "drill.a_tie"
    same = pv.category is bv.category
    return Question(
        kind="winner",
        prompt=prompt or Msg.of("drill.madero_winner_prompt"),
        situation=situation,
        answer_kind=AnswerKind.CHOICE,
        correct=key,
        correct_text=Msg.of("drill.madero_winner_answer", outcome=Msg.of(outcome), player=pv.name,
                            bank=bv.name),
        article="Art. 5 §19" if same else "Art. 5 §18",
        why=Msg.of("drill.madero_winner_same" if same else "drill.madero_winner_higher", player=show(pv.best),
                   bank=show(bv.best)),
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
    title = Msg.of("drill.title_board")
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
            Msg.of("drill.board", board=show(board)),
            Msg.of("drill.board_hands", bank=show(bank), player=show(player)),
        )
        bank_label = Msg.of("drill.the_bank")
        return Exercise(
            Msg.of("drill.board_n", n=n),
            (
                best_five_question(bank_label, bank, board, situation),
                combination_question(bank_label, bank, board, situation),
                winner_question(player, bank, board, situation),
            ),
        )


# --- payouts ---------------------------------------------------------------------------

def settlement_answer(result: BetResult) -> str:
    """The settlement's verdict on one bet as a canonical payout answer."""
    if result.outcome is Outcome.WIN:
        return payout_answer("pay", result.paid)
    return RETURN if result.outcome is Outcome.PUSH else COLLECT


def _stake(result: BetResult, credits: int) -> Localized:
    if result.bet is Bet.JACKPOT:
        return Msg.of("drill.credits", n=credits)
    return Money(result.stake)


def bet_questions(box: BoxSettlement, bets: BoxBets, situation: tuple[Localized, ...], config: MaderoTableConfig,
                  only: set[Bet] | None = None) -> list[Question]:
    """One payout question per bet of the box, in the settlement's order."""
    out = []
    for r in box.bets:
        if only is not None and r.bet not in only:
            continue
        out.append(payout_question(
            kind=f"payout_{r.bet.value}",
            prompt=Msg.of("drill.madero_bet", box=box.box, bet=bet_name(r.bet), stake=_stake(r, bets.jackpot_credits)),
            situation=situation,
            answer=settlement_answer(r),
            why=r.reason,
            article=r.article,
            exact=r.exact,
            currency=config.currency,
            case=r.line,
        ))
    return out


def _bets_text(bets: BoxBets) -> Localized:
    parts: list[Localized] = [
        Msg.of("drill.bet_stake", bet=bet_name(b), stake=Money(bets.stake(b, Decimal(1))))
        for b in (Bet.ANTE, Bet.FLOP, Bet.TURN, Bet.RIVER, Bet.BONUS) if bets.stake(b, Decimal(1)) > 0]
    if bets.jackpot_credits:
        parts.append(Msg.of("drill.bet_stake", bet=bet_name(Bet.JACKPOT), stake=Msg.of("drill.credits", n=bets.jackpot_credits)))
    return Joined(tuple(parts), " · ") if parts else Msg.of("drill.no_bets")


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
    title = Msg.of("drill.title_payouts")
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
        # Box 1 is in play: its hand and the bank's were valued.
        assert settlement.bank is not None and box.hand is not None
        only = {"ante": {Bet.ANTE, Bet.FLOP, Bet.TURN, Bet.RIVER}, "bonus": {Bet.BONUS}, "jackpot": {Bet.JACKPOT}}[focus]
        situation = (
            Msg.of("drill.board_bank_hand", board=show(board), bank=show(bank), hand=settlement.bank.name),
            Msg.of("drill.box_hand", box=1, cards=show(hole), hand=box.hand.name, outcome=Msg.of(_MAIN[box.main])),
            _bets_text(bets),
        )
        return Exercise(Msg.of("drill.payout_n", n=n), tuple(bet_questions(box, bets, situation, config, only)))


_MAIN = {
    Outcome.WIN: "drill.main_win",
    Outcome.LOSE: "drill.main_lose",
    Outcome.PUSH: "drill.main_push",
    None: "drill.main_out",
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
    title = Msg.of("drill.title_round")
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
        table: list[Localized] = [Msg.of("drill.board_bank", board=show(board), bank=show(bank))]
        for b in boxes:
            hand = show(b.cards) if b.cards else "—"
            code = "drill.round_box_folded" if b.status is BoxStatus.FOLDED else "drill.round_box"
            table.append(Msg.of(code, box=b.box, hand=f"{hand:<8}", bets=_bets_text(b.bets)))
        situation = tuple(table)
        bank_label = Msg.of("drill.the_bank")
        questions = [combination_question(bank_label, bank, board, situation)]
        for b in boxes:
            if b.status is BoxStatus.ACTIVE and b.cards is not None:
                questions.append(winner_question(
                    b.cards, bank, board, situation,
                    prompt=Msg.of("drill.box_who_wins", box=b.box),
                ))
        for b in boxes:
            questions += bet_questions(settlement.box(b.box), b.bets, situation, config)
        return Exercise(Msg.of("drill.round_n", n=n), tuple(questions))
