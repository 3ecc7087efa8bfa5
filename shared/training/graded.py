"""Graded dealing (issue 20): at a training table the console asks before it shows.

The trainee deals whole coups and shoes on the real table screens (virtual cards, the
training engine). At each moment where a croupier must know something, ``observe``
queues the questions of that moment, built from the engine's own state by the same
builders the drills use; the screen hides what would give the answers away until they
are all answered. Answers never reach the engine: a wrong one is graded and the table
goes on exactly as the engine says.

A game supplies its moments: ``moments(engine)`` yields ``(key, build)`` for each moment
the table has reached, ``key`` naming it once (coup 12's BANCA decision) and ``build()``
giving its questions. Each key is asked once per session.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any

from shared.messages import Msg, text
from shared.record import record
from shared.training.core import Clock, Grade, Question, ScoreCard, grade_answer, score

DEALING = "dealing"
"""The drill name graded table sessions are stored under (beside the drills' names)."""

DEALING_TITLE = Msg.of("drill.title_dealing")

SKILLS: tuple[str, ...] = ("hand_reading", "third_card", "payouts", "side_bets", "procedure")


def skill_name(skill: str, lang: str) -> str:
    """A skill as the score card and the trainers' report name it."""
    return text(f"training.skill_{skill}", lang)

_SKILL_OF_KIND: dict[str, str] = {
    # Midi
    "punto_total": "hand_reading", "banca_total": "hand_reading", "winner": "hand_reading",
    "punto_draw": "third_card", "banca_draw": "third_card", "tableau": "third_card",
    "payout_punto": "payouts", "payout_banca": "payouts", "payout_banca_six": "payouts",
    "payout_commission": "payouts", "payout_tie_return": "payouts",
    "payout_tie": "side_bets",
    "punto_cards": "procedure", "burn_count": "procedure", "last_coup": "procedure",
    # Madero
    "best_five": "hand_reading", "combination": "hand_reading",
    "payout_ante": "payouts", "payout_flop": "payouts", "payout_turn": "payouts", "payout_river": "payouts",
    "payout_bonus": "side_bets", "payout_jackpot": "side_bets",
    "bonus_line": "side_bets", "jackpot_line": "side_bets", "special_prize": "side_bets",
}


def skill_of(kind: str) -> str:
    """The skill a kind of decision trains (every kind the drills and the table ask has one)."""
    return _SKILL_OF_KIND[kind]


@record
class SkillFigure:
    asked: int
    right: int
    median_seconds: float | None
    hints: int

    @property
    def accuracy(self) -> float:
        return self.right / self.asked if self.asked else 0.0

    @property
    def percent(self) -> int:
        return round(100 * self.accuracy)


Answer = tuple[str, bool, float, bool]
"""(kind, right, seconds, hinted): one graded answer as the store keeps it."""


def skill_figures(answers: Iterable[Answer]) -> dict[str, SkillFigure]:
    """Accuracy, median time and hints per skill, in ``SKILLS`` order (skills not asked left out)."""
    by_skill: dict[str, list[Answer]] = {}
    for answer in answers:
        by_skill.setdefault(skill_of(answer[0]), []).append(answer)
    return {
        skill: SkillFigure(
            asked=len(rows),
            right=sum(1 for r in rows if r[1]),
            median_seconds=statistics.median(r[2] for r in rows),
            hints=sum(1 for r in rows if r[3]),
        )
        for skill in SKILLS
        if (rows := by_skill.get(skill))
    }


def grade_answers(grades: Iterable[Grade]) -> list[Answer]:
    return [(g.kind, g.right, g.seconds, g.hinted) for g in grades]


def marks_met(figures: dict[str, SkillFigure], marks: dict[str, int]) -> bool | None:
    """Whether every pass mark is met (a skill with a mark that was never asked is not met);
    None when no mark is set."""
    if not marks:
        return None
    return all(skill in figures and figures[skill].percent >= mark for skill, mark in marks.items())


Moments = Callable[[Any], Iterator[tuple[Hashable, Callable[[], list[Question]]]]]


class GradedDealing:
    """The questions of a graded table session: queued as the table reaches each moment,
    answered one at a time, graded and timed; the table engine is only ever read."""

    def __init__(self, moments: Moments, *, trainee: str, game: str, seed: int | None,
                 clock: Clock = time.monotonic) -> None:
        self._moments = moments
        self.trainee = trainee
        self.game = game
        self.seed = seed
        self._clock = clock
        self.grades: list[Grade] = []
        self.pending: list[Question] = []
        self._asked: set[Hashable] = set()
        self._shown_at = clock()
        self._hinted = False

    @property
    def question(self) -> Question | None:
        return self.pending[0] if self.pending else None

    def observe(self, engine: Any) -> Question | None:
        """Queue the questions of every moment the table has newly reached; the question due now."""
        was_waiting = bool(self.pending)
        for key, build in self._moments(engine):
            if key not in self._asked:
                self._asked.add(key)
                self.pending.extend(build())
        if self.pending and not was_waiting:
            self._start()
        return self.question

    def _start(self) -> None:
        self._shown_at = self._clock()
        self._hinted = False

    def can_answer(self, text: str) -> bool:
        q = self.question
        if q is None:
            return False
        try:
            grade_answer(q, text, 0.0)
        except ValueError:
            return False
        return True

    def hint(self) -> Msg:
        """The current question's hint, else the rule it applies (never the question again);
        counted against its answer."""
        q = self.question
        if q is None:
            raise ValueError("no question is waiting")
        self._hinted = True
        return Msg.of("drill.hint", article=q.article, hint=q.hint or q.why)

    @property
    def hinted(self) -> bool:
        return self._hinted

    def answer(self, text: str) -> Grade:
        """Grade the answer to the question due now; unreadable input raises ValueError."""
        q = self.question
        if q is None:
            raise ValueError("no question is waiting")
        grade = grade_answer(q, text, self._clock() - self._shown_at, hinted=self._hinted)
        self.grades.append(grade)
        self.pending.pop(0)
        if self.pending:
            self._start()
        return grade

    def score_card(self) -> ScoreCard:
        return score(self.grades, trainee=self.trainee, game=self.game, drill=DEALING, seed=self.seed)

    def skills(self) -> dict[str, SkillFigure]:
        return skill_figures(grade_answers(self.grades))
