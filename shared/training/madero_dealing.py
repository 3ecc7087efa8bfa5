"""Graded dealing at the Madero table: the questions of a round's showdown.

Every answer is read off the training engine (``MaderoTable``) once the round reaches its
settlement: the bank's combination and who wins from the evaluator (the drills' builders),
each box's Bonus line, Jackpot line and special prizes from the settlement the table is
about to pay (``pending_settlement``, the same ``settle_round`` a live round uses), and
what to pay, return or collect on every bet from that settlement's lines. Nothing here
decides a rule.

Adaptive practice (no seed): every round is still a fresh shuffle of the 52 cards (§5); of
a few shuffles, each rehearsed on a scratch training table with the round's bets, the one
whose questions meet the trainee's most-missed situations (a kind of question and its
case: a bank's Full, a Bonus A-K, a tie on kickers) most is dealt.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator, Mapping

from shared.cards import Card
from shared.journal import Journal
from shared.madero.config import MaderoTableConfig
from shared.madero.paytables import BONUS_ARTICLE, BONUS_PAYTABLE, JackpotLine, jackpot_paytable
from shared.madero.settlement import Bet, BetResult, BoxSettlement, BoxStatus
from shared.madero.table.events import bet_name
from shared.madero.table import MaderoTable, Phase
from shared.messages import Joined, Localized, Msg
from shared.poker.evaluator import Category
from shared.training.cards_text import show
from shared.training.core import AnswerKind, Option, Question
from shared.training.madero_drills import bet_questions, combination_question, winner_question

NONE_KEY = "0"
SPECIAL_LINES = (JackpotLine.CARTA_MAGICA, JackpotLine.JUGADOR_AFORTUNADO)
SPECIAL_OPTIONS = (
    Option(NONE_KEY, Msg.of("drill.special_none")),
    Option("m", Msg.of("drill.special_magic")),
    Option("f", Msg.of("drill.special_lucky")),
    Option("2", Msg.of("drill.special_both")),
)
_SPECIAL_KEY = {frozenset(): NONE_KEY, frozenset({JackpotLine.CARTA_MAGICA}): "m",
                frozenset({JackpotLine.JUGADOR_AFORTUNADO}): "f", frozenset(SPECIAL_LINES): "2"}


def _line_question(kind: str, box: int, bet: Bet, options: tuple[Option, ...], correct: str,
                   result: BetResult, article: str, hint: Localized) -> Question:
    chosen = next(o for o in options if o.key == correct)
    return Question(
        kind=kind,
        prompt=Msg.of("drill.line_prompt", box=box, bet=bet_name(bet)),
        situation=(),
        answer_kind=AnswerKind.CHOICE,
        correct=correct,
        correct_text=chosen.label,
        article=article,
        why=result.reason,
        options=options,
        case=result.line or NONE_KEY,
        hint=hint,
    )


def bonus_line_question(box: int, hole: tuple[Card, ...], result: BetResult, config: MaderoTableConfig) -> Question:
    """Which line of §67 the box's two cards pay (or none: the Bonus loses)."""
    lines = [p for p in BONUS_PAYTABLE if config.bonus_1000_line or not p.optional]
    options = tuple(Option(str(i), p.name) for i, p in enumerate(lines, 1)) + (
        Option(NONE_KEY, Msg.of("drill.line_none_loses")),)
    correct = next((str(i) for i, p in enumerate(lines, 1) if p.line == result.line), NONE_KEY)
    hint = Msg.of("drill.bonus_hint", cards=show(hole))
    return _line_question("bonus_line", box, Bet.BONUS, options, correct, result, BONUS_ARTICLE, hint)


def jackpot_line_question(box: int, hole: tuple[Card, ...], flop: tuple[Card, ...], result: BetResult,
                          config: MaderoTableConfig) -> Question:
    """Which hand line of the table's Jackpot paytable the box makes (§44: its cards and the flop)."""
    hand_lines = [(p, Category(p.category)) for p in jackpot_paytable(config.progressive) if p.category is not None]
    options = (tuple(Option(str(c.value), c) for _, c in hand_lines)
               + (Option(NONE_KEY, Msg.of("drill.line_none")),))
    won = {x.line for x in result.lines}
    correct = next((str(c.value) for p, c in hand_lines if p.line in won), NONE_KEY)
    hint = Msg.of("drill.jackpot_hint", cards=show(hole), flop=show(flop))
    return _line_question("jackpot_line", box, Bet.JACKPOT, options, correct, result, result.article, hint)


def special_prize_question(box: int, table: MaderoTable, result: BetResult) -> Question:
    """Which special prizes of §55 the box wins on top of its hand (a progressive table)."""
    won = frozenset(JackpotLine(x.line) for x in result.lines if x.line in SPECIAL_LINES)
    chosen = next(o for o in SPECIAL_OPTIONS if o.key == _SPECIAL_KEY[won])
    return Question(
        kind="special_prize",
        prompt=Msg.of("drill.special_prompt", box=box),
        situation=(),
        answer_kind=AnswerKind.CHOICE,
        correct=chosen.key,
        correct_text=chosen.label,
        article="Art. 11 §55–57",
        why=Msg.of("drill.special_why"),
        options=SPECIAL_OPTIONS,
        case="+".join(sorted(won)) or NONE_KEY,
        hint=_draws(table),
    )


def _draws(table: MaderoTable) -> Localized:
    """What was drawn at «No va más» (§56, §57), as the header shows it."""
    magic, lucky = table.carta_magica, table.jugador_afortunado
    return Joined(tuple(([Msg.of("drill.drawn_magic", card=magic.display)] if magic else [])
                        + ([Msg.of("drill.drawn_lucky", box=lucky)] if lucky else [])), " · ")


def _box_questions(table: MaderoTable, box: BoxSettlement, bank: tuple[Card, ...],
                   board: tuple[Card, ...]) -> list[Question]:
    state = table.boxes[box.box]
    hole = tuple(state.cards)
    questions: list[Question] = []
    if box.status is BoxStatus.ACTIVE and box.main is not None:
        questions.append(winner_question(
            hole, bank, board, (),
            prompt=Msg.of("drill.box_who_wins", box=box.box),
        ))
        if (bonus := box.result(Bet.BONUS)) is not None:
            questions.append(bonus_line_question(box.box, hole, bonus, table.config))
        if (jackpot := box.result(Bet.JACKPOT)) is not None:
            questions.append(jackpot_line_question(box.box, hole, board[:3], jackpot, table.config))
            if table.config.progressive and (table.carta_magica is not None or table.jugador_afortunado is not None):
                questions.append(special_prize_question(box.box, table, jackpot))
    return questions + bet_questions(box, state.bets(), (), table.config)


def madero_moments(table: MaderoTable) -> Iterator[tuple[Hashable, Callable[[], list[Question]]]]:
    """The one moment of a round a croupier must read before paying: its settlement."""
    if table.phase is not Phase.SETTLEMENT:
        return

    def at_settlement() -> list[Question]:
        settlement = table.carrusel.pending_settlement()
        bank, board = tuple(table.bank_cards), tuple(table.board)
        questions = []
        if settlement.bank is not None:
            questions.append(combination_question(Msg.of("drill.the_bank"), bank, board, ()))
        for box in settlement.boxes:
            questions += _box_questions(table, box, bank, board)
        return questions

    yield ("settlement", table.round_id), at_settlement


# --- adaptive deals ---------------------------------------------------------------------

SHUFFLES = 4
"""Shuffles compared for an adaptive round: enough to lean, few enough that any deal may come."""

ADAPTIVE_KINDS = ("combination", "winner", "bonus_line", "jackpot_line", "special_prize", "payout_bonus",
                  "payout_jackpot")
"""The questions with a case, which the cards decide (the main bets' payouts follow from who wins)."""

Record = Mapping[str, Mapping[str, tuple[int, int]]]
"""By kind of question: each case's (times asked, times missed), from the trainee's history."""


def rehearse(table: MaderoTable, seed: int) -> list[Question]:
    """The questions the round about to close its bets would ask if dealt from ``seed``:
    played out on a scratch training table with the same bets, every box going on to the end."""
    scratch = MaderoTable(Journal(":memory:", table.config.table_id, "madero", training=True),
                          config=table.config, training=True, seed=seed)
    for n, box in table.boxes.items():
        for bet, stake in ((Bet.ANTE, box.ante), (Bet.BONUS, box.bonus), (Bet.JACKPOT, box.jackpot_credits)):
            if stake:
                scratch.play.place_bet(n, bet, stake)
    scratch.play.no_va_mas()
    while scratch.phase is not Phase.SETTLEMENT:
        acting = scratch.to_act
        if acting is not None and scratch.phase is Phase.FIRST:
            scratch.play.voy(acting)
        elif acting is not None and scratch.phase in (Phase.SECOND, Phase.THIRD):
            scratch.play.check(acting)
        else:
            scratch.play.deal()
    questions = [q for _, build in madero_moments(scratch) for q in build()]
    scratch.journal.close()
    return questions


def miss_weight(questions: list[Question], record: Record) -> float:
    """How much a deal trains what this trainee misses: each question's miss rate in its case."""
    total = 0.0
    for q in questions:
        asked, missed = record.get(q.kind, {}).get(q.case or "", (0, 0))
        total += missed / (asked + 1)
    return total


def adaptive_seed(table: MaderoTable, rng: random.Random, record: Record) -> int:
    """The seed of the round's deal, the best of ``SHUFFLES`` for this trainee's misses."""
    best: tuple[float, int] | None = None
    for _ in range(SHUFFLES):
        seed = rng.getrandbits(64)
        weight = miss_weight(rehearse(table, seed), record)
        if best is None or weight > best[0]:
            best = (weight, seed)
    assert best is not None
    return best[1]
