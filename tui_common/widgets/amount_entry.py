"""Amount entry: digits, then ``enter``; ``esc`` cancels; ``backspace`` erases a digit."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from tui_common.i18n import t


class AmountEntry(Widget, can_focus=False):
    """An inline amount field the app opens with ``start(label, tag)``.

    While focused it consumes digits, ``,``/``.`` (cents), ``backspace``, ``enter`` and
    ``esc``; every other key bubbles to the app's bindings. ``enter`` posts
    ``AmountEntry.Submitted(amount, tag)`` but does NOT close the entry: the app closes it
    with ``close()`` once the engine accepted the amount, so a refused amount stays typed
    for the croupier to fix. ``esc`` closes it and posts ``Cancelled(tag)``.
    """

    DEFAULT_CSS = """
    AmountEntry { height: 1; width: auto; min-width: 20; padding: 0 1; display: none; }
    AmountEntry:focus { background: $accent 30%; }
    """

    class Submitted(Message):
        def __init__(self, entry: AmountEntry, amount: Decimal, tag: Any) -> None:
            super().__init__()
            self.entry = entry
            self.amount = amount
            self.tag = tag

    class Cancelled(Message):
        def __init__(self, entry: AmountEntry, tag: Any) -> None:
            super().__init__()
            self.entry = entry
            self.tag = tag

    # layout=True: the field grows with what is typed (width: auto).
    text: reactive[str] = reactive("", layout=True)
    label: reactive[str] = reactive("", layout=True)

    def __init__(self, lang: str = "es", *, max_digits: int = 9, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lang = lang
        self.max_digits = max_digits
        self.tag: Any = None

    @property
    def is_open(self) -> bool:
        return self.display

    def start(self, label: str, tag: Any = None, initial: str = "") -> None:
        """Open the entry for ``tag`` (whatever the app needs to know what the amount is for)."""
        self.tag = tag
        self.label = label
        self.text = initial
        # An inline style, not a class: the widget must be displayed at once to take focus.
        self.display = True
        self.can_focus = True
        self.focus()

    def close(self) -> None:
        # Closed, it can take no focus: a screen's auto-focus must never land on it.
        self.display = False
        self.can_focus = False
        self.text = ""
        self.tag = None
        if self.has_focus:
            self.screen.set_focus(None)

    @property
    def amount(self) -> Decimal | None:
        if not self.text:
            return None
        return Decimal(self.text.replace(",", "."))

    def render(self) -> Text:
        label = self.label or t("amount_prompt", self.lang)
        out = Text(f"{label}: ", style="bold")
        out.append(self.text or "", style="reverse" if not self.text else "bold")
        out.append("▏")
        return out

    def on_key(self, event: events.Key) -> None:
        key, char = event.key, event.character
        if not self.is_open:
            return
        if char is not None and char.isdigit():
            if len(self.text.replace(",", "")) < self.max_digits:
                self.text += char
        elif key in ("comma", "full_stop") and self.text and "," not in self.text:
            self.text += ","
        elif key == "backspace":
            self.text = self.text[:-1]
        elif key == "enter":
            amount = self.amount
            if amount is not None:
                self.post_message(self.Submitted(self, amount, self.tag))
        elif key == "escape":
            tag = self.tag
            self.close()
            self.post_message(self.Cancelled(self, tag))
        else:
            return
        event.stop()
        event.prevent_default()
