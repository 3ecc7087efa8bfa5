"""Questions, grading, timing and the score card of a training session.

A drill turns a seeded generator into *exercises* (one coup, one round, one board),
each a fixed list of questions: the trainee's decision never changes the cards, so
every question and its correct answer exist before the first key is pressed, taken
from the game engines (baccarat rules, evaluator, settlement) — the drill only asks.

Answers are plain text as typed on the drill screen:
- a choice: the option's key (``c`` carta, ``p`` se planta …);
- a payout: ``c`` (collect: the bet loses), ``d`` (devolver: returned) or the amount to
  pay as digits (what the croupier hands over besides the stake);
- cards: the positions (1–7) of the five cards chosen, in any order;
- a number: digits (a hand's total, how many cards to burn).
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import field
from decimal import Decimal, InvalidOperation
from enum import StrEnum

from shared.cards import Card
from shared.messages import Localized, Money, Msg, Plain
from shared.record import record


class AnswerKind(StrEnum):
    CHOICE = "choice"
    PAYOUT = "payout"
    CARDS = "cards"
    NUMBER = "number"


@record
class Option:
    key: str
    label: Localized
    aliases: tuple[str, ...] = ()


COLLECT = "collect"
RETURN = "return"

PAYOUT_OPTIONS = (
    Option("c", Msg.of("drill.option_collect")),
    Option("d", Msg.of("drill.option_return")),
)


def payout_answer(outcome: str, amount: Decimal | None = None) -> str:
    """Canonical payout answer: ``collect``, ``return`` or ``pay:<amount>``."""
    if outcome == "pay":
        return f"pay:{_plain(amount)}"
    return outcome


def _plain(amount: Decimal | None) -> str:
    if amount is None:
        raise ValueError("a payment needs an amount")
    return format(amount.normalize(), "f")


def say_payout(answer: str, currency: str = "") -> Msg:
    """How a canonical payout answer reads on screen."""
    if answer == COLLECT:
        return Msg.of("drill.payout_collect")
    if answer == RETURN:
        return Msg.of("drill.payout_return")
    return Msg.of("drill.payout_pay", amount=Money(Decimal(answer.removeprefix("pay:")), currency))


@record
class Question:
    """One decision a croupier makes, with its answer and the rule behind it."""

    kind: str
    """What is being trained ("banca_draw", "payout_banca" …): mistakes are counted by it."""
    prompt: Localized
    situation: tuple[Localized, ...]
    """The table as the croupier sees it at this moment, one line each."""
    answer_kind: AnswerKind
    correct: str
    """Canonical correct answer (an option key, a payout answer, or the best five)."""
    correct_text: Localized
    article: str
    why: Localized
    """The rule applied, in words: shown with every grade."""
    options: tuple[Option, ...] = ()
    cards: tuple[Card, ...] = ()
    """CARDS questions: the cards to choose from, in the order shown (1, 2, …)."""
    accept: Callable[[tuple[Card, ...]], bool] | None = field(default=None, compare=False, repr=False)
    """CARDS questions: whether a choice of five is right (several may be: equal kickers)."""
    case: str | None = None
    """A finer label of the situation (a tableau cell), for adaptive weighting."""
    hint: Localized | None = None
    """What a trainee who asks for help is shown: a fact or the rule, never the answer itself."""


@record
class Exercise:
    """One coup, round or board: a title and its questions in the order they are asked."""

    title: Localized
    questions: tuple[Question, ...]


@record
class Grade:
    question: Question
    given: str
    right: bool
    seconds: float
    hinted: bool = False
    """The trainee asked for the hint before answering."""

    @property
    def kind(self) -> str:
        return self.question.kind

    def line(self, lang: str = "es") -> str:
        """The instant grading line: verdict, the correct answer, the article."""
        q = self.question
        return Msg.of("drill.grade_line", verdict=verdict(self.right), answer=q.correct_text, article=q.article,
                      why=q.why).render(lang)


def verdict(right: bool) -> Msg:
    """RIGHT or WRONG, as every grade begins."""
    return Msg.of("drill.right" if right else "drill.wrong")


def normalize(question: Question, text: str) -> str | None:
    """The trainee's typed answer in canonical form, or None if it cannot be read."""
    raw = text.strip().lower()
    if not raw:
        return None
    if question.answer_kind is AnswerKind.CHOICE:
        for option in question.options:
            if raw == option.key or raw in option.aliases:
                return option.key
        return None
    if question.answer_kind is AnswerKind.PAYOUT:
        if raw == "c":
            return COLLECT
        if raw == "d":
            return RETURN
        try:
            amount = Decimal(raw.replace(",", "."))
        except InvalidOperation:
            return None
        if not amount.is_finite() or amount < 0:
            return None
        return payout_answer("pay", amount)
    if question.answer_kind is AnswerKind.NUMBER:
        return str(int(raw)) if raw.isdigit() else None
    positions = _positions(raw, len(question.cards))
    if positions is None:
        return None
    return " ".join(str(question.cards[i]) for i in positions)


def _positions(raw: str, count: int) -> list[int] | None:
    digits = [c for c in raw if not c.isspace() and c != ","]
    if len(digits) != 5 or not all(d.isdigit() for d in digits):
        return None
    positions = sorted({int(d) - 1 for d in digits})
    if len(positions) != 5 or not all(0 <= p < count for p in positions):
        return None
    return positions


def is_right(question: Question, canonical: str) -> bool:
    if question.answer_kind is AnswerKind.CARDS:
        chosen = tuple(c for c in question.cards if str(c) in canonical.split())
        return question.accept is not None and question.accept(chosen)
    return canonical == question.correct


def grade_answer(question: Question, text: str, seconds: float, *, hinted: bool = False) -> Grade:
    """Grade one typed answer; unreadable input raises ValueError."""
    canonical = normalize(question, text)
    if canonical is None:
        raise ValueError(f"unreadable answer {text!r}")
    return Grade(question, canonical, is_right(question, canonical), max(0.0, seconds), hinted)


@record
class ScoreCard:
    trainee: str
    game: str
    drill: str
    seed: int | None
    questions: int
    right: int
    median_seconds: float | None
    mistakes: dict[str, int]
    """Wrong answers by kind of decision, most frequent first."""
    asked: dict[str, int]
    """Questions by kind, so a mistake count reads against how often it was asked."""

    @property
    def accuracy(self) -> float:
        return self.right / self.questions if self.questions else 0.0


def score(grades: list[Grade], *, trainee: str, game: str, drill: str, seed: int | None) -> ScoreCard:
    wrong = Counter(g.kind for g in grades if not g.right)
    asked = Counter(g.kind for g in grades)
    return ScoreCard(
        trainee=trainee,
        game=game,
        drill=drill,
        seed=seed,
        questions=len(grades),
        right=sum(g.right for g in grades),
        median_seconds=statistics.median(g.seconds for g in grades) if grades else None,
        mistakes=dict(sorted(wrong.items(), key=lambda kv: (-kv[1], kv[0]))),
        asked=dict(sorted(asked.items())),
    )


Clock = Callable[[], float]


class Session:
    """A trainee working through a drill: the current question, grading and timing.

    The clock is injectable (tests use a fake one); a decision's time runs from the
    moment its question is presented to the moment it is answered.
    """

    def __init__(
        self,
        exercises: Iterator[Exercise] | list[Exercise],
        *,
        trainee: str,
        game: str,
        drill: str,
        seed: int | None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.trainee = trainee
        self.game = game
        self.drill = drill
        self.seed = seed
        self.exercises = list(exercises)
        self._clock = clock
        self.grades: list[Grade] = []
        self._ex = 0
        self._q = 0
        self._shown_at = clock()

    @property
    def finished(self) -> bool:
        return self._ex >= len(self.exercises)

    @property
    def exercise(self) -> Exercise | None:
        return None if self.finished else self.exercises[self._ex]

    @property
    def exercise_number(self) -> int:
        return min(self._ex + 1, len(self.exercises))

    @property
    def question(self) -> Question | None:
        ex = self.exercise
        return None if ex is None else ex.questions[self._q]

    @property
    def question_number(self) -> int:
        return self._q + 1

    @property
    def total_questions(self) -> int:
        return sum(len(e.questions) for e in self.exercises)

    def present(self) -> None:
        """The current question is on screen now: its decision time starts."""
        self._shown_at = self._clock()

    def can_answer(self, text: str) -> bool:
        q = self.question
        return q is not None and normalize(q, text) is not None

    def answer(self, text: str) -> Grade:
        """Grade the current answer at once and move on; unreadable input raises ValueError."""
        q = self.question
        if q is None:
            raise ValueError("the session is over")
        now = self._clock()
        grade = grade_answer(q, text, now - self._shown_at)
        self.grades.append(grade)
        self._q += 1
        if self._q >= len(self.exercises[self._ex].questions):
            self._ex += 1
            self._q = 0
        self._shown_at = now
        return grade

    def score_card(self) -> ScoreCard:
        return score(self.grades, trainee=self.trainee, game=self.game, drill=self.drill, seed=self.seed)


def payout_question(*, kind: str, prompt: Localized, situation: tuple[Localized, ...], answer: str,
                    why: Localized, article: str, exact: Decimal | None = None, currency: str = "",
                    case: str | None = None, hint: Localized | None = None) -> Question:
    """What to do with one bet: collect it, return it, or pay an amount (rounded to the chip)."""
    correct_text: Localized = say_payout(answer, currency)
    if exact is not None:
        correct_text = Msg.of("drill.payout_rounded", answer=correct_text, exact=Money(exact, currency))
    return Question(
        kind=kind,
        prompt=Msg.of("drill.payout_prompt", bet=prompt),
        situation=situation,
        answer_kind=AnswerKind.PAYOUT,
        correct=answer,
        correct_text=correct_text,
        article=article,
        why=why,
        options=PAYOUT_OPTIONS,
        case=case,
        hint=hint,
    )


def keys_for(question: Question, canonical: str) -> str:
    """What to type for a canonical answer (the drill screen's hint and its tests)."""
    if question.answer_kind is AnswerKind.PAYOUT:
        if canonical == COLLECT:
            return "c"
        if canonical == RETURN:
            return "d"
        return canonical.removeprefix("pay:")
    if question.answer_kind is AnswerKind.CARDS:
        wanted = canonical.split()
        return "".join(str(i) for i, c in enumerate(question.cards, 1) if str(c) in wanted)
    return canonical


def answer_text(question: Question, canonical: str, currency: str = "") -> Localized:
    """How an answer (the trainee's or the correct one) reads on screen."""
    if question.answer_kind is AnswerKind.CHOICE:
        option = next((o for o in question.options if o.key == canonical), None)
        return option.label if option else Plain(canonical)
    if question.answer_kind is AnswerKind.PAYOUT:
        return say_payout(canonical, currency)
    if question.answer_kind is AnswerKind.NUMBER:
        return Plain(canonical)
    return Plain(" ".join(c.display for c in question.cards if str(c) in canonical.split()))
