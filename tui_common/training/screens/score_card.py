"""The score card at the end of a session: accuracy, median seconds, mistakes by kind."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.markup import escape
from textual.widgets import Static

from shared.training import Grade, ScoreCard, find_drill
from shared.training.drills import kind_name
from tui_common.training.context import TrainingContext
from tui_common.training.screens.base import TrainingScreen
from tui_common.training.screens.drill import grade_text
from tui_common.training.screens.pick import leave
from tui_common.training.text import tr
from tui_common.widgets.training_banner import TrainingBanner


def fmt_seconds(seconds: float | None, lang: str) -> str:
    if seconds is None:
        return "—"
    text = f"{seconds:.1f}"
    return text if lang == "en" else text.replace(".", ",")


def mistakes_table(card: ScoreCard, lang: str) -> Table | Text:
    if not card.mistakes:
        return Text(tr("no_mistakes", lang), style="bold green")
    table = Table(title=tr("mistakes", lang), title_justify="left", show_edge=False, expand=False)
    table.add_column(tr("col_decision", lang))
    table.add_column(tr("col_wrong", lang), justify="right", style="bold red")
    table.add_column(tr("col_asked", lang), justify="right")
    for kind, wrong in card.mistakes.items():
        table.add_row(kind_name(kind)(lang), str(wrong), str(card.asked.get(kind, wrong)))
    return table


class ScoreCardScreen(TrainingScreen):
    BINDINGS = [
        Binding("r", "repeat", show=False),
        Binding("n", "another", show=False),
        Binding("h", "history", show=False),
        Binding("q", "leave", show=False),
        Binding("escape", "another", show=False),
    ]

    def __init__(self, context: TrainingContext, card: ScoreCard, last: Grade | None, game: str, name: str) -> None:
        super().__init__(id="training-score")
        self.context = context
        self.card = card
        self.last = last
        self.game = game
        self.drill_name = name

    def compose(self) -> ComposeResult:
        lang, card = self.context.lang, self.card
        info = find_drill(self.game, self.drill_name)
        yield TrainingBanner(lang, self.context.seed)
        with Vertical(classes="dialog -wide", id="score"):
            yield Static(tr("score_title", lang, drill=f"{tr('game_' + self.game, lang)} · {info.title(lang)}")
                         + f" — {escape(card.trainee)}", classes="dialog-title")
            pct = round(100 * card.accuracy)
            yield Static(Text(tr("accuracy", lang, right=card.right, questions=card.questions, pct=pct),
                              style="bold " + ("green" if pct >= 90 else "yellow" if pct >= 70 else "red")),
                         id="score-accuracy")
            yield Static(tr("median", lang, seconds=fmt_seconds(card.median_seconds, lang)), id="score-median")
            seed = tr("seed", lang, seed=card.seed) if card.seed is not None else tr("no_seed", lang)
            yield Static(f"{seed} · {tr('saved', lang, trainee=escape(card.trainee))}", classes="dialog-body")
            yield Static(mistakes_table(card, lang), id="score-mistakes", classes="dialog-body")
            if self.last is not None:
                yield Static(grade_text(self.last, lang), id="grade")
            yield Static(tr("score_keys", lang), classes="dialog-keys")

    def action_repeat(self) -> None:
        from tui_common.training.screens.drill import DrillScreen

        self.app.switch_screen(DrillScreen(self.context, self.game, self.drill_name))

    def action_another(self) -> None:
        self.app.pop_screen()

    def action_history(self) -> None:
        from tui_common.training.screens.history import HistoryScreen

        self.app.push_screen(HistoryScreen(self.context))

    def action_leave(self) -> None:
        leave(self.context, self.app)
