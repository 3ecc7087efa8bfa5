"""The base of every training screen: its own stylesheet, so the screens look the same
in ``TrainingApp`` and pushed onto a table console."""

from __future__ import annotations

from pathlib import Path

from textual.screen import Screen

TRAINING_CSS = Path(__file__).parent.parent / "training.tcss"


class TrainingScreen(Screen[None]):
    CSS_PATH = TRAINING_CSS
