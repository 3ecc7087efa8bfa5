"""Trainee sign-in: a staff ID or a trainee's name (training needs no enrolled staff)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from shared.text import TRAINEE
from tui_common.training.context import TrainingContext
from tui_common.training.screens.base import TrainingScreen
from tui_common.training.text import tr
from tui_common.widgets.training_banner import TrainingBanner


class TrainingSignIn(TrainingScreen):
    def __init__(self, context: TrainingContext) -> None:
        super().__init__(id="training-sign-in")
        self.context = context

    def compose(self) -> ComposeResult:
        lang = self.context.lang
        yield TrainingBanner(lang, self.context.seed)
        with Vertical(classes="dialog"):
            yield Static(tr("signin_title", lang), classes="dialog-title")
            yield Static(tr("signin_help", lang), classes="dialog-body")
            yield Label(tr("trainee", lang))
            yield Input(id="trainee", max_length=TRAINEE.max_length)
            yield Static("", id="signin-error", classes="training-error")

    @on(Input.Submitted, "#trainee")
    def _submit(self, event: Input.Submitted) -> None:
        name = event.value.strip()
        if not name:
            self.query_one("#signin-error", Static).update(tr("signin_empty", self.context.lang))
            return
        if (error := TRAINEE.problem(name)) is not None:  # pasted text may carry control codes
            self.query_one("#signin-error", Static).update(error.message(self.context.lang))
            return
        self.context.trainee = name
        from tui_common.training.screens.pick import DrillPicker

        self.app.switch_screen(DrillPicker(self.context))
