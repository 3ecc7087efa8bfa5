"""Pick a game and a drill (both games, or the app's own game)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.markup import escape
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from shared.training import drills_for
from tui_common.training.context import TrainingContext
from tui_common.training.screens.base import TrainingScreen, leave
from tui_common.training.screens.drill import DrillScreen
from tui_common.training.screens.history import HistoryScreen
from tui_common.training.text import tr
from tui_common.widgets.training_banner import TrainingBanner


class DrillPicker(TrainingScreen):
    BINDINGS = [
        Binding("h", "history", show=False),
        Binding("escape", "leave", show=False),
    ]

    def __init__(self, context: TrainingContext) -> None:
        super().__init__(id="training-pick")
        self.context = context

    def compose(self) -> ComposeResult:
        ctx, lang = self.context, self.context.lang
        yield TrainingBanner(lang, ctx.seed)
        with Vertical(classes="dialog -wide"):
            yield Static(f"{tr('pick_title', lang)} — {escape(ctx.signed_in)}", classes="dialog-title")
            options = []
            for game in ctx.games:
                for info in drills_for(game):
                    label = f"{tr('game_' + game, lang)} · {info.title.render(lang)} — {info.summary.render(lang)}"
                    options.append(Option(label, id=f"{game}:{info.name}"))
            yield OptionList(*options, id="drills")
            seed = tr("seed", lang, seed=ctx.seed) if ctx.seed is not None else tr("no_seed", lang)
            yield Static(f"{seed}   {tr('pick_keys', lang)}", classes="dialog-keys")

    @on(OptionList.OptionSelected, "#drills")
    def _start(self, event: OptionList.OptionSelected) -> None:
        game, name = (event.option.id or "").split(":")
        self.app.push_screen(DrillScreen(self.context, game, name))

    def action_history(self) -> None:
        self.app.push_screen(HistoryScreen(self.context))

    def action_leave(self) -> None:
        leave(self.context, self.app)
