"""What both consoles' table screens share."""

from __future__ import annotations

import time

from textual import events
from textual.geometry import Region
from textual.reactive import Reactive
from textual.screen import UPDATE_PERIOD, Screen
from textual.strip import Strip
from textual.widget import Widget

from tui_common import textual_classes  # noqa: F401  (sets up the classes below from their parents')


class BlankRows:
    """A widget whose rows are all one blank row, its background: the table screen, and each
    band of widgets on it. Textual draws each row through its style machinery (~0.1 ms a row:
    a launch drew the screen's 40 and its bands' 19, ~11 M instructions, issue 32); here one
    row is drawn so and repeated. For a widget without border, outline, padding or content of
    its own (``tests/test_drawn_lines.py`` compares both drawings)."""

    def render_lines(self, crop: Region) -> list[Strip]:
        if not crop.height:
            return []
        return super().render_lines(crop._replace(height=1)) * crop.height  # type: ignore[misc,no-any-return]


class Band(BlankRows, Widget):
    """Widgets side by side (``layout: horizontal``, as Textual's ``Horizontal``) or stacked, as
    its CSS lays them out; they cover it."""

    DEFAULT_CSS = """
    Band { width: 1fr; height: auto; layout: horizontal; overflow: hidden hidden; }
    """


class TableScreenBase(BlankRows, Screen[None]):
    """A table screen whose focus moves without repainting the whole screen, whose first
    resume does not style it twice, and which draws a key's frame as soon as the key is done.

    Textual's ``Screen.focused`` repaints every widget when it changes; at a table it changes
    when an amount or card entry opens or closes, and the widget that gains or loses focus
    restyles itself anyway (``:focus``). The whole-screen repaint was a second frame after the
    key's own, ~3 ms later (issue 32).
    """

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    _resumed = False
    _drawn_at = 0.0  # when the screen last drew (time.monotonic)

    async def _on_idle(self, event: events.Idle) -> None:
        # Textual draws a changed screen at its update timer's next tick. Once woken, that timer
        # ticks on a 60 Hz grid one to two frames after its last tick, so a key read 20 ms after
        # the last frame waited up to 13 ms with its work done (issue 32). Here the frame is
        # drawn at once when a whole frame has passed since the last: still at most 60 a second.
        if self._changed() and time.monotonic() - self._drawn_at >= UPDATE_PERIOD:
            self._on_timer_update()
        await super()._on_idle(event)

    def _changed(self) -> bool:
        """Whether the screen has a change to draw and may draw it now (Textual's test)."""
        return not self.app._batch_count and self.is_current and bool(
            self._layout_required or self._scroll_required or self._repaint_required
            or self._recompose_required or self._dirty_widgets)

    def _on_timer_update(self) -> None:
        if self._changed():
            self._drawn_at = time.monotonic()
        super()._on_timer_update()

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual restyles a screen's every widget when it resumes, the first time too: just
        # after each widget was styled as it mounted (~6 ms of a launch, issue 32).
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False
        super()._on_screen_resume(event)
