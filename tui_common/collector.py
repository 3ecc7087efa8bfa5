"""Python's cyclic garbage collector, run between the croupier's keys instead of during them.

The collector runs when enough objects have been allocated: on whichever key allocates them.
Its young passes took ~0.3 ms of a key several times a round, and its full pass over the
table's screen, widgets and drawn rows 8–16 ms of a key, once in a few hundred keys: at a
busy Madero table one such key was among the slowest 1 % (issue 32). Once the table is up
the collector is switched off and run by the console's clock when no key came for ``QUIET``
seconds: between bets, while the croupier deals, never under a key. Should the keys never
pause, it runs anyway once ``YOUNG_LIMIT`` objects wait (a few megabytes): memory first.

What lives when the table is first up (its screen, widgets, the folded engine) lives as long
as the console: it is frozen (``gc.freeze``), so no pass walks it again.

Before that, a console's launch runs without the collector (``BetweenKeys.hold_launch``): its
passes walked what the imports make, none of it garbage (modules, classes, Textual's tables),
~42 M instructions of ~1,260 M to the first frame (issue 32).
"""

from __future__ import annotations

import gc
import time
from typing import Any, ClassVar

QUIET = 1.0
"""Seconds without a key before the collector runs."""
YOUNG_LIMIT = 200_000
"""Objects allocated since the last pass that make it run even while keys come."""
YOUNG_PASS = 700
"""Objects allocated since the last pass before a young pass is worth it (Python's own first
threshold)."""
FULL_EVERY = 10
"""Young passes between two full passes (Python's own third threshold)."""

class BetweenKeys:
    """The collector of one console: ``start`` once its table is up, ``key`` at each key,
    ``stop`` when it closes (the collector as Python runs it again)."""

    frozen: ClassVar[bool] = False
    """What lived when a table was first up is frozen: once a process (tests build many
    consoles in one)."""
    held: ClassVar[bool] = False
    """The collector is off for this process's launch (``hold_launch``)."""

    @staticmethod
    def hold_launch() -> None:
        """No pass from here (a console's command, before it imports Textual) to its first frame
        (``launched``) or its table up (``start``), whichever comes first."""
        if gc.isenabled():
            gc.disable()
            BetweenKeys.held = True

    @staticmethod
    def launched() -> None:
        """The first frame is drawn: the collector as it was, until the table is up. A screen
        before the table (enrolment, sign-in) may wait for hours: not without the collector."""
        if BetweenKeys.held:
            BetweenKeys.held = False
            gc.enable()

    def __init__(self, clock: Any = time.monotonic) -> None:
        self.clock = clock
        self.last_key = clock()
        self.running = False
        self.passes = 0

    def start(self) -> None:
        if not BetweenKeys.frozen:
            BetweenKeys.frozen = True
            # Not collected first (that pass would be the pause avoided): a start-up screen's
            # cycles not yet collected stay, once a launch.
            gc.freeze()
        gc.disable()
        BetweenKeys.held = False  # the launch's hold, if any, is this collector's now
        self.running = True

    def stop(self) -> None:
        if self.running:
            self.running = False
            gc.enable()

    def key(self) -> None:
        self.last_key = self.clock()

    def tick(self) -> None:
        """The console's clock: a pass if the keys paused (or too much waits)."""
        if not self.running:
            return
        young = gc.get_count()[0]
        if young < YOUNG_PASS:
            return
        if young < YOUNG_LIMIT and self.clock() - self.last_key < QUIET:
            return
        self.passes += 1
        gc.collect(2 if self.passes % FULL_EVERY == 0 else 1)
