"""What both consoles' table screens share."""

from __future__ import annotations

from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget


class TableScreenBase(Screen[None]):
    """A table screen whose focus moves without repainting the whole screen.

    Textual's ``Screen.focused`` repaints every widget when it changes; at a table it changes
    when an amount or card entry opens or closes, and the widget that gains or loses focus
    restyles itself anyway (``:focus``). The whole-screen repaint was a second frame after the
    key's own, ~3 ms later (issue 32).
    """

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
