"""Amount entry: digits (``,`` for cents), ``backspace`` erases one; the app's ``enter`` and
``esc`` bindings place or cancel it."""

from __future__ import annotations

from decimal import Decimal
from enum import Enum, auto
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive

from tui_common.i18n import t
from tui_common.widgets.unscrolled import Unscrolled


class AmountKey(Enum):
    """What a key did to an open amount entry."""

    TYPED = auto()
    """A digit, the decimal comma or backspace."""
    SUBMITTED = auto()
    """The digit of a one-digit entry: the app places ``amount`` for ``tag`` as on enter, and
    closes the entry with ``close()`` once the engine accepted it (a refused amount stays
    typed to be fixed)."""


class AmountEntry(Unscrolled, can_focus=False):
    """An inline amount field the app opens with ``start(label, tag)``.

    The app hands it each key with ``press``: digits, ``,``/``.`` (cents) and ``backspace``
    are its own; any other key is left for the app's bindings (``enter`` places the amount,
    ``esc`` cancels it).
    """

    DEFAULT_CSS = """
    AmountEntry { height: 1; width: auto; min-width: 20; padding: 0 1; display: none; }
    AmountEntry:focus { background: $accent 30%; }
    """

    # The field grows with what is typed (width: auto), but a layout pass of the whole screen
    # costs more than a frame: a typed digit lays it out only when the width changes
    # (``watch_text``), which it seldom does (the field keeps room for ``ROOM`` characters
    # after its label, and is at least its minimum width).
    ROOM = 5
    """Characters kept for the typed amount («12050», «100,5» change no width); no more: a
    refusal beside the entry keeps its rows on a narrow screen (test_narrow_screen_tui)."""
    text: reactive[str] = reactive("")
    label: reactive[str] = reactive("")

    def __init__(self, lang: str = "es", *, max_digits: int = 9, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lang = lang
        self.max_digits = max_digits
        self.tag: Any = None
        self.single_digit = False
        """One digit is the whole amount (Jackpot credits, 1 to 5): the digit submits it."""

    @property
    def is_open(self) -> bool:
        return self.display

    def start(self, label: str, tag: Any = None, initial: str = "", *, single_digit: bool = False) -> None:
        """Open the entry for ``tag`` (whatever the app needs to know what the amount is for)."""
        self.tag = tag
        self.single_digit = single_digit
        self.label = label
        self.text = initial
        # Focused only to look focused (keys reach it through the app's ``press``); an inline
        # style, not a class: the widget must be displayed at once to take focus.
        self.display = True
        self.can_focus = True
        self.screen.set_focus(self)

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
        return self._shown(self.text)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self._width(self.text, self.label)

    def _width(self, text: str, label: str) -> int:
        """The content's width with ``text`` typed after ``label``, and room for the amount."""
        shown = self._shown(text, label).cell_len
        return shown + max(0, self.ROOM - cell_len(text))

    def _shown(self, text: str, label: str | None = None) -> Text:
        label = (self.label if label is None else label) or t("amount_prompt", self.lang)
        out = Text(f"{label}: ", style="bold")
        out.append(text, style="reverse" if not text else "bold")
        out.append("▏")
        return out

    def watch_text(self, old: str, new: str) -> None:
        self._resize(self._width(old, self.label), self._width(new, self.label))

    def watch_label(self, old: str, new: str) -> None:
        # Another bet of the open entry («Ante» → «Bonus»): laid out only if its width changes.
        self._resize(self._width(self.text, old), self._width(self.text, new))

    def _resize(self, before: int, after: int) -> None:
        """Lay the screen out only if the field's width changes: it is as wide as its content
        or its minimum width, whichever is more; while the minimum holds it, it changes only if
        the content outgrows it; while the content sets it, any change of its width does."""
        width = self.content_size.width
        if not width or after > width or (after < width <= before):
            self.refresh(layout=True)

    def press(self, key: str, character: str | None) -> AmountKey | None:
        """Take one key while open; None when it is not the entry's key (it goes to the bindings)."""
        if not self.is_open:
            return None
        if character is not None and character.isdigit() and self.single_digit:
            self.text = character
            return AmountKey.SUBMITTED
        if character is not None and character.isdigit():
            if len(self.text.replace(",", "")) < self.max_digits:
                self.text += character
        elif key in ("comma", "full_stop") and self.text and "," not in self.text:
            self.text += ","
        elif key == "backspace":
            self.text = self.text[:-1]
        else:
            return None
        return AmountKey.TYPED
