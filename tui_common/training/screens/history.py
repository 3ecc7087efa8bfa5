"""A trainee's progress across sessions: one row per session, oldest first, with a bar."""

from __future__ import annotations

from datetime import datetime

from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.markup import escape
from textual.widgets import Static

from shared.messages import Msg
from shared.training import SessionRecord
from shared.training.drills import kind_name, session_title
from tui_common.training.context import TrainingContext
from tui_common.training.score_text import fmt_seconds
from tui_common.training.screens.base import TrainingScreen
from tui_common.training.text import tr
from tui_common.widgets.training_banner import TrainingBanner

BAR = 12


def accuracy_bar(accuracy: float) -> Text:
    filled = round(accuracy * BAR)
    style = "green" if accuracy >= 0.9 else "yellow" if accuracy >= 0.7 else "red"
    out = Text("█" * filled, style=style)
    out.append("░" * (BAR - filled), style="dim")
    out.append(f" {round(100 * accuracy):3d} %")
    return out


def history_table(records: list[SessionRecord], lang: str) -> Table:
    table = Table(expand=True, show_edge=False)
    columns: tuple[tuple[str, JustifyMethod, int], ...] = (
        ("col_when", "left", 16), ("col_drill", "left", 24), ("col_seed", "right", 7), ("col_questions", "right", 5),
        ("col_accuracy", "left", BAR + 6), ("col_median", "right", 9), ("col_top_mistake", "left", 16))
    for key, justify, width in columns:
        table.add_column(tr(key, lang), justify=justify, min_width=width, no_wrap=key != "col_top_mistake")
    for record in records:
        card = record.card
        when = datetime.fromisoformat(record.finished_at).strftime("%Y-%m-%d %H:%M")
        drill = f"{tr('game_' + card.game, lang).split()[0]} · {session_title(card.game, card.drill).render(lang)}"
        top = next(iter(card.mistakes.items()), None)
        table.add_row(
            when, drill, "—" if card.seed is None else str(card.seed), str(card.questions),
            accuracy_bar(card.accuracy), fmt_seconds(card.median_seconds, lang),
            "—" if top is None else f"{kind_name(top[0], lang)} ×{top[1]}",
        )
    return table


class HistoryScreen(TrainingScreen):
    BINDINGS = [Binding("escape", "back", show=False), Binding("q", "back", show=False)]

    def __init__(self, context: TrainingContext) -> None:
        super().__init__(id="training-history")
        self.context = context

    def compose(self) -> ComposeResult:
        ctx, lang = self.context, self.context.lang
        assert ctx.trainee is not None
        records = ctx.store.history(ctx.trainee)
        yield TrainingBanner(lang, ctx.seed)
        yield Static(tr("history_title", lang, trainee=escape(ctx.trainee)), id="history-title")
        if records:
            first, last = records[0].card, records[-1].card
            yield Static(tr("history_summary", lang, sessions=Msg.of("training.sessions", count=len(records)), first=round(100 * first.accuracy),
                            last=round(100 * last.accuracy)), id="history-summary")
        with VerticalScroll(id="history-body"):
            yield Static(history_table(records, lang) if records else tr("history_empty", lang), id="history-table")
        yield Static(tr("history_keys", lang), id="history-keys")

    def action_back(self) -> None:
        self.app.pop_screen()
