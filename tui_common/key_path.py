"""The key path: each key the terminal sends, to the screen it was typed for, one at a time.

On the table screen every key is resolved here, in the order typed, against the bindings
allowed at that moment: Textual would hand a key to whatever has focus when the key is read,
before the previous key's action has run, so "a 30 enter" typed in one burst sent the digits
to the box selection instead of the entry the ``a`` opened.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from textual import events

if TYPE_CHECKING:
    from tui_common.amounts import Amounts
    from tui_common.console import Console
    from tui_common.graded_keys import GradedKeys
    from tui_common.startup import StartUp

# Keys that work before the croupier on duty has confirmed the PIN after a relaunch.
UNLOCKED_KEYS = frozenset({"f1", "f2", "f3", "f4", "ctrl+q"})
# What Textual reads esc then a key as, typed within the escape delay, when it is not
# ``alt+key`` (textual/_ansi_sequences.py): none of these means anything at a table.
ESC_READINGS = {"ctrl+left": "b", "ctrl+right": "f",
                **{glyph: digit for glyph, digit in zip("¡™£¢∞§¶•ªº", "1234567890", strict=True)}}


class KeyPath:
    def __init__(self, app: Console, startup: StartUp, amounts: Amounts, graded: GradedKeys) -> None:
        self.app = app
        self.startup = startup
        self.amounts = amounts
        self.graded = graded

    def split_alt(self, event: events.Key) -> list[events.Key]:
        """``esc`` and a key typed within the terminal's escape delay (~50 ms) arrive as one
        key: ``alt+letter``, or what Textual reads ``ESC b``, ``ESC f`` and ``ESC digit`` as
        (word moves, macOS option glyphs). Unless the screen binds it, it is the two keys."""
        key = event.key
        following = ESC_READINGS.get(event.character or "") or ESC_READINGS.get(key)
        if following is None and key.startswith("alt+"):
            letter = key.removeprefix("alt+")
            following = letter.removeprefix("shift+").upper() if letter.startswith("shift+") else letter
        # The screen's bindings asked only for such a key: building them checks every action.
        if following is None or len(following) != 1 or key in self.app.screen.active_bindings:
            return [event]
        return [events.Key("escape", "\x1b"), events.Key(following, following)]

    async def route(self, event: events.Key) -> bool:
        """One key to the screen it was typed for (False: left to Textual)."""
        app = self.app
        screen = app.screen
        if event.key == "ctrl+q":
            # Here, not only as a binding: a modal screen (enrolment, sign-in) does not
            # see the app's bindings, and the way out must work from every screen.
            app.action_quit_table()
            return True
        if screen is app.table_screen and not app.duty_confirmed and event.key not in UNLOCKED_KEYS:
            self.startup.confirm_on_duty(event, self.route)
            return True
        if screen is app.table_screen:
            # One frame for the whole of a key's effect: each widget hands its redraw to the
            # screen from its own message queue, after the key's action returned, and a screen
            # tick between two of them drew the rest a tick (16.7 ms) later (the key bar after
            # an opened entry: ~30 ms). No repaint until every widget has had its turn once.
            with app.batch_update():
                await self._in_order(event, lambda: self._table_key(event), app.unbound_key)
                await asyncio.sleep(0)
            return True
        from tui_common.screens.form import FormScreen  # not on a launch's path (TableApp.PRELOAD)

        if isinstance(screen, FormScreen):
            await self._in_order(event, lambda: screen.take_key(event.key, event.character))
            return True
        return False

    async def _table_key(self, event: events.Key) -> bool:
        """A key the table screen's open question or amount entry takes."""
        return self.graded.key(event.key, event.character) or self.amounts.key(event.key, event.character)

    async def _in_order(
        self,
        event: events.Key,
        take: Callable[[], Awaitable[bool]],
        unbound: Callable[[str, str | None], None] | None = None,
    ) -> None:
        """One key, finished (engine command, journal, redraw) before the next is read:
        a priority binding, else the screen's own taker ``take`` (an entry, a field), else the
        binding allowed now, else ``unbound``."""
        bindings = self.app.screen.active_bindings
        active = bindings.get(event.key)
        if active is None and len(event.key) == 1 and event.key.isupper():
            active = bindings.get(event.key.lower())
        allowed = active if active is not None and active.enabled else None
        if allowed is not None and allowed.binding.priority:
            await self.app.run_action(allowed.binding.action, allowed.node)
        elif await take():
            return
        elif allowed is not None:
            await self.app.run_action(allowed.binding.action, allowed.node)
        elif unbound is not None:
            unbound(event.key, event.character)
