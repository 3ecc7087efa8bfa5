"""The base of every training screen: its own stylesheet, so the screens look the same
in ``TrainingApp`` and pushed onto a table console; and how a trainee leaves training."""

from __future__ import annotations

from pathlib import Path

from textual.app import App
from textual.screen import Screen

from tui_common import textual_classes  # noqa: F401  (sets up the classes below from their parents')
from tui_common.training.context import TrainingContext

TRAINING_CSS = Path(__file__).parent.parent / "training.tcss"


class TrainingScreen(Screen[None]):
    CSS_PATH = TRAINING_CSS


def leave(context: TrainingContext, app: App[object]) -> None:
    if context.leave is not None:
        context.leave()
    else:
        app.exit()
