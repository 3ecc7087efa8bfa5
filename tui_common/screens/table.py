"""What both consoles' table screens share."""

from __future__ import annotations

from textual import events
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget


class TableScreenBase(Screen[None]):
    """A table screen whose focus moves without repainting the whole screen, and whose first
    resume does not style it twice.

    Textual's ``Screen.focused`` repaints every widget when it changes; at a table it changes
    when an amount or card entry opens or closes, and the widget that gains or loses focus
    restyles itself anyway (``:focus``). The whole-screen repaint was a second frame after the
    key's own, ~3 ms later (issue 32).
    """

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)

    _resumed = False

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # Textual restyles a screen's every widget when it resumes, the first time too: just
        # after each widget was styled as it mounted (~6 ms of a launch, issue 32).
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False
        super()._on_screen_resume(event)
