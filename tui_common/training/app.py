"""``TrainingApp``: the training console on its own (``madero-tui train`` / ``midi-tui train``).

It signs the trainee in (unless ``--trainee`` names them), offers the drills of its game
(or of both), and goes straight into a drill when ``--drill`` names one.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from textual.app import App

from shared.training import TrainingStore, find_drill
from tui_common import textual_classes  # noqa: F401  (sets up the classes below from their parents')
from tui_common.i18n import t
from tui_common.training.context import TrainingContext
from tui_common.training.screens.drill import DrillScreen
from tui_common.training.screens.pick import DrillPicker
from tui_common.training.screens.sign_in import TrainingSignIn

BASE_CSS = Path(__file__).parent.parent / "base.tcss"


class TrainingApp(App[None]):
    CSS_PATH = [BASE_CSS]
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, context: TrainingContext, *, drill: str | None = None) -> None:
        super().__init__()
        if drill is not None:
            if context.game is None:
                raise ValueError("a drill needs its game")
            find_drill(context.game, drill)  # unknown names fail before the screen opens
        self.context = context
        self.drill = drill
        self.title = t("training_banner", context.lang)

    def on_mount(self) -> None:
        ctx = self.context
        if ctx.trainee is None:
            self.push_screen(TrainingSignIn(ctx))
            return
        self.push_screen(DrillPicker(ctx))
        if self.drill is not None:
            assert ctx.game is not None
            self.push_screen(DrillScreen(ctx, ctx.game, self.drill))


def run(*, game: str | None, store_path: Path, lang: str = "es", drill: str | None = None,
        seed: int | None = None, trainee: str | None = None, count: int | None = None) -> int:
    try:
        store = TrainingStore(store_path)
    except (OSError, sqlite3.Error) as exc:
        from tui_common.cli import fail

        return fail(f"train: {store_path}: {exc}")
    try:
        TrainingApp(TrainingContext(store, lang=lang, game=game, trainee=trainee, seed=seed, count=count),
                    drill=drill).run()
    finally:
        store.close()
    return 0
