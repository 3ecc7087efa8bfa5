"""A banner docked at the top of every screen in training mode, so no one mistakes it for a live table."""

from __future__ import annotations

from textual.widgets import Static

from tui_common import textual_classes  # noqa: F401  (sets up the classes below from their parents')
from tui_common.i18n import t


class TrainingBanner(Static):
    DEFAULT_CSS = """
    TrainingBanner {
        dock: top; height: 1; width: 100%;
        background: $warning; color: $background; text-style: bold; content-align: center middle;
    }
    """

    def __init__(self, lang: str = "es", seed: int | None = None) -> None:
        label = t("training_banner", lang)
        text = f"┃ {label} ┃" + (f"  seed {seed}" if seed is not None else "")
        super().__init__(text, id="training-banner")
