"""What the training screens share: the trainee, the language, the store, the clock."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from shared.training import TrainingStore
from shared.training.core import Clock


@dataclass
class TrainingContext:
    store: TrainingStore
    lang: str = "es"
    game: str | None = None
    """None: the picker offers both games."""
    trainee: str | None = None
    seed: int | None = None
    count: int | None = None
    """Exercises per session; None: the drill's default."""
    clock: Clock = field(default=time.monotonic)
    """Times each decision (tests inject a fake one)."""
    now: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    """Dates the sessions stored."""
    leave: Callable[[], None] | None = None
    """What "quit" does; None: exit the app (a table console passes its own)."""

    @property
    def signed_in(self) -> str:
        """The trainee, for the screens that open only once one is signed in (the picker, a drill)."""
        if self.trainee is None:
            raise RuntimeError("a training screen opened before the sign-in")
        return self.trainee

    @property
    def games(self) -> tuple[str, ...]:
        return (self.game,) if self.game else ("madero", "midi")
