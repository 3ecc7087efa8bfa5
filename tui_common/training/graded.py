"""A graded table (``--training --graded``): the questions on the prompt line, the grades
on their own line, the score card when the trainee leaves.

``GradedTable`` is what a table app holds: the grading engine (``GradedDealing``), the
answer being typed, the trainee's context (store, clock) and the last grade. The app
asks ``question`` after each command to know whether to hide what would give the answer
away; keys go to ``press`` first while a question waits.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime

from rich.text import Text
from textual.widgets import Static

from shared.engine import TableEngine
from shared.training.core import Grade, Question
from shared.training.graded import GradedDealing, Moments
from shared.training.store import TrainingStore, default_training_db
from tui_common import textual_classes  # noqa: F401  (sets up the classes below from their parents')
from tui_common.training.answer_entry import AnswerEntry, options_text
from tui_common.training.context import TrainingContext
from tui_common.training.score_text import grade_text
from tui_common.options import LaunchOptions
from tui_common.training.text import tr


@dataclass
class GradedTable:
    dealing: GradedDealing
    context: TrainingContext
    started_at: datetime
    entry: AnswerEntry = field(default_factory=AnswerEntry)
    last: Grade | None = None
    saved: bool = False

    @classmethod
    def start(cls, dealing: GradedDealing, context: TrainingContext) -> GradedTable:
        return cls(dealing, context, context.now())

    @property
    def lang(self) -> str:
        return self.context.lang

    def observe(self, engine: TableEngine) -> Question | None:
        """The question due now at this table (queued as the table reaches each moment)."""
        return self.dealing.observe(engine)

    @property
    def question(self) -> Question | None:
        return self.dealing.question

    def prompt(self, width: int | None = None) -> Text:
        """The prompt line while a question waits: the question, its keys (in rows of
        ``width``), what is typed."""
        q = self.question
        assert q is not None
        out = Text("▶ ", style="bold")
        out.append(f" {tr('graded_question', self.lang)} ", style="bold reverse")
        out.append(" " + q.prompt.render(self.lang), style="bold")
        out.append("\n  ")
        out.append_text(options_text(q, self.lang, width, indent=2))
        typed = self.entry.render(q, self.lang)
        if typed:
            out.append("   ")
            out.append_text(typed)
        return out

    def submit(self, text: str) -> Grade | None:
        """Grade ``text``; None (and a note on the prompt line) when it cannot be read."""
        if not self.dealing.can_answer(text):
            self.entry.note = tr("unreadable", self.lang, text=text)
            return None
        self.last = self.dealing.answer(text)
        self.entry.clear()
        return self.last

    def save(self) -> int | None:
        """Store the session (once, if anything was answered); its id."""
        if self.saved or not self.dealing.grades:
            return None
        self.saved = True
        card = self.dealing.score_card()
        return self.context.store.save(card, self.dealing.grades, started_at=self.started_at,
                                       finished_at=self.context.now())


def graded_table(game: str, moments: Moments, options: LaunchOptions,
                 context: TrainingContext | None = None) -> GradedTable:
    """The graded session a console launched with ``--graded`` runs (``context``: tests give
    their own store and clocks)."""
    if context is None:
        store = TrainingStore(options.training_db or default_training_db())
        context = TrainingContext(store, lang=options.lang, game=game, trainee=options.trainee, seed=options.seed,
                                  clock=time.monotonic)
    assert context.trainee is not None
    dealing = GradedDealing(moments, trainee=context.trainee, game=game, seed=context.seed, clock=context.clock)
    return GradedTable.start(dealing, context)


class GradeLine(Static):
    """The last grade of a graded table: right or wrong, the right answer, the article."""

    DEFAULT_CSS = """
    GradeLine { height: auto; max-height: 3; padding: 0 1; border-left: thick $secondary; }
    """

    def show_grade(self, graded: GradedTable, hint: str | None = None) -> None:
        lang = graded.lang
        if hint is not None:
            out = Text(f"{tr('graded_hint', lang)}: ", style="bold yellow")
            out.append(hint)
        elif graded.last is None:
            out = Text(tr("graded_first", lang))
        else:
            out = grade_text(graded.last, lang)
            if graded.last.hinted:
                out.append(" " + tr("graded_hinted", lang), style="dim")
        self.update(out)  # a grade often wraps: its height is laid out each time
