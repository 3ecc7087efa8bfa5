"""The drill screen: the table as it stands, the question, keys to answer, instant grading.

Choices take one key; a payout is ``c`` (collect), ``d`` (return) or an amount then
enter; cards are marked by their position (1–7) then enter. Each answer is graded at
once (right or wrong, the correct answer, the article and why), and the next question
appears; its decision time starts when it is shown.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.markup import escape
from textual.widgets import Static

from shared.training import Grade, Session, find_drill, start_session
from shared.training.core import AnswerKind
from tui_common.training.answer_entry import AnswerEntry, card_text, options_text
from tui_common.training.context import TrainingContext
from tui_common.training.score_text import grade_text
from tui_common.training.screens.base import TrainingScreen
from tui_common.training.screens.score_card import ScoreCardScreen
from tui_common.training.text import tr
from tui_common.widgets.training_banner import TrainingBanner

class DrillScreen(TrainingScreen):
    def __init__(self, context: TrainingContext, game: str, name: str) -> None:
        super().__init__(id="training-drill")
        self.context = context
        self.game = game
        self.drill_name = name
        self.info = find_drill(game, name)
        assert context.trainee is not None
        self.session: Session = start_session(
            game, name, trainee=context.trainee, seed=context.seed, count=context.count,
            store=context.store, clock=context.clock,
        )
        self.started_at = context.now()
        self.entry = AnswerEntry()
        self.last: Grade | None = None

    def compose(self) -> ComposeResult:
        yield TrainingBanner(self.context.lang, self.context.seed)
        yield Static(id="drill-header")
        yield Static(id="situation")
        yield Static(id="prompt-line")
        yield Static(id="options")
        yield Static(id="entry")
        yield Static(tr("first_question", self.context.lang), id="grade")
        yield Static(id="drill-keys")

    def on_mount(self) -> None:
        self.show_question()

    # --- drawing ------------------------------------------------------------------------

    def show_question(self) -> None:
        lang, s = self.context.lang, self.session
        q, ex = s.question, s.exercise
        assert q is not None and ex is not None
        done = len(s.grades)
        right = sum(g.right for g in s.grades)
        header = (f"{tr('game_' + self.game, lang)} — {self.info.title.render(lang)} · {escape(self.context.signed_in)} · "
                  + tr("progress", lang, title=ex.title.render(lang).rsplit(" ", 1)[0], n=s.exercise_number,
                       total=len(s.exercises), q=s.question_number, qs=len(ex.questions))
                  + (f" · {tr('running', lang, right=right, done=done)}" if done else ""))
        self.query_one("#drill-header", Static).update(header)
        situation = self.query_one("#situation", Static)
        situation.border_title = ex.title.render(lang)
        situation.update(card_text("\n".join(line.render(lang) for line in q.situation)))
        self.query_one("#prompt-line", Static).update(f"▶ {q.prompt.render(lang)}")
        self.query_one("#options", Static).update(options_text(q, lang))
        self._draw_entry()
        keys = {AnswerKind.CHOICE: "drill_keys_choice", AnswerKind.PAYOUT: "drill_keys_payout",
                AnswerKind.CARDS: "drill_keys_cards", AnswerKind.NUMBER: "drill_keys_number"}[q.answer_kind]
        self.query_one("#drill-keys", Static).update(tr(keys, lang))
        s.present()

    def _draw_entry(self, note: str = "") -> None:
        text = self.entry.render(self.session.question, self.context.lang)
        if note:
            text.append("   " + note, style="bold red")
        self.query_one("#entry", Static).update(text)

    # --- keys ----------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        q = self.session.question
        if q is None:
            return
        key, char = event.key, event.character or ""
        if key == "escape":
            event.stop()
            self.finish()
            return
        taken, text = self.entry.press(q, key, char, self.context.lang)
        if not taken:
            return
        event.stop()
        if text is None:
            self._draw_entry()
        else:
            self.submit(text)

    def submit(self, text: str) -> None:
        if not self.session.can_answer(text):
            self._draw_entry(tr("unreadable", self.context.lang, text=text))
            return
        self.last = self.session.answer(text)
        self.entry.clear()
        self.query_one("#grade", Static).update(grade_text(self.last, self.context.lang))
        if self.session.finished:
            self.finish()
        else:
            self.show_question()

    def finish(self) -> None:
        """Store the score card (if anything was answered) and show it."""
        s = self.session
        if not s.grades:
            self.app.pop_screen()  # back to the picker: nothing to score
            return
        card = s.score_card()
        self.context.store.save(card, s.grades, started_at=self.started_at, finished_at=self.context.now())
        self.app.switch_screen(ScoreCardScreen(self.context, card, self.last, self.game, self.drill_name,
                                               repeat=lambda: DrillScreen(self.context, self.game, self.drill_name)))
